/**
 * What a page sends the browser in each language (decision 031), against the
 * production build: only the reader's language, only the namespaces the page
 * uses, cached by hash; no page shows a raw translation key, in English or in
 * Hausa, whatever state it is in (form errors, toasts, notifications); the
 * landing page and /movies bring no player and /movies no carousel; no page
 * brings i18next or react-i18next (decision 035).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPageAssets, type PageAssets } from "../../bench/page-assets";
import { resources } from "~/i18n/catalogues.server";
import { LANGUAGES, NAMESPACES, type Language } from "~/i18n/config";
import { eq } from "drizzle-orm";
import { movies, notifications, seasons, series, subtitles } from "~/db/schema";
import { AUDIT_ACTIONS } from "~/services/audit.server";
import { call, login, nextAddress, seedAccount, seedMovie, startApiWorld, uniqueId } from "./helpers";
import type { ApiWorld } from "./helpers";

let world: ApiWorld;
const cookies: Record<"viewer" | "provider" | "admin", string> = { viewer: "", provider: "", admin: "" };
let movieId = "";
let episodeId = "";

beforeAll(async () => {
  world = await startApiWorld("page-translations");
  const viewer = seedAccount(world, "viewer");
  const provider = seedAccount(world, "provider");
  const admin = seedAccount(world, "admin");
  movieId = (await seedMovie(world, provider.id, { withFiles: true, name: "Ruwan Dare" })).id;
  // An episode of an approved series: its watch page names its series, season and number.
  episodeId = (await seedMovie(world, provider.id, { withFiles: true, name: "Kashi Na Farko" })).id;
  const film = world.db.select({ categoryId: movies.categoryId }).from(movies).where(eq(movies.id, movieId)).get()!;
  world.db
    .insert(series)
    .values({
      id: "pageseries01",
      name: "Gidan Haya",
      categoryId: film.categoryId,
      providerId: provider.id,
      approved: true,
    })
    .run();
  world.db.insert(seasons).values({ id: "pageseason01", seriesId: "pageseries01", number: 1 }).run();
  world.db.update(movies).set({ seasonId: "pageseason01", episodeNumber: 1 }).where(eq(movies.id, episodeId)).run();
  // One notification of each kind the bell shows, whose keys live in two other namespaces.
  world.db
    .insert(notifications)
    .values([
      {
        id: uniqueId("nt"),
        accountId: viewer.id,
        kind: "new_title",
        messageKey: "browse:notifications.newInCategory",
        messageValues: { title: "Ruwan Dare", category: "Drama" },
        movieId,
      },
      {
        id: uniqueId("nt"),
        accountId: viewer.id,
        kind: "pass_ending",
        messageKey: "billing:notifications.passEnding",
        messageValues: { plan: "PRO", date: "1 January" },
      },
    ])
    .run();
  cookies.viewer = (await login(world, viewer)).cookie;
  cookies.provider = (await login(world, provider)).cookie;
  cookies.admin = (await login(world, admin)).cookie;
});

afterAll(async () => {
  await world?.stop();
});

function languageCookie(language: Language): string {
  return `kallo_lang=${Buffer.from(JSON.stringify(language)).toString("base64")}`;
}

function headersFor(language: Language, session = ""): Record<string, string> {
  return { Cookie: [languageCookie(language), session].filter(Boolean).join("; "), "X-Forwarded-For": nextAddress() };
}

type Tree = { [key: string]: string | Tree };
function leaves(tree: Tree, prefix = ""): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

/**
 * Sentences of one language that the other does not share: long enough to be
 * unmistakable, as they would appear in a script (esbuild writes non-ASCII as
 * \u escapes) or in a JSON file.
 */
function distinctiveTexts(language: Language): string[] {
  const other = language === "en" ? "ha" : "en";
  const otherTexts = new Set(
    NAMESPACES.flatMap((namespace) => leaves(resources[other][namespace] as Tree)).map(([, text]) => text),
  );
  return NAMESPACES.flatMap((namespace) => leaves(resources[language][namespace] as Tree))
    .map(([, text]) => text)
    .filter((text) => text.length >= 24 && !text.includes("{{") && !/["\\]/.test(text) && !otherTexts.has(text));
}

function escapedForms(text: string): string[] {
  const ascii = text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return [...new Set([text, ascii])];
}

function everythingLoaded(assets: PageAssets): Array<[string, string]> {
  return [
    ...assets.scripts.entries(),
    ...assets.lazyScripts.entries(),
    ...assets.translations.entries(),
    ...assets.inlineScripts.map((body, index) => [`inline script ${index}`, body] as [string, string]),
  ];
}

/** A text only the watch page's player has (stream-player.client.ts). */
const HLS_MARK = "no playable variant";
const CAROUSEL_MARK = "containScroll";

describe("a page's bundle", () => {
  const pages = [
    { path: "/", session: () => "" },
    { path: "/movies", session: () => cookies.viewer },
    { path: "/WatchMovie?id=", session: () => cookies.viewer },
  ];
  const hausa = distinctiveTexts("ha");
  const english = distinctiveTexts("en");

  it("has sentences to look for in both languages", () => {
    expect(hausa.length).toBeGreaterThan(100);
    expect(english.length).toBeGreaterThan(100);
    expect(hausa).toContain("Tsallaka zuwa abin da ke ciki");
  });

  for (const page of pages) {
    for (const language of LANGUAGES) {
      it(`${page.path} in ${language === "en" ? "English" : "Hausa"} carries that language only`, async () => {
        const path = page.path.endsWith("=") ? `${page.path}${movieId}` : page.path;
        const assets = await loadPageAssets(`${world.url}${path}`, headersFor(language, page.session()));
        const files = [...assets.translations.keys()];
        expect(files.length).toBeGreaterThan(0);
        for (const file of files) expect(file).toMatch(new RegExp(`^/locales/${language}/[a-z]+\\.[0-9a-f]+\\.json$`));
        expect(files.some((file) => file.startsWith(`/locales/${language}/common.`))).toBe(true);

        const sentencesIn = (texts: string[]) =>
          everythingLoaded(assets).flatMap(([where, body]) =>
            texts
              .filter((text) => escapedForms(text).some((form) => body.includes(form)))
              .map((text) => `${where}: ${text}`),
          );
        expect(sentencesIn(language === "en" ? hausa : english)).toEqual([]);
        // The same search finds the page's own language (its translation files are in what it loaded).
        expect(sentencesIn(language === "en" ? english : hausa).length).toBeGreaterThan(5);
        const common = [...assets.translations.entries()].find(([file]) => file.includes("/common."))![1];
        expect(JSON.parse(common).skipToContent).toBe(resources[language].common.skipToContent);
      });
    }
  }

  it("of a watch page carries only what it shows: series texts for an episode, plans' periods when a pass is needed, the subtitles menu's texts when there are subtitles", async () => {
    const namespacesOf = async (id: string) =>
      [
        ...(
          await loadPageAssets(`${world.url}/WatchMovie?id=${id}`, headersFor("en", cookies.viewer))
        ).translations.keys(),
      ]
        .map((file) => /^\/locales\/en\/([a-z]+)\./.exec(file)?.[1])
        .sort();
    const film = await namespacesOf(movieId);
    expect(film).toContain("watch");
    for (const absent of ["series", "billing", "subtitles"]) expect(film).not.toContain(absent);
    expect(await namespacesOf(episodeId)).toEqual([...film, "series"].sort());

    // A Premium title for a viewer on the Free plan: the pass panel lists the plans with their periods.
    const provider = world.db.select({ id: movies.providerId }).from(movies).where(eq(movies.id, movieId)).get()!;
    const premium = (await seedMovie(world, provider.id, { withFiles: true, name: "Sarauta", access: "premium" })).id;
    const needsPass = await loadPageAssets(`${world.url}/WatchMovie?id=${premium}`, headersFor("en", cookies.viewer));
    expect(needsPass.html).toContain('data-testid="needs-pass"');
    expect(needsPass.html).toContain(resources.en.watch.pass.needsPassTitle);
    expect([...needsPass.translations.keys()].some((file) => file.includes("/billing."))).toBe(true);

    // Subtitles in one language: the menu and its texts.
    world.db.insert(subtitles).values({ movieId, language: "ha", label: "Hausa", sizeBytes: 10 }).run();
    const subtitled = await namespacesOf(movieId);
    world.db.delete(subtitles).where(eq(subtitles.movieId, movieId)).run();
    expect(subtitled).toEqual([...film, "subtitles"].sort());
  });

  it("of the landing page and /movies brings no player; /movies no carousel; the watch page the player only when needed", async () => {
    const landing = await loadPageAssets(`${world.url}/`, headersFor("en"));
    const movies = await loadPageAssets(`${world.url}/movies`, headersFor("en", cookies.viewer));
    const watch = await loadPageAssets(`${world.url}/WatchMovie?id=${movieId}`, headersFor("en", cookies.viewer));
    const has = (assets: PageAssets, mark: string, which: "scripts" | "lazyScripts") =>
      [...assets[which].values()].some((source) => source.includes(mark));

    expect(has(landing, HLS_MARK, "scripts") || has(landing, HLS_MARK, "lazyScripts")).toBe(false);
    expect(has(movies, HLS_MARK, "scripts") || has(movies, HLS_MARK, "lazyScripts")).toBe(false);
    expect(has(movies, CAROUSEL_MARK, "scripts")).toBe(false);
    // The marks are real: the carousel is a chunk the landing page imports once it has hydrated (not before
    // it can run), the player a chunk the watch page imports when needed.
    expect(has(landing, CAROUSEL_MARK, "scripts")).toBe(false);
    expect(has(landing, CAROUSEL_MARK, "lazyScripts")).toBe(true);
    expect(has(watch, HLS_MARK, "scripts")).toBe(false);
    expect(has(watch, HLS_MARK, "lazyScripts")).toBe(true);
  });
});

describe("the browser's scripts", () => {
  it("have no file made only of .server modules (which are empty in the browser)", () => {
    // A component that takes a value from a .server module gets undefined in the browser, and the
    // empty module becomes one more file for every page that imports it: both show here.
    const metafile = JSON.parse(fs.readFileSync("build/metafile.js.json", "utf8")) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const scripts = Object.entries(metafile.outputs).filter(([file]) => file.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(20);
    const emptyOnly = scripts
      .filter(([, output]) => {
        const inputs = Object.keys(output.inputs);
        return inputs.length > 0 && inputs.every((input) => input.startsWith("empty-module:"));
      })
      .map(([file, output]) => `${file}: ${Object.keys(output.inputs).join(", ")}`);
    expect(emptyOnly).toEqual([]);
  });

  it("of the landing page are few files (each costs a round trip on a slow link)", async () => {
    const landing = await loadPageAssets(`${world.url}/`, headersFor("en"));
    expect(landing.scripts.size).toBeGreaterThan(3);
    // 18 until the Continue watching row (its row, its helpers, the poster's hook); decision 037.
    expect(landing.scripts.size).toBeLessThanOrEqual(21);
  });
});

/** Words in i18next's code that minifying keeps: its name (in its log prefixes, as in react-i18next's) and an option's. */
const I18NEXT_MARKS = [/i18next/i, /missingKeyNoValueFallbackToKey/];

describe("the translation runtime", () => {
  it("is our own: no page's scripts carry i18next or react-i18next", async () => {
    // The marks are real: i18next's own code (a devDependency, for the translator's tests) has them.
    const i18nextCode = fs.readFileSync(createRequire(import.meta.url).resolve("i18next"), "utf8");
    expect(I18NEXT_MARKS.filter((mark) => mark.test(i18nextCode))).toEqual(I18NEXT_MARKS);

    for (const [path, session] of [
      ["/", ""],
      ["/movies", cookies.viewer],
      [`/WatchMovie?id=${movieId}`, cookies.viewer],
      ["/help", ""],
    ] as const) {
      for (const language of LANGUAGES) {
        const assets = await loadPageAssets(`${world.url}${path}`, headersFor(language, session));
        expect(assets.scripts.size).toBeGreaterThan(5);
        const carrying = [
          ...assets.scripts.entries(),
          ...assets.lazyScripts.entries(),
          ...assets.inlineScripts.map((body, index) => [`inline script ${index}`, body] as [string, string]),
        ].flatMap(([where, body]) =>
          I18NEXT_MARKS.filter((mark) => mark.test(body)).map((mark) => `${where}: ${mark}`),
        );
        expect(carrying, `${path} in ${language}`).toEqual([]);
      }
    }
  });
});

describe("the translation files", () => {
  it("are named by hash and cached for a year; an old hash gets today's text, never cached; others are 404", async () => {
    const assets = await loadPageAssets(`${world.url}/`, headersFor("ha"));
    const file = [...assets.translations.keys()].find((url) => url.startsWith("/locales/ha/common."))!;
    const current = await call(world, file);
    expect(current.status).toBe(200);
    expect(current.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(current.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(JSON.parse(current.text)).toEqual(resources.ha.common);

    const stale = await call(world, "/locales/ha/common.0123456789.json");
    expect(stale.status).toBe(200);
    expect(stale.headers.get("Cache-Control")).toBe("no-store");
    expect(JSON.parse(stale.text)).toEqual(resources.ha.common);

    for (const missing of [
      "/locales/fr/common.0123456789.json",
      "/locales/en/secrets.0123456789.json",
      "/locales/en/common.json",
      "/locales/en/..%2Fcommon.0123456789.json",
    ]) {
      expect((await call(world, missing)).status, missing).toBe(404);
    }
  });
});

/**
 * What a page shows when it has no text for a key: the key itself
 * ("errors.tooMany", or "watch:errors.tooMany" with its namespace). A piece of
 * a page looks like one when it is dotted words whose first word opens a
 * group of some catalogue — a key of a namespace the page lacks, or a key no
 * catalogue has.
 */
const GROUPS = new Set(NAMESPACES.flatMap((namespace) => Object.keys(resources.en[namespace])));
/** Dotted words that are content, not keys: the audit log shows its action codes as they are. */
const NOT_KEYS = new Set<string>(AUDIT_ACTIONS);
function looksLikeKey(piece: string): boolean {
  if (NOT_KEYS.has(piece)) return false;
  const match = /^(?:([a-z]+):)?([a-zA-Z][a-zA-Z0-9_]*)(?:\.[a-zA-Z0-9_]+)+$/.exec(piece);
  return (
    match !== null &&
    (match[1] === undefined || (NAMESPACES as readonly string[]).includes(match[1])) &&
    GROUPS.has(match[2])
  );
}

/** Text and attribute values of a page (not its scripts) that are raw keys. */
function rawKeysIn(html: string): string[] {
  const visible = html.replace(/<script\b[\s\S]*?<\/script>/g, "").replace(/<style\b[\s\S]*?<\/style>/g, "");
  const pieces = [
    ...[...visible.matchAll(/>([^<]+)</g)].map((match) => match[1].trim()),
    ...[...visible.matchAll(/="([^"]*)"/g)].map((match) => match[1].trim()),
  ];
  return [...new Set(pieces.filter(looksLikeKey))];
}

async function page(
  path: string,
  language: Language,
  session: string,
  init: { form?: Record<string, string> } = {},
): Promise<{ status: number; html: string }> {
  const result = await call(world, path, {
    cookie: [languageCookie(language), session].filter(Boolean).join("; "),
    form: init.form,
    headers: { Accept: "text/html" },
  });
  return { status: result.status, html: result.text };
}

describe("every page in both languages", () => {
  const pagesByRole: Record<"public" | "viewer" | "provider" | "admin", string[]> = {
    public: [
      "/",
      "/about",
      "/terms",
      "/plans",
      "/privacy",
      "/security",
      "/help",
      "/download",
      "/login",
      "/register",
      "/reset",
      "/cp",
      "/ContentproviderPage",
      "/offline",
      "/no-such-page",
    ],
    viewer: [
      "/movies",
      "/WatchMovie?id=",
      "/moviecategory",
      "/history",
      "/watch-later",
      "/saved",
      "/profile",
      "/editprofile",
      "/payment",
      "/notifications",
      "/downloads",
    ],
    provider: [
      "/provider/Movieupload",
      "/provider/movielist",
      "/provider/profile",
      "/provider/payment",
      "/provider/recentlywatched",
      "/provider/watchlater",
      "/provider/savedvideo",
    ],
    admin: [
      "/admin/providerslist",
      "/admin/userlist",
      "/admin/moviecategory",
      "/admin/movies",
      "/admin/registercontentprovider",
      "/admin/Selectplan",
      "/admin/userpayment",
      "/admin/audit",
    ],
  };

  for (const [role, paths] of Object.entries(pagesByRole) as Array<[keyof typeof pagesByRole, string[]]>) {
    it(`shows no raw key on the ${role} pages, and Hausa differs from English`, async () => {
      const session = role === "public" ? "" : cookies[role];
      for (const listed of paths) {
        const path = listed.endsWith("=") ? `${listed}${movieId}` : listed;
        const [en, ha] = await Promise.all([page(path, "en", session), page(path, "ha", session)]);
        expect(en.status, path).toBe(path === "/no-such-page" ? 404 : 200);
        expect(rawKeysIn(en.html), `${path} in English`).toEqual([]);
        expect(rawKeysIn(ha.html), `${path} in Hausa`).toEqual([]);
        expect(ha.html).toContain('<html lang="ha"');
        expect(ha.html).toContain(resources.ha.common.skipToContent);
        expect(en.html).toContain(resources.en.common.skipToContent);
      }
    });
  }

  it("without a card gateway, /payment says how to get a voucher and offers no choice without a button", async () => {
    for (const language of LANGUAGES) {
      const payment = await page("/payment", language, cookies.viewer);
      expect(payment.status).toBe(200);
      expect(payment.html).toContain('data-testid="card-unavailable"');
      expect(payment.html).toContain("care@kallo.local");
      expect(payment.html).toContain(resources[language].billing.buy.toVoucher);
      expect(payment.html).not.toContain('name="period"');
      expect(payment.html).not.toContain('data-testid="payment-channels"');
    }
  });

  it("shows the messages of forms, notifications and toasts from other namespaces as text", async () => {
    for (const language of LANGUAGES) {
      // Field and form errors that services and actions return as keys.
      const register = await page("/register", language, "", { form: { name: "", email: "nope", password: "x" } });
      expect(register.status).toBe(400);
      expect(rawKeysIn(register.html), `register errors in ${language}`).toEqual([]);
      expect(register.html).toContain(resources[language].auth.validation.emailInvalid);

      const payment = await page("/payment", language, cookies.viewer, { form: { intent: "redeem", code: " " } });
      expect(payment.status).toBe(400);
      expect(rawKeysIn(payment.html), `voucher errors in ${language}`).toEqual([]);
      expect(payment.html).toContain(resources[language].billing.redeem.errors.required);

      const comment = await page(`/WatchMovie?id=${movieId}`, language, cookies.viewer, {
        form: { intent: "comment", body: "" },
      });
      expect(comment.status).toBe(400);
      expect(rawKeysIn(comment.html), `comment errors in ${language}`).toEqual([]);

      // Notifications keep keys of the browse and billing namespaces.
      const bell = await page("/notifications", language, cookies.viewer);
      expect(rawKeysIn(bell.html)).toEqual([]);
      expect(bell.html).toContain(resources[language].browse.notifications.newInCategory.split("{{")[0]);

      // A toast from the watch page's namespace, flashed onto the landing page.
      const switched = await call(world, "/data-saver", {
        cookie: [languageCookie(language), cookies.viewer].join("; "),
        form: { dataSaver: "on", redirectTo: "/" },
      });
      expect(switched.status).toBe(303);
      const toast = switched.headers
        .getSetCookie()
        .map((value) => value.split(";")[0])
        .filter((value) => !value.startsWith("kallo_session="));
      const landing = await page("/", language, [cookies.viewer, ...toast].join("; "));
      expect(landing.html).toContain(resources[language].watch.dataSaver.turnedOn);
      expect(landing.html).toMatch(new RegExp(`/locales/${language}/watch\\.[0-9a-f]+\\.json`));
    }
  });
});

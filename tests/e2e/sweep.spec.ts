import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import {
  comments,
  movies,
  notifications,
  passwordResets,
  phoneCodes,
  savedMovies,
  seasons,
  series,
  watchEvents,
} from "../../app/db/schema";
import { hashResetToken } from "../../app/services/password-reset.server";
import { formatVoucherCode, generateVoucherBatch, redeemVoucher } from "../../app/services/vouchers.server";
import { createId } from "../../app/utils/ids.server";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import {
  blockByEmail,
  createAdmin,
  createApprovedProvider,
  createViewer,
  signInThroughForm,
} from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle } from "./fixtures/titles";
import { lookAtPage, openHeaderMenus, translationKeys } from "./fixtures/sweep-checks";
import {
  pageRoutesOfApp,
  SWEEP_PAGES,
  SWEEP_ROLES,
  type SweepIds,
  type SweepPage,
  type SweepRole,
} from "./fixtures/sweep-pages";

/**
 * The page sweep: every page, for every kind of person who may see it, in
 * English and in Hausa on a 360×740 phone (in Hausa only without JavaScript) and in Hausa on a 1280×800 screen, against the
 * production build — with JavaScript, then without (on the phone). It fails on what a person
 * would see go wrong: a page error, a console error or React warning (a
 * hydration mismatch included), an answer of 500 or more or a 4xx the page did
 * not ask for, a page wider than the screen, a control covered where a finger
 * lands on it, a menu of the top bar that opens off the screen, a translation
 * key shown instead of words. With JavaScript it also does each page's safe
 * main action (switch a tab, open a menu, search) and looks again. Without
 * JavaScript it looks, on the phone, at the answer, the width, the words, the
 * top bar's menus and covered controls.
 *
 * Lean by design: one browser per run, one sign-in per person shared by every
 * context (storage state), several pages at once.
 */

const LANGUAGES = ["en", "ha"] as const;
/**
 * The phone with JavaScript in both languages; the desktop, and the phone without JavaScript, in Hausa
 * only: the same markup as English with longer words, so a layout that holds Hausa holds English, and a
 * missing English text shows on the phone with JavaScript (whose first paint is the server's page too).
 */
const languagesOf = (screen: (typeof SCREENS)[number], javaScriptEnabled: boolean) =>
  screen.name === "phone" && javaScriptEnabled ? LANGUAGES : (["ha"] as const);
const SCREENS = [
  { name: "phone", width: 360, height: 740 },
  { name: "desktop", width: 1280, height: 800 },
] as const;
/** Pages open at once: the machine's cores are shared with the server. */
const AT_ONCE = Number(process.env.SWEEP_PAGES_AT_ONCE ?? 3);
/** A zone far from West Africa's: a date formatted in the browser's own zone would differ from the server's. */
const BROWSER_TIME_ZONE = "America/Los_Angeles";

type People = Record<
  SweepRole,
  { account: TestAccount | null; storageState?: Awaited<ReturnType<BrowserContext["storageState"]>> }
>;

function clientAddress(): string {
  return `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;
}

/** The people, their sign-ins and the rows their pages show (history, lists, comments, a pass, a series). */
async function prepare(browser: Browser): Promise<{ people: People; ids: SweepIds }> {
  const db = e2eDb();
  const [viewer, viewerWithPass, provider, admin, blocked] = [
    await createViewer("sweep"),
    await createViewer("sweep-pass"),
    await createApprovedProvider("sweep"),
    await createAdmin("sweep"),
    await createViewer("sweep-blocked"),
  ];
  const category = createCategory("Sweep");
  const film = createTitle({
    name: "Sweep Fim",
    categoryId: category.id,
    providerId: provider.id,
    description: "A title the page sweep watches, comments on and keeps.",
    cast: "Ali Nuhu, Rahama Sadau",
    withMedia: true,
  });
  const providerFilm = createTitle({
    name: "Sweep Studio Fim",
    categoryId: category.id,
    providerId: provider.id,
    withMedia: true,
  });

  // The provider's own series with one season and one episode.
  const providerSeries = createId();
  db.insert(series)
    .values({ id: providerSeries, name: "Sweep Jerin", categoryId: category.id, providerId: provider.id })
    .run();
  const seasonId = createId();
  db.insert(seasons).values({ id: seasonId, seriesId: providerSeries, number: 1 }).run();
  const episodeOfProvider = createTitle({
    name: "Sweep Kashi",
    categoryId: category.id,
    providerId: provider.id,
    withMedia: true,
  });
  db.update(movies).set({ seasonId, episodeNumber: 1 }).where(eq(movies.id, episodeOfProvider)).run();

  // A published series with a second season (the demo's) and its first episode.
  const demoEpisode = db
    .select({ id: movies.id, seriesId: seasons.seriesId, seasonNumber: seasons.number })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .innerJoin(series, eq(series.id, seasons.seriesId))
    .where(
      and(eq(movies.approved, true), eq(movies.status, "ready"), isNotNull(movies.seasonId), eq(series.approved, true)),
    )
    .orderBy(asc(seasons.number), asc(movies.episodeNumber))
    .all()
    .filter((row, _, rows) => rows.some((other) => other.seriesId === row.seriesId && other.seasonNumber === 2))
    .find((row) => row.seriesId !== providerSeries)!;

  // What the viewers' pages show: viewings part-way (a film and an episode), lists, comments, a notification.
  const now = Date.now();
  for (const account of [viewer, viewerWithPass, admin]) {
    db.insert(watchEvents)
      .values([
        {
          id: createId(),
          accountId: account.id,
          movieId: film,
          startedAt: new Date(now - 60_000),
          updatedAt: new Date(now - 60_000),
          positionSeconds: 3,
        },
        {
          id: createId(),
          accountId: account.id,
          movieId: demoEpisode.id,
          startedAt: new Date(now - 30_000),
          updatedAt: new Date(now - 30_000),
          positionSeconds: 2,
        },
      ])
      .run();
    db.insert(savedMovies)
      .values([
        { accountId: account.id, profileId: account.id, movieId: film, list: "watch_later" },
        { accountId: account.id, profileId: account.id, movieId: film, list: "saved" },
      ])
      .run();
    db.insert(comments)
      .values({ id: createId(), movieId: film, accountId: account.id, body: "Fim mai kyau sosai." })
      .run();
    db.insert(notifications)
      .values({
        id: createId(),
        accountId: account.id,
        kind: "new_title",
        messageKey: "browse:notifications.newInCategory",
        messageValues: { title: "Sweep Fim", category: category.name },
        link: `/WatchMovie?id=${film}`,
        movieId: film,
      })
      .run();
  }

  // A pass from a voucher.
  const batch = generateVoucherBatch(
    db,
    {
      planId: "planbasic",
      period: "week",
      count: "1",
      expiresOn: new Date(now + 30 * 86_400_000).toISOString().slice(0, 10),
    },
    { actorId: admin.id },
  );
  if (!batch.ok) throw new Error(JSON.stringify(batch.fieldErrors));
  const redeemed = redeemVoucher(db, { accountId: viewerWithPass.id, code: formatVoucherCode(batch.codes[0]) });
  if (!redeemed.ok) throw new Error(`could not redeem: ${redeemed.reason}`);

  // A reset link for the signed-out pages (the viewer's: blocking an account ends its links).
  const resetToken = randomBytes(24).toString("base64url");
  db.insert(passwordResets)
    .values({
      id: createId(),
      accountId: viewer.id,
      tokenHash: hashResetToken(resetToken),
      expiresAt: new Date(now + 3_600_000),
    })
    .run();

  // Code pages as a phone sign-up and a reset by SMS leave them (their codes never sent: the pages only look).
  const codePage = (purpose: "sign_up" | "reset") => {
    const id = createId(24);
    db.insert(phoneCodes)
      .values({
        id,
        phone: "+2348030000001",
        purpose,
        codeHash: randomBytes(32).toString("hex"),
        network: "10.0.0.1",
        sentAt: new Date(now),
        expiresAt: new Date(now + 600_000),
      })
      .run();
    return id;
  };
  const signUpCode = codePage("sign_up");
  const resetCode = codePage("reset");

  // One sign-in per person; the blocked account signs in, then is blocked (its cookie stays in the browser).
  const people = { signedOut: { account: null } } as People;
  for (const [role, account] of [
    ["viewer", viewer],
    ["viewerWithPass", viewerWithPass],
    ["provider", provider],
    ["admin", admin],
    ["blocked", blocked],
  ] as const) {
    const context = await browser.newContext({
      baseURL: process.env.E2E_BASE_URL,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddress() },
    });
    const page = await context.newPage();
    const door = role === "provider" ? "/cp" : "/login";
    await signInThroughForm(page, door, account.email, account.password);
    await expect(page).not.toHaveURL(new RegExp(`${door}(\\?|$)`));
    people[role] = { account, storageState: await context.storageState() };
    await context.close();
  }
  blockByEmail(blocked.email);

  return {
    people,
    ids: {
      film,
      episode: demoEpisode.id,
      series: demoEpisode.seriesId,
      providerFilm,
      providerSeries,
      resetToken,
      signUpCode,
      resetCode,
    },
  };
}

type Combination = { role: SweepRole; language: (typeof LANGUAGES)[number]; screen: (typeof SCREENS)[number] };

type World = { people: People; ids: SweepIds; keys: string[] };

/** The people, their rows and sign-ins, made once per test worker and shared by its sweeps. */
const sweepTest = test.extend<object, { world: World }>({
  world: [
    async ({ browser }, provide) => {
      const [keys, prepared] = await Promise.all([translationKeys(), prepare(browser)]);
      await provide({ ...prepared, keys });
    },
    { scope: "worker", timeout: 120_000 },
  ],
});

/** One person's pages, in both languages on both screens; one browser context (one cache) per language and screen. */
async function sweepAs(
  browser: Browser,
  world: World,
  role: SweepRole,
  javaScriptEnabled: boolean,
  screen: (typeof SCREENS)[number],
) {
  const started = Date.now();
  const { people, ids, keys } = world;
  const problems: string[] = [];
  let visited = 0;

  /** What the listeners of a reused page report against: the visit under way. */
  type Visit = { where: string; url: string; expectedStatus: number };

  /** A tab reused from page to page (a new one per page would cost a renderer each time); its findings go to the visit under way. */
  async function openTab(context: BrowserContext) {
    const page = await context.newPage();
    // A control that cannot be clicked (covered, off the screen) is a finding, not a wait until the test's end.
    page.setDefaultTimeout(10_000);
    page.setDefaultNavigationTimeout(60_000);
    const tab = { page, visit: null as Visit | null };
    const note = (problem: string) => {
      if (!tab.visit) return;
      problems.push(`${tab.visit.where}: ${problem}`);
      if (process.env.SWEEP_VERBOSE) console.log(`[sweep] ${tab.visit.where}: ${problem}`);
    };
    page.on("pageerror", (error) => note(`page error: ${error.message.split("\n")[0]}`));
    page.on("console", (message) => {
      const text = message.text();
      if (message.location().url === tab.visit?.url && /Failed to load resource/.test(text)) return;
      if (message.type() === "error") note(`console error: ${text.slice(0, 300)}`);
      else if (message.type() === "warning" && /Warning:|\[i18n\]|hydrat|React/i.test(text))
        note(`console warning: ${text.slice(0, 300)}`);
    });
    page.on("response", (response) => {
      const status = response.status();
      if (status < 400) return;
      if (response.url() === tab.visit?.url && status === tab.visit.expectedStatus) return;
      note(`${status} from ${response.request().method()} ${response.url().replace(process.env.E2E_BASE_URL!, "")}`);
    });
    return { page, note, tab };
  }

  async function visit(
    { page, note, tab }: Awaited<ReturnType<typeof openTab>>,
    combination: Combination,
    entry: SweepPage,
  ) {
    const path = entry.path(ids);
    const where = `${path} [${combination.role}, ${combination.language}, ${combination.screen.width}px${javaScriptEnabled ? "" : ", no JS"}]`;
    const url = new URL(path, process.env.E2E_BASE_URL).href;
    const expectedStatus = entry.status ?? 200;
    tab.visit = { where, url, expectedStatus };
    try {
      visited++;
      // A page's own redirect at load (a signed-out visitor sent to sign in) may interrupt the first try.
      const response = await page.goto(path).catch((error: Error) => {
        if (!/interrupted by another navigation|ERR_ABORTED/.test(error.message)) throw error;
        return page.goto(path);
      });
      const status = response?.status() ?? 0;
      if (status !== expectedStatus) note(`answered ${status}, expected ${expectedStatus}`);
      if (javaScriptEnabled) await hydrated(page, note);
      // Without JavaScript the checks that matter are the answer, the width and the words; covered
      // controls are looked for on the phone only (where a top bar without its script could overlap).
      const covered = javaScriptEnabled || combination.screen.name === "phone";
      for (const problem of await lookAtPage(page, keys, { covered })) note(problem);
      for (const problem of await openHeaderMenus(page)) note(problem);
      if (!javaScriptEnabled) return;
      const actions = entry.actions ?? [];
      for (const [index, action] of actions.entries()) {
        tab.visit = { where: `${where} after "${action.name}"`, url, expectedStatus };
        try {
          await action.run(page);
          await settle(page);
          for (const problem of await lookAtPage(page, keys, { covered: true })) note(problem);
        } catch (error) {
          note(`could not ${action.name}: ${(error as Error).message.split("\n")[0]}`);
        }
        tab.visit = { where, url, expectedStatus };
        // Back to the page for the next action, unless this one stayed on it (a tab, a slide).
        const here = new URL(page.url());
        if (index < actions.length - 1 && `${here.origin}${here.pathname}${here.search}` !== url) {
          await page.goto(path);
          await hydrated(page, note);
        }
      }
    } catch (error) {
      note(`the visit failed: ${(error as Error).message.split("\n")[0]}`);
    }
  }

  for (const language of languagesOf(screen, javaScriptEnabled)) {
    const combination = { role, language, screen };
    const context = await browser.newContext({
      baseURL: process.env.E2E_BASE_URL,
      viewport: { width: screen.width, height: screen.height },
      locale: language === "ha" ? "ha-NG" : "en-GB",
      timezoneId: BROWSER_TIME_ZONE,
      javaScriptEnabled,
      serviceWorkers: "block",
      storageState: people[role].storageState,
      extraHTTPHeaders: { "X-Forwarded-For": clientAddress(), "Accept-Language": language },
    });
    const queue = SWEEP_PAGES.filter((entry) => entry.roles.includes(role));
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        const tab = await openTab(context);
        for (let entry = queue.shift(); entry; entry = queue.shift()) await visit(tab, combination, entry);
        tab.tab.visit = null;
      }),
    );
    await context.close();
  }
  return { problems, visited, seconds: Math.round((Date.now() - started) / 1000) };
}

/** Let what the page does right after loading or a click happen (lazy images, a fetcher) before looking. */
async function settle(page: Page) {
  await page.waitForLoadState("load");
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 150)));
}

/** React has taken the page over (its elements carry React's properties), and the page has settled. */
async function hydrated(page: Page, note: (problem: string) => void) {
  try {
    await page.waitForFunction(
      () => Object.keys(document.querySelector("main") ?? {}).some((name) => name.startsWith("__reactFiber")),
      null,
      { timeout: 20_000 },
    );
  } catch {
    note("the page's script never took it over (no hydration)");
  }
  await settle(page);
}

// The sweeps of each person run side by side with the other test files; none of them changes anything.
test.describe.configure({ mode: "parallel" });
// Hundreds of visits: a trace of them all would cost more than the visits.
test.use({ trace: "off" });

test("the sweep knows every page of the app (a new route file needs a line in fixtures/sweep-pages.ts)", () => {
  const swept = [...new Set(SWEEP_PAGES.map((entry) => entry.route))].sort();
  expect(swept, "pages of app/routes and pages of the sweep").toEqual(pageRoutesOfApp());
});

// With JavaScript on a phone and a desktop; without it on the phone only: the desktop's page without
// JavaScript is the same markup and CSS as with it, and its forms are the phone's (decision 045).
for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";
  for (const screen of javaScriptEnabled ? SCREENS : SCREENS.filter((each) => each.name === "phone")) {
    for (const role of SWEEP_ROLES) {
      const pages = SWEEP_PAGES.filter((entry) => entry.roles.includes(role)).length;
      sweepTest(
        `the sweep: every page ${role} may see (${pages}), in ${languagesOf(screen, javaScriptEnabled).length === 2 ? "English and Hausa" : "Hausa"}, on a ${screen.name} (${screen.width} px) — ${mode}`,
        async ({ browser, world }) => {
          test.setTimeout(15 * 60_000);
          const { problems, visited, seconds } = await sweepAs(browser, world, role, javaScriptEnabled, screen);
          console.log(
            `[sweep ${mode}] ${role}: ${pages} routes × ${languagesOf(screen, javaScriptEnabled).length} languages at ${screen.width} px = ${visited} page visits in ${seconds} s, ${problems.length} problems`,
          );
          expect(problems, `${problems.length} problems on ${visited} page visits`).toEqual([]);
        },
      );
    }
  }
}

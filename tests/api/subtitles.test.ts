import fs from "node:fs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plans, subtitles } from "~/db/schema";
import { movieSubtitlePath, storagePaths } from "~/media/storage.server";
import { SUBTITLE_MAX_BYTES } from "~/media/subtitle-files";
import { grantPass } from "~/services/passes.server";
import { call, login, seedAccount, seedMovie, startApiWorld } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * Subtitles over HTTP against the production build: the studio form
 * (multipart, as a browser without JavaScript sends it), who may change a
 * title's subtitles, who may read them, and how they are served.
 */
let world: ApiWorld;
let provider: Credentials;
let otherProvider: Credentials;
let viewer: Credentials;
let paidViewer: Credentials;
let freeTitle: string;
let premiumTitle: string;

const HAUSA_SRT = "1\r\n00:00:00,500 --> 00:00:01,500\r\n<font color=red>Ina ka je tun safe?</font>\r\n";

/** Enough cues to pass the server's compression threshold. */
function longSrt(cues: number): string {
  return Array.from({ length: cues }, (_, index) => {
    const start = index * 2;
    const time = (seconds: number) =>
      `00:${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")},000`;
    return `${index + 1}\n${time(start)} --> ${time(start + 1)}\nLayi na ${index + 1}: Zo ka zauna, an gama girki.\n`;
  }).join("\n");
}

function upload(
  movieId: string,
  who: Credentials | null,
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array | string },
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file)
    body.append(
      "file",
      new Blob([typeof file.bytes === "string" ? file.bytes : new Uint8Array(file.bytes)]),
      file.name,
    );
  return call(world, `/provider/subtitles?id=${movieId}`, {
    method: "POST",
    body,
    cookie: who?.cookie,
    origin: world.url,
    headers: { "Accept-Language": "en" },
  });
}

const rowsOf = (movieId: string) => world.db.select().from(subtitles).where(eq(subtitles.movieId, movieId)).all();

beforeAll(async () => {
  world = await startApiWorld("subtitles");
  [provider, otherProvider, viewer, paidViewer] = await Promise.all([
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "viewer")),
    login(world, seedAccount(world, "viewer")),
  ]);
  world.db
    .insert(plans)
    .values([
      { id: "planfree", code: "FREE", name: "Free" },
      { id: "planbasic", code: "BASIC", name: "Basic", premium: true },
    ])
    .onConflictDoNothing()
    .run();
  world.db.transaction((tx) =>
    grantPass(tx, { accountId: paidViewer.account.id, planId: "planbasic", days: 7, source: "admin" }),
  );
  freeTitle = (await seedMovie(world, provider.account.id)).id;
  premiumTitle = (await seedMovie(world, provider.account.id, { access: "premium" })).id;
});
afterAll(async () => {
  await world?.stop();
});

describe("a provider attaches subtitles to a title", () => {
  it("uploads SRT, which is stored as clean WebVTT, and the page lists it", async () => {
    const result = await upload(
      freeTitle,
      provider,
      { language: "ha", label: "" },
      { name: "ha.srt", bytes: HAUSA_SRT },
    );
    expect(result.status).toBe(303);
    expect(result.headers.get("Location")).toBe(`/provider/subtitles?id=${freeTitle}`);
    expect(rowsOf(freeTitle)).toMatchObject([{ language: "ha", label: "Hausa" }]);
    expect(fs.readFileSync(movieSubtitlePath(freeTitle, "ha", world.root), "utf8")).toBe(
      "WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nIna ka je tun safe?\n",
    );
    const page = await call(world, `/provider/subtitles?id=${freeTitle}`, { cookie: provider.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-subtitle-language="ha"');
  });

  it("takes any BCP 47 tag given as another language, and replaces a language's file", async () => {
    const first = await upload(
      freeTitle,
      provider,
      { language: "other", otherLanguage: "EN-gb", label: "English (UK)" },
      { name: "en.vtt", bytes: "WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n" },
    );
    expect(first.status).toBe(303);
    const second = await upload(
      freeTitle,
      provider,
      { language: "other", otherLanguage: "en-GB", label: "English (UK)" },
      { name: "en.vtt", bytes: "WEBVTT\n\n00:01.000 --> 00:02.000\nHello again\n" },
    );
    expect(second.status).toBe(303);
    const rows = rowsOf(freeTitle).filter((row) => row.language === "en-GB");
    expect(rows).toHaveLength(1);
    expect(fs.readFileSync(movieSubtitlePath(freeTitle, "en-GB", world.root), "utf8")).toContain("Hello again");
  });

  it("another provider is refused (403) and changes nothing; a viewer and a stranger are kept out", async () => {
    const before = rowsOf(freeTitle);
    const other = await upload(freeTitle, otherProvider, { language: "fr" }, { name: "fr.srt", bytes: HAUSA_SRT });
    expect(other.status).toBe(403);
    expect((await call(world, `/provider/subtitles?id=${freeTitle}`, { cookie: otherProvider.cookie })).status).toBe(
      403,
    );
    const deleteByOther = await call(world, `/provider/subtitles?id=${freeTitle}`, {
      form: { intent: "delete", language: "ha" },
      cookie: otherProvider.cookie,
    });
    expect(deleteByOther.status).toBe(403);
    const byViewer = await upload(freeTitle, viewer, { language: "fr" }, { name: "fr.srt", bytes: HAUSA_SRT });
    expect(byViewer.status).toBe(403);
    const anonymous = await upload(freeTitle, null, { language: "fr" }, { name: "fr.srt", bytes: HAUSA_SRT });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/cp\?redirectTo=/);
    expect(rowsOf(freeTitle)).toEqual(before);
    const unknown = await upload("nosuchtitle123", provider, { language: "fr" }, { name: "fr.srt", bytes: HAUSA_SRT });
    expect(unknown.status).toBe(404);
  });

  it.each([
    [
      "a binary file",
      { language: "fr" },
      { name: "x.srt", bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]) },
      400,
      "This is not a text file",
    ],
    ["an empty file", { language: "fr" }, { name: "x.srt", bytes: "" }, 400, "The file is empty"],
    ["no cues", { language: "fr" }, { name: "x.vtt", bytes: "WEBVTT\n\nNOTE nothing\n" }, 400, "The file has no cue"],
    [
      "a bad timestamp",
      { language: "fr" },
      { name: "x.srt", bytes: "1\n00:00:01,000 --> 00:00:99,000\nx\n" },
      400,
      "Line 2: the times are not valid",
    ],
    [
      "not subtitles at all",
      { language: "fr" },
      { name: "x.srt", bytes: "Dear friend,\nhow are you?\n" },
      400,
      "neither WebVTT nor SRT",
    ],
    [
      "a language that is no tag",
      { language: "other", otherLanguage: "French!" },
      { name: "x.srt", bytes: HAUSA_SRT },
      400,
      "valid language tag",
    ],
    ["no file", { language: "fr" }, undefined, 400, "Choose a subtitle file"],
    [
      "a file over the limit",
      { language: "fr" },
      { name: "x.srt", bytes: longSrt(1).repeat(Math.ceil((SUBTITLE_MAX_BYTES * 1.5) / 80)) },
      413,
      "larger than 1024 KB",
    ],
  ] as const)("refuses %s with a clear message and changes nothing", async (_name, fields, file, status, message) => {
    const result = await upload(freeTitle, provider, { ...fields }, file ? { ...file } : undefined);
    expect(result.status).toBe(status);
    expect(result.text).toContain(message);
    expect(rowsOf(freeTitle).some((row) => row.language === "fr")).toBe(false);
    expect(fs.readdirSync(storagePaths(world.root).tmp)).toEqual([]);
  });

  it("an administrator may delete a title's subtitles but not add them", async () => {
    const admin = await login(world, seedAccount(world, "admin"));
    await upload(freeTitle, provider, { language: "ig" }, { name: "ig.srt", bytes: HAUSA_SRT });
    const byAdmin = await upload(freeTitle, admin, { language: "ff" }, { name: "ff.srt", bytes: HAUSA_SRT });
    expect(byAdmin.status).toBe(403);
    const page = await call(world, `/admin/subtitles?id=${freeTitle}`, { cookie: admin.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-subtitle-language="ig"');
    expect((await call(world, `/admin/subtitles?id=${freeTitle}`, { cookie: viewer.cookie })).status).toBe(403);
    const deleted = await call(world, `/admin/subtitles?id=${freeTitle}`, {
      form: { intent: "delete", language: "ig" },
      cookie: admin.cookie,
    });
    expect(deleted.status).toBe(303);
    expect(rowsOf(freeTitle).map((row) => row.language)).not.toContain("ig");
    expect(rowsOf(freeTitle).map((row) => row.language)).not.toContain("ff");
    expect(fs.existsSync(movieSubtitlePath(freeTitle, "ig", world.root))).toBe(false);
  });

  it("the provider deletes a language; the file goes with its row", async () => {
    await upload(freeTitle, provider, { language: "yo" }, { name: "yo.srt", bytes: HAUSA_SRT });
    expect(fs.existsSync(movieSubtitlePath(freeTitle, "yo", world.root))).toBe(true);
    const result = await call(world, `/provider/subtitles?id=${freeTitle}`, {
      form: { intent: "delete", language: "yo" },
      cookie: provider.cookie,
    });
    expect(result.status).toBe(303);
    expect(rowsOf(freeTitle).some((row) => row.language === "yo")).toBe(false);
    expect(fs.existsSync(movieSubtitlePath(freeTitle, "yo", world.root))).toBe(false);
  });
});

describe("reading a title's subtitles", () => {
  beforeAll(async () => {
    await upload(premiumTitle, provider, { language: "ha" }, { name: "ha.srt", bytes: HAUSA_SRT });
    await upload(freeTitle, provider, { language: "en" }, { name: "en.srt", bytes: longSrt(60) });
  });

  it("a viewer of the title gets WebVTT, private and cacheable, revalidated by ETag", async () => {
    const url = `/subtitles/${freeTitle}/ha.vtt`;
    const first = await call(world, `${url}?v=1`, { cookie: viewer.cookie });
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toBe("text/vtt; charset=utf-8");
    expect(first.headers.get("Cache-Control")).toBe("private, max-age=86400");
    expect(first.text).toBe("WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nIna ka je tun safe?\n");
    const etag = first.headers.get("ETag")!;
    expect(etag).toBeTruthy();
    const unversioned = await call(world, url, { cookie: viewer.cookie });
    expect(unversioned.headers.get("Cache-Control")).toBe("private, no-cache");
    const again = await call(world, url, { cookie: viewer.cookie, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    // An old app with its token, and the tag in another case.
    expect((await call(world, `/subtitles/${freeTitle}/HA.vtt`, { token: viewer.token })).status).toBe(200);
  });

  it("is compressed for clients that accept gzip", async () => {
    const result = await call(world, `/subtitles/${freeTitle}/en.vtt`, {
      cookie: viewer.cookie,
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(result.status).toBe(200);
    expect(result.headers.get("Content-Encoding")).toBe("gzip");
    expect(result.text).toContain("Layi na 60: Zo ka zauna, an gama girki.");
  });

  it("is refused to a stranger, to another provider, and to a viewer without a pass for a Premium title", async () => {
    const anonymous = await call(world, `/subtitles/${freeTitle}/ha.vtt`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("Cache-Control")).toBe("no-store");
    expect((await call(world, `/subtitles/${freeTitle}/ha.vtt`, { cookie: otherProvider.cookie })).status).toBe(403);
    const noPass = await call(world, `/subtitles/${premiumTitle}/ha.vtt`, { cookie: viewer.cookie });
    expect(noPass.status).toBe(403);
    expect(noPass.body.reason).toBe("pass_required");
    expect(noPass.text).not.toContain("Ina ka je");
    expect((await call(world, `/subtitles/${premiumTitle}/ha.vtt`, { cookie: paidViewer.cookie })).status).toBe(200);
    expect((await call(world, `/subtitles/${premiumTitle}/ha.vtt`, { cookie: provider.cookie })).status).toBe(200);
  });

  it("answers 404 for a language the title lacks and for names that are no subtitle file", async () => {
    for (const path of [
      `/subtitles/${freeTitle}/fr.vtt`,
      `/subtitles/${freeTitle}/ha.srt`,
      `/subtitles/${freeTitle}/..%2F..%2Fdata.db`,
      `/subtitles/nosuchtitle123/ha.vtt`,
    ])
      expect((await call(world, path, { cookie: viewer.cookie })).status, path).toBe(404);
  });

  it("the watch page offers the tracks, and shows the language the viewer chose", async () => {
    const plain = await call(world, `/WatchMovie?id=${freeTitle}`, { cookie: viewer.cookie });
    expect(plain.status).toBe(200);
    expect(plain.text).toMatch(
      /<track kind="subtitles" src="\/subtitles\/[a-z0-9]+\/ha\.vtt\?v=[a-z0-9]+" srcLang="ha" label="Hausa"\/>/i,
    );
    expect(plain.text).not.toMatch(/<track[^>]* default/);

    const chosen = await call(world, "/subtitle-language", {
      form: { language: "ha", redirectTo: `/WatchMovie?id=${freeTitle}` },
      cookie: viewer.cookie,
    });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get("Location")).toBe(`/WatchMovie?id=${freeTitle}`);
    const choice = chosen.headers
      .getSetCookie()
      .find((value) => value.startsWith("kallo_subtitles="))!
      .split(";")[0];
    const page = await call(world, `/WatchMovie?id=${freeTitle}`, { cookie: `${viewer.cookie}; ${choice}` });
    expect(page.text).toMatch(/<track kind="subtitles" [^>]*srcLang="ha"[^>]* default=""/i);
    expect(page.text).toMatch(/<option value="ha" lang="ha" selected="">Hausa<\/option>/);

    const off = await call(world, "/subtitle-language", {
      form: { language: "off" },
      cookie: viewer.cookie,
      headers: { Accept: "application/json" },
    });
    expect(off.status).toBe(204);
    expect(off.headers.getSetCookie().some((value) => value.startsWith("kallo_subtitles="))).toBe(true);
  });

  it("go with a deleted title", async () => {
    const title = (await seedMovie(world, provider.account.id)).id;
    await upload(title, provider, { language: "ha" }, { name: "ha.srt", bytes: HAUSA_SRT });
    expect(rowsOf(title)).toHaveLength(1);
    const deleted = await call(world, `/api/movies/delete/${title}`, { method: "DELETE", token: provider.token });
    expect(deleted.status).toBe(200);
    expect(
      world.db
        .select()
        .from(subtitles)
        .where(and(eq(subtitles.movieId, title), eq(subtitles.language, "ha")))
        .all(),
    ).toEqual([]);
    expect(fs.existsSync(movieSubtitlePath(title, "ha", world.root))).toBe(false);
  });
});

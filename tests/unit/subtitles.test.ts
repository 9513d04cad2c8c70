import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditLog, movies, subtitles, type Role } from "~/db/schema";
import { movieSubtitlePath, storagePaths } from "~/media/storage.server";
import { deleteTitle } from "~/services/title-lifecycle.server";
import { grantPass } from "~/services/passes.server";
import {
  authorizeSubtitleFile,
  chosenTrack,
  deleteSubtitle,
  listSubtitles,
  saveSubtitle,
  titleForSubtitles,
} from "~/services/subtitles.server";
import { chooseSubtitles, readSubtitleChoice } from "~/routes-support/preferences.server";
import { seedBilling } from "./helpers/billing-fixtures";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let people: ReturnType<typeof seedBilling>;
const FREE = "freemovie01";
const PREMIUM = "premiummovie1";
const utf8 = (text: string) => new TextEncoder().encode(text);
const HAUSA_SRT = utf8("1\r\n00:00:01,000 --> 00:00:02,500\r\n<font color=red>Ina ka je tun safe?</font>\r\n");

beforeEach(() => {
  testDb = createTestDatabase();
  people = seedBilling(testDb.db);
});
afterEach(() => testDb.close());

const save = (movieId: string, language: string, bytes = HAUSA_SRT, label?: string) =>
  saveSubtitle(testDb.db, { movieId, language, label, bytes }, testDb.dir);

describe("keeping a title's subtitles", () => {
  it("stores the converted WebVTT under the title's folder and a row with its size", () => {
    const result = save(FREE, "HA");
    expect(result).toEqual({ ok: true, language: "ha", replaced: false, cues: 1 });
    const file = movieSubtitlePath(FREE, "ha", testDb.dir);
    const text = fs.readFileSync(file, "utf8");
    expect(text).toBe("WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nIna ka je tun safe?\n");
    const [row] = listSubtitles(testDb.db, FREE);
    expect(row).toMatchObject({ language: "ha", label: "Hausa", sizeBytes: Buffer.byteLength(text) });
    expect(row.url).toBe(`/subtitles/${FREE}/ha.vtt?v=${row.updatedAt.getTime().toString(36)}`);
    // Nothing is left behind in tmp/.
    expect(fs.readdirSync(storagePaths(testDb.dir).tmp)).toEqual([]);
  });

  it("replaces a language's file and label, with a new address", () => {
    save(FREE, "en", utf8("1\n00:00:01,000 --> 00:00:02,000\nFirst\n"));
    const before = listSubtitles(testDb.db, FREE)[0];
    const later = new Date(before.updatedAt.getTime() + 5000);
    const result = saveSubtitle(
      testDb.db,
      {
        movieId: FREE,
        language: "en",
        label: "English (SDH)",
        bytes: utf8("1\n00:00:01,000 --> 00:00:02,000\nSecond\n"),
      },
      testDb.dir,
      later,
    );
    expect(result).toMatchObject({ ok: true, replaced: true });
    const rows = listSubtitles(testDb.db, FREE);
    expect(rows).toHaveLength(1);
    expect(rows[0].label).toBe("English (SDH)");
    expect(rows[0].url).not.toBe(before.url);
    expect(fs.readFileSync(movieSubtitlePath(FREE, "en", testDb.dir), "utf8")).toContain("Second");
  });

  it("refuses a bad file or language and leaves neither a row nor a file", () => {
    fs.mkdirSync(storagePaths(testDb.dir).tmp, { recursive: true });
    expect(save(FREE, "ha", utf8("1\n00:00:09,000 --> 00:00:02,000\nbackwards\n"))).toEqual({
      ok: false,
      status: 400,
      message: { key: "subtitles:errors.badTimestamp", values: { line: 2 } },
    });
    expect(save(FREE, "not a tag")).toMatchObject({ ok: false, message: { key: "subtitles:errors.language" } });
    expect(save(FREE, "ha", HAUSA_SRT, "x".repeat(61))).toMatchObject({
      ok: false,
      message: { key: "subtitles:errors.labelTooLong" },
    });
    expect(listSubtitles(testDb.db, FREE)).toEqual([]);
    expect(fs.existsSync(movieSubtitlePath(FREE, "ha", testDb.dir))).toBe(false);
    expect(fs.readdirSync(storagePaths(testDb.dir).tmp)).toEqual([]);
  });

  it("lets only the title's provider upload, and its provider or an administrator delete", () => {
    expect(titleForSubtitles(testDb.db, FREE, people.provider, "upload")).toMatchObject({ id: FREE, ready: true });
    expect(titleForSubtitles(testDb.db, FREE, people.otherProvider, "upload")).toBe("forbidden");
    expect(titleForSubtitles(testDb.db, FREE, people.viewer, "upload")).toBe("forbidden");
    expect(titleForSubtitles(testDb.db, FREE, people.admin, "upload")).toBe("forbidden");
    expect(titleForSubtitles(testDb.db, FREE, people.admin, "delete")).toMatchObject({ id: FREE });
    expect(titleForSubtitles(testDb.db, "nosuchtitle1", people.provider, "upload")).toBe("notFound");

    save(FREE, "ha");
    save(FREE, "en");
    const remove = (actor: { id: string; role: Role }, language = "ha") =>
      deleteSubtitle(testDb.db, { movieId: FREE, language, actor }, testDb.dir);
    expect(remove(people.otherProvider)).toBe("forbidden");
    expect(remove(people.viewer)).toBe("forbidden");
    expect(listSubtitles(testDb.db, FREE)).toHaveLength(2);
    expect(remove(people.provider)).toBe("deleted");
    expect(remove(people.provider)).toBe("notFound");
    expect(fs.existsSync(movieSubtitlePath(FREE, "ha", testDb.dir))).toBe(false);
    expect(remove(people.admin, "EN")).toBe("deleted");
    expect(listSubtitles(testDb.db, FREE)).toEqual([]);
    const audited = testDb.db.select().from(auditLog).where(eq(auditLog.action, "subtitle.delete")).all();
    expect(audited.map((entry) => entry.actorId).sort()).toEqual(["admin1", "provider1"]);
  });

  it("go with the title when it is deleted", () => {
    save(FREE, "ha");
    expect(deleteTitle(testDb.db, FREE, people.provider, testDb.dir)).toBe("deleted");
    expect(testDb.db.select().from(subtitles).where(eq(subtitles.movieId, FREE)).all()).toEqual([]);
    expect(fs.existsSync(movieSubtitlePath(FREE, "ha", testDb.dir))).toBe(false);
  });
});

describe("who may read a subtitle file", () => {
  const t0 = new Date("2026-03-01T12:00:00Z");
  const read = (account: { id: string; role: Role } | null, movieId = FREE, file = "ha.vtt") =>
    authorizeSubtitleFile(testDb.db, { movieId, file }, account, testDb.dir, t0);

  beforeEach(() => {
    save(FREE, "ha");
    save(PREMIUM, "ha");
  });

  it("whoever may play the title", () => {
    expect(read(people.viewer)).toMatchObject({ allowed: true, language: "ha" });
    expect(read(people.provider)).toMatchObject({ allowed: true });
    expect(read(people.admin, PREMIUM)).toMatchObject({ allowed: true });
    expect(read(people.provider, PREMIUM)).toMatchObject({ allowed: true });
  });

  it("nobody signed out, another provider, or a viewer without a pass for a Premium title", () => {
    expect(read(null)).toMatchObject({ allowed: false, status: 401 });
    expect(read(people.otherProvider)).toMatchObject({ allowed: false, status: 403 });
    expect(read(people.viewer, PREMIUM)).toMatchObject({ allowed: false, status: 403, reason: "pass_required" });
    testDb.db.transaction((tx) =>
      grantPass(tx, { accountId: people.viewer.id, planId: "planbasic", days: 7, source: "admin" }, t0),
    );
    expect(read(people.viewer, PREMIUM)).toMatchObject({ allowed: true });
  });

  it("nothing of a title that is not published, and no other name", () => {
    testDb.db.update(movies).set({ approved: false }).where(eq(movies.id, FREE)).run();
    expect(read(people.viewer)).toMatchObject({ allowed: false, status: 404 });
    expect(read(people.provider)).toMatchObject({ allowed: true });
    testDb.db.update(movies).set({ approved: true }).where(eq(movies.id, FREE)).run();
    for (const file of ["en.vtt", "ha.srt", "ha", "../ha.vtt", "ha.vtt/..", "..%2Fdata.db", "x.vtt"])
      expect(read(people.viewer, FREE, file), file).toMatchObject({ allowed: false, status: 404 });
    expect(read(people.viewer, "../../etc")).toMatchObject({ allowed: false, status: 404 });
  });
});

describe("the viewer's choice", () => {
  it("is a cookie holding a language tag or off, matched to a title's tracks", async () => {
    const request = (cookie: string | null) =>
      new Request("http://localhost/", { headers: cookie ? { Cookie: cookie.split(";")[0] } : {} });
    expect(await readSubtitleChoice(request(null))).toBeNull();
    expect(await readSubtitleChoice(request(await chooseSubtitles("HA")))).toBe("ha");
    expect(await readSubtitleChoice(request(await chooseSubtitles(null)))).toBeNull();
    expect(await chooseSubtitles("not a tag")).toBeNull();
    const tracks = [{ language: "en-GB" }, { language: "ha" }];
    expect(chosenTrack(tracks, "en")).toBe("en-GB");
    expect(chosenTrack(tracks, "fr")).toBeNull();
    expect(chosenTrack(tracks, null)).toBeNull();
  });
});

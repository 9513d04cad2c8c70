import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { movieRenditions, movies, playbackLeases, plans } from "~/db/schema";
import { grantPass } from "~/services/passes.server";
import {
  authorizeHlsStream,
  authorizeStream,
  chooseStartRung,
  LEASE_TTL_MS,
  masterVariants,
  movieRenditions as fileRouteRenditions,
  parseStreamFile,
  playerChoices,
  takePlaybackLease,
  type HlsStreamDecision,
} from "~/services/playback.server";
import type { Rendition } from "~/services/renditions.server";
import { seedBilling } from "./helpers/billing-fixtures";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let people: ReturnType<typeof seedBilling>;
const t0 = new Date("2026-03-01T12:00:00Z");
const FREE_TITLE = "freemovie01";
const PREMIUM_TITLE = "premiummovie1";
const UNPUBLISHED_TITLE = "unpublished01";

/** A rendition row as the ladder job leaves it: a made rung with its figures. */
function addRung(
  movieId: string,
  rung: number,
  status: "ready" | "pending" | "failed" = "ready",
  codec: "h264" | "av1" = "h264",
) {
  const width = Math.round((rung * 16) / 9 / 2) * 2;
  // AV1 + Opus: the same picture for about half the bytes.
  const share = codec === "av1" ? 0.5 : 1;
  testDb.db
    .insert(movieRenditions)
    .values({
      movieId,
      rung,
      codec,
      width,
      height: rung,
      status,
      bandwidth: rung * 2000 * share,
      averageBandwidth: rung * 1500 * share,
      codecs: codec === "av1" ? "av01.0.01M.08,opus" : "avc1.4d401e,mp4a.40.2",
      sizeBytes: rung * 10_000 * share,
      durationSeconds: 60,
      readyAt: status === "ready" ? t0 : null,
    })
    .run();
}

function setFreePlanRung(maxRung: number) {
  testDb.db.update(plans).set({ maxRung }).where(eq(plans.code, "FREE")).run();
}

const stream = (
  file: string,
  account: { id: string; role: "viewer" | "provider" | "admin" } | null,
  deviceId: string | null = "phone",
  movieId = FREE_TITLE,
) => authorizeHlsStream(testDb.db, { movieId, file }, account, deviceId, t0);

const rungsOf = (decision: HlsStreamDecision) =>
  decision.allowed ? decision.renditions.map((rendition) => rendition.rung) : null;

beforeEach(() => {
  testDb = createTestDatabase();
  people = seedBilling(testDb.db);
  testDb.db
    .insert(movies)
    .values({
      id: UNPUBLISHED_TITLE,
      name: "Waiting",
      categoryId: "cat1",
      providerId: "provider1",
      status: "ready",
      approved: false,
      height: 720,
    })
    .run();
  for (const movieId of [FREE_TITLE, PREMIUM_TITLE, UNPUBLISHED_TITLE])
    for (const rung of [144, 240, 360, 480, 720]) addRung(movieId, rung);
});
afterEach(() => testDb.close());

describe("what a stream path names", () => {
  it("knows the master playlist and each rung's playlist and media file", () => {
    expect(parseStreamFile("master.m3u8")).toEqual({ kind: "master" });
    expect(parseStreamFile("240p.m3u8")).toEqual({ kind: "playlist", rung: 240, codec: "h264" });
    expect(parseStreamFile("1080p.mp4")).toEqual({ kind: "media", rung: 1080, codec: "h264" });
    expect(parseStreamFile("96p.mp4")).toEqual({ kind: "media", rung: 96, codec: "h264" });
    expect(parseStreamFile("240p-av1.m3u8")).toEqual({ kind: "playlist", rung: 240, codec: "av1" });
    expect(parseStreamFile("360p-av1.mp4")).toEqual({ kind: "media", rung: 360, codec: "av1" });
  });

  it("names nothing else", () => {
    for (const name of [
      "../x",
      "../../data.db",
      "master.m3u9",
      "Master.m3u8",
      "0p.mp4",
      "9p.mp4",
      "0240p.mp4",
      "10000p.mp4",
      "240p.mp4.bak",
      "240P.mp4",
      "240p.ts",
      "240.mp4",
      "p.mp4",
      "240p/..mp4",
      "240p.m3u8 ",
      "240p-av2.mp4",
      "240p-AV1.mp4",
      "240p-av1-av1.mp4",
      "av1-240p.mp4",
      "",
    ]) {
      expect(parseStreamFile(name), JSON.stringify(name)).toBeNull();
    }
  });
});

describe("who may stream a title's adaptive files", () => {
  it("asks a signed-out visitor to sign in", () => {
    expect(stream("master.m3u8", null, null)).toMatchObject({ allowed: false, status: 401 });
    expect(stream("240p.mp4", null, null)).toMatchObject({ allowed: false, status: 401 });
  });

  it("hides an unpublished title from viewers, not from its provider or an administrator", () => {
    expect(stream("master.m3u8", people.viewer, "phone", UNPUBLISHED_TITLE)).toMatchObject({
      allowed: false,
      status: 404,
    });
    expect(stream("240p.mp4", people.viewer, "phone", UNPUBLISHED_TITLE)).toMatchObject({
      allowed: false,
      status: 404,
    });
    expect(stream("master.m3u8", people.provider, "studio", UNPUBLISHED_TITLE)).toMatchObject({ allowed: true });
    expect(stream("master.m3u8", people.otherProvider, "studio", UNPUBLISHED_TITLE)).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(stream("master.m3u8", people.admin, "desk", UNPUBLISHED_TITLE)).toMatchObject({ allowed: true });
    // A title still processing plays for nobody.
    testDb.db.update(movies).set({ status: "processing" }).where(eq(movies.id, UNPUBLISHED_TITLE)).run();
    expect(stream("master.m3u8", people.admin, "desk", UNPUBLISHED_TITLE)).toMatchObject({
      allowed: false,
      status: 404,
    });
  });

  it("wants a pass for a Premium title, for the playlists and the bytes alike", () => {
    for (const file of ["master.m3u8", "240p.m3u8", "240p.mp4"]) {
      expect(stream(file, people.viewer, "phone", PREMIUM_TITLE)).toMatchObject({
        allowed: false,
        status: 403,
        reason: "pass_required",
      });
    }
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 1, source: "voucher" }, t0);
    expect(stream("240p.mp4", people.viewer, "phone", PREMIUM_TITLE)).toMatchObject({ allowed: true });
  });

  it("refuses a second device beyond the plan's screens", () => {
    expect(stream("master.m3u8", people.viewer, "phone")).toMatchObject({ allowed: true });
    expect(stream("240p.mp4", people.viewer, "laptop")).toMatchObject({
      allowed: false,
      status: 403,
      reason: "screens",
      screens: 1,
    });
    expect(stream("master.m3u8", people.viewer, "laptop")).toMatchObject({
      allowed: false,
      status: 403,
      reason: "screens",
    });
    // The first device goes on playing, and another account is not affected.
    expect(stream("360p.mp4", people.viewer, "phone")).toMatchObject({ allowed: true });
    expect(stream("master.m3u8", people.other, "laptop")).toMatchObject({ allowed: true });
  });

  it("answers 404 for a bad file name or title id, before anything else", () => {
    for (const file of ["../x", "master.m3u9", "0p.mp4", "240p.mp4.bak", "240p.MP4", "video.mp4"]) {
      expect(stream(file, people.viewer), file).toMatchObject({ allowed: false, status: 404 });
      // Even signed out: the name is refused before the sign-in is asked for.
      expect(stream(file, null, null), file).toMatchObject({ allowed: false, status: 404 });
    }
    expect(stream("master.m3u8", people.admin, "desk", "../freemovie01")).toMatchObject({
      allowed: false,
      status: 404,
    });
    expect(stream("master.m3u8", people.admin, "desk", "FREEMOVIE01")).toMatchObject({ allowed: false, status: 404 });
    expect(stream("master.m3u8", people.admin, "desk", "nosuchtitle")).toMatchObject({ allowed: false, status: 404 });
  });

  it("answers 404 for a rung the title does not have, or has not finished", () => {
    addRung(FREE_TITLE, 1080, "pending");
    expect(stream("1080p.mp4", people.viewer)).toMatchObject({ allowed: false, status: 404 });
    expect(stream("1080p.m3u8", people.viewer)).toMatchObject({ allowed: false, status: 404 });
    expect(stream("576p.mp4", people.viewer)).toMatchObject({ allowed: false, status: 404 });
    expect(rungsOf(stream("master.m3u8", people.viewer))).toEqual([144, 240, 360, 480, 720]);
  });

  it("answers 404 for a title without any ready rung", () => {
    testDb.db.delete(movieRenditions).where(eq(movieRenditions.movieId, FREE_TITLE)).run();
    addRung(FREE_TITLE, 144, "pending");
    addRung(FREE_TITLE, 240, "failed");
    expect(stream("master.m3u8", people.viewer)).toMatchObject({ allowed: false, status: 404 });
    expect(stream("144p.mp4", people.viewer)).toMatchObject({ allowed: false, status: 404 });
  });
});

describe("the plan's maximum quality on the adaptive streams", () => {
  it("lists every ready rung on an HD plan, with the files' paths", () => {
    const master = stream("master.m3u8", people.viewer);
    expect(master).toMatchObject({ allowed: true, file: { kind: "master" }, maxRung: 1080, path: null });
    expect(rungsOf(master)).toEqual([144, 240, 360, 480, 720]);
    const media = stream("720p.mp4", people.viewer);
    expect(media).toMatchObject({ allowed: true, file: { kind: "media", rung: 720 } });
    if (media.allowed) expect(media.path).toMatch(new RegExp(`${FREE_TITLE}\\${path.sep}hls\\${path.sep}720p\\.mp4$`));
    const playlist = stream("240p.m3u8", people.viewer);
    if (playlist.allowed) expect(playlist.path).toMatch(/hls[/\\]240p\.m3u8$/);
    else expect.unreachable("the 240p playlist must be allowed");
  });

  it("keeps a plan capped at 480p at 480 lines: the master lists no more, and 720p bytes are refused", () => {
    setFreePlanRung(480);
    const master = stream("master.m3u8", people.viewer);
    expect(master).toMatchObject({ allowed: true, maxRung: 480 });
    expect(rungsOf(master)).toEqual([144, 240, 360, 480]);
    for (const file of ["720p.mp4", "720p.m3u8"]) {
      expect(stream(file, people.viewer), file).toMatchObject({ allowed: false, status: 403, reason: "quality" });
    }
    expect(stream("480p.mp4", people.viewer)).toMatchObject({ allowed: true, file: { kind: "media", rung: 480 } });
    expect(stream("480p.m3u8", people.viewer)).toMatchObject({ allowed: true, file: { kind: "playlist", rung: 480 } });
  });

  it("gives a plan below every rung the lowest one, not nothing", () => {
    setFreePlanRung(480);
    testDb.db.delete(movieRenditions).where(eq(movieRenditions.movieId, FREE_TITLE)).run();
    addRung(FREE_TITLE, 720);
    addRung(FREE_TITLE, 1080);
    expect(rungsOf(stream("master.m3u8", people.viewer))).toEqual([720]);
    expect(stream("720p.mp4", people.viewer)).toMatchObject({ allowed: true });
    expect(stream("1080p.mp4", people.viewer)).toMatchObject({ allowed: false, status: 403, reason: "quality" });
  });

  it("gives the owning provider and administrators every rung, whatever FREE allows", () => {
    setFreePlanRung(480);
    for (const account of [people.provider, people.admin]) {
      expect(rungsOf(stream("master.m3u8", account, "desk"))).toEqual([144, 240, 360, 480, 720]);
      expect(stream("720p.mp4", account, "desk")).toMatchObject({ allowed: true });
    }
    // Staff take no screen while checking titles.
    expect(testDb.db.select().from(playbackLeases).all()).toEqual([]);
  });

  it("follows a pass: a FREE viewer capped at 480p with a BASIC pass gets 720p", () => {
    setFreePlanRung(480);
    expect(stream("720p.mp4", people.viewer)).toMatchObject({ allowed: false, reason: "quality" });
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 1, source: "voucher" }, t0);
    expect(stream("720p.mp4", people.viewer)).toMatchObject({ allowed: true });
  });
});

describe("a viewer's master playlist", () => {
  // Peak bitrates as the ladder job measures them.
  const ladder: Rendition[] = [
    { rung: 144, bandwidth: 150_000 },
    { rung: 240, bandwidth: 290_000 },
    { rung: 360, bandwidth: 600_000 },
    { rung: 480, bandwidth: 1_100_000 },
    { rung: 720, bandwidth: 2_500_000 },
  ].map(({ rung, bandwidth }) => ({
    rung,
    codec: "h264" as const,
    bandwidth,
    averageBandwidth: bandwidth * 0.8,
    width: rung * 2,
    height: rung,
    codecs: "avc1.4d401e",
    sizeBytes: 1,
    durationSeconds: 1,
  }));
  const order = (renditions: readonly Rendition[]) => renditions.map((rendition) => rendition.rung);

  it("lists the rungs up to the cap", () => {
    expect(order(masterVariants(ladder, { maxRung: 480, linkKbps: 100_000 }))).toEqual([480, 144, 240, 360]);
    expect(order(masterVariants(ladder, { maxRung: 240, linkKbps: 100_000 }))).toEqual([240, 144]);
    expect(order(masterVariants(ladder, { maxRung: Number.POSITIVE_INFINITY, linkKbps: 100_000 }))).toEqual([
      720, 144, 240, 360, 480,
    ]);
  });

  it("keeps one rung when asked, but never one above the cap", () => {
    expect(order(masterVariants(ladder, { maxRung: 1080, only: 360, linkKbps: null }))).toEqual([360]);
    expect(order(masterVariants(ladder, { maxRung: 240, only: 720, linkKbps: null })).sort((a, b) => a - b)).toEqual([
      144, 240,
    ]);
    expect(order(masterVariants(ladder, { maxRung: 1080, only: 576, linkKbps: null }))).toHaveLength(5);
  });

  it("starts on the highest rung whose peak fits three quarters of the link, the rest lowest first", () => {
    // 400 kbps: 300 kbps of budget, so 240p (290 kbps) and not 360p (600 kbps).
    expect(order(masterVariants(ladder, { maxRung: 1080, linkKbps: 400 }))).toEqual([240, 144, 360, 480, 720]);
    // No estimate: a slow mobile link is assumed.
    expect(order(masterVariants(ladder, { maxRung: 1080, linkKbps: null }))).toEqual([240, 144, 360, 480, 720]);
    expect(order(masterVariants(ladder, { maxRung: 1080, linkKbps: 1000 }))).toEqual([360, 144, 240, 480, 720]);
    // The edge: 387 kbps leaves 290.25 kbps for 240p's 290; 386 kbps leaves 289.5, and 240p no longer fits.
    expect(chooseStartRung(ladder, 387)).toBe(240);
    expect(chooseStartRung(ladder, 386)).toBe(144);
  });

  it("starts on the lowest rung when none fits, and with nothing when there is nothing", () => {
    expect(order(masterVariants(ladder, { maxRung: 1080, linkKbps: 100 }))).toEqual([144, 240, 360, 480, 720]);
    expect(chooseStartRung(ladder, 1)).toBe(144);
    expect(chooseStartRung([], 400)).toBeNull();
    // A cap below every rung still leaves the lowest.
    expect(order(masterVariants(ladder, { maxRung: 100, linkKbps: 400 }))).toEqual([144]);
  });
});

describe("data saver's master playlist", () => {
  // Average bitrates as the ladder job measures them (the peak is a quarter above).
  const ladder: Rendition[] = [
    { rung: 144, averageBandwidth: 150_000 },
    { rung: 240, averageBandwidth: 280_000 },
  ].map(({ rung, averageBandwidth }) => ({
    rung,
    codec: "h264" as const,
    averageBandwidth,
    bandwidth: averageBandwidth * 1.25,
    width: rung * 2,
    height: rung,
    codecs: "avc1.4d401e",
    sizeBytes: 1,
    durationSeconds: 1,
  }));
  const start = (linkKbps: number | null) =>
    masterVariants(ladder, { maxRung: 240, linkKbps, dataSaver: true })[0].rung;

  it("starts on 240p wherever the link keeps it, even without the headroom Auto wants", () => {
    // 350 kbps: Auto's rule (peak 350 kbps within three quarters, 262) would start on 144p.
    expect(masterVariants(ladder, { maxRung: 240, linkKbps: 350 })[0].rung).toBe(144);
    expect(start(350)).toBe(240);
    expect(start(null)).toBe(240);
    // The edge: 240p's 280 kbps average within 95 % of the link.
    expect(start(295)).toBe(240);
    expect(start(294)).toBe(144);
    expect(start(250)).toBe(144);
  });
});

describe("what the watch page offers a viewer", () => {
  it("plays a progressive fallback no richer than a 300 kbps link carries, and a chosen rung as it is", () => {
    // The fixture's rungs average 1.5 kbps per line: 144p 216 kbps, 240p 360 kbps.
    const auto = playerChoices(
      testDb.db,
      { movieId: FREE_TITLE, mediaVersion: 0, account: people.viewer, dataSaver: false, quality: "auto" },
      t0,
    );
    expect(auto.fallbackUrl).toBe(`/stream/${FREE_TITLE}/144p.mp4`);
    const chosen = playerChoices(
      testDb.db,
      { movieId: FREE_TITLE, mediaVersion: 0, account: people.viewer, dataSaver: false, quality: 360 },
      t0,
    );
    expect(chosen.fallbackUrl).toBe(`/stream/${FREE_TITLE}/360p.mp4`);
  });

  it("estimates Auto's cost from the link the browser reports, else assumes a slow mobile one", () => {
    const choices = (linkKbps: number | null) =>
      playerChoices(
        testDb.db,
        { movieId: FREE_TITLE, mediaVersion: 0, account: people.viewer, dataSaver: false, quality: "auto", linkKbps },
        t0,
      ).autoCost;
    // 400 kbps assumed: no rung's peak fits 70 % (280 kbps; 144p's is 288), so the lowest; 240p's
    // average (360 kbps) fits 95 % (380), so the player keeps 240p once there.
    expect(choices(null)).toMatchObject({ basis: "assumed", low: { rung: 144 }, high: { rung: 240 } });
    // 700 kbps: climbs to 240p (peak 480 ≤ 490), keeps 360p (average 540 ≤ 665), not 480p (720).
    expect(choices(700)).toMatchObject({ basis: "link", low: { rung: 240 }, high: { rung: 360 } });
    const megabytes = choices(700)!;
    expect(megabytes.low.megabytes).toBeLessThan(megabytes.high.megabytes);
  });
});

describe("the file route's progressive MP4", () => {
  it("gives a plan capped at 480p the best rung up to 480 lines, one capped at 1080p the film itself", () => {
    setFreePlanRung(480);
    const sd = authorizeStream(testDb.db, `${FREE_TITLE}.mp4`, people.viewer, "phone", t0);
    expect(sd).toMatchObject({ allowed: true });
    if (sd.allowed) expect(sd.videoPath).toMatch(/freemovie01[/\\]hls[/\\]480p\.mp4$/);
    setFreePlanRung(1080);
    const hd = authorizeStream(testDb.db, `${FREE_TITLE}.mp4`, people.viewer, "phone", t0);
    if (hd.allowed) expect(hd.videoPath).toMatch(/freemovie01[/\\]video\.mp4$/);
    else expect.unreachable("a plan up to 1080p must be served");
  });

  it("lists the ready rungs lowest first, then the film", () => {
    addRung(FREE_TITLE, 1080, "pending");
    const list = fileRouteRenditions(testDb.db, FREE_TITLE);
    expect(list.map((rendition) => [rendition.rung, path.basename(rendition.path)])).toEqual([
      [144, "144p.mp4"],
      [240, "240p.mp4"],
      [360, "360p.mp4"],
      [480, "480p.mp4"],
      [720, "720p.mp4"],
      [720, "video.mp4"],
    ]);
    expect(fileRouteRenditions(testDb.db, "nosuchtitle")).toEqual([]);
  });
});

describe("the screen lease under a player's many requests", () => {
  const input = () => ({ account: people.viewer, deviceId: "phone", movieId: FREE_TITLE });
  const lease = () => testDb.db.select().from(playbackLeases).where(eq(playbackLeases.deviceId, "phone")).get();
  const after = (ms: number) => new Date(t0.getTime() + ms);

  it("does not rewrite a lease with more than half its time left", () => {
    expect(takePlaybackLease(testDb.db, input(), t0)).toEqual({ ok: true });
    expect(lease()?.expiresAt.getTime()).toBe(t0.getTime() + LEASE_TTL_MS);
    expect(takePlaybackLease(testDb.db, input(), after(LEASE_TTL_MS / 2 - 1000))).toEqual({ ok: true });
    expect(lease()?.expiresAt.getTime()).toBe(t0.getTime() + LEASE_TTL_MS);
  });

  it("renews a lease near its end, and one held for another title at once", () => {
    takePlaybackLease(testDb.db, input(), t0);
    const late = after(LEASE_TTL_MS / 2 + 1000);
    expect(takePlaybackLease(testDb.db, input(), late)).toEqual({ ok: true });
    expect(lease()?.expiresAt.getTime()).toBe(late.getTime() + LEASE_TTL_MS);
    const soon = after(LEASE_TTL_MS / 2 + 2000);
    expect(takePlaybackLease(testDb.db, { ...input(), movieId: PREMIUM_TITLE }, soon)).toEqual({ ok: true });
    expect(lease()).toMatchObject({ movieId: PREMIUM_TITLE, expiresAt: new Date(soon.getTime() + LEASE_TTL_MS) });
  });

  it("holds the screen through the HLS requests too", () => {
    const requestAt = (ms: number, deviceId: string) =>
      authorizeHlsStream(testDb.db, { movieId: FREE_TITLE, file: "240p.mp4" }, people.viewer, deviceId, after(ms));
    expect(requestAt(0, "phone")).toMatchObject({ allowed: true });
    expect(requestAt(30_000, "phone")).toMatchObject({ allowed: true });
    expect(lease()?.expiresAt.getTime()).toBe(t0.getTime() + LEASE_TTL_MS);
    expect(requestAt(90_000, "phone")).toMatchObject({ allowed: true });
    expect(lease()?.expiresAt.getTime()).toBe(t0.getTime() + 90_000 + LEASE_TTL_MS);
    // The phone renewed at 90 s, so a laptop at 3 minutes is still refused; once the phone stops, it plays.
    expect(requestAt(180_000, "laptop")).toMatchObject({ allowed: false, reason: "screens" });
    expect(requestAt(90_000 + LEASE_TTL_MS + 1, "laptop")).toMatchObject({ allowed: true });
  });
});

describe("the AV1 + Opus family", () => {
  beforeEach(() => {
    for (const rung of [144, 240, 360]) addRung(FREE_TITLE, rung, "ready", "av1");
  });
  const family = (decision: HlsStreamDecision) =>
    decision.allowed ? decision.renditions.map((rendition) => `${rendition.rung}${rendition.codec}`) : null;
  const variants = (options: Parameters<typeof masterVariants>[1]) => {
    const decision = stream("master.m3u8", people.viewer);
    if (!decision.allowed) throw new Error("refused");
    return masterVariants(decision.renditions, options).map((rendition) => `${rendition.rung}${rendition.codec}`);
  };

  it("serves an AV1 rung's files by the same rules as H.264's", () => {
    setFreePlanRung(240);
    expect(stream("240p-av1.m3u8", people.viewer)).toMatchObject({ allowed: true });
    expect(stream("144p-av1.mp4", people.viewer)).toMatchObject({ allowed: true });
    expect(stream("360p-av1.mp4", people.viewer)).toMatchObject({ allowed: false, status: 403, reason: "quality" });
    // No AV1 480p was made.
    setFreePlanRung(1080);
    expect(stream("480p-av1.mp4", people.viewer)).toMatchObject({ allowed: false, status: 404 });
    expect(stream("240p-av1.mp4", null, null)).toMatchObject({ allowed: false, status: 401 });
    expect(family(stream("master.m3u8", people.viewer))).toEqual([
      "144h264",
      "240h264",
      "360h264",
      "480h264",
      "720h264",
      "144av1",
      "240av1",
      "360av1",
    ]);
  });

  it("lists H.264 alone unless the player says its browser decodes AV1", () => {
    setFreePlanRung(1080);
    expect(variants({ maxRung: 1080, linkKbps: 400 })).toEqual(["144h264", "240h264", "360h264", "480h264", "720h264"]);
  });

  it("lists AV1 first, then H.264, where the link plays rungs the AV1 family has", () => {
    setFreePlanRung(1080);
    // 400 kbps: H.264 would hold 240p and start on 144p (240p's 480 kbps peak is over three quarters of
    // the link); AV1 starts on 240p (its peak, 240 kbps, fits).
    expect(variants({ maxRung: 1080, linkKbps: 400, av1: true })).toEqual([
      "240av1",
      "144av1",
      "360av1",
      "144h264",
      "240h264",
      "360h264",
      "480h264",
      "720h264",
    ]);
    // A fast link holds H.264's 720p, which has no AV1 twin: H.264, so Auto can climb.
    expect(variants({ maxRung: 1080, linkKbps: 5000, av1: true })[0]).toBe("720h264");
    expect(variants({ maxRung: 1080, linkKbps: 5000, av1: true })).not.toContain("240av1");
  });

  it("gives data saver the AV1 twin of the rung H.264's data saver would play", () => {
    setFreePlanRung(1080);
    expect(variants({ maxRung: 240, linkKbps: 5000, av1: true, dataSaver: true })).toEqual([
      "240av1",
      "144av1",
      "240h264",
      "144h264",
    ]);
    // On a link that keeps only H.264's 144p, data saver plays 144p in AV1 too (the AV1 240p would fit, but
    // it is a larger picture that costs more than the data saver rung H.264 gives).
    expect(variants({ maxRung: 240, linkKbps: 300, av1: true, dataSaver: true })[0]).toBe("144av1");
    expect(variants({ maxRung: 240, linkKbps: 300, dataSaver: true })[0]).toBe("144h264");
    // Without AV1 in the browser, data saver is H.264 as before.
    expect(variants({ maxRung: 240, linkKbps: 5000, dataSaver: true })).toEqual(["240h264", "144h264"]);
  });

  it("keeps a chosen quality in AV1 where it has the rung, else in H.264", () => {
    setFreePlanRung(1080);
    expect(variants({ maxRung: 1080, only: 240, linkKbps: 400, av1: true })).toEqual(["240av1", "240h264"]);
    expect(variants({ maxRung: 1080, only: 480, linkKbps: 400, av1: true })).toEqual(["480h264"]);
  });
});

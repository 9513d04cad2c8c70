import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { notifications, passes, plans, playbackLeases } from "~/db/schema";
import { shownNotificationValues } from "~/services/notifications.server";
import { dateFormatter } from "~/utils/dates";
import { decideWatchAccess } from "~/services/billing.server";
import { allowsPremium, getPassStatus, grantPass, notifyExpiringPasses, placeNewPass } from "~/services/passes.server";
import {
  authorizeStream,
  checkPlaybackLease,
  chooseRendition,
  decidePlayback,
  LEASE_TTL_MS,
  rungOfPicture,
  releasePlaybackLease,
  stopOtherDevices,
  takePlaybackLease,
} from "~/services/playback.server";
import { DAY, seedBilling } from "./helpers/billing-fixtures";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let people: ReturnType<typeof seedBilling>;
const t0 = new Date("2026-03-01T12:00:00Z");
const at = (days: number) => new Date(t0.getTime() + days * DAY);

beforeEach(() => {
  testDb = createTestDatabase();
  people = seedBilling(testDb.db);
});
afterEach(() => testDb.close());

describe("pass arithmetic", () => {
  it("starts a first pass now, and a later one where the last open pass ends", () => {
    const now = t0.getTime();
    expect(placeNewPass([], 7, now)).toEqual({ startsAt: now, endsAt: now + 7 * DAY });
    const current = { planId: "planbasic", startsAt: now - DAY, endsAt: now + 2 * DAY };
    expect(placeNewPass([current], 1, now)).toEqual({ startsAt: now + 2 * DAY, endsAt: now + 3 * DAY });
    // An ended pass does not push anything back.
    const ended = { planId: "planbasic", startsAt: now - 9 * DAY, endsAt: now - 2 * DAY };
    expect(placeNewPass([ended], 1, now)).toEqual({ startsAt: now, endsAt: now + DAY });
  });

  it("extends a current pass of the same plan: one stretch, one expiry", () => {
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 7, source: "voucher" }, t0);
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 7, source: "voucher" }, at(3));
    const status = getPassStatus(testDb.db, "viewer1", at(3));
    expect(status.plan.code).toBe("BASIC");
    expect(status.expiresAt?.toISOString()).toBe(at(14).toISOString());
    expect(status.upcoming).toEqual([]);
  });

  it("starts a different paid plan after the current paid pass ends", () => {
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 7, source: "voucher" }, t0);
    const pro = grantPass(testDb.db, { accountId: "viewer1", planId: "planpro", days: 30, source: "payment" }, at(2));
    expect(pro.startsAt.toISOString()).toBe(at(7).toISOString());
    expect(pro.endsAt.toISOString()).toBe(at(37).toISOString());
    const before = getPassStatus(testDb.db, "viewer1", at(2));
    expect(before.plan.code).toBe("BASIC");
    expect(before.expiresAt?.toISOString()).toBe(at(7).toISOString());
    expect(before.upcoming.map((pass) => pass.planName)).toEqual(["Pro"]);
    const after = getPassStatus(testDb.db, "viewer1", at(8));
    expect(after.plan).toMatchObject({ code: "PRO", screens: 2 });
  });

  it("expires by itself: after the end the viewer is on FREE again", () => {
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 1, source: "voucher" }, t0);
    expect(allowsPremium(testDb.db, "viewer1", at(0.5))).toBe(true);
    expect(allowsPremium(testDb.db, "viewer1", at(1))).toBe(false);
    const status = getPassStatus(testDb.db, "viewer1", at(1));
    expect(status).toMatchObject({ onFreePlan: true, expiresAt: null, plan: { code: "FREE", screens: 1 } });
  });

  it("notifies once, a day before a pass ends, and not when another pass follows", () => {
    testDb.db.update(plans).set({ nameHa: "Na Asali" }).where(eq(plans.id, "planbasic")).run();
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 7, source: "voucher" }, t0);
    grantPass(testDb.db, { accountId: "viewer2", planId: "planbasic", days: 7, source: "voucher" }, t0);
    grantPass(testDb.db, { accountId: "viewer2", planId: "planpro", days: 7, source: "voucher" }, t0);
    expect(notifyExpiringPasses(testDb.db, at(5))).toBe(0);
    expect(notifyExpiringPasses(testDb.db, at(6.5))).toBe(1);
    expect(notifyExpiringPasses(testDb.db, at(6.6))).toBe(0);
    const sent = testDb.db.select().from(notifications).all();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      accountId: "viewer1",
      kind: "pass_expiring",
      messageKey: "billing:notifications.passEnding",
      link: "/payment",
    });
    expect(sent[0].messageValues).toMatchObject({ plan: "Basic", endsAt: "2026-03-08T12:00:00.000Z" });
    // Read in Hausa: the plan's Hausa name and the moment in Hausa, in the pages' zone (Lagos, UTC+1).
    const hausa = shownNotificationValues(sent[0].messageValues, "ha");
    expect(hausa.plan).toBe("Na Asali");
    expect(hausa.date).toBe(dateFormatter("ha", "dateTime").format(new Date("2026-03-08T12:00:00.000Z")));
    expect(hausa.date).not.toContain("UTC");
    // viewer2's PRO pass ends at day 14: its own notice comes then.
    expect(notifyExpiringPasses(testDb.db, at(13.5))).toBe(1);
  });

  it("takes the notice back when the next pass is bought after it went out", () => {
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 7, source: "voucher" }, t0);
    expect(notifyExpiringPasses(testDb.db, at(6.5))).toBe(1);
    expect(testDb.db.select().from(notifications).where(eq(notifications.accountId, "viewer1")).all()).toHaveLength(1);
    // Someone else's notice stays: only the buyer's ending is covered.
    grantPass(testDb.db, { accountId: "viewer2", planId: "planbasic", days: 1, source: "voucher" }, at(6));
    expect(notifyExpiringPasses(testDb.db, at(6.6))).toBe(1);
    grantPass(testDb.db, { accountId: "viewer1", planId: "planpro", days: 7, source: "payment" }, at(6.7));
    expect(testDb.db.select().from(notifications).where(eq(notifications.accountId, "viewer1")).all()).toHaveLength(0);
    expect(testDb.db.select().from(notifications).where(eq(notifications.accountId, "viewer2")).all()).toHaveLength(1);
    // The queued pass's own end is noticed in its turn.
    expect(notifyExpiringPasses(testDb.db, at(13.5))).toBe(1);
  });
});

describe("entitlements", () => {
  it("lets anyone signed in play a free title, and only a pass holder a Premium one", () => {
    expect(decidePlayback(testDb.db, "freemovie01.mp4", people.viewer, t0)).toEqual({
      allowed: true,
      movieId: "freemovie01",
      mediaVersion: 0,
    });
    const refused = decidePlayback(testDb.db, "premiummovie1.mp4", people.viewer, t0);
    expect(refused).toMatchObject({ allowed: false, status: 403, reason: "pass_required" });
    grantPass(testDb.db, { accountId: "viewer1", planId: "planbasic", days: 1, source: "voucher" }, t0);
    expect(decidePlayback(testDb.db, "premiummovie1.mp4", people.viewer, at(0.5))).toMatchObject({ allowed: true });
    // Expired, and a pass that has not started yet, do not count.
    expect(decidePlayback(testDb.db, "premiummovie1.mp4", people.viewer, at(1))).toMatchObject({
      allowed: false,
      status: 403,
    });
    grantPass(testDb.db, { accountId: "viewer2", planId: "planbasic", days: 1, source: "voucher" }, at(5));
    testDb.db
      .update(passes)
      .set({ startsAt: at(10), endsAt: at(11) })
      .where(eq(passes.accountId, "viewer2"))
      .run();
    expect(decidePlayback(testDb.db, "premiummovie1.mp4", people.other, at(6))).toMatchObject({
      allowed: false,
      status: 403,
    });
  });

  it("still lets administrators and the owning provider play a Premium title, not another provider", () => {
    expect(decidePlayback(testDb.db, "premiummovie1.mp4", people.admin, t0)).toMatchObject({ allowed: true });
    expect(decidePlayback(testDb.db, "premiummovie1.mp4", people.provider, t0)).toMatchObject({ allowed: true });
    expect(decidePlayback(testDb.db, "premiummovie1.mp4", people.otherProvider, t0)).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(decidePlayback(testDb.db, "premiummovie1.mp4", null, t0)).toMatchObject({ allowed: false, status: 401 });
  });

  it("tells the watch page to show the needs-a-pass panel with the plans on sale", () => {
    const reader = { language: "en", currency: "NGN" as const };
    const access = decideWatchAccess(
      testDb.db,
      { account: people.viewer, movieId: "premiummovie1", deviceId: "d1" },
      reader,
      t0,
    );
    expect(access.kind).toBe("needsPass");
    if (access.kind !== "needsPass") return;
    expect(access.plans.map((plan) => [plan.code, plan.cheapest?.period, plan.cheapest?.price])).toEqual([
      ["BASIC", "day", "₦1"],
      ["PRO", "week", "₦9"],
    ]);
    expect(
      decideWatchAccess(testDb.db, { account: people.viewer, movieId: "freemovie01", deviceId: "d1" }, reader, t0),
    ).toEqual({ kind: "play" });
  });
});

describe("screens", () => {
  it("refuses a second device on a one-screen plan until the first stops or its lease runs out", () => {
    const first = { account: people.viewer, deviceId: "phone", movieId: "freemovie01" };
    const second = { account: people.viewer, deviceId: "laptop", movieId: "freemovie01" };
    expect(takePlaybackLease(testDb.db, first, t0)).toEqual({ ok: true });
    expect(takePlaybackLease(testDb.db, first, t0)).toEqual({ ok: true });
    expect(takePlaybackLease(testDb.db, second, t0)).toEqual({ ok: false, screens: 1 });
    expect(checkPlaybackLease(testDb.db, second, t0)).toEqual({ ok: false, screens: 1 });
    expect(authorizeStream(testDb.db, "freemovie01.mp4", people.viewer, "laptop", t0)).toMatchObject({
      allowed: false,
      status: 403,
      reason: "screens",
      screens: 1,
    });
    // Another account is not affected.
    expect(takePlaybackLease(testDb.db, { ...second, account: people.other }, t0)).toEqual({ ok: true });

    releasePlaybackLease(testDb.db, "viewer1", "phone", t0);
    expect(takePlaybackLease(testDb.db, second, t0)).toEqual({ ok: true });
    // The laptop's lease lapses two minutes after its last renewal.
    const later = new Date(t0.getTime() + LEASE_TTL_MS + 1);
    expect(takePlaybackLease(testDb.db, first, later)).toEqual({ ok: true });
  });

  it("a request that arrives after the device said stop does not take the screen back; a play does", () => {
    const phone = { account: people.viewer, deviceId: "phone", movieId: "freemovie01" };
    const laptop = { account: people.viewer, deviceId: "laptop", movieId: "freemovie01" };
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    expect(takePlaybackLease(testDb.db, phone, t0)).toEqual({ ok: true });
    releasePlaybackLease(testDb.db, "viewer1", "phone", at(1));
    // A segment the phone asked for before it stopped (or while paused) is served, and holds nothing.
    expect(authorizeStream(testDb.db, "freemovie01.mp4", people.viewer, "phone", at(2))).toMatchObject({
      allowed: true,
    });
    expect(takePlaybackLease(testDb.db, phone, at(2), "request")).toEqual({ ok: true });
    expect(checkPlaybackLease(testDb.db, { account: people.viewer, deviceId: "laptop" }, at(3))).toEqual({ ok: true });
    expect(takePlaybackLease(testDb.db, laptop, at(3))).toEqual({ ok: true });
    // Now the screen is the laptop's: the phone's late requests are refused, and so is its play.
    expect(authorizeStream(testDb.db, "freemovie01.mp4", people.viewer, "phone", at(4))).toMatchObject({
      allowed: false,
      reason: "screens",
    });
    expect(takePlaybackLease(testDb.db, phone, at(4), "play")).toEqual({ ok: false, screens: 1 });
    // Once the laptop stops, the phone's play takes the screen again, and its requests renew it.
    releasePlaybackLease(testDb.db, "viewer1", "laptop", at(5));
    expect(takePlaybackLease(testDb.db, phone, at(6), "play")).toEqual({ ok: true });
    expect(checkPlaybackLease(testDb.db, { account: people.viewer, deviceId: "laptop" }, at(7))).toEqual({
      ok: false,
      screens: 1,
    });
    // Long after a stop, a request takes the screen as before (a player without reports, say).
    releasePlaybackLease(testDb.db, "viewer1", "phone", at(8));
    const later = new Date(at(8).getTime() + LEASE_TTL_MS + 1);
    expect(takePlaybackLease(testDb.db, phone, later, "request")).toEqual({ ok: true });
    expect(checkPlaybackLease(testDb.db, { account: people.viewer, deviceId: "laptop" }, later)).toEqual({
      ok: false,
      screens: 1,
    });
  });

  it("stops the other device on request and hands this one the screen", () => {
    takePlaybackLease(testDb.db, { account: people.viewer, deviceId: "phone", movieId: "freemovie01" }, t0);
    expect(
      stopOtherDevices(testDb.db, { account: people.viewer, deviceId: "laptop", movieId: "freemovie01" }, t0),
    ).toBe(1);
    const leases = testDb.db.select({ deviceId: playbackLeases.deviceId }).from(playbackLeases).all();
    expect(leases).toEqual([{ deviceId: "laptop" }]);
    expect(
      takePlaybackLease(testDb.db, { account: people.viewer, deviceId: "phone", movieId: "freemovie01" }, t0),
    ).toEqual({ ok: false, screens: 1 });
  });

  it("counts screens from the plan in force: two on PRO", () => {
    grantPass(testDb.db, { accountId: "viewer1", planId: "planpro", days: 7, source: "voucher" }, t0);
    const lease = (deviceId: string) =>
      takePlaybackLease(testDb.db, { account: people.viewer, deviceId, movieId: "premiummovie1" }, t0);
    expect(lease("a")).toEqual({ ok: true });
    expect(lease("b")).toEqual({ ok: true });
    expect(lease("c")).toEqual({ ok: false, screens: 2 });
    // Staff checking titles do not use screens.
    expect(
      takePlaybackLease(testDb.db, { account: people.admin, deviceId: "x", movieId: "premiummovie1" }, t0),
    ).toEqual({ ok: true });
    expect(testDb.db.select().from(playbackLeases).where(eq(playbackLeases.accountId, "admin1")).all()).toHaveLength(0);
  });
});

describe("quality", () => {
  const renditions = [
    { rung: 360, path: "360.mp4" },
    { rung: 1080, path: "1080.mp4" },
    { rung: 720, path: "720.mp4" },
  ];
  it("serves the best rendition at or below the plan's highest rung", () => {
    expect(chooseRendition(renditions, 1080)?.path).toBe("1080.mp4");
    expect(chooseRendition(renditions, 720)?.path).toBe("720.mp4");
    expect(chooseRendition(renditions, 480)?.path).toBe("360.mp4");
  });
  it("serves the one rendition there is, and the smallest when all are above the cap", () => {
    expect(chooseRendition([{ rung: 720, path: "only.mp4" }], 240)?.path).toBe("only.mp4");
    expect(
      chooseRendition(
        [
          { rung: 2160, path: "4k.mp4" },
          { rung: 720, path: "720.mp4" },
        ],
        480,
      )?.path,
    ).toBe("720.mp4");
    expect(chooseRendition([], 1080)).toBeNull();
  });
  it("names a picture by its short side, portrait or landscape", () => {
    expect([
      rungOfPicture(640, 360),
      rungOfPicture(1080, 1920),
      rungOfPicture(3840, 2160),
      rungOfPicture(null, 720),
      rungOfPicture(null, null),
    ]).toEqual([360, 1080, 2160, 720, null]);
  });
  it("is what the file route serves", () => {
    const decision = authorizeStream(testDb.db, "freemovie01.mp4", people.viewer, "phone", t0);
    expect(decision).toMatchObject({ allowed: true, movieId: "freemovie01" });
    if (decision.allowed) expect(decision.videoPath).toMatch(/freemovie01[/\\]video\.mp4$/);
  });
});

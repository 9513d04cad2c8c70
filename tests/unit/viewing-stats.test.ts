import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { categories, movies, passes, payments, plans, seasons, series, watchEvents } from "~/db/schema";
import { adminDashboard } from "~/services/admin-dashboard.server";
import { providerDashboard } from "~/services/provider-dashboard.server";
import {
  averageShareWatched,
  dayOf,
  dayWindow,
  fillDays,
  retentionCurve,
  retentionFromSteps,
  stopShare,
  stopStep,
  stopStepSql,
  watchedSeconds,
  watchedSecondsSql,
  type Viewing,
} from "~/services/viewing-stats.server";
import { createTestDatabase, insertAccounts } from "./helpers/test-db";

const MINUTE = 60_000;
const viewing = (
  startedAt: number,
  lastedSeconds: number,
  positionSeconds: number,
  durationSeconds = 600,
): Viewing => ({
  startedAt,
  updatedAt: startedAt + lastedSeconds * 1000,
  positionSeconds,
  durationSeconds,
});

describe("watch time read from the progress reports", () => {
  it("counts how far a viewing got, never more than it lasted, nor than the film", () => {
    // Watched from the start to minute 5 in five minutes.
    expect(watchedSeconds(viewing(0, 300, 300))).toBe(300);
    // Resumed at minute 50 and watched five minutes: five minutes (and one report's interval), not fifty-five.
    expect(watchedSeconds(viewing(0, 300, 3300, 7200))).toBe(310);
    // Opened and pushed to the end at once: one report's interval.
    expect(watchedSeconds(viewing(0, 0, 600))).toBe(10);
    // Paused for twenty minutes at minute 5, then watched to minute 10: ten minutes.
    expect(watchedSeconds(viewing(0, 30 * 60, 600, 3600))).toBe(600);
    // A position past the film's end (a longer cut, since replaced): the film's length.
    expect(watchedSeconds(viewing(0, 1200, 900, 600))).toBe(600);
    // Started, no further report: nothing.
    expect(watchedSeconds(viewing(0, 0, 0))).toBe(0);
  });

  it("gives the share watched and its average over viewings", () => {
    expect(averageShareWatched([viewing(0, 300, 300), viewing(0, 600, 600)])).toBeCloseTo(0.75);
    expect(averageShareWatched([])).toBeNull();
    expect(averageShareWatched([viewing(0, 10, 10, 0)])).toBeNull();
  });

  it("reads where a viewing stopped; the last tenth (or 10 s) counts as the end", () => {
    expect(stopShare({ positionSeconds: 150, durationSeconds: 600 })).toBeCloseTo(0.25);
    expect(stopShare({ positionSeconds: 595, durationSeconds: 600 })).toBe(1);
    expect(stopShare({ positionSeconds: 5000, durationSeconds: 600 })).toBe(1);
    expect(stopShare({ positionSeconds: 5, durationSeconds: 0 })).toBe(0);
  });
});

describe("the retention curve: where viewers stop", () => {
  it("starts with every viewing and falls where viewings stop", () => {
    const stops = [0, 60, 300, 300, 600].map((positionSeconds) => ({ positionSeconds, durationSeconds: 600 }));
    const curve = retentionCurve(stops, 600, 4);
    expect(curve.map((point) => point.share)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(curve.map((point) => point.seconds)).toEqual([0, 150, 300, 450, 600]);
    // Everyone began; 3 of 5 got past the first quarter; the three at minute 5 and the finished one reached half.
    expect(curve.map((point) => point.stillWatching)).toEqual([1, 0.6, 0.6, 0.2, 0.2]);
  });

  it("is empty without viewings", () => {
    expect(retentionCurve([], 600, 4).every((point) => point.stillWatching === 0)).toBe(true);
  });

  it("never rises, starts at 100 %, and is the same from per-step counts", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1200 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 1000 }),
        (positions, durationSeconds) => {
          const stops = positions.map((positionSeconds) => ({ positionSeconds, durationSeconds }));
          const curve = retentionCurve(stops, durationSeconds);
          expect(curve[0]!.stillWatching).toBe(1);
          for (let index = 1; index < curve.length; index++)
            expect(curve[index]!.stillWatching).toBeLessThanOrEqual(curve[index - 1]!.stillWatching);
          const counts = new Map<number, number>();
          for (const stop of stops) {
            const step = stopStep(stopShare(stop), 20);
            counts.set(step, (counts.get(step) ?? 0) + 1);
          }
          expect(
            retentionFromSteps(
              [...counts].map(([step, viewings]) => ({ step, viewings })),
              durationSeconds,
            ),
          ).toEqual(curve);
        },
      ),
    );
  });
});

describe("days in West Africa Time", () => {
  it("puts a moment on its Lagos calendar day and fills a window", () => {
    expect(dayOf(Date.parse("2026-06-01T22:59:00Z"))).toBe("2026-06-01");
    expect(dayOf(Date.parse("2026-06-01T23:00:00Z"))).toBe("2026-06-02");
    const window = dayWindow(3, new Date("2026-06-10T23:30:00Z"));
    expect(window.days).toEqual(["2026-06-09", "2026-06-10", "2026-06-11"]);
    expect(window.since.toISOString()).toBe("2026-06-08T23:00:00.000Z");
    expect(fillDays(window.days, [{ day: "2026-06-10", value: 4 }])).toEqual([
      { day: "2026-06-09", value: 0 },
      { day: "2026-06-10", value: 4 },
      { day: "2026-06-11", value: 0 },
    ]);
  });
});

describe("the dashboards' numbers from viewings in the database", () => {
  let db: DB;
  let close: () => void;
  const now = new Date("2026-06-10T12:00:00Z");

  beforeEach(() => {
    ({ db, close } = createTestDatabase());
    insertAccounts(db, [
      { id: "providera001", name: "A", role: "provider" },
      { id: "providerb001", name: "B", role: "provider" },
      ...Array.from({ length: 6 }, (_, index) => ({
        id: `viewer00000${index}`,
        name: `V${index}`,
        createdAt: new Date(now.getTime() - index * 24 * 60 * MINUTE),
      })),
    ]);
    db.insert(categories).values({ id: "category0001", name: "Drama", slug: "drama" }).run();
    db.insert(series)
      .values({ id: "seriesofa001", name: "Gidan Haya", categoryId: "category0001", providerId: "providera001" })
      .run();
    db.insert(seasons).values({ id: "seasonofa001", seriesId: "seriesofa001", number: 1 }).run();
    const title = (id: string, providerId: string, durationSeconds: number, extra = {}) => ({
      id,
      name: id,
      categoryId: "category0001",
      providerId,
      status: "ready" as const,
      approved: true,
      durationSeconds,
      ...extra,
    });
    db.insert(movies)
      .values([
        title("filmofa00001", "providera001", 600, { views: 4 }),
        title("episodea0001", "providera001", 300, { seasonId: "seasonofa001", episodeNumber: 1 }),
        title("episodea0002", "providera001", 300, { seasonId: "seasonofa001", episodeNumber: 2 }),
        title("filmofb00001", "providerb001", 1200),
      ])
      .run();
    const at = (daysAgo: number) => now.getTime() - daysAgo * 24 * 60 * MINUTE;
    const events: Array<[string, number, number, number]> = [
      // [title, days ago, seconds lasted, position]
      ["filmofa00001", 0, 600, 600], // to the end
      ["filmofa00001", 0, 150, 150], // a quarter
      ["filmofa00001", 1, 300, 300], // half
      ["filmofa00001", 40, 600, 600], // outside a 30-day window
      ["episodea0001", 2, 300, 300],
      ["episodea0002", 2, 60, 60],
      ["filmofb00001", 0, 1200, 1200],
    ];
    db.insert(watchEvents)
      .values(
        events.map(([movieId, daysAgo, lasted, position], index) => ({
          id: `watch0000${index}`,
          accountId: `viewer00000${index % 6}`,
          movieId,
          startedAt: new Date(at(daysAgo)),
          updatedAt: new Date(at(daysAgo) + lasted * 1000),
          positionSeconds: position,
          viewCounted: true,
        })),
      )
      .run();
  });
  afterEach(() => close());

  it("computes watch time and stop steps the same way in SQL as in TypeScript", () => {
    const rows = db
      .select({
        startedAt: watchEvents.startedAt,
        updatedAt: watchEvents.updatedAt,
        positionSeconds: watchEvents.positionSeconds,
        durationSeconds: movies.durationSeconds,
        sqlSeconds: watchedSecondsSql,
        sqlStep: stopStepSql(20),
      })
      .from(watchEvents)
      .innerJoin(movies, eq(movies.id, watchEvents.movieId))
      .all();
    expect(rows.length).toBe(7);
    for (const row of rows) {
      const plain = { ...row, startedAt: row.startedAt.getTime(), updatedAt: row.updatedAt.getTime() };
      expect(Number(row.sqlSeconds)).toBeCloseTo(watchedSeconds(plain), 6);
      expect(Number(row.sqlStep)).toBe(stopStep(stopShare(plain), 20));
    }
    expect(db.get<{ n: number }>(sql`select count(*) as n from watch_events`).n).toBe(7);
  });

  it("gives a provider views and hours per day, shares per title and per episode, and a retention curve", () => {
    const board = providerDashboard(db, "providera001", { days: 30, now });
    expect(board.viewsPerDay).toHaveLength(30);
    expect(board.viewsPerDay.at(-1)).toEqual({ day: "2026-06-10", value: 2 });
    expect(board.viewsPerDay.at(-2)).toEqual({ day: "2026-06-09", value: 1 });
    expect(board.totals.views).toBe(5);
    // 600 + 150 + 300 + 300 + 60 seconds of provider A's titles in the window.
    expect(board.totals.hours).toBeCloseTo(1410 / 3600, 2);
    expect(board.hoursPerDay.at(-1)!.value).toBeCloseTo(750 / 3600, 2);
    const film = board.titles.find((title) => title.id === "filmofa00001")!;
    expect(film).toMatchObject({ viewings: 3, totalViews: 4 });
    expect(film.averageShare).toBeCloseTo((1 + 0.25 + 0.5) / 3);
    expect(board.series).toHaveLength(1);
    expect(board.series[0]!.episodes.map((episode) => [episode.code, episode.averageShare])).toEqual([
      ["S1E1", 1],
      ["S1E2", 0.2],
    ]);
    // Retention of the most viewed title: 3 viewings; all reached a quarter, 2 half, 1 the end.
    expect(board.retention!.title.id).toBe("filmofa00001");
    expect(board.retention!.viewings).toBe(3);
    const at = (share: number) => board.retention!.points.find((point) => point.share === share)!.stillWatching;
    expect(at(0)).toBe(1);
    expect(at(0.25)).toBe(1);
    expect(at(0.3)).toBeCloseTo(2 / 3);
    expect(at(0.5)).toBeCloseTo(2 / 3);
    expect(at(0.55)).toBeCloseTo(1 / 3);
    expect(at(1)).toBeCloseTo(1 / 3);
    // Another title's curve when asked for; another provider's title is not theirs to ask for.
    expect(providerDashboard(db, "providera001", { days: 30, now, titleId: "episodea0002" }).retention!.title.id).toBe(
      "episodea0002",
    );
    expect(providerDashboard(db, "providera001", { days: 30, now, titleId: "filmofb00001" }).retention!.title.id).toBe(
      "filmofa00001",
    );
    // The 40-day-old viewing counts in a 90-day window.
    expect(providerDashboard(db, "providera001", { days: 90, now }).totals.views).toBe(6);
  });

  it("gives the administrator revenue, passes, sign-ups, hours and top titles", () => {
    db.insert(plans).values({ id: "planbasic001", code: "BASIC", name: "Basic" }).run();
    db.insert(payments)
      .values([
        {
          id: "pay1",
          accountId: "viewer000001",
          planId: "planbasic001",
          periodDays: 7,
          amountMinor: 150_000,
          currency: "NGN",
          reference: "r1",
          status: "success",
          paidAt: new Date(now.getTime() - 60 * MINUTE),
        },
        {
          id: "pay2",
          accountId: "viewer000002",
          planId: "planbasic001",
          periodDays: 7,
          amountMinor: 150_000,
          currency: "NGN",
          reference: "r2",
          status: "success",
          paidAt: new Date(now.getTime() - 26 * 60 * MINUTE),
        },
        {
          id: "pay3",
          accountId: "viewer000003",
          planId: "planbasic001",
          periodDays: 7,
          amountMinor: 150_000,
          currency: "NGN",
          reference: "r3",
          status: "failed",
        },
      ])
      .run();
    db.insert(passes)
      .values([
        {
          id: "pass1",
          accountId: "viewer000001",
          planId: "planbasic001",
          startsAt: new Date(now.getTime() - 3 * 24 * 60 * MINUTE),
          endsAt: new Date(now.getTime() + 4 * 24 * 60 * MINUTE),
          source: "payment",
        },
        {
          id: "pass2",
          accountId: "viewer000002",
          planId: "planbasic001",
          startsAt: new Date(now.getTime() - 10 * 24 * 60 * MINUTE),
          endsAt: new Date(now.getTime() - 2 * 24 * 60 * MINUTE),
          source: "voucher",
        },
      ])
      .run();
    const board = adminDashboard(db, {
      days: 30,
      now,
      root: db.$client.name.replace(/data\.db$/, ""),
      reserveBytes: 0,
    });
    expect(board.revenue).toHaveLength(1);
    expect(board.revenue[0]!).toMatchObject({ currency: "NGN", totalMinor: 300_000 });
    expect(board.revenue[0]!.perDay.at(-1)!.value).toBe(150_000);
    expect(board.revenue[0]!.perDay.at(-2)!.value).toBe(150_000);
    expect(board.revenueByPlan).toEqual([
      { planId: "planbasic001", name: "Basic", currency: "NGN", payments: 2, amountMinor: 300_000 },
    ]);
    expect(board.passesActiveNow).toBe(1);
    // At the end of the day pass1 began both ran; at the end of the day pass2 ended only pass1.
    expect(board.passesActive.at(-5)!.value).toBe(1);
    expect(board.passesActive.at(-4)!.value).toBe(2);
    expect(board.passesActive.at(-3)!.value).toBe(1);
    expect(board.passesActive.at(-12)!.value).toBe(0);
    // Six viewers, one a day for six days.
    expect(board.signUps.reduce((total, point) => total + point.value, 0)).toBe(6);
    expect(board.signUps.at(-1)!.value).toBe(1);
    expect(board.hoursPerDay.reduce((total, point) => total + point.value, 0)).toBeCloseTo((1410 + 1200) / 3600, 1);
    expect(board.topTitles.map((row) => row.id)).toEqual([
      "filmofb00001",
      "filmofa00001",
      "episodea0001",
      "episodea0002",
    ]);
    expect(board.disk.totalBytes).toBeGreaterThan(0);
  });
});

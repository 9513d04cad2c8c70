import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { categories, movies, payments, plans, savedMovies, watchEvents } from "~/db/schema";
import {
  keptCountsForPage,
  listRecentPlays,
  PROVIDER_REVENUE_SHARE,
  providerEarnings,
} from "~/services/provider-stats.server";
import { createTestDatabase, insertAccounts } from "./helpers/test-db";

let db: DB;
let close: () => void;
const now = new Date("2026-11-20T12:00:00Z");
const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);

beforeEach(() => {
  ({ db, close } = createTestDatabase());
  insertAccounts(db, [
    { id: "providera001", name: "A", role: "provider" },
    { id: "providerb001", name: "B", role: "provider" },
    { id: "viewer000001", name: "V1" },
    { id: "viewer000002", name: "V2" },
  ]);
  db.insert(categories).values({ id: "category0001", name: "Action", slug: "action" }).run();
  db.insert(movies)
    .values([
      {
        id: "movieofa0001",
        name: "A one",
        categoryId: "category0001",
        providerId: "providera001",
        status: "ready",
        approved: true,
        views: 7,
        durationSeconds: 600,
      },
      {
        id: "movieofa0002",
        name: "A two",
        categoryId: "category0001",
        providerId: "providera001",
        status: "ready",
        approved: true,
        views: 2,
        durationSeconds: 600,
      },
      {
        id: "movieofb0001",
        name: "B one",
        categoryId: "category0001",
        providerId: "providerb001",
        status: "ready",
        approved: true,
        views: 50,
        durationSeconds: 600,
      },
    ])
    .run();
});
afterEach(() => close());

describe("what a provider sees about their titles", () => {
  it("lists only their own titles' plays, newest first", () => {
    db.insert(watchEvents)
      .values([
        {
          id: "play00000001",
          accountId: "viewer000001",
          movieId: "movieofa0001",
          startedAt: ago(3),
          updatedAt: ago(3),
          positionSeconds: 300,
        },
        {
          id: "play00000002",
          accountId: "viewer000002",
          movieId: "movieofa0002",
          startedAt: ago(1),
          updatedAt: ago(1),
          positionSeconds: 60,
        },
        {
          id: "play00000003",
          accountId: "viewer000001",
          movieId: "movieofb0001",
          startedAt: ago(0),
          updatedAt: ago(0),
          positionSeconds: 600,
        },
      ])
      .run();
    expect(listRecentPlays(db, "providera001", { limit: 10 }).map((play) => play.movieName)).toEqual([
      "A two",
      "A one",
    ]);
    expect(listRecentPlays(db, "providerb001", { limit: 10 })).toHaveLength(1);
  });

  it("counts the viewers who keep each title on watch later or saved", () => {
    db.insert(savedMovies)
      .values([
        { accountId: "viewer000001", profileId: "viewer000001", movieId: "movieofa0001", list: "watch_later" },
        { accountId: "viewer000002", profileId: "viewer000002", movieId: "movieofa0001", list: "watch_later" },
        { accountId: "viewer000001", profileId: "viewer000001", movieId: "movieofa0002", list: "watch_later" },
        { accountId: "viewer000001", profileId: "viewer000001", movieId: "movieofa0002", list: "saved" },
        { accountId: "viewer000001", profileId: "viewer000001", movieId: "movieofb0001", list: "watch_later" },
      ])
      .run();
    expect(keptCountsForPage(db, "providera001", "watch_later").map((row) => [row.movieName, row.viewers])).toEqual([
      ["A one", 2],
      ["A two", 1],
    ]);
    expect(keptCountsForPage(db, "providera001", "saved").map((row) => [row.movieName, row.viewers])).toEqual([
      ["A two", 1],
    ]);
  });

  it("shares pass revenue in proportion to the time their titles were watched", () => {
    db.insert(plans).values({ id: "planbasic001", code: "BASIC", name: "Basic", premium: true }).run();
    db.insert(payments)
      .values({
        id: "payment00001",
        accountId: "viewer000001",
        planId: "planbasic001",
        periodDays: 30,
        amountMinor: 10_000,
        currency: "USD",
        reference: "r1",
        status: "success",
        paidAt: ago(2),
      })
      .run();
    db.insert(watchEvents)
      .values([
        // Five minutes watched in five minutes.
        {
          id: "play00000001",
          accountId: "viewer000001",
          movieId: "movieofa0001",
          startedAt: ago(3),
          updatedAt: new Date(ago(3).getTime() + 300_000),
          positionSeconds: 300,
        },
        // A 10-minute film reported at minute 15 (a longer cut that was replaced): counted as its 10 minutes.
        {
          id: "play00000002",
          accountId: "viewer000002",
          movieId: "movieofb0001",
          startedAt: ago(1),
          updatedAt: new Date(ago(1).getTime() + 900_000),
          positionSeconds: 900,
        },
        // Opened and pushed to the end at once: ten seconds, not the film.
        {
          id: "play00000003",
          accountId: "viewer000001",
          movieId: "movieofa0002",
          startedAt: ago(1),
          updatedAt: ago(1),
          positionSeconds: 600,
        },
      ])
      .run();
    const earnings = providerEarnings(db, "providera001", now);
    expect(earnings.totalViews).toBe(9);
    expect(earnings.watchedSeconds).toBe(310);
    expect(earnings.watchShare).toBeCloseTo(310 / 910);
    expect(earnings.earnings).toEqual([
      { currency: "USD", amountMinor: Math.floor(10_000 * PROVIDER_REVENUE_SHARE * (310 / 910)) },
    ]);
    expect(providerEarnings(db, "providerb001", now).earnings[0].amountMinor).toBe(
      Math.floor(10_000 * PROVIDER_REVENUE_SHARE * (600 / 910)),
    );
  });
});

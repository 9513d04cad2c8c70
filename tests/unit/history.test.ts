import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { accounts, categories, movies, savedMovies, watchEvents } from "~/db/schema";
import { clearHistory, listHistory, parseHistoryPeriod, removeFromHistory } from "~/services/history.server";
import { listSavedMovies } from "~/services/saved-lists.server";
import { getWatchPage, recordProgress } from "~/services/watching.server";
import { createTestDatabase, insertTitle, firstProfileOf, byFirstProfile } from "./helpers/test-db";

let db: DB;
let close: () => void;
const now = new Date("2026-11-20T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000);
const me = "viewer000001";
const other = "viewer000002";

function addMovie(id: string, values: Partial<typeof movies.$inferInsert> = {}) {
  insertTitle(db, id, { categoryId: "catdramaaaaa", durationSeconds: 600 }, values);
}
let eventCount = 0;
function watched(accountId: string, movieId: string, when: Date, positionSeconds = 60) {
  eventCount += 1;
  db.insert(watchEvents)
    .values({
      id: `event${String(eventCount).padStart(8, "0")}`,
      accountId,
      movieId,
      startedAt: when,
      updatedAt: when,
      positionSeconds,
    })
    .run();
}
const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

beforeEach(() => {
  ({ db, close } = createTestDatabase());
  db.insert(accounts)
    .values([
      { id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" },
      { id: me, name: "Me", email: "me@t.test", phoneNumber: "1", passwordHash: "x" },
      { id: other, name: "Other", email: "o@t.test", phoneNumber: "1", passwordHash: "x" },
    ])
    .run();
  db.insert(categories).values({ id: "catdramaaaaa", name: "Drama", slug: "drama" }).run();
  addMovie("weekold0001", { name: "Kano Nights" });
  addMovie("monthold001", { name: "Gidan Café", description: "A harmattan story" });
  addMovie("yearold0001", { name: "Old Times" });
  addMovie("ancient0001", { name: "Very Old" });
  watched(me, "weekold0001", daysAgo(2), 100);
  watched(me, "monthold001", daysAgo(20), 30);
  watched(me, "yearold0001", daysAgo(200));
  watched(me, "ancient0001", daysAgo(500));
  watched(other, "weekold0001", daysAgo(1));
});
afterEach(() => close());

describe("a viewer's history", () => {
  it("lists their own titles once each, newest first, at the latest viewing's position", () => {
    watched(me, "monthold001", daysAgo(25), 10);
    const page = listHistory(db, firstProfileOf(me), {}, now);
    expect(ids(page)).toEqual(["weekold0001", "monthold001", "yearold0001", "ancient0001"]);
    expect(page.items[1]).toMatchObject({
      positionSeconds: 30,
      lastWatchedAt: daysAgo(20).toISOString(),
      durationSeconds: 600,
      finished: false,
    });
    watched(me, "yearold0001", daysAgo(100), 595);
    expect(listHistory(db, firstProfileOf(me), {}, now).items.find((item) => item.id === "yearold0001")).toMatchObject({
      positionSeconds: 595,
      finished: true,
    });
    expect(page.total).toBe(4);
    expect(ids(listHistory(db, firstProfileOf(other), {}, now))).toEqual(["weekold0001"]);
  });

  it("filters by the last 7, 30 and 365 days", () => {
    expect(ids(listHistory(db, firstProfileOf(me), { period: "recent" }, now))).toEqual(["weekold0001"]);
    expect(ids(listHistory(db, firstProfileOf(me), { period: "month" }, now))).toEqual(["weekold0001", "monthold001"]);
    expect(ids(listHistory(db, firstProfileOf(me), { period: "year" }, now))).toEqual([
      "weekold0001",
      "monthold001",
      "yearold0001",
    ]);
    expect(parseHistoryPeriod("month")).toBe("month");
    expect(parseHistoryPeriod("toString")).toBeNull();
    expect(parseHistoryPeriod(null)).toBeNull();
  });

  it("searches within the history by title or description, accents ignored", () => {
    expect(ids(listHistory(db, firstProfileOf(me), { q: "cafe" }, now))).toEqual(["monthold001"]);
    expect(ids(listHistory(db, firstProfileOf(me), { q: "HARMATTAN", period: "month" }, now))).toEqual(["monthold001"]);
    expect(ids(listHistory(db, firstProfileOf(me), { q: "harmattan", period: "recent" }, now))).toEqual([]);
    expect(ids(listHistory(db, firstProfileOf(other), { q: "cafe" }, now))).toEqual([]);
    expect(listHistory(db, firstProfileOf(me), { q: '"*' }, now).total).toBe(0);
  });

  it("shows only published titles", () => {
    db.update(movies).set({ approved: false }).where(eq(movies.id, "weekold0001")).run();
    db.update(movies).set({ status: "failed" }).where(eq(movies.id, "yearold0001")).run();
    expect(ids(listHistory(db, firstProfileOf(me), {}, now))).toEqual(["monthold001", "ancient0001"]);
  });

  it("pages", () => {
    const first = listHistory(db, firstProfileOf(me), { pageSize: 3 }, now);
    const second = listHistory(db, firstProfileOf(me), { pageSize: 3, page: 2 }, now);
    expect(first).toMatchObject({ total: 4, pageCount: 2, page: 1 });
    expect([...ids(first), ...ids(second)]).toEqual(["weekold0001", "monthold001", "yearold0001", "ancient0001"]);
  });

  it("removes one title, or clears everything, for this viewer only — and forgets where to resume", () => {
    expect(getWatchPage(db, "weekold0001", { ...firstProfileOf(me), role: "viewer" as const })?.resumeSeconds).toBe(
      100,
    );
    expect(removeFromHistory(db, firstProfileOf(me), "weekold0001", now)).toBe(1);
    expect(removeFromHistory(db, firstProfileOf(me), "weekold0001", now)).toBe(0);
    expect(ids(listHistory(db, firstProfileOf(me), {}, now))).toEqual(["monthold001", "yearold0001", "ancient0001"]);
    expect(ids(listHistory(db, firstProfileOf(other), {}, now))).toEqual(["weekold0001"]);
    expect(getWatchPage(db, "weekold0001", { ...firstProfileOf(me), role: "viewer" as const })?.resumeSeconds).toBe(0);
    // The viewing stays for the anonymous counts.
    expect(
      db
        .select()
        .from(watchEvents)
        .where(and(eq(watchEvents.accountId, me), eq(watchEvents.movieId, "weekold0001")))
        .all(),
    ).toHaveLength(1);

    // Playing again makes a new, visible viewing.
    const progress = recordProgress(db, { ...byFirstProfile(me), movieId: "weekold0001", positionSeconds: 5 }, now);
    expect(progress).toMatchObject({ ok: true, newViewing: true });
    expect(ids(listHistory(db, firstProfileOf(me), {}, now))[0]).toBe("weekold0001");

    expect(clearHistory(db, firstProfileOf(me), now)).toBe(4);
    expect(listHistory(db, firstProfileOf(me), {}, now).total).toBe(0);
    expect(listHistory(db, firstProfileOf(other), {}, now).total).toBe(1);
  });
});

describe("a viewer's watch-later and saved lists", () => {
  it("lists published titles of one list, last added first", () => {
    db.insert(savedMovies)
      .values([
        { ...byFirstProfile(me), movieId: "weekold0001", list: "watch_later", createdAt: daysAgo(3) },
        { ...byFirstProfile(me), movieId: "monthold001", list: "watch_later", createdAt: daysAgo(1) },
        { ...byFirstProfile(me), movieId: "yearold0001", list: "saved", createdAt: daysAgo(1) },
        { ...byFirstProfile(me), movieId: "ancient0001", list: "watch_later", createdAt: daysAgo(0) },
        { ...byFirstProfile(other), movieId: "yearold0001", list: "watch_later", createdAt: daysAgo(0) },
      ])
      .run();
    db.update(movies).set({ approved: false }).where(eq(movies.id, "ancient0001")).run();
    expect(ids(listSavedMovies(db, firstProfileOf(me), "watch_later"))).toEqual(["monthold001", "weekold0001"]);
    expect(ids(listSavedMovies(db, firstProfileOf(me), "saved"))).toEqual(["yearold0001"]);
    expect(listSavedMovies(db, firstProfileOf(me), "watch_later").total).toBe(2);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { accounts, categories, movies, ratings, watchEvents } from "~/db/schema";
import { eq } from "drizzle-orm";
import {
  listCatalogue,
  listTrendingMovies,
  parseCatalogueFilter,
  parseCatalogueSort,
} from "~/services/catalogue-lists.server";
import { TRENDING_REFRESH_MS } from "~/services/catalogue.server";
import { catalogueNow as now, createTestDatabase, daysAgo, insertTitle } from "./helpers/test-db";

let db: DB;
let close: () => void;

function addMovie(id: string, values: Partial<typeof movies.$inferInsert> = {}) {
  insertTitle(db, id, { categoryId: "catactionaaa", uploadedAt: daysAgo(60) }, values);
}

beforeEach(() => {
  ({ db, close } = createTestDatabase());
  db.insert(accounts)
    .values([
      { id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" },
      { id: "viewer000001", name: "V", email: "v@t.test", phoneNumber: "1", passwordHash: "x" },
    ])
    .run();
  db.insert(categories).values({ id: "catactionaaa", name: "Action", slug: "action" }).run();
});
afterEach(() => close());

describe("the /movies listing", () => {
  it("sorts by upload date both ways and shows only published titles", () => {
    addMovie("oldest00001", { uploadedAt: daysAgo(90) });
    addMovie("middle00001", { uploadedAt: daysAgo(50) });
    addMovie("newest00001", { uploadedAt: daysAgo(1) });
    addMovie("hidden00001", { approved: false, uploadedAt: daysAgo(2) });
    addMovie("process0001", { status: "processing", uploadedAt: daysAgo(3) });
    expect(listCatalogue({ sort: "old" }, db, now).movies.map((m) => m.id)).toEqual([
      "oldest00001",
      "middle00001",
      "newest00001",
    ]);
    expect(listCatalogue({ sort: "new" }, db, now).movies.map((m) => m.id)).toEqual([
      "newest00001",
      "middle00001",
      "oldest00001",
    ]);
    expect(listCatalogue({}, db, now).total).toBe(3);
  });

  it("filters featured, new (last 30 days) and trending (played this week, most played first)", () => {
    addMovie("featured001", { featured: true });
    addMovie("recent00001", { uploadedAt: daysAgo(5) });
    addMovie("played00001");
    addMovie("played00002");
    addMovie("playedlong1");
    const play = (id: string, movieId: string, days: number) =>
      db
        .insert(watchEvents)
        .values({ id, accountId: "viewer000001", movieId, startedAt: daysAgo(days), updatedAt: daysAgo(days) })
        .run();
    play("we1aaaaaaaaa", "played00001", 1);
    play("we2aaaaaaaaa", "played00002", 1);
    play("we3aaaaaaaaa", "played00002", 2);
    play("we4aaaaaaaaa", "playedlong1", 20);
    expect(listCatalogue({ filter: "featured" }, db, now).movies.map((m) => m.id)).toEqual(["featured001"]);
    expect(listCatalogue({ filter: "new" }, db, now).movies.map((m) => m.id)).toEqual(["recent00001"]);
    const trending = listCatalogue({ filter: "trending" }, db, now);
    expect(trending.movies.map((m) => m.id)).toEqual(["played00002", "played00001"]);
    expect(trending.total).toBe(2);
  });

  it("keeps the week's trending ranking for a minute, sorts it by date on request, and never shows a title unpublished since", () => {
    addMovie("played00001", { uploadedAt: daysAgo(10) });
    addMovie("played00002", { uploadedAt: daysAgo(40) });
    addMovie("notyet00001", { uploadedAt: daysAgo(5) });
    const play = (id: string, movieId: string, at: Date) =>
      db.insert(watchEvents).values({ id, accountId: "viewer000001", movieId, startedAt: at, updatedAt: at }).run();
    play("we1aaaaaaaaa", "played00001", daysAgo(1));
    play("we2aaaaaaaaa", "played00002", daysAgo(1));
    play("we3aaaaaaaaa", "played00002", daysAgo(2));
    expect(listCatalogue({ filter: "trending" }, db, now).movies.map((m) => m.id)).toEqual([
      "played00002",
      "played00001",
    ]);
    expect(listCatalogue({ filter: "trending", sort: "new" }, db, now).movies.map((m) => m.id)).toEqual([
      "played00001",
      "played00002",
    ]);
    expect(listCatalogue({ filter: "trending", sort: "old" }, db, now).movies.map((m) => m.id)).toEqual([
      "played00002",
      "played00001",
    ]);

    // New plays count once the minute is up, not before.
    play("we4aaaaaaaaa", "notyet00001", now);
    const soon = new Date(now.getTime() + TRENDING_REFRESH_MS - 1);
    expect(listCatalogue({ filter: "trending" }, db, soon).total).toBe(2);
    const later = new Date(now.getTime() + TRENDING_REFRESH_MS);
    expect(listCatalogue({ filter: "trending" }, db, later).movies.map((m) => m.id)).toEqual([
      "played00002",
      "notyet00001",
      "played00001",
    ]);

    // Unpublishing takes effect at once, whatever the kept ranking says.
    db.update(movies).set({ approved: false }).where(eq(movies.id, "played00002")).run();
    expect(listCatalogue({ filter: "trending" }, db, later).movies.map((m) => m.id)).toEqual([
      "notyet00001",
      "played00001",
    ]);
    expect(listTrendingMovies(2, db, later).map((m) => m.id)).toEqual(["notyet00001", "played00001"]);
  });

  it("pages with LIMIT/OFFSET, counts every match and clamps the page", () => {
    for (let i = 0; i < 30; i++) addMovie(`movie${String(i).padStart(6, "0")}`, { uploadedAt: daysAgo(100 - i) });
    const first = listCatalogue({ sort: "old", page: 1, pageSize: 24 }, db, now);
    expect(first).toMatchObject({ total: 30, page: 1, pageCount: 2 });
    expect(first.movies).toHaveLength(24);
    const second = listCatalogue({ sort: "old", page: 2, pageSize: 24 }, db, now);
    expect(second.movies.map((m) => m.id)).toEqual([
      "movie000024",
      "movie000025",
      "movie000026",
      "movie000027",
      "movie000028",
      "movie000029",
    ]);
    expect(listCatalogue({ sort: "old", page: 99, pageSize: 24 }, db, now).page).toBe(2);
    expect(listCatalogue({ page: -3 }, db, now).page).toBe(1);
  });

  it("gives each card its real average rating and count", () => {
    addMovie("rated000001");
    db.insert(ratings)
      .values([
        { movieId: "rated000001", accountId: "viewer000001", stars: 4 },
        { movieId: "rated000001", accountId: "provider0001", stars: 5 },
      ])
      .run();
    expect(listCatalogue({}, db, now).movies[0]).toMatchObject({ averageRating: 4.5, ratingCount: 2 });
  });

  it("ignores unknown sort and filter values", () => {
    expect(parseCatalogueSort("old")).toBe("old");
    expect(parseCatalogueSort("drop table")).toBeNull();
    expect(parseCatalogueFilter("trending")).toBe("trending");
    expect(parseCatalogueFilter(null)).toBeNull();
  });
});

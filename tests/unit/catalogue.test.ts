import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import type { movies } from "~/db/schema";
import { accounts, categories, ratings, watchEvents } from "~/db/schema";
import {
  listFeaturedMovies,
  listMoviesInCategory,
  listNewMovies,
  listSuggestedMovies,
  listTrendingMovies,
  loadLandingCatalogue,
} from "~/services/catalogue-lists.server";
import { catalogueNow as now, createTestDatabase, daysAgo, insertTitle } from "./helpers/test-db";

let db: DB;
let close: () => void;

function addMovie(id: string, values: Partial<typeof movies.$inferInsert> = {}) {
  insertTitle(db, id, { categoryId: "catactionaaa", posterFile: `${id}-card.jpg`, uploadedAt: daysAgo(10) }, values);
}
function addViewer(id: string) {
  db.insert(accounts)
    .values({ id, name: id, email: `${id}@t.test`, phoneNumber: "1", passwordHash: "x" })
    .run();
}

beforeEach(() => {
  ({ db, close } = createTestDatabase());
  db.insert(accounts)
    .values({ id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" })
    .run();
  db.insert(categories)
    .values([
      { id: "catactionaaa", name: "Action", slug: "action" },
      { id: "catcomedyaaa", name: "Comedy", slug: "comedy" },
    ])
    .run();
});
afterEach(() => close());

describe("the public catalogue", () => {
  it("shows only published titles (ready and approved) in every list", () => {
    addMovie("published01", { featured: true, views: 5 });
    addMovie("processing1", { status: "processing", featured: true });
    addMovie("failed00001", { status: "failed", featured: true });
    addMovie("unapproved1", { approved: false, featured: true, views: 100 });
    const lists = [
      listFeaturedMovies(10, db),
      listNewMovies(10, db),
      listMoviesInCategory("action", 10, db),
      listTrendingMovies(10, db, now),
      listSuggestedMovies(10, db),
    ];
    for (const list of lists) expect(list.map((movie) => movie.id)).toEqual(["published01"]);
  });

  it("orders new titles newest first and limits the lists", () => {
    addMovie("older000001", { uploadedAt: daysAgo(30) });
    addMovie("newest00001", { uploadedAt: daysAgo(1) });
    addMovie("middle00001", { uploadedAt: daysAgo(5), categoryId: "catcomedyaaa" });
    expect(listNewMovies(10, db).map((m) => m.id)).toEqual(["newest00001", "middle00001", "older000001"]);
    expect(listNewMovies(2, db)).toHaveLength(2);
    expect(listMoviesInCategory("comedy", 10, db).map((m) => m.id)).toEqual(["middle00001"]);
  });

  it("ranks trending by plays in the last seven days, not all-time views", () => {
    addMovie("oldfavour01", { views: 1000 });
    addMovie("hotthisweek", { views: 3 });
    addViewer("viewer000001");
    for (let i = 0; i < 4; i++) {
      db.insert(watchEvents)
        .values({
          id: `we${i}aaaaaaaaa`,
          accountId: "viewer000001",
          movieId: "hotthisweek",
          startedAt: daysAgo(i + 1),
          updatedAt: daysAgo(i + 1),
        })
        .run();
    }
    db.insert(watchEvents)
      .values({
        id: "weoldaaaaaaaa",
        accountId: "viewer000001",
        movieId: "oldfavour01",
        startedAt: daysAgo(20),
        updatedAt: daysAgo(20),
      })
      .run();
    expect(listTrendingMovies(10, db, now).map((m) => m.id)).toEqual(["hotthisweek", "oldfavour01"]);
  });

  it("gives the real average rating and count", () => {
    addMovie("rated000001");
    addMovie("unrated0001");
    for (const [viewer, stars] of [
      ["viewera00001", 5],
      ["viewerb00001", 4],
    ] as const) {
      addViewer(viewer);
      db.insert(ratings).values({ movieId: "rated000001", accountId: viewer, stars }).run();
    }
    const byId = new Map(listNewMovies(10, db).map((movie) => [movie.id, movie]));
    expect(byId.get("rated000001")).toMatchObject({ averageRating: 4.5, ratingCount: 2 });
    expect(byId.get("unrated0001")).toMatchObject({ averageRating: null, ratingCount: 0 });
    expect(listSuggestedMovies(10, db)[0].id).toBe("rated000001");
  });
});

describe("the landing page's Featured, New and Trending carousels", () => {
  it("Featured is the administrator's featured titles, New the newest ready ones, Trending this week's plays", () => {
    addMovie("featured001", { featured: true, uploadedAt: daysAgo(40) });
    addMovie("plainnew001", { uploadedAt: daysAgo(1) });
    addMovie("watched0001", { uploadedAt: daysAgo(60), views: 2 });
    // Never shown, whatever their dates, views or flags.
    addMovie("hidden00001", { approved: false, featured: true, uploadedAt: daysAgo(0), views: 999 });
    addMovie("processing2", { status: "processing", featured: true, uploadedAt: daysAgo(0) });
    addMovie("failed00002", { status: "failed", uploadedAt: daysAgo(0) });
    addViewer("viewer000009");
    for (const [index, movieId] of [
      "watched0001",
      "watched0001",
      "hidden00001",
      "hidden00001",
      "hidden00001",
      "featured001",
    ].entries()) {
      db.insert(watchEvents)
        .values({
          id: `landing${index}aaaaaa`,
          accountId: "viewer000009",
          movieId,
          startedAt: daysAgo(2),
          updatedAt: daysAgo(2),
        })
        .run();
    }
    const landing = loadLandingCatalogue(db);
    expect(landing.featured.map((m) => m.id)).toEqual(["featured001"]);
    expect(landing.newest.map((m) => m.id)).toEqual(["plainnew001", "featured001", "watched0001"]);
    expect(listTrendingMovies(10, db, now).map((m) => m.id)).toEqual(["watched0001", "featured001", "plainnew001"]);
    for (const list of Object.values(landing)) {
      for (const id of ["hidden00001", "processing2", "failed00002"]) expect(list?.map((m) => m.id)).not.toContain(id);
    }
    expect(landing.action).not.toBeNull();

    // A title in several sections is one object in all of them (the page's data carries it once), the featured one's.
    const featuredCard = landing.featured[0]!;
    expect(landing.newest.find((m) => m.id === "featured001")).toBe(featuredCard);
    expect(landing.suggested.find((m) => m.id === "featured001")).toBe(featuredCard);
    const newestCard = landing.newest.find((m) => m.id === "plainnew001")!;
    expect(landing.suggested.find((m) => m.id === "plainnew001")).toBe(newestCard);
    expect(newestCard).toEqual(listNewMovies(10, db).find((m) => m.id === "plainnew001"));
  });

  it("has no Action row on an install without that category", () => {
    const bare = createTestDatabase();
    try {
      expect(loadLandingCatalogue(bare.db).action).toBeNull();
    } finally {
      bare.close();
    }
  });
});

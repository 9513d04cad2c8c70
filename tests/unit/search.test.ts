import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { accounts, catalogueVersion, categories, movies, seasons, series, watchEvents } from "~/db/schema";
import {
  browseCatalogue,
  foldHausaLetters,
  listCategoryTiles,
  resolveCategoryImage,
  searchEpisodes,
  suggestTitles,
  SUGGESTIONS_MAX,
  toFtsQuery,
} from "~/services/search.server";
import { countStatements } from "./helpers/count-statements";
import { createTestDatabase, insertTitle } from "./helpers/test-db";

let db: DB;
let dir: string;
let close: () => void;
const now = new Date("2026-11-20T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000);

function addMovie(id: string, values: Partial<typeof movies.$inferInsert> = {}) {
  insertTitle(db, id, { categoryId: "catdramaaaaa", uploadedAt: daysAgo(10) }, values);
}
const ids = (result: { movies: { id: string }[] }) => result.movies.map((movie) => movie.id);

beforeEach(() => {
  ({ db, dir, close } = createTestDatabase());
  db.insert(accounts)
    .values({ id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" })
    .run();
  db.insert(accounts)
    .values({ id: "viewer000001", name: "V", email: "v@t.test", phoneNumber: "1", passwordHash: "x" })
    .run();
  db.insert(categories)
    .values([
      { id: "catdramaaaaa", name: "Drama", slug: "drama", sortOrder: 1 },
      { id: "catcomedyaaa", name: "Comedy", slug: "comedy", sortOrder: 0, imageFile: "catcomedyaaa.jpg" },
    ])
    .run();
});
afterEach(() => close());

describe("turning what a person types into a safe FTS5 query", () => {
  it("quotes every word and lets the last one match as a prefix", () => {
    expect(toFtsQuery("Kano nights")).toBe('"Kano" "nights"*');
    expect(toFtsQuery("  café ")).toBe('"café"*');
    expect(toFtsQuery("a")).toBe('"a"');
  });

  it("drops operators' punctuation and leaves nothing for pure garbage", () => {
    expect(toFtsQuery('"')).toBeNull();
    expect(toFtsQuery("*")).toBeNull();
    expect(toFtsQuery("AND(")).toBe('"AND"*');
    expect(toFtsQuery('name:"x" OR -y NEAR(a bc)')).toBe('"name" "x" "OR" "y" "NEAR" "a" "bc"*');
    expect(toFtsQuery("")).toBeNull();
  });

  it("never makes the database fail, whatever is typed", () => {
    addMovie("kanonights1", { name: "Kano Nights" });
    for (const input of [
      '"',
      "*",
      "AND(",
      "NEAR",
      "NEAR(",
      "OR",
      "NOT",
      "^",
      "-",
      ":",
      "{name}:x",
      "'; DROP TABLE movies; --",
      "\u0000",
      "😀 kano",
    ]) {
      expect(() => browseCatalogue({ q: input }, db, now)).not.toThrow();
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (input) => {
        const result = browseCatalogue({ q: input }, db, now);
        expect(result.total).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe("searching published titles", () => {
  it("finds words of the title, description and cast, ignoring case and accents", () => {
    addMovie("cafemovie01", { name: "Café Dare", description: "Wani labari" });
    addMovie("descmovie01", { name: "Gida", description: "A story of the old harmattan market" });
    addMovie("castmovie01", { name: "Zuma", cast: "Ali Nuhu, Rahama Sadau" });
    expect(ids(browseCatalogue({ q: "cafe" }, db, now))).toEqual(["cafemovie01"]);
    expect(ids(browseCatalogue({ q: "CAFÉ dare" }, db, now))).toEqual(["cafemovie01"]);
    expect(ids(browseCatalogue({ q: "harmattan" }, db, now))).toEqual(["descmovie01"]);
    expect(ids(browseCatalogue({ q: "sadau" }, db, now))).toEqual(["castmovie01"]);
    expect(ids(browseCatalogue({ q: "harmat" }, db, now))).toEqual(["descmovie01"]);
    expect(browseCatalogue({ q: "nothing-like-this" }, db, now).total).toBe(0);
  });

  it("finds Hausa's hooked letters with or without the hooks, in the title, the description and the cast", () => {
    expect(foldHausaLetters("Ɗan ƙauye ɓarawo ƴaƴa ƘƁƳ")).toBe("Dan kauye barawo yaya KBY");
    addMovie("dankasuwa01", { name: "Ɗan Kasuwa", description: "Labarin ƙauye", cast: "Ɓello Ƴusuf" });
    addMovie("plaindan001", { name: "Dan Birni", description: "A city story" });
    expect(ids(browseCatalogue({ q: "kasuwa dan" }, db, now))).toEqual(["dankasuwa01"]);
    expect(ids(browseCatalogue({ q: "kauye" }, db, now))).toEqual(["dankasuwa01"]);
    expect(ids(browseCatalogue({ q: "ƙauye" }, db, now))).toEqual(["dankasuwa01"]);
    expect(ids(browseCatalogue({ q: "bello yusuf" }, db, now))).toEqual(["dankasuwa01"]);
    expect(ids(browseCatalogue({ q: "ƊAN", sort: "new" }, db, now)).sort()).toEqual(["dankasuwa01", "plaindan001"]);
    // Edits are indexed the same way.
    db.update(movies).set({ name: "Ɓirnin Ɗan Birni" }).where(eq(movies.id, "plaindan001")).run();
    expect(ids(browseCatalogue({ q: "birnin" }, db, now))).toEqual(["plaindan001"]);
  });

  it("re-indexes titles stored before the hooked letters were folded (migration 0005)", () => {
    addMovie("oldindex001", { name: "Ɗan Kasuwa" });
    // The index as migration 0003 left it: the text as typed.
    db.$client.prepare("UPDATE movies_fts SET name = ? WHERE movie_id = ?").run("Ɗan Kasuwa", "oldindex001");
    expect(browseCatalogue({ q: "dan" }, db, now).total).toBe(0);
    const migration = fs.readFileSync(path.join("drizzle", "0005_hausa_letters_in_search.sql"), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) db.$client.exec(statement);
    // Migrations run before a process serves, so no process keeps a list from before one;
    // this test's process does (the search above): it forgets it as a restart would.
    db.$client.exec("UPDATE catalogue_version SET version = version + 1");
    expect(ids(browseCatalogue({ q: "dan" }, db, now))).toEqual(["oldindex001"]);
  });

  it("ranks a word in the title above the same word in a description", () => {
    addMovie("descfirst01", { name: "Hanya", description: "Kano Kano and more of Kano", uploadedAt: daysAgo(1) });
    addMovie("titlehit001", { name: "KANO", description: "A city film", uploadedAt: daysAgo(20) });
    expect(ids(browseCatalogue({ q: "kano" }, db, now))).toEqual(["titlehit001", "descfirst01"]);
    // Asking for New overrides relevance.
    expect(ids(browseCatalogue({ q: "kano", sort: "new" }, db, now))).toEqual(["descfirst01", "titlehit001"]);
  });

  it("never shows unpublished titles and follows edits and deletes", () => {
    addMovie("unapproved1", { name: "Secret Kano", approved: false });
    addMovie("processing1", { name: "Kano processing", status: "processing" });
    addMovie("failed00001", { name: "Kano failed", status: "failed" });
    addMovie("published01", { name: "Old name" });
    expect(browseCatalogue({ q: "kano" }, db, now).total).toBe(0);
    db.update(movies).set({ name: "Kano Tales" }).where(eq(movies.id, "published01")).run();
    expect(ids(browseCatalogue({ q: "kano" }, db, now))).toEqual(["published01"]);
    expect(browseCatalogue({ q: "old" }, db, now).total).toBe(0);
    db.update(movies).set({ approved: true }).where(eq(movies.id, "unapproved1")).run();
    expect(ids(browseCatalogue({ q: "secret" }, db, now))).toEqual(["unapproved1"]);
    db.delete(movies).where(eq(movies.id, "published01")).run();
    expect(ids(browseCatalogue({ q: "kano" }, db, now))).toEqual(["unapproved1"]);
  });

  it("combines a category, a sort and a search, with paging", () => {
    addMovie("dramanew001", { name: "Love story new", uploadedAt: daysAgo(1) });
    addMovie("dramaold001", { name: "Love story old", uploadedAt: daysAgo(30), featured: true });
    addMovie("comedylove1", { name: "Love comedy", categoryId: "catcomedyaaa", uploadedAt: daysAgo(2) });
    for (let i = 0; i < 3; i++) {
      db.insert(watchEvents)
        .values({
          id: `event${i}aaaaaaa`,
          accountId: "viewer000001",
          movieId: "dramaold001",
          startedAt: daysAgo(1),
          updatedAt: daysAgo(1),
        })
        .run();
    }
    expect(ids(browseCatalogue({ q: "love", categorySlug: "drama", sort: "new" }, db, now))).toEqual([
      "dramanew001",
      "dramaold001",
    ]);
    expect(ids(browseCatalogue({ q: "love", categorySlug: "drama", sort: "featured" }, db, now))).toEqual([
      "dramaold001",
      "dramanew001",
    ]);
    expect(ids(browseCatalogue({ categorySlug: "drama", sort: "trending" }, db, now))).toEqual([
      "dramaold001",
      "dramanew001",
    ]);
    expect(ids(browseCatalogue({ categorySlug: "comedy" }, db, now))).toEqual(["comedylove1"]);
    expect(ids(browseCatalogue({}, db, now))).toEqual(["dramanew001", "comedylove1", "dramaold001"]);
    const first = browseCatalogue({ q: "love", pageSize: 2, page: 1 }, db, now);
    const second = browseCatalogue({ q: "love", pageSize: 2, page: 2 }, db, now);
    expect(first).toMatchObject({ total: 3, pageCount: 2, page: 1 });
    expect(first.movies).toHaveLength(2);
    expect(second.movies).toHaveLength(1);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(3);
    expect(browseCatalogue({ categorySlug: "no-such-category" }, db, now).total).toBe(0);
  });
});

describe("category tiles", () => {
  it("gives a versioned image URL only when the image is on disk", () => {
    const folder = path.join(dir, "categories");
    fs.mkdirSync(folder, { recursive: true });
    expect(listCategoryTiles(db, dir).map((tile) => [tile.slug, tile.imageUrl])).toEqual([
      ["comedy", null],
      ["drama", null],
    ]);
    fs.writeFileSync(path.join(folder, "catcomedyaaa.jpg"), "jpg");
    const [comedy] = listCategoryTiles(db, dir);
    expect(comedy.imageUrl).toMatch(/^\/category-image\/catcomedyaaa\.jpg\?v=\d+$/);
  });

  it("maps only well-formed names to files inside categories/", () => {
    expect(resolveCategoryImage("catcomedyaaa.jpg", dir)).toBe(path.join(dir, "categories", "catcomedyaaa.jpg"));
    for (const name of [
      "../data.db",
      "..%2Fdata.db",
      "catcomedyaaa.png",
      "CATCOMEDYAAA.jpg",
      "a.jpg",
      "catcomedyaaa.jpg/..",
      "",
    ]) {
      expect(resolveCategoryImage(name, dir)).toBeNull();
    }
  });
});

/**
 * A process keeps catalogue lists (which titles, in what order) while the
 * catalogue's version stays the same (drizzle/0014): every change a viewer
 * would see in a list shows at the next request, and a repeated list runs no
 * list statement.
 */
describe("catalogue lists kept until the catalogue changes", () => {
  const version = () => db.select().from(catalogueVersion).get()?.version;
  beforeEach(() => {
    addMovie("older000001", { name: "Kano older", uploadedAt: daysAgo(3) });
    addMovie("newer000001", { name: "Kano newer", uploadedAt: daysAgo(1) });
  });

  it("a repeated list runs only the version's read and the cards", () => {
    const counter = countStatements(db);
    expect(ids(browseCatalogue({ q: "kano" }, db, now))).toEqual(["newer000001", "older000001"]);
    const first = counter.take();
    expect(ids(browseCatalogue({ q: "kano" }, db, now))).toEqual(["newer000001", "older000001"]);
    const again = counter.take();
    expect(first.filter((source) => source.includes("movies_fts"))).toHaveLength(2); // count and page
    expect(again.filter((source) => source.includes("movies_fts"))).toHaveLength(0);
    expect(again.length).toBeLessThan(first.length);
  });

  it("shows a title published, hidden, renamed, featured, moved or deleted at the next request", () => {
    const search = () => ids(browseCatalogue({ q: "kano" }, db, now));
    const listed = () => ids(browseCatalogue({}, db, now));
    expect(search()).toEqual(["newer000001", "older000001"]);
    expect(listed()).toEqual(["newer000001", "older000001"]);

    addMovie("pending0001", { name: "Kano pending", status: "processing", uploadedAt: daysAgo(0) });
    expect(listed()).toEqual(["newer000001", "older000001"]);
    db.update(movies).set({ status: "ready" }).where(eq(movies.id, "pending0001")).run();
    expect(listed()).toEqual(["pending0001", "newer000001", "older000001"]);
    expect(browseCatalogue({}, db, now).total).toBe(3);

    db.update(movies).set({ approved: false }).where(eq(movies.id, "newer000001")).run();
    expect(search()).toEqual(["pending0001", "older000001"]);

    db.update(movies).set({ name: "Abuja nights" }).where(eq(movies.id, "older000001")).run();
    expect(search()).toEqual(["pending0001"]);
    expect(ids(browseCatalogue({ q: "abuja" }, db, now))).toEqual(["older000001"]);

    db.update(movies).set({ featured: true }).where(eq(movies.id, "older000001")).run();
    expect(ids(browseCatalogue({ sort: "featured" }, db, now))[0]).toBe("older000001");

    db.update(movies)
      .set({ uploadedAt: new Date(now.getTime() + 1000) })
      .where(eq(movies.id, "older000001"))
      .run();
    expect(listed()[0]).toBe("older000001");

    db.delete(movies).where(eq(movies.id, "pending0001")).run();
    expect(listed()).toEqual(["older000001"]);
  });

  it("shows a series once its first episode is published", () => {
    db.insert(series)
      .values({
        id: "kanoseries1",
        name: "Kano Nights",
        categoryId: "catdramaaaaa",
        providerId: "provider0001",
        approved: true,
      })
      .run();
    db.insert(seasons).values({ id: "kanoseason1", seriesId: "kanoseries1", number: 1 }).run();
    expect(ids(browseCatalogue({ q: "nights" }, db, now))).toEqual([]);
    addMovie("episode0001", { seasonId: "kanoseason1", episodeNumber: 1, uploadedAt: daysAgo(0) });
    expect(ids(browseCatalogue({ q: "nights" }, db, now))).toEqual(["kanoseries1"]);
    db.update(series).set({ approved: false }).where(eq(series.id, "kanoseries1")).run();
    expect(ids(browseCatalogue({ q: "nights" }, db, now))).toEqual([]);
  });

  it("views and plays change no kept list's version, and lists by them are never kept", () => {
    const before = version();
    db.update(movies).set({ views: 50 }).where(eq(movies.id, "older000001")).run();
    expect(version()).toBe(before);
    expect(ids(browseCatalogue({ sort: "trending" }, db, now))).toEqual(["older000001", "newer000001"]);
    db.update(movies).set({ views: 90 }).where(eq(movies.id, "newer000001")).run();
    expect(ids(browseCatalogue({ sort: "trending" }, db, now))).toEqual(["newer000001", "older000001"]);
  });
});

describe("suggestions while typing, episodes included", () => {
  function addSeries() {
    db.insert(series)
      .values({
        id: "gidanhaya01",
        name: "Gidan Haya",
        categoryId: "catdramaaaaa",
        providerId: "provider0001",
        approved: true,
      })
      .run();
    db.insert(seasons).values({ id: "gidanseason1", seriesId: "gidanhaya01", number: 1 }).run();
    addMovie("episode0001", { name: "Sabon Mai Gida", seasonId: "gidanseason1", episodeNumber: 1 });
    addMovie("episode0002", {
      name: "Ranar Kuɗin Haya",
      description: "The rent is due and the landlord is at the door.",
      seasonId: "gidanseason1",
      episodeNumber: 2,
    });
  }

  it("find an episode by part of its own title, with or without Hausa's hooked letters, named with its series", () => {
    addSeries();
    addMovie("filmkano001", { name: "Kano Nights" });
    for (const typed of ["Kuɗin Haya", "kudin ha", "KUƊIN", "ranar ku"]) {
      const suggestions = suggestTitles(typed, db, now);
      expect(suggestions, typed).toContainEqual({
        kind: "episode",
        id: "episode0002",
        name: "Ranar Kuɗin Haya",
        detail: "Gidan Haya · S1E2",
        href: "/WatchMovie?id=episode0002",
      });
    }
    // The series itself is found by its own title; its episodes never show as cards.
    expect(suggestTitles("gidan", db, now).map((item) => [item.kind, item.id])).toEqual([["series", "gidanhaya01"]]);
    expect(suggestTitles("mai gida", db, now).map((item) => [item.kind, item.id])).toEqual([
      ["episode", "episode0001"],
    ]);
    expect(suggestTitles("kano", db, now)).toEqual([
      { kind: "film", id: "filmkano001", name: "Kano Nights", detail: "Drama", href: "/WatchMovie?id=filmkano001" },
    ]);
  });

  it("offer nothing for less than two letters or only punctuation, and at most a handful", () => {
    addSeries();
    for (let index = 0; index < 12; index++)
      addMovie(`hayafilm${String(index).padStart(3, "0")}`, { name: `Haya ${index}` });
    expect(suggestTitles("h", db, now)).toEqual([]);
    expect(suggestTitles(" * ", db, now)).toEqual([]);
    expect(suggestTitles("", db, now)).toEqual([]);
    const many = suggestTitles("haya", db, now);
    expect(many).toHaveLength(SUGGESTIONS_MAX);
    expect(many.some((item) => item.kind === "episode")).toBe(true);
  });

  it("never offer an unpublished episode, nor one of a series not approved", () => {
    addSeries();
    db.update(movies).set({ approved: false }).where(eq(movies.id, "episode0002")).run();
    expect(searchEpisodes(db, toFtsQuery("kudin"))).toEqual([]);
    db.update(movies).set({ approved: true }).where(eq(movies.id, "episode0002")).run();
    expect(searchEpisodes(db, toFtsQuery("kudin")).map((episode) => episode.id)).toEqual(["episode0002"]);
    db.update(movies).set({ status: "processing" }).where(eq(movies.id, "episode0002")).run();
    expect(searchEpisodes(db, toFtsQuery("kudin"))).toEqual([]);
    expect(searchEpisodes(db, null)).toEqual([]);
  });

  it("read the episodes through the search index, whatever the catalogue's size", () => {
    addSeries();
    for (let index = 0; index < 200; index++)
      addMovie(`other${String(index).padStart(7, "0")}`, { name: `Other ${index}` });
    const plan = db.$client
      .prepare(
        `EXPLAIN QUERY PLAN SELECT movies.id FROM movies_fts CROSS JOIN movies ON movies.search_rowid = movies_fts.rowid WHERE movies_fts MATCH '"kudin"'`,
      )
      .all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join("\n")).toMatch(/VIRTUAL TABLE INDEX .*\n.*movies_search_idx/);
  });
});

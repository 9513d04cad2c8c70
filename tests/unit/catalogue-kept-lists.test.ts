import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { accounts, catalogueVersion, categories, movies, seasons, series } from "~/db/schema";
import { browseCatalogue } from "~/services/search.server";
import { countStatements } from "./helpers/count-statements";
import { createTestDatabase } from "./helpers/test-db";

/**
 * A process keeps catalogue lists (which titles, in what order) while the
 * catalogue's version stays the same (drizzle/0014): every change a viewer
 * would see in a list shows at the next request, and a repeated list runs no
 * list statement.
 */
let db: DB;
let close: () => void;
const now = new Date("2026-11-20T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000);

function addMovie(id: string, values: Partial<typeof movies.$inferInsert> = {}) {
  db.insert(movies)
    .values({
      id,
      name: `Kano ${id}`,
      categoryId: "catdramaaaaa",
      providerId: "provider0001",
      status: "ready",
      approved: true,
      uploadedAt: daysAgo(10),
      ...values,
    })
    .run();
}
const ids = (result: { movies: { id: string }[] }) => result.movies.map((movie) => movie.id);
const version = () => db.select().from(catalogueVersion).get()?.version;

beforeEach(() => {
  ({ db, close } = createTestDatabase());
  db.insert(accounts)
    .values({ id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" })
    .run();
  db.insert(categories).values({ id: "catdramaaaaa", name: "Drama", slug: "drama", sortOrder: 1 }).run();
  addMovie("older000001", { uploadedAt: daysAgo(3) });
  addMovie("newer000001", { uploadedAt: daysAgo(1) });
});
afterEach(() => close());

describe("catalogue lists kept until the catalogue changes", () => {
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

    addMovie("pending0001", { status: "processing", uploadedAt: daysAgo(0) });
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

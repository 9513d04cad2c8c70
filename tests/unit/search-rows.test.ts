import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { accounts, categories, movies } from "~/db/schema";
import { browseCatalogue } from "~/services/search.server";
import { createTestDatabase } from "./helpers/test-db";

/**
 * drizzle/0012: each title keeps the rowid of its row in movies_fts
 * (search_rowid), and searches join by it. The link must hold through
 * inserts, edits, deletes and a renumbering of the titles' own rowids (what a
 * VACUUM may do), and never hand out a number twice.
 */
let db: DB;
let close: () => void;

function addMovie(id: string, name: string) {
  db.insert(movies)
    .values({ id, name, categoryId: "catdramaaaaa", providerId: "provider0001", status: "ready", approved: true })
    .run();
}
const searchRow = (id: string) =>
  db.$client.prepare("SELECT search_rowid AS row FROM movies WHERE id = ?").get(id) as { row: number | null };
const ftsRow = (id: string) =>
  db.$client.prepare("SELECT rowid AS row FROM movies_fts WHERE movie_id = ?").all(id) as { row: number }[];
const found = (q: string) => browseCatalogue({ q }, db).movies.map((movie) => movie.id);

beforeEach(() => {
  ({ db, close } = createTestDatabase());
  db.insert(accounts)
    .values({ id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" })
    .run();
  db.insert(categories).values({ id: "catdramaaaaa", name: "Drama", slug: "drama" }).run();
});
afterEach(() => close());

describe("the link between a title and its search row", () => {
  it("is made when a title is added, one number each, and searches follow it", () => {
    addMovie("first000001", "Kano nights");
    addMovie("second00001", "Zaria mornings");
    expect(ftsRow("first000001")).toEqual([{ row: searchRow("first000001").row }]);
    expect(ftsRow("second00001")).toEqual([{ row: searchRow("second00001").row }]);
    expect(searchRow("second00001").row).toBe(searchRow("first000001").row! + 1);
    expect(found("kano")).toEqual(["first000001"]);
  });

  it("follows edits and deletes without leaving rows behind", () => {
    addMovie("edited00001", "Old name");
    addMovie("deleted0001", "Kano gone");
    db.update(movies).set({ name: "Kano new name" }).where(eq(movies.id, "edited00001")).run();
    expect(ftsRow("edited00001")).toEqual([{ row: searchRow("edited00001").row }]);
    db.delete(movies).where(eq(movies.id, "deleted0001")).run();
    expect(ftsRow("deleted0001")).toEqual([]);
    expect(found("kano")).toEqual(["edited00001"]);
    expect(found("old")).toEqual([]);
  });

  it("survives the titles' own rowids being renumbered, and new titles never take a number in use", () => {
    addMovie("kept0000001", "Kano kept");
    addMovie("kept0000002", "Sokoto kept");
    const before = searchRow("kept0000002").row!;
    // What a VACUUM may do to a table without an INTEGER PRIMARY KEY.
    db.$client.exec("UPDATE movies SET rowid = rowid + 1000");
    db.$client.exec("UPDATE movies SET rowid = rowid - 1000 - 1");
    expect(found("kano")).toEqual(["kept0000001"]);
    addMovie("newcomer001", "Kano newcomer");
    expect(searchRow("newcomer001").row).toBe(before + 1);
    expect(found("kano").sort()).toEqual(["kept0000001", "newcomer001"]);
    expect(found("sokoto")).toEqual(["kept0000002"]);
  });
});

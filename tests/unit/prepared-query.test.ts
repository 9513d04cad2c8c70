import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { plainRows, preparedQuery } from "~/db/prepared.server";
import { accounts, categories } from "~/db/schema";
import { countStatements } from "./helpers/count-statements";
import { createTestDatabase } from "./helpers/test-db";

const opened: Array<() => void> = [];
function database(): DB {
  const { db, close } = createTestDatabase();
  opened.push(close);
  db.insert(categories)
    .values([
      { id: "catdramaaaaa", name: "Drama", slug: "drama" },
      { id: "catcomedyaaa", name: "Comedy", slug: "comedy" },
    ])
    .run();
  return db;
}

/** Count what a connection compiles, by wrapping its prepare. */
function countPrepares(db: DB) {
  const sqlite = db.$client;
  const prepare = sqlite.prepare.bind(sqlite);
  let prepared = 0;
  sqlite.prepare = ((source: string) => {
    prepared++;
    return prepare(source);
  }) as typeof sqlite.prepare;
  return () => prepared;
}

const categoryBySlug = preparedQuery((db) =>
  db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(eq(categories.slug, sql.placeholder("slug")))
    .prepare(),
);

afterEach(() => {
  for (const close of opened.splice(0)) close();
});

describe("preparedQuery", () => {
  it("compiles a query once per connection and runs it with each call's values", () => {
    const db = database();
    const prepares = countPrepares(db);
    expect(categoryBySlug(db).get({ slug: "drama" })).toEqual({ id: "catdramaaaaa", name: "Drama" });
    expect(categoryBySlug(db).get({ slug: "comedy" })).toEqual({ id: "catcomedyaaa", name: "Comedy" });
    expect(categoryBySlug(db).get({ slug: "none" })).toBeUndefined();
    expect(prepares()).toBe(1);
    // The same query written the plain way compiles on every call.
    for (const slug of ["drama", "comedy"]) db.select().from(categories).where(eq(categories.slug, slug)).get();
    expect(prepares()).toBe(3);
  });

  it("gives each connection its own statement, and a new connection works after the old one closed", () => {
    const first = database();
    const second = database();
    const firstPrepares = countPrepares(first);
    const secondPrepares = countPrepares(second);
    categoryBySlug(first).get({ slug: "drama" });
    first.insert(categories).values({ id: "catfirstonly", name: "Only here", slug: "only" }).run();
    expect(categoryBySlug(first).get({ slug: "only" })?.name).toBe("Only here");
    expect(categoryBySlug(second).get({ slug: "only" })).toBeUndefined();
    expect(firstPrepares()).toBe(2); // the query and the insert
    expect(secondPrepares()).toBe(1);
    opened.shift()!();
    const third = database();
    expect(categoryBySlug(third).get({ slug: "comedy" })?.name).toBe("Comedy");
  });

  it("counts every run of a reused statement (the page-queries test relies on it)", () => {
    const db = database();
    const counter = countStatements(db);
    for (const slug of ["drama", "comedy", "drama"]) categoryBySlug(db).get({ slug });
    expect(counter.take()).toHaveLength(3);
    expect(counter.take()).toHaveLength(0);
  });
});

describe("plainRows", () => {
  const fields = {
    id: categories.id,
    name: categories.name,
    order: categories.sortOrder,
    label: sql<string>`upper(${categories.slug})`,
    nothing: sql<null>`NULL`,
  };
  const plain = preparedQuery((db) =>
    plainRows(db.select(fields).from(categories).orderBy(categories.name).prepare(), fields),
  );

  it("gives the rows Drizzle's mapping gives, made from SQLite's raw rows", () => {
    const db = database();
    const mapped = db.select(fields).from(categories).orderBy(categories.name).all();
    expect(plain(db).all()).toEqual(mapped);
    expect(mapped).toEqual([
      { id: "catcomedyaaa", name: "Comedy", order: 0, label: "COMEDY", nothing: null },
      { id: "catdramaaaaa", name: "Drama", order: 0, label: "DRAMA", nothing: null },
    ]);
  });

  it("refuses a field Drizzle decodes: a timestamp, a boolean, an expression with mapWith", () => {
    const db = database();
    const when = { when: categories.createdAt };
    const blocked = { blocked: accounts.blocked };
    const count = { count: sql`count(*)`.mapWith(Boolean) };
    const refused = [
      () => plainRows(db.select(when).from(categories).prepare(), when),
      () => plainRows(db.select(blocked).from(accounts).prepare(), blocked),
      () => plainRows(db.select(count).from(categories).prepare(), count),
    ];
    for (const make of refused) expect(make).toThrow(/decoded by Drizzle/);
  });
});

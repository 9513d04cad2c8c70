import type { DB } from "./client.server";

/**
 * A hot query, built and prepared once per database connection and reused.
 *
 * A plain Drizzle call (`db.select()…get()`) builds its SQL text and has
 * better-sqlite3 compile a new statement every time, and neither caches: on a
 * catalogue page that cost more than running the indexed queries themselves.
 * Write the query once with `sql.placeholder(name)` where values change and
 * end it with `.prepare()`; callers pass the values:
 *
 *   const accountById = preparedQuery((db) =>
 *     db.select(columns).from(accounts).where(eq(accounts.id, sql.placeholder("id"))).prepare(),
 *   );
 *   accountById(db).get({ id });
 *
 * A statement belongs to the connection it was prepared on, so each database
 * (the server's, a test's) gets its own, forgotten with the connection. (A
 * transaction's handle is an object of its own: called with one, the query
 * is prepared for that transaction, as a plain call would be.)
 */
export function preparedQuery<Query, Database extends object = DB>(
  prepare: (db: Database) => Query,
): (db: Database) => Query {
  const byDatabase = new WeakMap<Database, Query>();
  return (db) => {
    let query = byDatabase.get(db);
    if (query === undefined) {
      query = prepare(db);
      byDatabase.set(db, query);
    }
    return query;
  };
}

import { fillPlaceholders, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
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

const dialect = new SQLiteSyncDialect();

/** A statement of preparedSql: run with the values of its placeholders; rows as SQLite gives them (no mapping). */
export type PreparedSql<Row> = {
  all(values?: Record<string, unknown>): Row[];
  get(values?: Record<string, unknown>): Row | undefined;
};

/**
 * A hot query the query builder cannot write as it stands (a compound SELECT
 * ordered and limited as a whole, say), written as `sql` with
 * `sql.placeholder(name)` where values change, and prepared once per
 * connection like preparedQuery. Columns come back by their SQL names,
 * unmapped: select plain values (ids, numbers) and name them with AS.
 */
export function preparedSql<Row>(build: () => SQL): (db: DB) => PreparedSql<Row> {
  return preparedQuery((db: DB) => {
    const query = dialect.sqlToQuery(build());
    const statement = db.$client.prepare(query.sql);
    return {
      all: (values = {}) => statement.all(...fillPlaceholders(query.params, values)) as Row[],
      get: (values = {}) => statement.get(...fillPlaceholders(query.params, values)) as Row | undefined,
    };
  });
}

import { Column, fillPlaceholders, is, SQL } from "drizzle-orm";
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

/** A prepared select that can also give SQLite's raw rows (Drizzle's prepared queries can). */
type RawRowsQuery<Values, Row> = { all(values?: Values): Row[]; values(values?: Values): unknown[][] };

/**
 * A hot prepared select whose rows are made straight from SQLite's raw rows,
 * by the order of the select's own fields, instead of by Drizzle's mapping of
 * each value (which cost the 24-card statement of a catalogue page 40 % of its
 * time: 55 µs of 140). Only for selects whose every field comes back as stored
 * — text, integers, `sql` expressions without `mapWith` — never booleans,
 * timestamps or JSON columns, which Drizzle decodes: such a field is refused
 * when the statement is made. `fields` is the object given to `select()` (of
 * the first arm, for a compound select).
 */
export function plainRows<Values, Row>(
  query: RawRowsQuery<Values, Row>,
  fields: Record<string, unknown>,
): { all(values?: Values): Row[] } {
  const keys = Object.keys(fields);
  for (const key of keys) {
    if (!storedAsIs(fields[key])) throw new Error(`plainRows: the field "${key}" is decoded by Drizzle`);
  }
  return {
    all(values) {
      return query.values(values).map((raw) => {
        const row: Record<string, unknown> = {};
        for (let index = 0; index < keys.length; index++) row[keys[index]!] = raw[index];
        return row as Row;
      });
    },
  };
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** Does Drizzle hand this field's value back as SQLite gives it? (An `sql` expression keeps its `mapWith` decoder in a field Drizzle does not type.) */
function storedAsIs(field: unknown): boolean {
  const decoder: Decoder | null = is(field, Column)
    ? field
    : is(field, SQL)
      ? (field as unknown as { decoder: Decoder }).decoder
      : is(field, SQL.Aliased)
        ? (field.sql as unknown as { decoder: Decoder }).decoder
        : null;
  return decoder !== null && decoder.mapFromDriverValue(1) === 1 && decoder.mapFromDriverValue("1") === "1";
}

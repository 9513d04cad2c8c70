import { getTableName, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * A column written with its table's name, always. Drizzle leaves a column bare
 * in the fields of a query over one table, so in a correlated subquery
 * (`(SELECT count(*) FROM seasons WHERE seasons.series_id = series.id)`) the
 * outer `id` would be read as the inner table's own. Use this for the outer
 * side of every correlated subquery.
 */
export function qualified(column: SQLiteColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

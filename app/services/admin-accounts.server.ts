import { count, inArray, max } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, sessions } from "~/db/schema";

/** What the administrator's account tables show beside each account. */

/** Number of titles per provider, for the providers table. */
export function titleCounts(db: DB, providerIds: string[]): Record<string, number> {
  if (providerIds.length === 0) return {};
  const rows = db
    .select({ providerId: movies.providerId, value: count() })
    .from(movies)
    .where(inArray(movies.providerId, providerIds))
    .groupBy(movies.providerId)
    .all();
  return Object.fromEntries(rows.map((row) => [row.providerId, row.value]));
}

/** Latest sign-in (newest session started) per account, for the viewers table. */
export function lastActivity(db: DB, accountIds: string[]): Record<string, Date | null> {
  if (accountIds.length === 0) return {};
  const rows = db
    .select({ accountId: sessions.accountId, value: max(sessions.createdAt) })
    .from(sessions)
    .where(inArray(sessions.accountId, accountIds))
    .groupBy(sessions.accountId)
    .all();
  return Object.fromEntries(rows.map((row) => [row.accountId, row.value ?? null]));
}

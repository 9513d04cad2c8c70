import { and, count, eq, inArray, max, ne } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, movies, sessions } from "~/db/schema";
import { blockAccount, getAccountById, unblockAccount, type Account } from "./accounts.server";

/**
 * The administrator's rules over accounts, on top of the account service:
 * nobody blocks themselves, and the last administrator who can still sign in
 * is never blocked. Used by the admin pages and (later) the /api router.
 */
export const SELF_BLOCK = "admin:errors.selfBlock";
export const LAST_ADMIN = "admin:errors.lastAdmin";
export const ACCOUNT_NOT_FOUND = "admin:errors.accountNotFound";

type Actor = { actorId: string; ipAddress?: string | null };
export type BlockOutcome = { ok: true; account: Account } | { ok: false; error: string };

/** Administrators who are not blocked. */
export function activeAdminCount(db: DB): number {
  return (
    db
      .select({ value: count() })
      .from(accounts)
      .where(and(eq(accounts.role, "admin"), eq(accounts.blocked, false)))
      .get()?.value ?? 0
  );
}

export function setAccountBlocked(db: DB, accountId: string, blocked: boolean, actor: Actor): BlockOutcome {
  const target = getAccountById(db, accountId);
  if (!target) return { ok: false, error: ACCOUNT_NOT_FOUND };
  if (blocked) {
    if (target.id === actor.actorId) return { ok: false, error: SELF_BLOCK };
    if (target.role === "admin" && !target.blocked) {
      const others =
        db
          .select({ value: count() })
          .from(accounts)
          .where(and(eq(accounts.role, "admin"), eq(accounts.blocked, false), ne(accounts.id, target.id)))
          .get()?.value ?? 0;
      if (others === 0) return { ok: false, error: LAST_ADMIN };
    }
    const account = blockAccount(db, accountId, actor);
    return account ? { ok: true, account } : { ok: false, error: ACCOUNT_NOT_FOUND };
  }
  const account = unblockAccount(db, accountId, actor);
  return account ? { ok: true, account } : { ok: false, error: ACCOUNT_NOT_FOUND };
}

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

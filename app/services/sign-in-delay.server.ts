import { createHash } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { signInFailures } from "~/db/schema";

/**
 * Brute force stays expensive without handing an attacker a lockout:
 * - per client address, 10 failures a minute (rate-limit.server.ts);
 * - per account, from a device that never signed in to it, a delay that grows
 *   with each failure (none for the first FREE_FAILURES, then 2 s, 4 s, …, at
 *   most MAX_DELAY_SECONDS) — never a wall, so the owner on a new phone waits
 *   minutes at worst;
 * - a device that signed in to the account before (a signed cookie) skips the
 *   account's delay, so its owner keeps signing in while someone guesses.
 */
export const FREE_FAILURES = 5;
export const MAX_DELAY_SECONDS = 300;
/** Failures older than this are forgotten. */
export const FAILURE_MEMORY_SECONDS = 24 * 60 * 60;

/** Seconds a try must wait after the last one, given the failures so far. */
export function delayAfterFailures(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_SECONDS, 2 ** (failures - FREE_FAILURES + 1));
}

export function accountKey(email: string): string {
  return createHash("sha256").update(`sign-in:${email.trim().toLowerCase()}`).digest("hex").slice(0, 32);
}

export type DelayClaim = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Claim a try for the account: refused while the delay since the last try has
 * not passed. The read and the write are one transaction, so parallel requests
 * — in this process or another worker — cannot all pass before the first
 * failure is written.
 */
export function claimSignInTry(db: DB, email: string, now = Date.now()): DelayClaim {
  const key = accountKey(email);
  return db.transaction((tx): DelayClaim => {
    const row = tx.select().from(signInFailures).where(eq(signInFailures.accountKey, key)).get();
    if (!row) return { ok: true };
    if (now - row.lastTryAt > FAILURE_MEMORY_SECONDS * 1000) {
      tx.delete(signInFailures).where(eq(signInFailures.accountKey, key)).run();
      return { ok: true };
    }
    const waitMs = row.lastTryAt + delayAfterFailures(row.failures) * 1000 - now;
    if (waitMs > 0) return { ok: false, retryAfterSeconds: Math.ceil(waitMs / 1000) };
    tx.update(signInFailures).set({ lastTryAt: now }).where(eq(signInFailures.accountKey, key)).run();
    return { ok: true };
  });
}

export function recordSignInFailure(db: DB, email: string, now = Date.now()): void {
  db.insert(signInFailures)
    .values({ accountKey: accountKey(email), failures: 1, lastTryAt: now })
    .onConflictDoUpdate({
      target: signInFailures.accountKey,
      set: { failures: sql`${signInFailures.failures} + 1`, lastTryAt: now },
    })
    .run();
}

export function clearSignInFailures(db: DB, email: string): void {
  db.delete(signInFailures)
    .where(eq(signInFailures.accountKey, accountKey(email)))
    .run();
}

export function forgetOldSignInFailures(db: DB, now = Date.now()): number {
  return db
    .delete(signInFailures)
    .where(lt(signInFailures.lastTryAt, now - FAILURE_MEMORY_SECONDS * 1000))
    .run().changes;
}

import { and, count, eq, ne, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts } from "~/db/schema";
import { endSessions, getAccountById, type Account } from "./accounts.server";
import { recordAudit, type AuditAction } from "./audit.server";

/**
 * Where an account stands — blocked or not, a provider's application
 * waiting, approved or rejected — and the only code that changes it. Every
 * change is one transaction: the row, and, when the account loses its way in
 * (block, reject), its sessions, open reset links and API tokens end with it;
 * then the audit line. The administrator's rules sit on top: nobody blocks
 * themselves, and the last administrator who can sign in is never blocked.
 */
export const SELF_BLOCK = "admin:errors.selfBlock";
export const LAST_ADMIN = "admin:errors.lastAdmin";
export const ACCOUNT_NOT_FOUND = "admin:errors.accountNotFound";

type Actor = { actorId: string; ipAddress?: string | null };
export type BlockOutcome = { ok: true; account: Account } | { ok: false; error: string };

type StatusChange = {
  set: Partial<Pick<typeof accounts.$inferInsert, "blocked" | "providerStatus">>;
  action: AuditAction;
  /** The account can no longer sign in: end its sessions and API tokens. */
  endsAccess: boolean;
  /** Only an account of this role is changed (a provider's application). */
  role?: "provider";
};

function writeStatus(
  db: DB,
  accountId: string,
  change: StatusChange,
  actor: Actor,
  details?: Record<string, unknown>,
): Account | undefined {
  db.transaction((tx) => {
    const where =
      change.role === undefined
        ? eq(accounts.id, accountId)
        : and(eq(accounts.id, accountId), eq(accounts.role, change.role));
    const updated = tx
      .update(accounts)
      .set({
        ...change.set,
        ...(change.endsAccess ? { tokenVersion: sql`${accounts.tokenVersion} + 1` } : {}),
        updatedAt: new Date(),
      })
      .where(where)
      .run();
    if (updated.changes === 0) return;
    if (change.endsAccess) endSessions(tx, accountId);
    recordAudit(tx, {
      actorId: actor.actorId,
      action: change.action,
      targetType: "account",
      targetId: accountId,
      details,
      ipAddress: actor.ipAddress,
    });
  });
  return getAccountById(db, accountId);
}

/** Why an administrator blocked an account, and whether they confirmed it on the page (the /api may give no reason). */
export type BlockNote = { reason: string | null; confirmed: boolean };

export const BLOCK_REASON_MAX = 500;
export const BLOCK_REASON_REQUIRED = "admin:accounts.errors.reasonRequired";
export const BLOCK_REASON_TOO_LONG = "admin:accounts.errors.reasonTooLong";

/** A block reason as typed: one trimmed text of at most 500 characters, or null when empty. */
export function cleanBlockReason(text: string): { ok: true; reason: string | null } | { ok: false; error: string } {
  const reason = text.replace(/\s+/g, " ").trim();
  if (reason.length > BLOCK_REASON_MAX) return { ok: false, error: BLOCK_REASON_TOO_LONG };
  return { ok: true, reason: reason || null };
}

/**
 * Block: the account is refused at its door, its sessions end and its API
 * tokens stop working. The reason and the confirmation go to the audit log.
 */
export function blockAccount(
  db: DB,
  accountId: string,
  actor: Actor,
  note: BlockNote = { reason: null, confirmed: false },
): Account | undefined {
  return writeStatus(db, accountId, { set: { blocked: true }, action: "account.block", endsAccess: true }, actor, {
    reason: note.reason,
    confirmed: note.confirmed,
  });
}

export function unblockAccount(db: DB, accountId: string, actor: Actor): Account | undefined {
  return writeStatus(db, accountId, { set: { blocked: false }, action: "account.unblock", endsAccess: false }, actor);
}

/** Approve a waiting provider application: the provider can sign in at /cp from now on. */
export function approveProviderApplication(db: DB, accountId: string, actor: Actor): Account | undefined {
  return writeStatus(
    db,
    accountId,
    {
      set: { providerStatus: "approved", blocked: false },
      action: "account.provider_approve",
      endsAccess: false,
      role: "provider",
    },
    actor,
  );
}

/** Reject a provider application: the account is blocked, and whatever way in it had ends. */
export function rejectProviderApplication(db: DB, accountId: string, actor: Actor): Account | undefined {
  return writeStatus(
    db,
    accountId,
    {
      set: { providerStatus: "rejected", blocked: true },
      action: "account.provider_reject",
      endsAccess: true,
      role: "provider",
    },
    actor,
  );
}

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

/** The administrator's block and unblock, with their rules. */
export function setAccountBlocked(
  db: DB,
  accountId: string,
  blocked: boolean,
  actor: Actor,
  note?: BlockNote,
): BlockOutcome {
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
    const account = blockAccount(db, accountId, actor, note);
    return account ? { ok: true, account } : { ok: false, error: ACCOUNT_NOT_FOUND };
  }
  const account = unblockAccount(db, accountId, actor);
  return account ? { ok: true, account } : { ok: false, error: ACCOUNT_NOT_FOUND };
}

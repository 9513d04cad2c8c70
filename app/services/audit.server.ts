import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, auditLog } from "~/db/schema";
import { createId } from "~/utils/ids.server";

/** Anything with Drizzle's insert: the connection or a transaction inside it. */
type Writer = Pick<DB, "insert">;

export type AuditAction =
  | "account.register"
  | "account.provider_apply"
  | "account.provider_create"
  | "account.provider_approve"
  | "account.provider_reject"
  | "account.profile_update"
  | "account.block"
  | "account.unblock"
  | "account.password_change"
  | "account.password_reset_request"
  | "account.password_reset"
  | "auth.sign_in"
  | "auth.sign_in_failed"
  | "auth.sign_out"
  | "movie.upload"
  | "movie.delete"
  | "movie.approve"
  | "movie.unapprove"
  | "movie.feature"
  | "movie.unfeature"
  | "movie.access"
  | "subtitle.save"
  | "subtitle.delete"
  | "category.create"
  | "category.rename"
  | "category.image"
  | "category.move"
  | "category.delete"
  | "plan.update"
  | "plan.periods"
  | "payment.start"
  | "payment.success"
  | "payment.failed"
  | "voucher.generate"
  | "voucher.redeem"
  | "setting.update";

export const AUDIT_ACTIONS: readonly AuditAction[] = [
  "account.register",
  "account.provider_apply",
  "account.provider_create",
  "account.provider_approve",
  "account.provider_reject",
  "account.profile_update",
  "account.block",
  "account.unblock",
  "account.password_change",
  "account.password_reset_request",
  "account.password_reset",
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "movie.upload",
  "movie.delete",
  "movie.approve",
  "movie.unapprove",
  "movie.feature",
  "movie.unfeature",
  "movie.access",
  "subtitle.save",
  "subtitle.delete",
  "category.create",
  "category.rename",
  "category.image",
  "category.move",
  "category.delete",
  "plan.update",
  "plan.periods",
  "payment.start",
  "payment.success",
  "payment.failed",
  "voucher.generate",
  "voucher.redeem",
  "setting.update",
];

export type AuditEntry = {
  actorId: string | null;
  action: AuditAction;
  targetType?: "account" | "movie" | "category" | "plan" | "payment" | "voucher";
  targetId?: string | null;
  details?: Record<string, unknown>;
  ipAddress?: string | null;
};

/** Who did what to whom, when. Never pass passwords or tokens in details. */
export function recordAudit(db: Writer, entry: AuditEntry): void {
  db.insert(auditLog)
    .values({
      id: createId(),
      actorId: entry.actorId,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      details: entry.details ?? {},
      ipAddress: entry.ipAddress ?? null,
    })
    .run();
}

export type AuditListQuery = { action?: string; actorEmail?: string; page?: number; pageSize?: number };

/** The latest audit entries, newest first, optionally of one action and/or by the actor with this email. */
export function listAudit(db: DB, query: AuditListQuery) {
  const pageSize = Math.min(Math.max(query.pageSize ?? 50, 1), 200);
  const page = Math.max(query.page ?? 1, 1);
  const conditions: SQL[] = [];
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  const email = query.actorEmail?.trim().toLowerCase();
  if (email) conditions.push(sql`lower(${accounts.email}) = ${email}`);
  const where = conditions.length ? and(...conditions) : undefined;
  const total =
    db
      .select({ value: count() })
      .from(auditLog)
      .leftJoin(accounts, eq(accounts.id, auditLog.actorId))
      .where(where)
      .get()?.value ?? 0;
  const rows = db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      ipAddress: auditLog.ipAddress,
      createdAt: auditLog.createdAt,
      actorEmail: accounts.email,
    })
    .from(auditLog)
    .leftJoin(accounts, eq(accounts.id, auditLog.actorId))
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  return { rows, total, page, pageSize };
}

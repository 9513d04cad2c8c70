import type { DB } from "~/db/client.server";
import { auditLog } from "~/db/schema";
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
  | "movie.delete";

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

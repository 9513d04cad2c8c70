import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { DB } from "~/db/client.server";
import { accounts, auditLog, movies, seasons, series } from "~/db/schema";
import { createId } from "~/utils/ids.server";
import { episodeContextColumns, titleDisplayName } from "./episode-names";

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
  | "movie.send_back"
  | "movie.resubmit"
  | "movie.feature"
  | "movie.unfeature"
  | "movie.access"
  | "movie.edit"
  | "movie.replace_start"
  | "movie.replace"
  | "movie.replace_failed"
  | "subtitle.save"
  | "subtitle.delete"
  | "series.create"
  | "series.update"
  | "series.delete"
  | "series.approve"
  | "series.unapprove"
  | "series.send_back"
  | "series.resubmit"
  | "series.feature"
  | "series.unfeature"
  | "series.access"
  | "season.create"
  | "episode.reorder"
  | "category.create"
  | "category.rename"
  | "category.image"
  | "category.move"
  | "category.delete"
  | "plan.create"
  | "plan.update"
  | "plan.reorder"
  | "plan.retire"
  | "plan.offer"
  | "plan.delete"
  | "plan.starter"
  | "payment.start"
  | "payment.success"
  | "payment.failed"
  | "voucher.generate"
  | "voucher.redeem"
  | "setting.update"
  | "prices.currency_recorded"
  | "prices.convert"
  | "profile.create"
  | "profile.delete"
  | "profile.pin_set"
  | "movie.age_rating"
  | "series.age_rating";

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
  "movie.send_back",
  "movie.resubmit",
  "movie.feature",
  "movie.unfeature",
  "movie.access",
  "movie.edit",
  "movie.replace_start",
  "movie.replace",
  "movie.replace_failed",
  "subtitle.save",
  "subtitle.delete",
  "series.create",
  "series.update",
  "series.delete",
  "series.approve",
  "series.unapprove",
  "series.send_back",
  "series.resubmit",
  "series.feature",
  "series.unfeature",
  "series.access",
  "season.create",
  "episode.reorder",
  "category.create",
  "category.rename",
  "category.image",
  "category.move",
  "category.delete",
  "plan.create",
  "plan.update",
  "plan.reorder",
  "plan.retire",
  "plan.offer",
  "plan.delete",
  "plan.starter",
  "payment.start",
  "payment.success",
  "payment.failed",
  "voucher.generate",
  "voucher.redeem",
  "setting.update",
  "prices.currency_recorded",
  "prices.convert",
  "profile.create",
  "profile.delete",
  "profile.pin_set",
  "movie.age_rating",
  "series.age_rating",
];

export type AuditEntry = {
  actorId: string | null;
  action: AuditAction;
  targetType?: "account" | "profile" | "movie" | "series" | "category" | "plan" | "payment" | "voucher";
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

/**
 * The words an entry carries for a person reading the log: why (a block's or
 * a send-back's reason, and the administrator's note), and whether it was
 * confirmed on the page. Other details stay in the row for exports.
 */
export function auditNote(details: unknown): string | null {
  if (!details || typeof details !== "object") return null;
  const { reason, note, confirmed } = details as Record<string, unknown>;
  const parts = [
    typeof reason === "string" && reason ? reason : null,
    typeof note === "string" && note ? note : null,
    confirmed === true ? "confirmed" : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ").slice(0, 300) : null;
}

export type AuditListQuery = { action?: string; actorEmail?: string; page?: number; pageSize?: number };

const targetSeries = alias(series, "target_series");

/**
 * The latest audit entries, newest first, optionally of one action and/or by
 * the actor with this email. A title or series still stored is named (an
 * episode with its series: "Series — S1E2 Title"), by primary key per row.
 */
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
      details: auditLog.details,
      ipAddress: auditLog.ipAddress,
      createdAt: auditLog.createdAt,
      actorEmail: accounts.email,
      movieName: movies.name,
      targetSeriesName: targetSeries.name,
      ...episodeContextColumns,
    })
    .from(auditLog)
    .leftJoin(accounts, eq(accounts.id, auditLog.actorId))
    .leftJoin(movies, and(eq(auditLog.targetType, "movie"), eq(movies.id, auditLog.targetId)))
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .leftJoin(targetSeries, and(eq(auditLog.targetType, "series"), eq(targetSeries.id, auditLog.targetId)))
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all()
    .map(
      ({
        movieName,
        targetSeriesName,
        seriesId: _seriesId,
        seriesName,
        seasonNumber,
        episodeNumber,
        details,
        ...row
      }) => ({
        ...row,
        note: auditNote(details),
        targetName:
          movieName !== null
            ? titleDisplayName({ name: movieName, seriesName, seasonNumber, episodeNumber })
            : targetSeriesName,
      }),
    );
  return { rows, total, page, pageSize };
}

import { and, eq, isNotNull } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, RETURN_REASONS, type ReturnReason, type Role } from "~/db/schema";
import { removeMovieFiles } from "~/media/media-store.server";
import { recordAudit } from "./audit.server";
import { publishingVerb, type PublishingChange } from "./publishing";
import { enqueueJob } from "./jobs.server";
import { MOVIE_JOB, type FailureReason, type ProcessMoviePayload } from "./movie-processing.server";
import { notifyNewTitle } from "./notifications.server";
import { tellProvider } from "./review-notices.server";
import { getSetting } from "./settings.server";

/**
 * A title's life, and the only code that writes where a title stands in it:
 *
 *   submitTitle ─► processing ─► markTitleReady ─► ready ─┐   (a replaced film: markTitleReplaced)
 *                      │                                  ├─ published = ready + approved
 *                      └──► markTitleFailed ─► failed     │  (catalogue `isPublished`)
 *   changeTitle: approve / unapprove (unpublish), feature, Free/Premium ┘
 *   sendBackTitle: not approved, with a reason the provider reads ─► resubmitTitle ─► waiting again
 *   deleteTitle: the owner or an administrator; the row first, then its files.
 *
 * A title that becomes published — ready while approved, or approved while
 * ready — tells the viewers of its category once (notifications service).
 */

type Actor = { actorId: string; ipAddress?: string | null };

export type SubmittedTitle = Pick<
  typeof movies.$inferSelect,
  "id" | "name" | "description" | "cast" | "categoryId" | "ageRating" | "providerId" | "sizeBytes"
> & {
  payload: ProcessMoviePayload;
  /** An episode: its place in a season, and the series' access and approval it starts with. */
  episode?: { seasonId: string; episodeNumber: number; access: "free" | "premium"; approved: boolean } | null;
};

/**
 * A new upload: its row (processing; approved when auto-approval is on) and its processing job, in the caller's
 * transaction. An episode is published when its series is: the series' approval, not the setting, decides.
 */
export function submitTitle(tx: DB, title: SubmittedTitle): void {
  const now = new Date();
  tx.insert(movies)
    .values({
      id: title.id,
      name: title.name,
      description: title.description,
      cast: title.cast,
      categoryId: title.categoryId,
      ageRating: title.ageRating,
      providerId: title.providerId,
      status: "processing",
      approved: title.episode ? title.episode.approved : getSetting(tx, "autoApproveMovies"),
      ...(title.episode
        ? { seasonId: title.episode.seasonId, episodeNumber: title.episode.episodeNumber, access: title.episode.access }
        : {}),
      sizeBytes: title.sizeBytes,
      uploadedAt: now,
      updatedAt: now,
    })
    .run();
  enqueueJob(tx, MOVIE_JOB, { movieId: title.id, payload: title.payload });
}

export type PlayableFacts = {
  videoFile: string;
  posterFile: string;
  sizeBytes: number;
  durationSeconds: number;
  width: number | null;
  height: number | null;
};

/** Processing finished: the title plays. False when it was deleted meanwhile (its files are then the caller's to remove). */
export function markTitleReady(db: DB, movieId: string, facts: PlayableFacts): boolean {
  const updated = db
    .update(movies)
    .set({ ...facts, status: "ready", failureReason: null, updatedAt: new Date() })
    .where(eq(movies.id, movieId))
    .run();
  if (updated.changes === 0) return false;
  // Ready and already approved (auto-approval): it is published now.
  notifyNewTitle(db, movieId);
  return true;
}

/**
 * A replaced film plays now (film-replacements.server.ts): the title's facts
 * are the new file's. A title whose first processing had failed becomes
 * Ready (and, if that publishes it, tells viewers once, as any new title); a
 * Ready title stays as it was — a new cut is not a new title. False when the
 * title is gone.
 */
export function markTitleReplaced(db: DB, movieId: string, facts: PlayableFacts): boolean {
  const row = db.select({ status: movies.status }).from(movies).where(eq(movies.id, movieId)).get();
  if (!row) return false;
  if (row.status !== "ready") return markTitleReady(db, movieId, facts);
  db.update(movies)
    .set({ ...facts, updatedAt: new Date() })
    .where(eq(movies.id, movieId))
    .run();
  return true;
}

/** Processing gave up: a failure the provider can read in their list. */
export function markTitleFailed(db: DB, movieId: string, reason: FailureReason): void {
  db.update(movies)
    .set({ status: "failed", failureReason: reason, updatedAt: new Date() })
    .where(eq(movies.id, movieId))
    .run();
}

export type TitleChange = PublishingChange;

/** Where a provider acts on a title's review: their list of titles. */
const STUDIO_LIST = "/provider/movielist";

/**
 * An administrator's change to a title, audited. False when there is no such
 * title. Approving clears a reason it was sent back with and tells the provider.
 */
export function changeTitle(db: DB, movieId: string, change: TitleChange, actor: Actor): boolean {
  return db.transaction((tx) => {
    const approving = "approved" in change && change.approved;
    const before = approving
      ? tx
          .select({ approved: movies.approved, name: movies.name, providerId: movies.providerId })
          .from(movies)
          .where(eq(movies.id, movieId))
          .get()
      : undefined;
    const updated = tx
      .update(movies)
      .set(approving ? { ...change, returnedAt: null, returnReason: null, returnNote: null } : change)
      .where(eq(movies.id, movieId))
      .run();
    if (updated.changes === 0) return false;
    if (before && !before.approved)
      tellProvider(tx, {
        providerId: before.providerId,
        name: before.name,
        link: STUDIO_LIST,
        movieId,
        notice: { outcome: "approved" },
      });
    // An episode's access set here is its own: the series' access no longer changes it.
    if ("access" in change) {
      tx.update(movies)
        .set({ accessOverride: true })
        .where(and(eq(movies.id, movieId), isNotNull(movies.seasonId)))
        .run();
    }
    // Approving a ready title publishes it.
    if ("approved" in change && change.approved) notifyNewTitle(tx, movieId);
    recordAudit(tx, {
      actorId: actor.actorId,
      action: `movie.${publishingVerb(change)}`,
      targetType: "movie",
      targetId: movieId,
      details: { ...change },
      ipAddress: actor.ipAddress,
    });
    return true;
  });
}

export const RETURN_NOTE_MAX = 500;
export const REVIEW_ERRORS = {
  reason: "admin:review.errors.reason",
  note: "admin:review.errors.note",
  noteTooLong: "admin:review.errors.noteTooLong",
} as const;

export type ReturnInput = { reason: ReturnReason; note: string };

/**
 * The send-back form: a reason from the list and the administrator's own
 * words (needed when the reason is "other", at most 500 characters).
 */
export function checkReturn(fields: {
  reason: string;
  note: string;
}): { ok: true; value: ReturnInput } | { ok: false; fieldErrors: Record<string, string[]> } {
  const reason = (RETURN_REASONS as readonly string[]).includes(fields.reason) ? (fields.reason as ReturnReason) : null;
  const note = fields.note.replace(/\r\n?/g, "\n").trim();
  const errors: Record<string, string[]> = {};
  if (!reason) errors.reason = [REVIEW_ERRORS.reason];
  if (note.length > RETURN_NOTE_MAX) errors.note = [REVIEW_ERRORS.noteTooLong];
  else if (reason === "other" && !note) errors.note = [REVIEW_ERRORS.note];
  return Object.keys(errors).length > 0 || !reason
    ? { ok: false, fieldErrors: errors }
    : { ok: true, value: { reason, note } };
}

/**
 * Send a title back to its provider: not approved (so not published, if it
 * was), with the reason they read on the title, a notification and a mail.
 * Audited. False when there is no such title.
 */
export function sendBackTitle(db: DB, movieId: string, input: ReturnInput, actor: Actor): boolean {
  return db.transaction((tx) => {
    const movie = tx
      .select({ name: movies.name, providerId: movies.providerId })
      .from(movies)
      .where(eq(movies.id, movieId))
      .get();
    if (!movie) return false;
    tx.update(movies)
      .set({ approved: false, returnedAt: new Date(), returnReason: input.reason, returnNote: input.note || null })
      .where(eq(movies.id, movieId))
      .run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "movie.send_back",
      targetType: "movie",
      targetId: movieId,
      details: { reason: input.reason, note: input.note },
      ipAddress: actor.ipAddress,
    });
    tellProvider(tx, {
      providerId: movie.providerId,
      name: movie.name,
      link: STUDIO_LIST,
      movieId,
      notice: { outcome: "returned", reason: input.reason, note: input.note },
    });
    return true;
  });
}

export type ResubmitOutcome = "resubmitted" | "notSentBack" | "notFound" | "forbidden";

/**
 * The provider (or an administrator) sends a title that was sent back for
 * approval again: the reason is cleared and it waits like a new upload
 * (approval stays the administrator's, whatever auto-approval says). Editing
 * a sent-back title calls this too. Audited.
 */
export function resubmitTitle(
  db: DB,
  movieId: string,
  actor: { id: string; role: Role },
  context: { ipAddress?: string | null } = {},
): ResubmitOutcome {
  return db.transaction((tx) => {
    const movie = tx
      .select({ providerId: movies.providerId, returnedAt: movies.returnedAt })
      .from(movies)
      .where(eq(movies.id, movieId))
      .get();
    if (!movie) return "notFound";
    if (actor.role !== "admin" && movie.providerId !== actor.id) return "forbidden";
    if (!movie.returnedAt) return "notSentBack";
    tx.update(movies)
      .set({ returnedAt: null, returnReason: null, returnNote: null, updatedAt: new Date() })
      .where(eq(movies.id, movieId))
      .run();
    recordAudit(tx, {
      actorId: actor.id,
      action: "movie.resubmit",
      targetType: "movie",
      targetId: movieId,
      ipAddress: context.ipAddress,
    });
    return "resubmitted";
  });
}

export type DeleteTitleOutcome = "deleted" | "notFound" | "forbidden";

/**
 * Delete a title: its row (comments, ratings, history and jobs go with it by
 * foreign key) and every file it owned. Its owner or an administrator only.
 */
export function deleteTitle(
  db: DB,
  movieId: string,
  actor: { id: string; role: Role },
  root?: string,
): DeleteTitleOutcome {
  const movie = db
    .select({ id: movies.id, providerId: movies.providerId })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get();
  if (!movie) return "notFound";
  if (actor.role !== "admin" && movie.providerId !== actor.id) return "forbidden";
  const deleted = db
    .delete(movies)
    .where(
      actor.role === "admin" ? eq(movies.id, movieId) : and(eq(movies.id, movieId), eq(movies.providerId, actor.id)),
    )
    .run();
  if (deleted.changes === 0) return "notFound";
  // Files after the row: a crash in between leaves an orphan folder, never a row without its files.
  removeMovieFiles(movieId, root);
  return "deleted";
}

/** deleteTitle, written to the audit log when it happened: what the provider's list, the admin's list and /api call. */
export function deleteTitleAudited(
  db: DB,
  movieId: string,
  actor: { id: string; role: Role },
  context: { ipAddress?: string | null } = {},
  root?: string,
): DeleteTitleOutcome {
  const outcome = deleteTitle(db, movieId, actor, root);
  if (outcome === "deleted") {
    recordAudit(db, {
      actorId: actor.id,
      action: "movie.delete",
      targetType: "movie",
      targetId: movieId,
      ipAddress: context.ipAddress,
    });
  }
  return outcome;
}

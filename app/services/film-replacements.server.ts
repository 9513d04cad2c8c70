import fs from "node:fs";
import path from "node:path";
import { and, desc, eq, isNull, lt, max } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { filmReplacements, movieRenditions, movies, type Role } from "~/db/schema";
import type { RungSpec } from "~/media/ladder";
import {
  movieVersionDir,
  publicPosterName,
  publicVideoName,
  removeMovieVersionFiles,
  storageRoot,
} from "~/media/storage.server";
import { scheduleBucketVersionRemoval } from "~/media/media-store.server";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { enqueueJob } from "./jobs.server";
import { filmRefusalKey, judgeFilm, knownFailureReason, type FailureReason } from "./movie-processing.server";
import { markTitleReplaced } from "./title-lifecycle.server";
import { safeBaseName } from "~/utils/file-names";

/**
 * Replacing a title's film (decision 051). The new file is made playable and
 * its whole ladder encoded in its own folder, media/<id>/v<N>/, while the
 * version in `movies.media_version` keeps playing; then one transaction makes
 * it the version that plays: the title's facts (length, size, picture), its
 * rendition rows and `media_version` change together. Nothing about the
 * title's identity changes, so its views, ratings, comments, history, lists
 * and download licences stay. Each version has its own stream addresses
 * (`/stream/<id>/v<N>/…`), so a viewer who started the old one plays it to the
 * end; its files are removed RETIRED_VERSION_KEEP_MS after the swap.
 *
 * A replacement that fails (a file ffprobe cannot read, an encoder that gives
 * up) leaves the title exactly as it was and records the reason, which the
 * provider reads on the title's page.
 */
export const REPLACE_FILM_JOB = "replace-film";

/** How long a retired version's files stay for viewers who began it before the swap (longer than any film, with pauses). */
export const RETIRED_VERSION_KEEP_MS = 6 * 60 * 60 * 1000;

export type ReplaceFilmPayload = { replacementId: string };

export type ReplacementRefusal = { ok: false; status: 403 | 404 | 409; key: string };

type Actor = { id: string; role: Role };

/** The name of a replacement's uploaded file inside its version's folder. */
function sourceName(originalName: string): string {
  return `source${path.extname(originalName).toLowerCase()}`;
}

/**
 * Whether this account may replace this title's film now: its own provider
 * only (administrators edit details and posters, not films), and not while
 * the title's first processing or another replacement is under way.
 */
export function checkReplacement(
  db: DB,
  movieId: string,
  actor: Actor,
): { ok: true; mediaVersion: number } | ReplacementRefusal {
  const movie = movieId
    ? db
        .select({ providerId: movies.providerId, status: movies.status, mediaVersion: movies.mediaVersion })
        .from(movies)
        .where(eq(movies.id, movieId))
        .get()
    : undefined;
  if (!movie) return { ok: false, status: 404, key: "studio:edit.errors.missing" };
  if (actor.role !== "provider" || movie.providerId !== actor.id)
    return { ok: false, status: 403, key: "studio:edit.errors.notYours" };
  if (movie.status === "processing") return { ok: false, status: 409, key: "studio:replace.errors.stillProcessing" };
  if (replacementUnderWay(db, movieId)) return { ok: false, status: 409, key: "studio:replace.errors.underWay" };
  return { ok: true, mediaVersion: movie.mediaVersion };
}

function replacementUnderWay(db: DB, movieId: string): boolean {
  return (
    db
      .select({ id: filmReplacements.id })
      .from(filmReplacements)
      .where(and(eq(filmReplacements.movieId, movieId), eq(filmReplacements.status, "processing")))
      .get() !== undefined
  );
}

/**
 * Queue a replacement of a title's film from a checked upload (its type and
 * what ffprobe makes of it). The file is placed in the new version's folder
 * (`place`: a rename for a multipart upload's temporary file, a hard link for
 * a resumable upload's bytes), then the replacement's row and its job are
 * written in one transaction, after `claim` (a resumable upload marks itself
 * complete there; nothing is written if it declines). On any failure the
 * folder goes and nothing is left in the database.
 */
export function startReplacement(
  db: DB,
  input: {
    movieId: string;
    actor: Actor;
    file: { path: string; originalName: string; size: number };
    place: (from: string, to: string) => void;
    claim?: (tx: DB) => boolean;
    ipAddress?: string | null;
    root?: string;
    /** The replacement's id, when the caller chose it already (a resumable upload does at its creation). */
    id?: string;
  },
): { ok: true; replacementId: string; version: number; repeated?: boolean } | ReplacementRefusal {
  const root = input.root ?? storageRoot();
  const allowed = checkReplacement(db, input.movieId, input.actor);
  if (!allowed.ok) return allowed;
  const highest =
    db
      .select({ value: max(filmReplacements.version) })
      .from(filmReplacements)
      .where(eq(filmReplacements.movieId, input.movieId))
      .get()?.value ?? 0;
  const version = Math.max(allowed.mediaVersion, highest) + 1;
  const dir = movieVersionDir(input.movieId, version, root);
  const id = input.id ?? createId();
  const source = sourceName(input.file.originalName);
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    input.place(input.file.path, path.join(dir, source));
    const made = db.transaction((tx) => {
      if (input.claim && !input.claim(tx as unknown as DB)) return false;
      // Checked again inside the transaction: two uploads finishing at once make one replacement.
      if (replacementUnderWay(tx as unknown as DB, input.movieId)) return "underWay" as const;
      tx.insert(filmReplacements)
        .values({
          id,
          movieId: input.movieId,
          requestedBy: input.actor.id,
          version,
          sourceFile: source,
          originalName: safeBaseName(input.file.originalName),
          sizeBytes: input.file.size,
        })
        .run();
      enqueueJob(tx as unknown as DB, REPLACE_FILM_JOB, {
        movieId: input.movieId,
        payload: { replacementId: id } satisfies ReplaceFilmPayload,
      });
      recordAudit(tx, {
        actorId: input.actor.id,
        action: "movie.replace_start",
        targetType: "movie",
        targetId: input.movieId,
        details: {
          replacementId: id,
          version,
          file: safeBaseName(input.file.originalName),
          sizeBytes: input.file.size,
        },
        ipAddress: input.ipAddress,
      });
      return true;
    });
    if (made !== true) {
      fs.rmSync(dir, { recursive: true, force: true });
      if (made === "underWay") return { ok: false, status: 409, key: "studio:replace.errors.underWay" };
      return { ok: true, replacementId: "", version, repeated: true };
    }
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { ok: true, replacementId: id, version };
}

export type ReplacementRow = typeof filmReplacements.$inferSelect;

/** A replacement the job should work on (still processing, its title still there), or null. */
export function replacementToMake(db: DB, replacementId: string): ReplacementRow | null {
  const row = db.select().from(filmReplacements).where(eq(filmReplacements.id, replacementId)).get();
  return row && row.status === "processing" ? row : null;
}

/** What the made version is, measured from its files. */
export type MadeVersion = {
  sizeBytes: number;
  durationSeconds: number;
  width: number | null;
  height: number | null;
  rungs: Array<
    RungSpec & {
      bandwidth: number;
      averageBandwidth: number;
      codecs: string;
      sizeBytes: number;
      durationSeconds: number;
    }
  >;
};

/**
 * The swap: in one transaction the title plays the new version — its facts,
 * its rungs (the old rows replaced by the new version's, all ready) and
 * `media_version` — and the replacement is done. A title that had failed its
 * first processing becomes Ready (published if it is approved: the
 * "new title" notice goes out then). The title's approval is left as it is:
 * a published title's new film goes live at once (decision 051). False when
 * the title or the replacement is gone (the caller removes the folder).
 */
export function swapInReplacement(db: DB, replacementId: string, made: MadeVersion, now = new Date()): boolean {
  return db.transaction((tx) => {
    const row = tx.select().from(filmReplacements).where(eq(filmReplacements.id, replacementId)).get();
    if (!row || row.status !== "processing") return false;
    const movie = tx.select({ mediaVersion: movies.mediaVersion }).from(movies).where(eq(movies.id, row.movieId)).get();
    if (!movie) return false;
    tx.update(movies).set({ mediaVersion: row.version }).where(eq(movies.id, row.movieId)).run();
    markTitleReplaced(tx as unknown as DB, row.movieId, {
      videoFile: publicVideoName(row.movieId),
      posterFile: publicPosterName(row.movieId),
      sizeBytes: made.sizeBytes,
      durationSeconds: Math.round(made.durationSeconds),
      width: made.width,
      height: made.height,
    });
    tx.delete(movieRenditions).where(eq(movieRenditions.movieId, row.movieId)).run();
    if (made.rungs.length > 0)
      tx.insert(movieRenditions)
        .values(
          made.rungs.map((rung) => ({
            movieId: row.movieId,
            rung: rung.rung,
            width: rung.width,
            height: rung.height,
            status: "ready" as const,
            bandwidth: rung.bandwidth,
            averageBandwidth: rung.averageBandwidth,
            codecs: rung.codecs,
            sizeBytes: rung.sizeBytes,
            durationSeconds: rung.durationSeconds,
            readyAt: now,
          })),
        )
        .run();
    tx.update(filmReplacements)
      .set({ status: "done", swappedAt: now, retiredVersion: movie.mediaVersion })
      .where(eq(filmReplacements.id, replacementId))
      .run();
    recordAudit(tx, {
      actorId: row.requestedBy,
      action: "movie.replace",
      targetType: "movie",
      targetId: row.movieId,
      details: {
        replacementId,
        version: row.version,
        retiredVersion: movie.mediaVersion,
        durationSeconds: Math.round(made.durationSeconds),
        secondsFromUpload: Math.round((now.getTime() - row.createdAt.getTime()) / 1000),
      },
    });
    return true;
  });
}

/**
 * A replacement given up: the reason is kept for the provider, the version's
 * folder is removed, and the title plays on as it was.
 */
export function markReplacementFailed(
  db: DB,
  replacementId: string,
  reason: FailureReason,
  root = storageRoot(),
): void {
  const row = db.select().from(filmReplacements).where(eq(filmReplacements.id, replacementId)).get();
  if (!row || row.status !== "processing") return;
  db.transaction((tx) => {
    tx.update(filmReplacements)
      .set({ status: "failed", failureReason: reason })
      .where(eq(filmReplacements.id, replacementId))
      .run();
    recordAudit(tx, {
      actorId: row.requestedBy,
      action: "movie.replace_failed",
      targetType: "movie",
      targetId: row.movieId,
      details: { replacementId, version: row.version, reason },
    });
  });
  removeMovieVersionFiles(row.movieId, row.version, root);
}

export type ReplacementSummary = {
  status: "processing" | "failed" | "done";
  failureReason: FailureReason | null;
  originalName: string;
  createdAt: Date;
  swappedAt: Date | null;
};

/** The title's latest replacement, for its page: under way, failed (and why) or done. */
export function latestReplacement(db: DB, movieId: string): ReplacementSummary | null {
  const row = db
    .select({
      status: filmReplacements.status,
      failureReason: filmReplacements.failureReason,
      originalName: filmReplacements.originalName,
      createdAt: filmReplacements.createdAt,
      swappedAt: filmReplacements.swappedAt,
    })
    .from(filmReplacements)
    .where(eq(filmReplacements.movieId, movieId))
    .orderBy(desc(filmReplacements.createdAt), desc(filmReplacements.version))
    .limit(1)
    .get();
  return row ? { ...row, failureReason: knownFailureReason(row.failureReason) } : null;
}

/**
 * Remove the files of versions retired more than `keepMs` ago (run by the
 * housekeeping). Returns how many versions were removed.
 */
export function removeRetiredVersions(db: DB, options: { now?: Date; root?: string; keepMs?: number } = {}): number {
  const now = options.now ?? new Date();
  const root = options.root ?? storageRoot();
  const before = new Date(now.getTime() - (options.keepMs ?? RETIRED_VERSION_KEEP_MS));
  const due = db
    .select({ id: filmReplacements.id, movieId: filmReplacements.movieId, retired: filmReplacements.retiredVersion })
    .from(filmReplacements)
    .where(
      and(
        eq(filmReplacements.status, "done"),
        isNull(filmReplacements.retiredFilesRemovedAt),
        lt(filmReplacements.swappedAt, before),
      ),
    )
    .all();
  for (const row of due) {
    const current = db.select({ version: movies.mediaVersion }).from(movies).where(eq(movies.id, row.movieId)).get();
    // Never the version that plays (a title replaced back to an old version number cannot happen; this is a guard).
    if (row.retired !== null && current && current.version !== row.retired) {
      removeMovieVersionFiles(row.movieId, row.retired, root);
      scheduleBucketVersionRemoval(row.movieId, row.retired);
    }
    db.update(filmReplacements).set({ retiredFilesRemovedAt: now }).where(eq(filmReplacements.id, row.id)).run();
  }
  return due.length;
}

export type ReplacementUploadResult =
  | { ok: true; replacementId: string }
  | { ok: false; status: 400 | 403 | 404 | 409 | 413 | 507; fieldErrors: { movie?: string[] }; formError?: string };

/**
 * A replacement film sent in one multipart request, once it has arrived
 * (routes-support/title-requests: who may replace is checked before a byte is
 * read, the film streams to a temporary file checked by extension and
 * content): read by ffprobe, then queued (startReplacement). The caller
 * removes the temporary file after.
 */
export async function replaceFilmWithUpload(
  db: DB,
  movieId: string,
  actor: Actor,
  file: { tempPath: string; originalName: string; size: number } | undefined,
  options: { root: string; ipAddress?: string | null },
): Promise<ReplacementUploadResult> {
  if (!file || !file.originalName)
    return { ok: false, status: 400, fieldErrors: { movie: ["studio:errors.movieRequired"] } };
  if (file.size === 0) return { ok: false, status: 400, fieldErrors: { movie: ["studio:errors.movieEmpty"] } };
  const verdict = await judgeFilm(file.tempPath);
  if (!verdict.ok) return { ok: false, status: 400, fieldErrors: { movie: [filmRefusalKey(verdict.reason)] } };
  const started = startReplacement(db, {
    movieId,
    actor,
    file: { path: file.tempPath, originalName: file.originalName, size: file.size },
    place: fs.renameSync,
    ipAddress: options.ipAddress,
    root: options.root,
  });
  if (!started.ok) return { ok: false, status: started.status, fieldErrors: {}, formError: started.key };
  return { ok: true, replacementId: started.replacementId };
}

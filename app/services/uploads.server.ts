import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { fieldErrorsOf } from "~/services/validation";
import { titleDetailsSchema } from "./title-fields";
import type { z } from "zod";
import type { DB } from "~/db/client.server";
import { categories, movies, resumableUploads } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { filmRefusalKey, judgeFilm, type ProcessMoviePayload } from "./movie-processing.server";
import { movieDir, spareBytes, storagePaths } from "~/media/storage.server";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { submitTitle } from "./title-lifecycle.server";
import { isPlacementRefusal, parseEpisodeRequest, placeEpisode, type EpisodePlacement } from "./series.server";

/**
 * One upload path for the provider studio's form and the old clients'
 * `POST /api/upload/movies`. The bytes stream to temporary files; the title's
 * row, its files and its processing job appear together only after every
 * check has passed, or not at all.
 *
 * - "form": parts `name`, `Description`, `Category`, `cast`, `ageRating` (G … RE, or empty: unrated),
 *   files `movie` and `poster`.
 * - Either layout may carry `seasonId` (and `episodeNumber`): the title is then an episode of one
 *   of the caller's own series (another provider's season is refused), with its series' category.
 * - "legacy": the old web client's layout: text parts, then two parts named `file`
 *   (the movie first, the poster second). `uploadedByUser` is ignored: the caller owns the title.
 */
export type UploadLayout = "form" | "legacy";

export type UploadFieldErrors = Partial<
  Record<
    "name" | "Description" | "Category" | "cast" | "ageRating" | "movie" | "poster" | "seasonId" | "episodeNumber",
    string[]
  >
>;

export type MovieUploadResult =
  | { ok: true; movieId: string; repeated?: boolean }
  | { ok: false; status: 400 | 403 | 413 | 507; fieldErrors: UploadFieldErrors; formError?: string };

/**
 * Where an upload's `seasonId` / `episodeNumber` put it: nothing (a film), a
 * place in one of this provider's seasons, or a refusal with its field. The
 * episode takes its series' category, so `Category` need not be sent.
 */
export function episodePlacementOf(
  db: DB,
  providerId: string,
  fields: { seasonId?: string | null; episodeNumber?: string | null },
): { placement: EpisodePlacement | null } | { status: 400 | 403; fieldErrors: UploadFieldErrors } {
  const wanted = parseEpisodeRequest(fields);
  if (wanted === null) return { placement: null };
  const placed = isPlacementRefusal(wanted) ? wanted : placeEpisode(db, providerId, wanted);
  if (isPlacementRefusal(placed)) return { status: placed.status, fieldErrors: { [placed.field]: [placed.key] } };
  return { placement: placed };
}

/** The text parts of an upload (both layouts). */
export const uploadDetailsSchema = titleDetailsSchema;

/**
 * An upload key makes a plain upload safe to send twice: the form carries a
 * random one (field `uploadKey`; scripts may send an `Idempotency-Key` header),
 * and the title's id is derived from the provider and the key. If the server
 * stored the title but the answer was lost (a kill after the last byte), the
 * repeated request finds it and makes no second one.
 */
const UPLOAD_KEY = /^[A-Za-z0-9_-]{16,64}$/;
export function newUploadKey(): string {
  return randomBytes(16).toString("base64url");
}
function movieIdForUploadKey(providerId: string, key: string): string {
  return createHash("sha256").update(`upload:${providerId}:${key}`).digest("hex").slice(0, 24);
}

/** A film and a poster as the edge received them (streamed to temporary files and checked by type). */
export type ReceivedUpload = {
  fields: Record<string, string>;
  movie?: UploadedFile;
  poster?: UploadedFile;
  /** The form's `uploadKey`, or an `Idempotency-Key` header. */
  uploadKey?: string | null;
};

export type UploadedFile = { tempPath: string; originalName: string; size: number };

/**
 * Make a new title of a provider's upload, once its files have arrived: its
 * details checked, its film read by ffprobe, then its row, files and
 * processing job together (storeNewTitle), and the audit entry. What is
 * refused leaves nothing; the caller removes the temporary files after.
 */
export async function acceptMovieUpload(
  db: DB,
  upload: ReceivedUpload,
  options: { providerId: string; root: string; ipAddress?: string | null },
): Promise<MovieUploadResult> {
  const place = episodePlacementOf(db, options.providerId, upload.fields);
  if ("status" in place) return { ok: false, status: place.status, fieldErrors: place.fieldErrors };
  const episode = place.placement;
  const fieldErrors: UploadFieldErrors = {};
  const parsed = uploadDetailsSchema.safeParse(
    episode ? { ...upload.fields, Category: episode.categoryId } : upload.fields,
  );
  if (!parsed.success) Object.assign(fieldErrors, fieldErrorsOf(parsed.error));
  else if (!categoryExists(db, parsed.data.Category)) fieldErrors.Category = ["studio:errors.categoryUnknown"];
  if (!upload.movie) fieldErrors.movie = ["studio:errors.movieRequired"];
  if (upload.movie && upload.movie.size === 0) fieldErrors.movie = ["studio:errors.movieEmpty"];
  if (!parsed.success || Object.keys(fieldErrors).length > 0) return { ok: false, status: 400, fieldErrors };

  const movieFile = upload.movie!;
  // A file ffprobe cannot read (or with no picture, or no length) is refused now, with the reason.
  const verdict = await judgeFilm(movieFile.tempPath);
  if (!verdict.ok) return { ok: false, status: 400, fieldErrors: { movie: [filmRefusalKey(verdict.reason)] } };
  const key = upload.uploadKey ?? "";
  const movieId = UPLOAD_KEY.test(key) ? movieIdForUploadKey(options.providerId, key) : createId();
  if (
    db
      .select({ id: movies.id })
      .from(movies)
      .where(and(eq(movies.id, movieId), eq(movies.providerId, options.providerId)))
      .get()
  ) {
    // Sent before and stored: the same title, nothing new.
    return { ok: true, movieId, repeated: true };
  }
  storeNewTitle(db, {
    movieId,
    providerId: options.providerId,
    details: parsed.data,
    movie: { path: movieFile.tempPath, originalName: movieFile.originalName, size: movieFile.size },
    poster: upload.poster ? { path: upload.poster.tempPath, originalName: upload.poster.originalName } : undefined,
    episode,
    root: options.root,
    place: fs.renameSync,
  });
  recordAudit(db, {
    actorId: options.providerId,
    action: "movie.upload",
    targetType: "movie",
    targetId: movieId,
    ipAddress: options.ipAddress,
  });
  return { ok: true, movieId };
}

export type UploadDetails = z.infer<typeof uploadDetailsSchema>;

/**
 * Make a title from checked files: they are placed in the title's own folder
 * (renamed from a multipart upload's temporary files, hard-linked from a
 * resumable upload's), then its row and its processing job are written in one
 * transaction. `claim`, run first inside that transaction, may decline (the
 * title was made already): nothing is written then and false is returned.
 * An `episode` (placed by the caller in the same tick: nothing is awaited in
 * between) puts the title in its season with its series' category, approval
 * and access.
 * On any failure the folder is removed and nothing is left in the database.
 */
export function storeNewTitle(
  db: DB,
  input: {
    movieId: string;
    providerId: string;
    details: UploadDetails;
    movie: { path: string; originalName: string; size: number };
    poster?: { path: string; originalName: string };
    episode?: EpisodePlacement | null;
    root: string;
    place: (from: string, to: string) => void;
    claim?: (tx: DB) => boolean;
  },
): boolean {
  const { movieId, details } = input;
  const dir = movieDir(movieId, input.root);
  const payload: ProcessMoviePayload = { source: `source${path.extname(input.movie.originalName).toLowerCase()}` };
  try {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    input.place(input.movie.path, path.join(dir, payload.source));
    if (input.poster) {
      payload.poster = `poster-source${path.extname(input.poster.originalName).toLowerCase()}`;
      input.place(input.poster.path, path.join(dir, payload.poster));
    }
    const made = db.transaction((tx) => {
      if (input.claim && !input.claim(tx as unknown as DB)) return false;
      submitTitle(tx as unknown as DB, {
        id: movieId,
        name: details.name,
        description: details.Description,
        cast: details.cast,
        categoryId: input.episode?.categoryId ?? details.Category,
        // An episode carries its series' rating, not one of its own.
        ageRating: input.episode ? null : details.ageRating,
        providerId: input.providerId,
        sizeBytes: input.movie.size,
        payload,
        episode: input.episode ?? null,
      });
      return true;
    });
    if (!made) fs.rmSync(dir, { recursive: true, force: true });
    return made;
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Bytes an upload may still take: the disk's free space less the reserve
 * (DISK_RESERVE_MB), less what unfinished resumable uploads have yet to send.
 */
export function spareUploadBytes(db: DB, root: string): number {
  return uploadSpace(db, root).spare;
}

/**
 * The upload space as a new resumable upload meets it: what may still be
 * taken (`spare`), what unfinished uploads hold for bytes yet to come (`owed`,
 * in all and by provider). An unfinished upload holds its space only while
 * its bytes keep coming: for UPLOAD_HOLD_MINUTES after its last byte (or its
 * creation); an idle one can still be resumed, but holds nothing meanwhile —
 * so an upload declared and left, or fed a byte now and then, takes nobody's
 * room. Of the space (what is spare plus what is owed), providers who already
 * hold some may take more only while all unfinished uploads together hold at
 * most UPLOAD_RESERVED_PERCENT and they their UPLOAD_SHARE_PERCENT: the rest
 * stays for a provider who holds none, who may always start one upload the
 * disk has room for.
 */
export function uploadSpace(
  db: DB,
  root: string,
  now = Date.now(),
  holdMs = getEnv().uploadHoldMs,
): { spare: number; owed: number; owedBy: Map<string, number> } {
  const pending = db
    .select({
      id: resumableUploads.id,
      size: resumableUploads.sizeBytes,
      providerId: resumableUploads.providerId,
      createdAt: resumableUploads.createdAt,
    })
    .from(resumableUploads)
    .where(isNull(resumableUploads.completedAt))
    .all();
  let owed = 0;
  const owedBy = new Map<string, number>();
  for (const upload of pending) {
    const { bytes, lastByteAt } = receivedSoFar(upload.id, root);
    if (now - Math.max(lastByteAt, upload.createdAt.getTime()) > holdMs) continue;
    const due = Math.max(0, upload.size - bytes);
    owed += due;
    owedBy.set(upload.providerId, (owedBy.get(upload.providerId) ?? 0) + due);
  }
  return { spare: Math.max(0, spareBytes(root) - owed), owed, owedBy };
}

/** Why a new resumable upload of `size` bytes may not reserve its space: its provider's share, or everyone's. */
export type UploadShareRefusal = "share" | "reserved" | null;

/** May this provider reserve `size` more bytes for a new resumable upload? (See uploadSpace.) */
export function withinUploadShare(
  db: DB,
  root: string,
  providerId: string,
  size: number,
  limits: { sharePercent: number; reservedPercent: number },
): UploadShareRefusal {
  const space = uploadSpace(db, root);
  const whole = space.spare + space.owed;
  const held = space.owedBy.get(providerId) ?? 0;
  // A provider who holds nothing may start one upload of any size the disk has room for (checked before): the
  // part the others may not reserve is theirs.
  if (held === 0) return null;
  if (space.owed + size > (whole * limits.reservedPercent) / 100) return "reserved";
  return held + size <= (whole * limits.sharePercent) / 100 ? null : "share";
}

function receivedSoFar(uploadId: string, root: string): { bytes: number; lastByteAt: number } {
  try {
    const stat = fs.statSync(path.join(storagePaths(root).uploads, uploadId));
    return { bytes: stat.size, lastByteAt: stat.size > 0 ? stat.mtimeMs : 0 };
  } catch {
    return { bytes: 0, lastByteAt: 0 };
  }
}

/** How many bytes of a resumable upload are on disk (0 when its file is gone). */
export function receivedBytes(uploadId: string, root: string): number {
  return receivedSoFar(uploadId, root).bytes;
}

/** Whether a category exists (checked when an upload's details are given). */
export function categoryExists(db: DB, categoryId: string): boolean {
  return db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId)).get() !== undefined;
}

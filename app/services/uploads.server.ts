import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { fieldErrorsOf } from "~/services/validation";
import { titleTextFields } from "./title-fields";
import { z } from "zod";
import { getDb, type DB } from "~/db/client.server";
import { categories, movies, resumableUploads } from "~/db/schema";
import { checkUploadedFile } from "~/media/file-types.server";
import { filmRefusalKey, judgeFilm, type ProcessMoviePayload } from "./movie-processing.server";
import { receiveMultipartUpload, UploadError, type ReceivedFile } from "~/media/multipart-upload.server";
import { movieDir, spareBytes, storagePaths, storageRoot } from "~/media/storage.server";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { clientAddress } from "~/utils/client.server";
import { lingerOn } from "~/utils/request-body.server";
import { submitTitle } from "./title-lifecycle.server";
import { isPlacementRefusal, parseEpisodeRequest, placeEpisode, type EpisodePlacement } from "./series.server";

/**
 * One upload path for the provider studio's form and the old clients'
 * `POST /api/upload/movies`. The bytes stream to temporary files; the title's
 * row, its files and its processing job appear together only after every
 * check has passed, or not at all.
 *
 * - "form": parts `name`, `Description`, `Category`, `cast`, files `movie` and `poster`.
 * - Either layout may carry `seasonId` (and `episodeNumber`): the title is then an episode of one
 *   of the caller's own series (another provider's season is refused), with its series' category.
 * - "legacy": the old web client's layout: text parts, then two parts named `file`
 *   (the movie first, the poster second). `uploadedByUser` is ignored: the caller owns the title.
 */
export type UploadLayout = "form" | "legacy";

export type UploadFieldErrors = Partial<
  Record<"name" | "Description" | "Category" | "cast" | "movie" | "poster" | "seasonId" | "episodeNumber", string[]>
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
export const uploadDetailsSchema = z.object({
  name: z
    .string({ required_error: "studio:errors.titleRequired" })
    .trim()
    .min(1, "studio:errors.titleRequired")
    .max(200, "studio:errors.titleTooLong"),
  ...titleTextFields,
  Category: z
    .string({ required_error: "studio:errors.categoryRequired" })
    .trim()
    .min(1, "studio:errors.categoryRequired"),
});

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

const FILE_REASON_KEYS: Record<string, string> = {
  wrongExtension: "studio:errors.wrongExtension",
  contentMismatch: "studio:errors.contentMismatch",
  unexpectedFile: "studio:errors.unexpectedFile",
};

type FileRole = "movie" | "poster";

export async function acceptMovieUpload(
  db: DB,
  request: Request,
  options: { providerId: string; layout: UploadLayout; root: string; maxFileBytes: number },
): Promise<MovieUploadResult> {
  const roles = new Map<number, FileRole>();
  let legacyFiles = 0;
  const roleOf = (field: string, index: number): FileRole | null => {
    if (roles.has(index)) return roles.get(index)!;
    let role: FileRole | null = null;
    if (options.layout === "form") role = field === "movie" || field === "poster" ? field : null;
    else if (field === "file") role = legacyFiles++ === 0 ? "movie" : "poster";
    if (role) roles.set(index, role);
    return role;
  };

  const declaredLength = Number(request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declaredLength) && declaredLength > spareUploadBytes(db, options.root)) {
    // Refused before a byte is read: the film is read and dropped behind the answer, which the client then hears.
    lingerOn(request);
    return { ok: false, status: 507, fieldErrors: {}, formError: "studio:errors.noSpace" };
  }

  let refused: { role: FileRole; reason: string } | null = null;
  let upload;
  try {
    upload = await receiveMultipartUpload(request, {
      tmpDir: storagePaths(options.root).tmp,
      maxFileBytes: options.maxFileBytes,
      maxFiles: 2,
      signal: request.signal,
      checkFile: ({ field, index, originalName, head }) => {
        const role = roleOf(field, index);
        const check = role
          ? checkUploadedFile(role, originalName, head)
          : ({ ok: false, reason: "unexpectedFile" } as const);
        if (check.ok) return null;
        refused ??= { role: role ?? "movie", reason: check.reason };
        return check.reason;
      },
    });
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    if (error.status === 413) return { ok: false, status: 413, fieldErrors: {}, formError: "studio:errors.tooLarge" };
    if (error.status === 507) return { ok: false, status: 507, fieldErrors: {}, formError: "studio:errors.noSpace" };
    const refusal = refused as { role: FileRole; reason: string } | null;
    if (error.code === "badFile" && refusal) {
      const key = FILE_REASON_KEYS[refusal.reason] ?? "studio:errors.contentMismatch";
      return { ok: false, status: 400, fieldErrors: { [refusal.role]: [key] } };
    }
    if (error.code === "notMultipart")
      return { ok: false, status: 400, fieldErrors: {}, formError: "studio:errors.notMultipart" };
    return { ok: false, status: 400, fieldErrors: {}, formError: "studio:errors.incomplete" };
  }

  const files: Partial<Record<FileRole, ReceivedFile>> = {};
  for (const file of upload.files) {
    const role = roles.get(file.index);
    if (role && !files[role]) files[role] = file;
  }

  const place = episodePlacementOf(db, options.providerId, upload.fields);
  if ("status" in place) {
    await upload.discard();
    return { ok: false, status: place.status, fieldErrors: place.fieldErrors };
  }
  const episode = place.placement;
  const fieldErrors: UploadFieldErrors = {};
  const parsed = uploadDetailsSchema.safeParse(
    episode ? { ...upload.fields, Category: episode.categoryId } : upload.fields,
  );
  if (!parsed.success) Object.assign(fieldErrors, fieldErrorsOf(parsed.error));
  else if (!categoryExists(db, parsed.data.Category)) fieldErrors.Category = ["studio:errors.categoryUnknown"];
  if (!files.movie) fieldErrors.movie = ["studio:errors.movieRequired"];
  if (files.movie && files.movie.size === 0) fieldErrors.movie = ["studio:errors.movieEmpty"];

  if (!parsed.success || Object.keys(fieldErrors).length > 0) {
    await upload.discard();
    return { ok: false, status: 400, fieldErrors };
  }

  const movieFile = files.movie!;
  // A file ffprobe cannot read (or with no picture, or no length) is refused now, with the reason.
  const verdict = await judgeFilm(movieFile.tempPath);
  if (!verdict.ok) {
    await upload.discard();
    return { ok: false, status: 400, fieldErrors: { movie: [filmRefusalKey(verdict.reason)] } };
  }
  const key = upload.fields.uploadKey ?? request.headers.get("Idempotency-Key") ?? "";
  const movieId = UPLOAD_KEY.test(key) ? movieIdForUploadKey(options.providerId, key) : createId();
  if (
    db
      .select({ id: movies.id })
      .from(movies)
      .where(and(eq(movies.id, movieId), eq(movies.providerId, options.providerId)))
      .get()
  ) {
    // Sent before and stored: the same title, nothing new.
    await upload.discard();
    return { ok: true, movieId, repeated: true };
  }
  try {
    storeNewTitle(db, {
      movieId,
      providerId: options.providerId,
      details: parsed.data,
      movie: { path: movieFile.tempPath, originalName: movieFile.originalName, size: movieFile.size },
      poster: files.poster ? { path: files.poster.tempPath, originalName: files.poster.originalName } : undefined,
      episode,
      root: options.root,
      place: fs.renameSync,
    });
  } catch (error) {
    await upload.discard();
    throw error;
  }
  await upload.discard();
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
 * in all and by provider). One provider's unfinished uploads may hold at most
 * UPLOAD_SHARE_PERCENT of the space (what is spare plus what is owed) — or one
 * upload of any size the disk has room for — so nobody can take every other
 * provider's room by declaring uploads and sending nothing.
 */
export function uploadSpace(db: DB, root: string): { spare: number; owed: number; owedBy: Map<string, number> } {
  const pending = db
    .select({ id: resumableUploads.id, size: resumableUploads.sizeBytes, providerId: resumableUploads.providerId })
    .from(resumableUploads)
    .where(isNull(resumableUploads.completedAt))
    .all();
  let owed = 0;
  const owedBy = new Map<string, number>();
  for (const upload of pending) {
    const due = Math.max(0, upload.size - receivedBytes(upload.id, root));
    owed += due;
    owedBy.set(upload.providerId, (owedBy.get(upload.providerId) ?? 0) + due);
  }
  return { spare: Math.max(0, spareBytes(root) - owed), owed, owedBy };
}

/** May this provider reserve `size` more bytes for a new resumable upload? (See uploadSpace.) */
export function withinUploadShare(
  db: DB,
  root: string,
  providerId: string,
  size: number,
  sharePercent: number,
): boolean {
  const space = uploadSpace(db, root);
  const held = space.owedBy.get(providerId) ?? 0;
  if (held === 0) return true;
  return held + size <= ((space.spare + space.owed) * sharePercent) / 100;
}

/** How many bytes of a resumable upload are on disk (0 when its file is gone). */
export function receivedBytes(uploadId: string, root: string): number {
  try {
    return fs.statSync(path.join(storagePaths(root).uploads, uploadId)).size;
  } catch {
    return 0;
  }
}

/** Whether a category exists (checked when an upload's details are given). */
export function categoryExists(db: DB, categoryId: string): boolean {
  return db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId)).get() !== undefined;
}

/**
 * A signed-in provider's upload as the studio page, its progress endpoint and
 * the old clients' endpoint run it: stored with this server's limits, audited,
 * and handed to the media jobs.
 */
export async function receiveProviderUpload(
  request: Request,
  provider: { id: string },
  layout: UploadLayout,
): Promise<MovieUploadResult> {
  const db = getDb();
  const result = await acceptMovieUpload(db, request, {
    providerId: provider.id,
    layout,
    root: storageRoot(),
    maxFileBytes: getEnv().maxUploadBytes,
  });
  if (result.ok && !result.repeated) {
    recordAudit(db, {
      actorId: provider.id,
      action: "movie.upload",
      targetType: "movie",
      targetId: result.movieId,
      ipAddress: clientAddress(request),
    });
  }
  return result;
}

import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, isNull } from "drizzle-orm";
import { fieldErrorsOf } from "~/services/validation";
import { getDb, type DB } from "~/db/client.server";
import { movies, resumableUploads } from "~/db/schema";
import { checkUploadedFile, extensionOf, MOVIE_EXTENSIONS, SNIFF_BYTES } from "~/media/file-types.server";
import { writeMoviePosters } from "~/media/posters.server";
import { movieDir, storagePaths, storageRoot } from "~/media/storage.server";
import type { Account } from "~/services/accounts.server";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { filmRefusalKey, judgeFilm } from "./movie-processing.server";
import { checkReplacement, startReplacement } from "./film-replacements.server";
import { startPeriodic } from "./periodic.server";
import { isPlacementRefusal, placeEpisode, type EpisodePlacement } from "./series.server";
import { safeBaseName } from "~/utils/file-names";
import {
  categoryExists,
  episodePlacementOf,
  receivedBytes,
  spareUploadBytes,
  storeNewTitle,
  withinUploadShare,
  uploadDetailsSchema,
  type UploadDetails,
  type UploadFieldErrors,
} from "./uploads.server";

/**
 * Resumable uploads, the domain: who may create one and with what (checked
 * as the form checks a new title, or a replacement of a title's film), its
 * declared size against the disk and the provider's share, the title made
 * once its last byte is in, and the sweep of abandoned ones. The protocol
 * (tus, at /provider/uploads/tus) is spoken by routes-support/tus.server.ts.
 */
export type UploadRow = typeof resumableUploads.$inferSelect;

/** A creation's details, checked: what the upload's row is made of. */
export type Creation = {
  details: UploadDetails;
  filename: string;
  size: number;
  episode: EpisodePlacement | null;
  /** The title whose film this upload replaces (film-replacements.server.ts), or null for a new title. */
  replacesMovieId: string | null;
};

/** A refusal: status, message key (English in the body's `error` for scripts), field errors for the form. */
export class UploadRefusal extends Error {
  constructor(
    public readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 507,
    public readonly key: string,
    public readonly fieldErrors?: UploadFieldErrors,
  ) {
    super(key);
    this.name = "UploadRefusal";
  }
}

/** The upload's bytes on disk, its details beside them (the store's), and a poster sent before the end. */
export function uploadFiles(id: string, root = storageRoot()) {
  const dir = storagePaths(root).uploads;
  return { data: path.join(dir, id), info: path.join(dir, `${id}.json`), posterPrefix: path.join(dir, `${id}.poster`) };
}

function posterWaiting(id: string, root = storageRoot()): { path: string; originalName: string } | undefined {
  for (const extension of [".jpg", ".jpeg", ".png"]) {
    const candidate = `${uploadFiles(id, root).posterPrefix}${extension}`;
    if (fs.existsSync(candidate)) return { path: candidate, originalName: `poster${extension}` };
  }
  return undefined;
}

export function removeUploadFiles(id: string, root = storageRoot()): void {
  const files = uploadFiles(id, root);
  for (const file of [
    files.data,
    files.info,
    ...[".jpg", ".jpeg", ".png"].map((extension) => `${files.posterPrefix}${extension}`),
  ]) {
    fs.rmSync(file, { force: true });
  }
}

/**
 * Make the title from a complete upload: check its first bytes once more
 * (a film shorter than the sniffing window is only checked here), link the
 * bytes into the title's folder, and write the title, its job and the
 * upload's completion in one transaction. Runs without awaiting anything, so
 * two finishing requests of one upload cannot interleave in one process (and
 * the server runs it `oneAtATime` across workers): the second finds it
 * complete and makes nothing. Returns the title's id.
 */
export function finishUpload(db: DB, id: string, ipAddress: string, root = storageRoot()): string {
  const row = db.select().from(resumableUploads).where(eq(resumableUploads.id, id)).get();
  if (!row) throw new UploadRefusal(404, "studio:errors.uploadNotFound");
  if (row.completedAt) return row.replacesMovieId ?? row.movieId;
  const files = uploadFiles(id, root);
  const head = readHead(files.data, SNIFF_BYTES);
  if (!checkUploadedFile("movie", row.filename, head).ok) {
    discardUpload(db, row, root);
    throw new UploadRefusal(415, "studio:errors.contentMismatch");
  }
  if (row.replacesMovieId) return finishReplacementUpload(db, row, ipAddress, root);
  if (!categoryExists(db, row.categoryId))
    throw new UploadRefusal(400, "studio:errors.categoryUnknown", { Category: ["studio:errors.categoryUnknown"] });
  // An episode's place is checked again: its number may have been taken meanwhile (it then gets the next free one).
  let episode: EpisodePlacement | null = null;
  if (row.seasonId) {
    const placed = placeEpisode(
      db,
      row.providerId,
      { seasonId: row.seasonId, episodeNumber: row.episodeNumber },
      { takeNextIfTaken: true },
    );
    if (isPlacementRefusal(placed)) {
      discardUpload(db, row, root);
      throw new UploadRefusal(409, placed.key, { [placed.field]: [placed.key] });
    }
    episode = placed;
  }
  const made = storeNewTitle(db, {
    movieId: row.movieId,
    providerId: row.providerId,
    details: {
      name: row.name,
      Description: row.description,
      cast: row.cast,
      Category: row.categoryId,
      ageRating: row.ageRating,
    },
    movie: { path: files.data, originalName: row.filename, size: row.sizeBytes },
    poster: posterWaiting(id, root),
    episode,
    root,
    place: linkOrCopy,
    claim: (tx) =>
      tx
        .update(resumableUploads)
        .set({ completedAt: new Date() })
        .where(and(eq(resumableUploads.id, id), isNull(resumableUploads.completedAt)))
        .run().changes === 1,
  });
  if (made) {
    recordAudit(db, {
      actorId: row.providerId,
      action: "movie.upload",
      targetType: "movie",
      targetId: row.movieId,
      ipAddress,
      details: { resumable: true },
    });
  }
  return row.movieId;
}

/**
 * A complete upload's film is read by ffprobe before anything is made of it:
 * one it cannot read (or with no picture, or no length) is removed and the
 * last request answered 422 with the reason, which the upload page shows.
 */
export async function refuseUnreadableFilm(db: DB, id: string, root = storageRoot()): Promise<void> {
  const row = db.select().from(resumableUploads).where(eq(resumableUploads.id, id)).get();
  if (!row || row.completedAt) return;
  const verdict = await judgeFilm(uploadFiles(id, root).data);
  if (verdict.ok) return;
  const fresh = db.select().from(resumableUploads).where(eq(resumableUploads.id, id)).get();
  if (!fresh || fresh.completedAt) return;
  discardUpload(db, fresh, root);
  const key = filmRefusalKey(verdict.reason);
  throw new UploadRefusal(422, key, { movie: [key] });
}

/**
 * A complete upload that replaces a title's film: its bytes are linked into
 * the new version's folder and the replacement queued, with the upload's
 * completion in the same transaction. Returns the title's id.
 */
function finishReplacementUpload(db: DB, row: UploadRow, ipAddress: string, root: string): string {
  const movieId = row.replacesMovieId!;
  const started = startReplacement(db, {
    id: row.movieId,
    movieId,
    actor: { id: row.providerId, role: "provider" },
    file: { path: uploadFiles(row.id, root).data, originalName: row.filename, size: row.sizeBytes },
    place: linkOrCopy,
    ipAddress,
    root,
    claim: (tx) =>
      tx
        .update(resumableUploads)
        .set({ completedAt: new Date() })
        .where(and(eq(resumableUploads.id, row.id), isNull(resumableUploads.completedAt)))
        .run().changes === 1,
  });
  if (!started.ok) {
    discardUpload(db, row, root);
    throw new UploadRefusal(started.status, started.key, { movie: [started.key] });
  }
  return movieId;
}

/** Hard links keep the upload's bytes in place until the title's transaction is written; copies where links are not possible. */
function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    fs.copyFileSync(from, to);
  }
}

function readHead(file: string, length: number): Buffer {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, read);
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function discardUpload(db: DB, row: UploadRow, root = storageRoot()): void {
  db.delete(resumableUploads).where(eq(resumableUploads.id, row.id)).run();
  removeUploadFiles(row.id, root);
}

/**
 * A creation's details (its Upload-Metadata, with the form's own names),
 * checked as the form checks them; `size` 0 with `deferred` when the size
 * comes later (declareDeferredSize).
 */
export function checkCreation(
  db: DB,
  provider: Account,
  request: { size: number; deferred: boolean; metadata: Record<string, string | null> },
): Creation {
  const { size, deferred, metadata } = request;
  const text = (key: string) => metadata[key] ?? undefined;
  if (text("replaces") !== undefined)
    return checkReplacementCreation(db, provider, size, text("replaces") ?? "", text("filename"));
  // An episode goes only into one of this provider's own seasons (403 otherwise), and takes its series' category.
  const place = episodePlacementOf(db, provider.id, {
    seasonId: text("seasonId"),
    episodeNumber: text("episodeNumber"),
  });
  if ("status" in place) {
    const [first] = Object.values(place.fieldErrors).flat();
    throw new UploadRefusal(place.status, first ?? "studio:errors.incomplete", place.fieldErrors);
  }
  const episode = place.placement;
  const fieldErrors: UploadFieldErrors = {};
  const parsed = uploadDetailsSchema.safeParse({
    name: text("name"),
    Description: text("Description"),
    Category: episode?.categoryId ?? text("Category"),
    cast: text("cast"),
    ageRating: text("ageRating"),
  });
  if (!parsed.success) Object.assign(fieldErrors, fieldErrorsOf(parsed.error));
  else if (!categoryExists(db, parsed.data.Category)) fieldErrors.Category = ["studio:errors.categoryUnknown"];
  const filename = safeBaseName(text("filename"));
  if (!filename) fieldErrors.movie = ["studio:errors.movieRequired"];
  else if (!(MOVIE_EXTENSIONS as readonly string[]).includes(extensionOf(filename)))
    fieldErrors.movie = ["studio:errors.wrongExtension"];
  else if (size === 0 && !deferred) fieldErrors.movie = ["studio:errors.movieEmpty"];
  if (!parsed.success || Object.keys(fieldErrors).length > 0) {
    const first = Object.values(fieldErrors)[0]?.[0] ?? "studio:errors.incomplete";
    throw new UploadRefusal(400, first, fieldErrors);
  }
  checkDeclaredSize(db, provider.id, size);
  return { details: parsed.data, filename, size, episode, replacesMovieId: null };
}

/** A film's declared size against MAX_UPLOAD_MB, the disk's spare room and the provider's share of it. */
function checkDeclaredSize(db: DB, providerId: string, size: number): void {
  if (size > getEnv().maxUploadBytes)
    throw new UploadRefusal(413, "studio:errors.tooLarge", { movie: ["studio:errors.tooLarge"] });
  if (size > spareUploadBytes(db, storageRoot()))
    throw new UploadRefusal(507, "studio:errors.noSpace", { movie: ["studio:errors.noSpace"] });
  const refusal = withinUploadShare(db, storageRoot(), providerId, size, {
    sharePercent: getEnv().uploadSharePercent,
    reservedPercent: getEnv().uploadReservedPercent,
  });
  if (refusal) {
    const key = refusal === "share" ? "studio:errors.uploadShareFull" : "studio:errors.uploadSpaceBusy";
    throw new UploadRefusal(507, key, { movie: [key] });
  }
}

/**
 * A deferred upload's size, given by a PATCH (Upload-Length): checked as a
 * creation's is, and written on the upload's row before its bytes are taken
 * (the title is made from the row when they end).
 */
export function declareDeferredSize(db: DB, row: UploadRow, header: string | null): () => void {
  if (row.sizeBytes > 0 || header === null) return () => undefined;
  const size = Number(header);
  if (!Number.isSafeInteger(size) || size <= 0)
    throw new UploadRefusal(400, "studio:errors.movieEmpty", { movie: ["studio:errors.movieEmpty"] });
  checkDeclaredSize(db, row.providerId, size);
  db.update(resumableUploads).set({ sizeBytes: size }).where(eq(resumableUploads.id, row.id)).run();
  row.sizeBytes = size;
  // Undone when the protocol refuses the PATCH after all (a size below what was sent, say).
  return () => {
    db.update(resumableUploads).set({ sizeBytes: 0 }).where(eq(resumableUploads.id, row.id)).run();
  };
}

/**
 * A creation that replaces the film of one of the caller's titles
 * (metadata `replaces` and `filename`): the same checks of the file's name
 * and size as a new upload, and the replacement rules (its own title, not
 * processing, no other replacement under way) before a byte is sent.
 */
function checkReplacementCreation(
  db: DB,
  provider: Account,
  size: number,
  movieId: string,
  rawFilename: string | undefined,
): Creation {
  const allowed = checkReplacement(db, movieId, provider);
  if (!allowed.ok) throw new UploadRefusal(allowed.status, allowed.key, { movie: [allowed.key] });
  const filename = safeBaseName(rawFilename);
  const refuse = (status: 400 | 413 | 507, key: string): never => {
    throw new UploadRefusal(status, key, { movie: [key] });
  };
  if (!filename) refuse(400, "studio:errors.movieRequired");
  if (!(MOVIE_EXTENSIONS as readonly string[]).includes(extensionOf(filename)))
    refuse(400, "studio:errors.wrongExtension");
  if (size === 0) refuse(400, "studio:errors.movieEmpty");
  checkDeclaredSize(db, provider.id, size);
  const title = db
    .select({
      name: movies.name,
      description: movies.description,
      cast: movies.cast,
      categoryId: movies.categoryId,
      ageRating: movies.ageRating,
    })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get()!;
  return {
    details: {
      name: title.name,
      Description: title.description,
      cast: title.cast,
      Category: title.categoryId,
      ageRating: title.ageRating,
    },
    filename,
    size,
    episode: null,
    replacesMovieId: movieId,
  };
}

/** The row of a new upload, written when the protocol makes its files (its bytes then follow under its id). */
export function recordUploadCreation(db: DB, id: string, provider: { id: string }, creation: Creation): void {
  db.insert(resumableUploads)
    .values({
      id,
      providerId: provider.id,
      movieId: createId(),
      filename: creation.filename,
      sizeBytes: creation.size,
      name: creation.details.name,
      description: creation.details.Description,
      cast: creation.details.cast,
      categoryId: creation.details.Category,
      ageRating: creation.details.ageRating,
      seasonId: creation.episode?.seasonId ?? null,
      episodeNumber: creation.episode?.episodeNumber ?? null,
      replacesMovieId: creation.replacesMovieId,
    })
    .run();
}

/**
 * The film's first bytes (SNIFF_BYTES of them, what is stored and what has
 * just arrived): a renamed non-video is refused and the upload removed (true).
 * Shorter heads cannot tell yet: they are checked with the next bytes, or at the end.
 */
export function filmHeadRefused(db: DB, row: UploadRow, arrived: readonly Uint8Array[]): boolean {
  const head = Buffer.concat([storedHead(row), ...arrived]).subarray(0, SNIFF_BYTES);
  if (head.length < SNIFF_BYTES || checkUploadedFile("movie", row.filename, head).ok) return false;
  discardUpload(db, row);
  return true;
}

/** What of the film's first SNIFF_BYTES is stored already. */
export function storedHead(row: UploadRow): Buffer {
  return readHead(uploadFiles(row.id).data, SNIFF_BYTES);
}

/**
 * A poster for an upload (checked by type, in a temporary file): kept beside
 * the upload until the film's last byte, or put on the title when it exists.
 */
export async function keepUploadPoster(
  db: DB,
  row: UploadRow,
  poster: { tempPath: string; originalName: string },
  root = storageRoot(),
): Promise<void> {
  const extension = extensionOf(poster.originalName);
  const fresh = db.select().from(resumableUploads).where(eq(resumableUploads.id, row.id)).get();
  if (fresh && !fresh.completedAt) {
    const waiting = posterWaiting(row.id, root);
    if (waiting) fs.rmSync(waiting.path, { force: true });
    fs.renameSync(poster.tempPath, `${uploadFiles(row.id, root).posterPrefix}${extension}`);
    return;
  }
  const title = db.select({ id: movies.id }).from(movies).where(eq(movies.id, row.movieId)).get();
  if (!title) throw new UploadRefusal(404, "studio:errors.uploadNotFound");
  // The title exists: its posters are made from this one now (the processing job keeps them).
  await writeMoviePosters(row.movieId, poster.tempPath, { root, position: "attention" });
  fs.mkdirSync(movieDir(row.movieId, root), { recursive: true });
}

export type UnfinishedUpload = {
  id: string;
  name: string;
  filename: string;
  sizeBytes: number;
  receivedBytes: number;
  createdAt: Date;
  expiresAt: Date;
};

/**
 * A provider's unfinished uploads, oldest first, with how far each got: new
 * titles for the upload page's Resume list, or (with `replacing`) the
 * replacements of one title's film for that title's page.
 */
export function listUnfinishedUploads(
  db: DB,
  providerId: string,
  root = storageRoot(),
  options: { replacing?: string } = {},
): UnfinishedUpload[] {
  return db
    .select()
    .from(resumableUploads)
    .where(
      and(
        eq(resumableUploads.providerId, providerId),
        isNull(resumableUploads.completedAt),
        options.replacing
          ? eq(resumableUploads.replacesMovieId, options.replacing)
          : isNull(resumableUploads.replacesMovieId),
      ),
    )
    .orderBy(asc(resumableUploads.createdAt))
    .all()
    .map((row) => {
      const lastActivity = Math.max(row.createdAt.getTime(), lastWriteMs(uploadFiles(row.id, root).data));
      const received = receivedBytes(row.id, root);
      return {
        id: row.id,
        name: row.name,
        filename: row.filename,
        sizeBytes: row.sizeBytes,
        receivedBytes: received,
        createdAt: row.createdAt,
        expiresAt: new Date(expiryAfter(lastActivity, received > 0)),
      };
    });
}

/** Give an unfinished upload up (the upload page's Discard, with or without JavaScript). */
export function discardProviderUpload(db: DB, providerId: string, id: string): boolean {
  const row = db.select().from(resumableUploads).where(eq(resumableUploads.id, id)).get();
  if (!row || row.providerId !== providerId || row.completedAt) return false;
  discardUpload(db, row);
  return true;
}

function lastWriteMs(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * When an unfinished upload is removed, from its last activity (its creation, or
 * its last byte): UPLOAD_EXPIRY_HOURS on, or UPLOAD_START_MINUTES on while it
 * has received no byte at all (an empty upload holds its room only that long).
 */
export function expiryAfter(
  lastActivity: number,
  started: boolean,
  limits: { expiryMs: number; startMs: number } = {
    expiryMs: getEnv().uploadExpiryMs,
    startMs: getEnv().uploadStartMs,
  },
): number {
  return lastActivity + (started ? limits.expiryMs : Math.min(limits.startMs, limits.expiryMs));
}

/**
 * Remove what no upload needs any more: unfinished uploads that received
 * nothing for UPLOAD_EXPIRY_HOURS, or no byte at all within
 * UPLOAD_START_MINUTES of their creation (their bytes and row), the record of
 * finished ones after the same period (it answered repeated last requests),
 * and files in STORAGE_DIR/uploads that belong to no upload. Returns how
 * many uploads were removed.
 */
export function sweepExpiredUploads(
  db: DB,
  options: { now?: number; root?: string; expiryMs?: number; startMs?: number } = {},
): number {
  const now = options.now ?? Date.now();
  const root = options.root ?? storageRoot();
  const expiryMs = options.expiryMs ?? getEnv().uploadExpiryMs;
  const startMs = options.startMs ?? getEnv().uploadStartMs;
  let removed = 0;
  const known = new Set<string>();
  for (const row of db.select().from(resumableUploads).all()) {
    known.add(row.id);
    const lastActivity = row.completedAt
      ? row.completedAt.getTime()
      : Math.max(row.createdAt.getTime(), lastWriteMs(uploadFiles(row.id, root).data));
    const started = Boolean(row.completedAt) || receivedBytes(row.id, root) > 0;
    if (now > expiryAfter(lastActivity, started, { expiryMs, startMs })) {
      discardUpload(db, row, root);
      known.delete(row.id);
      if (!row.completedAt) removed++;
    } else if (row.completedAt) removeUploadFiles(row.id, root);
  }
  const dir = storagePaths(root).uploads;
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const id = name.split(".")[0];
    if (known.has(id)) continue;
    const file = path.join(dir, name);
    // A creation in flight writes its files just before its row: leave anything young alone.
    if (now - lastWriteMs(file) > 60_000) fs.rmSync(file, { force: true });
  }
  return removed;
}

/** Sweep abandoned uploads at start and every five minutes, in the process that runs the background work. */
export function startUploadSweep(): void {
  startPeriodic("upload-sweep", 5 * 60 * 1000, () => {
    try {
      const removed = sweepExpiredUploads(getDb());
      if (removed > 0) console.log(`[upload] ${removed} abandoned upload${removed === 1 ? "" : "s"} removed`);
    } catch (error) {
      console.error("[upload] sweep of abandoned uploads failed:", error);
    }
  });
}

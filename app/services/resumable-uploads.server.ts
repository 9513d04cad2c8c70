import fs from "node:fs";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { EVENTS, Metadata, Server, type Upload } from "@tus/server";
import { and, asc, eq, isNull } from "drizzle-orm";
import { fieldErrorsOf } from "~/services/validation";
import { englishText } from "~/i18n/translate.server";
import { lingerOn, lingerOnUnread } from "~/utils/request-body.server";
import { isSameOriginRequest } from "~/utils/origin.server";
import { jsonError } from "~/utils/json-error";
import { getDb, type DB } from "~/db/client.server";
import { movies, resumableUploads } from "~/db/schema";
import { checkUploadedFile, extensionOf, MOVIE_EXTENSIONS, SNIFF_BYTES } from "~/media/file-types.server";
import { receiveMultipartUpload, UploadError } from "~/media/multipart-upload.server";
import { writeMoviePosters } from "~/media/posters.server";
import { movieDir, storagePaths, storageRoot } from "~/media/storage.server";
import type { Account } from "~/services/accounts.server";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { filmRefusalKey, judgeFilm } from "./movie-processing.server";
import { checkReplacement, startReplacement } from "./film-replacements.server";
import { startPeriodic } from "./periodic.server";
import { oneAtATime, uploadLocker } from "./upload-locks.server";
import { clientAddress } from "~/utils/client.server";
import { isPlacementRefusal, placeEpisode, type EpisodePlacement } from "./series.server";
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
 * Resumable uploads by the tus protocol (1.0 with creation, creation-defer-length,
 * termination and expiration), at one fixed address so any tus client can use it:
 *
 *   POST   /provider/uploads/tus             create: Upload-Length, and Upload-Metadata with the
 *                                           form's own names: name, Description, Category, cast, filename,
 *                                           and for an episode seasonId (and episodeNumber); or, to replace
 *                                           the film of one of the caller's titles, replaces (its id) and filename
 *   HEAD   /provider/uploads/tus/<id>        how many bytes the server has (Upload-Offset)
 *   PATCH  /provider/uploads/tus/<id>        more bytes from Upload-Offset on
 *   DELETE /provider/uploads/tus/<id>        give the upload up
 *   POST   /provider/uploads/tus/<id>/poster a poster (multipart, field `poster`), before or after the film's last byte
 *
 * `@tus/server` speaks the protocol and its file store keeps the bytes under
 * STORAGE_DIR/uploads; this module decides who may do what: a signed-in,
 * unblocked provider (page cookie from our own pages, or an /api Bearer
 * token) and only on their own uploads; the details are checked at creation,
 * the film's first bytes as soon as they arrive, and the title with its
 * processing job is made once, when the last byte is in.
 */
export const TUS_PATH = "/provider/uploads/tus";
const MAX_POSTER_BYTES = 10 * 1024 * 1024;

type UploadRow = typeof resumableUploads.$inferSelect;

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

function refusalResponse(refusal: UploadRefusal): Response {
  return jsonError(refusal.status, englishText(refusal.key), {
    key: refusal.key,
    fieldErrors: refusal.fieldErrors as Record<string, string[]> | undefined,
    headers: { "Tus-Resumable": "1.0.0" },
  });
}

/** The upload's bytes on disk, its details beside them (the store's), and a poster sent before the end. */
function uploadFiles(id: string, root = storageRoot()) {
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

function removeUploadFiles(id: string, root = storageRoot()): void {
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
 * The file store, with one change: an upload expires a while after the last
 * byte it received, not after it was created, so a 2 GB film sent over a
 * slow link for a day is not cut off while it is moving. (The store reports
 * that moment as the upload's creation date, which the protocol handlers
 * use for Upload-Expires and for refusing expired uploads.)
 */
class ActivityExpiringFileStore extends FileStore {
  override async getUpload(id: string): Promise<Upload> {
    const upload = await super.getUpload(id);
    const { mtimeMs } = await fs.promises.stat(path.join(this.directory, id));
    const created = upload.creation_date ? Date.parse(upload.creation_date) : 0;
    upload.creation_date = new Date(Math.max(created, mtimeMs)).toISOString();
    return upload;
  }
}

/** What the wrapper learned about a creation request, for the store's hook. */
type Creation = {
  details: UploadDetails;
  filename: string;
  size: number;
  episode: EpisodePlacement | null;
  /** The title whose film this upload replaces (film-replacements.server.ts), or null for a new title. */
  replacesMovieId: string | null;
};
const pendingCreations = new WeakMap<Request, Creation & { provider: Account }>();

function createTusServer(): Server {
  const env = getEnv();
  const server = new Server({
    path: TUS_PATH,
    datastore: new ActivityExpiringFileStore({
      directory: storagePaths().uploads,
      expirationPeriodInMilliseconds: env.uploadExpiryMs,
    }),
    relativeLocation: true,
    locker: uploadLocker(),
    maxSize: env.maxUploadBytes,
    namingFunction: () => createId(),
    // Our own pages only: no cross-origin answers.
    allowedOrigins: () => false,
    onUploadCreate: async (request, upload) => {
      const creation = pendingCreations.get(request as unknown as Request);
      if (!creation) throw { status_code: 400, body: "Upload refused\n" };
      getDb()
        .insert(resumableUploads)
        .values({
          id: upload.id,
          providerId: creation.provider.id,
          movieId: createId(),
          filename: creation.filename,
          sizeBytes: creation.size,
          name: creation.details.name,
          description: creation.details.Description,
          cast: creation.details.cast,
          categoryId: creation.details.Category,
          seasonId: creation.episode?.seasonId ?? null,
          episodeNumber: creation.episode?.episodeNumber ?? null,
          replacesMovieId: creation.replacesMovieId,
        })
        .run();
      return {};
    },
    onUploadFinish: async (request, upload) => {
      await refuseUnreadableFilm(getDb(), upload.id);
      const movieId = await oneAtATime(upload.id, () =>
        finishUpload(getDb(), upload.id, clientAddress(request as unknown as Request)),
      );
      // A replacement's answer names the title it replaces the film of.
      return { headers: { "Kallo-Movie-Id": movieId } };
    },
    onResponseError: (_request, error) => {
      if (error instanceof UploadRefusal)
        return { status_code: error.status, body: JSON.stringify({ error: englishText(error.key), key: error.key }) };
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOSPC" || code === "EDQUOT") {
        // The bytes stored so far stay (the upload resumes once there is room); the client is told why at once.
        console.error("[upload] resumable upload stopped: the disk is full");
        return {
          status_code: 507,
          body: JSON.stringify({ error: englishText("studio:errors.noSpace"), key: "studio:errors.noSpace" }),
        };
      }
      if ("status_code" in error && error.status_code === 500)
        console.error("[upload] resumable upload failed:", error);
      return undefined;
    },
  });
  // The bytes have become a title's: the upload's own files can go once its last answer is sent.
  server.on(EVENTS.POST_FINISH, (_request, _response, upload: Upload) => removeUploadFiles(upload.id));
  return server;
}

const globalForTus = globalThis as unknown as { __kalloTus?: { root: string; server: Server } };

function tusServer(): Server {
  const root = storageRoot();
  if (globalForTus.__kalloTus?.root !== root) globalForTus.__kalloTus = { root, server: createTusServer() };
  return globalForTus.__kalloTus.server;
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
    details: { name: row.name, Description: row.description, cast: row.cast, Category: row.categoryId },
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
async function refuseUnreadableFilm(db: DB, id: string, root = storageRoot()): Promise<void> {
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

function discardUpload(db: DB, row: UploadRow, root = storageRoot()): void {
  db.delete(resumableUploads).where(eq(resumableUploads.id, row.id)).run();
  removeUploadFiles(row.id, root);
}

/** The details of a creation request, checked as the form checks them. */
function checkCreation(db: DB, request: Request, provider: Account): Creation {
  // Upload-Defer-Length: 1 (creation-defer-length): the size comes with a later PATCH, and is checked then.
  const deferred = request.headers.get("Upload-Defer-Length") === "1" && !request.headers.has("Upload-Length");
  if (!deferred && (request.headers.has("Upload-Defer-Length") || !request.headers.has("Upload-Length"))) {
    throw new UploadRefusal(400, "studio:errors.sizeRequired");
  }
  const size = deferred ? 0 : Number(request.headers.get("Upload-Length"));
  if (!Number.isSafeInteger(size) || size < 0) throw new UploadRefusal(400, "studio:errors.sizeRequired");
  let metadata: Record<string, string | null>;
  try {
    metadata = Metadata.parse(request.headers.get("Upload-Metadata") ?? undefined);
  } catch {
    throw new UploadRefusal(400, "studio:errors.badMetadata");
  }
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
  });
  if (!parsed.success) Object.assign(fieldErrors, fieldErrorsOf(parsed.error));
  else if (!categoryExists(db, parsed.data.Category)) fieldErrors.Category = ["studio:errors.categoryUnknown"];
  const filename = path.basename(text("filename") ?? "");
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
  if (!withinUploadShare(db, storageRoot(), providerId, size, getEnv().uploadSharePercent))
    throw new UploadRefusal(507, "studio:errors.uploadShareFull", { movie: ["studio:errors.uploadShareFull"] });
}

/**
 * A deferred upload's size, given by a PATCH (Upload-Length): checked as a
 * creation's is, and written on the upload's row before its bytes are taken
 * (the title is made from the row when they end).
 */
function declareDeferredSize(db: DB, request: Request, row: UploadRow): () => void {
  const header = request.headers.get("Upload-Length");
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
  const filename = path.basename(rawFilename ?? "");
  const refuse = (status: 400 | 413 | 507, key: string): never => {
    throw new UploadRefusal(status, key, { movie: [key] });
  };
  if (!filename) refuse(400, "studio:errors.movieRequired");
  if (!(MOVIE_EXTENSIONS as readonly string[]).includes(extensionOf(filename)))
    refuse(400, "studio:errors.wrongExtension");
  if (size === 0) refuse(400, "studio:errors.movieEmpty");
  checkDeclaredSize(db, provider.id, size);
  const title = db
    .select({ name: movies.name, description: movies.description, cast: movies.cast, categoryId: movies.categoryId })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get()!;
  return {
    details: { name: title.name, Description: title.description, cast: title.cast, Category: title.categoryId },
    filename,
    size,
    episode: null,
    replacesMovieId: movieId,
  };
}

/**
 * The film's first bytes are checked as soon as they arrive: the body of a
 * request that brings any of the first SNIFF_BYTES is read that far, checked
 * with what is stored already, and handed on unchanged. A renamed non-video
 * is refused at its first request and the upload removed.
 */
async function checkFirstBytes(db: DB, request: Request, row: UploadRow): Promise<Request> {
  const files = uploadFiles(row.id);
  const stored = readHead(files.data, SNIFF_BYTES);
  if (stored.length >= SNIFF_BYTES || !request.body) return request;
  const reader = request.body.getReader();
  const peeked: Uint8Array[] = [];
  let peekedBytes = 0;
  let ended = false;
  while (stored.length + peekedBytes < SNIFF_BYTES) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    peeked.push(value);
    peekedBytes += value.byteLength;
  }
  const head = Buffer.concat([stored, ...peeked]).subarray(0, SNIFF_BYTES);
  // Too short to tell yet (a tiny request or a tiny film): checked with the next bytes, or at the end.
  if (head.length >= SNIFF_BYTES && !checkUploadedFile("movie", row.filename, head).ok) {
    discardUpload(db, row);
    // The rest of this request is read and dropped behind the answer, so that the client hears it.
    if (!ended) lingerOn(request, reader);
    throw new UploadRefusal(415, "studio:errors.contentMismatch", { movie: ["studio:errors.contentMismatch"] });
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of peeked) controller.enqueue(chunk);
      if (ended) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}

/** An upload that is complete already answers as complete (a repeated last request makes no second title). */
async function answerCompleted(request: Request, row: UploadRow): Promise<Response> {
  const headers = {
    "Tus-Resumable": "1.0.0",
    "Upload-Offset": String(row.sizeBytes),
    "Upload-Length": String(row.sizeBytes),
    "Kallo-Movie-Id": row.replacesMovieId ?? row.movieId,
    "Cache-Control": "no-store",
  };
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });
  if (request.method === "PATCH") {
    // What was sent is not needed: handleTusRequest reads and drops it behind the answer.
    if (request.headers.get("Upload-Offset") !== String(row.sizeBytes))
      throw new UploadRefusal(409, "studio:errors.uploadFinished");
    return new Response(null, { status: 204, headers });
  }
  throw new UploadRefusal(409, "studio:errors.uploadFinished");
}

/** Take a poster (multipart, field `poster`): kept beside the upload until the film's last byte, or put on the title when it exists. */
async function receivePoster(db: DB, request: Request, row: UploadRow): Promise<Response> {
  const root = storageRoot();
  let posterCheck: string | null = null;
  let upload;
  try {
    upload = await receiveMultipartUpload(request, {
      tmpDir: storagePaths(root).tmp,
      maxFileBytes: MAX_POSTER_BYTES,
      maxFiles: 1,
      signal: request.signal,
      checkFile: ({ field, originalName, head }) => {
        if (field !== "poster") return (posterCheck = "unexpectedFile");
        const check = checkUploadedFile("poster", originalName, head);
        return check.ok ? null : (posterCheck = check.reason);
      },
    });
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    if (error.status === 413)
      throw new UploadRefusal(413, "studio:errors.posterTooLarge", { poster: ["studio:errors.posterTooLarge"] });
    const key = posterCheck ? `studio:errors.${posterCheck}` : "studio:errors.incomplete";
    throw new UploadRefusal(400, key, { poster: [key] });
  }
  const poster = upload.files[0];
  if (!poster) {
    await upload.discard();
    throw new UploadRefusal(400, "studio:errors.posterRequired", { poster: ["studio:errors.posterRequired"] });
  }
  try {
    const extension = extensionOf(poster.originalName);
    const fresh = db.select().from(resumableUploads).where(eq(resumableUploads.id, row.id)).get();
    if (fresh && !fresh.completedAt) {
      const waiting = posterWaiting(row.id, root);
      if (waiting) fs.rmSync(waiting.path, { force: true });
      fs.renameSync(poster.tempPath, `${uploadFiles(row.id, root).posterPrefix}${extension}`);
    } else {
      const title = db.select({ id: movies.id }).from(movies).where(eq(movies.id, row.movieId)).get();
      if (!title) throw new UploadRefusal(404, "studio:errors.uploadNotFound");
      // The title exists: its posters are made from this one now (the processing job keeps them).
      await writeMoviePosters(row.movieId, poster.tempPath, { root, position: "attention" });
      fs.mkdirSync(movieDir(row.movieId, root), { recursive: true });
    }
  } finally {
    await upload.discard();
  }
  return Response.json({ success: true }, { status: 201, headers: { "Cache-Control": "no-store" } });
}

/** Who is calling: the signed-in account and whether it came by the page cookie or an /api token. */
export type UploadCaller = { account: Account; via: "bearer" | "cookie" };

/**
 * Answer any request under /provider/uploads/tus (the route's loader and
 * action both come here). A body left unread by the answer — a refusal
 * before the first byte, a repeated last chunk — is read and dropped behind
 * it (lingerOn): the client, still sending, hears the answer instead of a
 * reset, and its connection carries its next request.
 */
export async function handleTusRequest(request: Request, caller: UploadCaller | null): Promise<Response> {
  let response: Response;
  try {
    response = await dispatchTus(request, caller);
  } catch (error) {
    if (!(error instanceof UploadRefusal)) throw error;
    response = refusalResponse(error);
  }
  lingerOnUnread(request);
  return response;
}

async function dispatchTus(request: Request, caller: UploadCaller | null): Promise<Response> {
  const method = request.method;
  // Discovery (version, extensions, limits) is public, as the protocol means it to be.
  if (method === "OPTIONS") return tusServer().handleWeb(request);
  if (!caller) throw new UploadRefusal(401, "studio:errors.signInFirst");
  const writes = method !== "GET" && method !== "HEAD";
  // The page cookie rides along on any site's request; only our own pages may change anything with it.
  if (writes && caller.via === "cookie" && !isSameOriginRequest(request))
    throw new UploadRefusal(403, "studio:errors.otherSite");
  if (caller.account.role !== "provider") throw new UploadRefusal(403, "studio:errors.providersOnly");

  const rest = new URL(request.url).pathname.slice(TUS_PATH.length).replace(/^\/+|\/+$/g, "");
  const db = getDb();
  if (rest === "") {
    if (method !== "POST") throw new UploadRefusal(405, "studio:errors.methodNotAllowed");
    const creation = checkCreation(db, request, caller.account);
    pendingCreations.set(request, { provider: caller.account, ...creation });
    const response = await tusServer().handleWeb(request);
    // An upload created empty is removed UPLOAD_START_MINUTES on unless a byte comes: its Upload-Expires
    // says so (the protocol library counts UPLOAD_EXPIRY_HOURS for every upload).
    if (response.headers.has("Upload-Expires") && Number(response.headers.get("Upload-Offset") ?? 0) === 0)
      response.headers.set("Upload-Expires", new Date(expiryAfter(Date.now(), false)).toUTCString());
    return response;
  }
  const [id, part, ...extra] = rest.split("/");
  if (extra.length > 0 || (part !== undefined && part !== "poster"))
    throw new UploadRefusal(404, "studio:errors.uploadNotFound");
  const row = db.select().from(resumableUploads).where(eq(resumableUploads.id, id)).get();
  // Another provider's upload is answered as if it did not exist.
  if (!row || row.providerId !== caller.account.id) throw new UploadRefusal(404, "studio:errors.uploadNotFound");

  if (part === "poster") {
    // A replacement brings a film only; the title's poster is changed on its page.
    if (row.replacesMovieId) throw new UploadRefusal(404, "studio:errors.uploadNotFound");
    if (method !== "POST") throw new UploadRefusal(405, "studio:errors.methodNotAllowed");
    return receivePoster(db, request, row);
  }
  if (method === "DELETE") {
    if (row.completedAt) {
      db.delete(resumableUploads).where(eq(resumableUploads.id, row.id)).run();
      return new Response(null, { status: 204, headers: { "Tus-Resumable": "1.0.0" } });
    }
    const response = await tusServer().handleWeb(request);
    if (response.status === 204 || response.status === 404 || response.status === 410) discardUpload(db, row);
    return response;
  }
  if (row.completedAt) return answerCompleted(request, row);
  if (method === "HEAD") return withNoStore(await tusServer().handleWeb(request));
  if (method === "PATCH") {
    // The protocol's one content type for a PATCH's bytes (415 otherwise, as tus 1.0 says).
    if (
      (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase() !==
      "application/offset+octet-stream"
    )
      throw new UploadRefusal(415, "studio:errors.patchContentType");
    const undoSize = declareDeferredSize(db, request, row);
    const forwarded = await checkFirstBytes(db, request, row);
    const response = await tusServer().handleWeb(forwarded);
    if (response.status >= 400 && response.status < 500) undoSize();
    // The protocol's own refusals (a wrong Upload-Offset, say) come before the body is read.
    lingerOnUnread(forwarded);
    return response;
  }
  throw new UploadRefusal(405, "studio:errors.methodNotAllowed");
}

function withNoStore(response: Response): Response {
  response.headers.set("Cache-Control", "no-store");
  return response;
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

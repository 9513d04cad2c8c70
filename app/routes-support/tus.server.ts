import fs from "node:fs";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { EVENTS, Metadata, Server, type Upload } from "@tus/server";
import { eq } from "drizzle-orm";
import { getDb, type DB } from "~/db/client.server";
import { resumableUploads } from "~/db/schema";
import { englishText } from "~/i18n/translate.server";
import { SNIFF_BYTES } from "~/media/file-types.server";
import { storagePaths, storageRoot } from "~/media/storage.server";
import type { Account } from "~/services/accounts.server";
import {
  checkCreation,
  declareDeferredSize,
  discardUpload,
  expiryAfter,
  filmHeadRefused,
  finishUpload,
  keepUploadPoster,
  recordUploadCreation,
  refuseUnreadableFilm,
  removeUploadFiles,
  storedHead,
  UploadRefusal,
  type Creation,
  type UploadRow,
} from "~/services/resumable-uploads.server";
import { oneAtATime, uploadLocker } from "~/services/upload-locks.server";
import { clientAddress } from "~/utils/client.server";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { jsonError } from "~/utils/json-error";
import { isSameOriginRequest } from "~/utils/origin.server";
import { lingerOn, lingerOnUnread } from "~/utils/request-body.server";
import { readUploadForm } from "./upload-forms.server";

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
 * STORAGE_DIR/uploads; this module decides who may do what (with
 * services/resumable-uploads.server.ts, which owns the rules): a signed-in,
 * unblocked provider (page cookie from our own pages, or an /api Bearer
 * token) and only on their own uploads; the details are checked at creation,
 * the film's first bytes as soon as they arrive, and the title with its
 * processing job is made once, when the last byte is in.
 */
export const TUS_PATH = "/provider/uploads/tus";
const MAX_POSTER_BYTES = 10 * 1024 * 1024;

function refusalResponse(refusal: UploadRefusal): Response {
  return jsonError(refusal.status, englishText(refusal.key), {
    key: refusal.key,
    fieldErrors: refusal.fieldErrors as Record<string, string[]> | undefined,
    headers: { "Tus-Resumable": "1.0.0" },
  });
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
      recordUploadCreation(getDb(), upload.id, creation.provider, creation);
      return {};
    },
    onUploadFinish: async (request, upload) => {
      const movieId = await makeTitle(request as unknown as Request, upload.id);
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

/** A complete upload becomes its title: the film is read by ffprobe first, then the title is made (once, whoever asks). */
async function makeTitle(request: Request, id: string): Promise<string> {
  await refuseUnreadableFilm(getDb(), id);
  return oneAtATime(id, () => finishUpload(getDb(), id, clientAddress(request)));
}

const globalForTus = globalThis as unknown as { __kalloTus?: { root: string; server: Server } };

function tusServer(): Server {
  const root = storageRoot();
  if (globalForTus.__kalloTus?.root !== root) globalForTus.__kalloTus = { root, server: createTusServer() };
  return globalForTus.__kalloTus.server;
}

/**
 * A creation's headers: Upload-Length (or Upload-Defer-Length: 1, the
 * creation-defer-length extension: the size comes with a later PATCH, and is
 * checked then) and Upload-Metadata.
 */
function readCreationHeaders(request: Request): {
  size: number;
  deferred: boolean;
  metadata: Record<string, string | null>;
} {
  const deferred = request.headers.get("Upload-Defer-Length") === "1" && !request.headers.has("Upload-Length");
  if (!deferred && (request.headers.has("Upload-Defer-Length") || !request.headers.has("Upload-Length"))) {
    throw new UploadRefusal(400, "studio:errors.sizeRequired");
  }
  const size = deferred ? 0 : Number(request.headers.get("Upload-Length"));
  if (!Number.isSafeInteger(size) || size < 0) throw new UploadRefusal(400, "studio:errors.sizeRequired");
  try {
    return { size, deferred, metadata: Metadata.parse(request.headers.get("Upload-Metadata") ?? undefined) };
  } catch {
    throw new UploadRefusal(400, "studio:errors.badMetadata");
  }
}

/**
 * The film's first bytes are checked as soon as they arrive: the body of a
 * request that brings any of the first SNIFF_BYTES is read that far, checked
 * with what is stored already, and handed on unchanged. A renamed non-video
 * is refused at its first request and the upload removed.
 */
async function checkFirstBytes(db: DB, request: Request, row: UploadRow): Promise<Request> {
  const stored = storedHead(row);
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
  if (filmHeadRefused(db, row, peeked)) {
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
  const read = await readUploadForm<"poster">(request, {
    root,
    maxFileBytes: MAX_POSTER_BYTES,
    maxFiles: 1,
    roleOf: (field) => (field === "poster" ? "poster" : null),
    kindOf: () => "poster",
    strangerShownAs: "poster",
  });
  if (!read.ok) {
    const { refusal } = read;
    if (refusal.reason === "tooLarge")
      throw new UploadRefusal(413, "studio:errors.posterTooLarge", { poster: ["studio:errors.posterTooLarge"] });
    const key = refusal.reason === "fileRefused" ? `studio:errors.${refusal.fileReason}` : "studio:errors.incomplete";
    throw new UploadRefusal(400, key, { poster: [key] });
  }
  try {
    const poster = read.form.files.poster;
    if (!poster)
      throw new UploadRefusal(400, "studio:errors.posterRequired", { poster: ["studio:errors.posterRequired"] });
    await keepUploadPoster(db, row, poster, root);
  } finally {
    await read.form.discard();
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
    const creation = checkCreation(db, caller.account, readCreationHeaders(request));
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
  if (method === "HEAD") {
    const response = withNoStore(await tusServer().handleWeb(request));
    // Every byte is in but no title was made: the last PATCH's answer never came (its worker stopped
    // after its grace, the process was killed between the last byte and the title). The client that
    // asks where its upload stands finishes it, as that PATCH would have.
    const length = response.headers.get("Upload-Length");
    if (response.status !== 200 || length === null || response.headers.get("Upload-Offset") !== length) return response;
    await makeTitle(request, row.id);
    removeUploadFiles(row.id);
    const finished = db.select().from(resumableUploads).where(eq(resumableUploads.id, row.id)).get();
    return finished?.completedAt ? answerCompleted(request, finished) : response;
  }
  if (method === "PATCH") {
    // The protocol's one content type for a PATCH's bytes (415 otherwise, as tus 1.0 says).
    if (
      (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase() !==
      "application/offset+octet-stream"
    )
      throw new UploadRefusal(415, "studio:errors.patchContentType");
    const undoSize = declareDeferredSize(db, row, request.headers.get("Upload-Length"));
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

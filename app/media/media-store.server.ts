import fs from "node:fs";
import type { LadderCodec } from "./ladder";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { getDb } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { jobs, movies } from "~/db/schema";
import { createId } from "~/utils/ids.server";
import { getEnv } from "~/utils/env.server";
import {
  classifyError,
  describeBucketProblem,
  etagMatches,
  fileEtags,
  ObjectStore,
  ObjectStoreError,
  type ObjectInfo,
  type ObjectStoreErrorKind,
} from "./object-store.server";
import { movieDir, renditionFileName, renditionPath, storageRoot } from "./storage.server";

/**
 * Where a title's files live — the one module that knows. With
 * MEDIA_STORE=local (the default) everything is on this box's disk, as laid
 * out in storage.server.ts. With MEDIA_STORE=s3 a title's files are made on
 * the disk as before, then sent to the bucket under the same names
 * (`media/<movieId>/hls/240p.mp4`, …): the film and its ladder *move* (the
 * local copies are removed once the bucket holds every one, checked), while
 * the small files every page or playlist needs — posters, subtitles, the
 * rungs' playlists — are *copied* and still served by the box (a redirect per
 * poster would cost a viewer a round trip per card; see decision 044). A copy
 * missing on the disk (a new box restored from the replica) is fetched back
 * from the bucket on its first request.
 *
 * A title is served from the bucket only after `movies.media_store` says so,
 * which is set once every one of its files there was verified; until then, and
 * for any file still on the disk, the box serves it itself.
 */

export const BUCKET_SEND_JOB = "send-to-bucket";
export const BUCKET_REMOVE_JOB = "remove-from-bucket";

/** What a file of a title's folder is, and whether it leaves the disk once it is in the bucket. */
export type TitleFileKind = "film" | "ladder" | "playlist" | "poster" | "subtitle";
export type TitleFile = {
  relative: string;
  path: string;
  kind: TitleFileKind;
  moves: boolean;
  size: number;
  mtimeMs: number;
};

const CONTENT_TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".m3u8": "application/vnd.apple.mpegurl",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".vtt": "text/vtt; charset=utf-8",
};

/** The kind of a file by its place in the title's folder, or null for anything that is not a finished file (an upload in progress). */
export function classifyTitleFile(
  relative: string,
  keepSource: "bucket" | "local" = "bucket",
): { kind: TitleFileKind; moves: boolean } | null {
  // A replaced film's versions (`v<N>/video.mp4`, `v<N>/hls/…`) are the film's files like the first one's.
  const versioned = /^v[1-9]\d{0,5}\/(.+)$/.exec(relative);
  if (versioned) {
    const inner = classifyTitleFile(versioned[1]!, keepSource);
    return inner && (inner.kind === "film" || inner.kind === "ladder" || inner.kind === "playlist") ? inner : null;
  }
  if (relative === "video.mp4") return { kind: "film", moves: keepSource === "bucket" };
  if (/^hls\/[1-9]\d{1,3}p(?:-av1)?\.mp4$/.test(relative)) return { kind: "ladder", moves: true };
  if (/^hls\/[1-9]\d{1,3}p(?:-av1)?\.m3u8$/.test(relative)) return { kind: "playlist", moves: false };
  if (/^poster-[a-z]+(?:-\d+)?\.(?:jpg|webp|avif)$/.test(relative)) return { kind: "poster", moves: false };
  if (/^subtitles\/[A-Za-z0-9-]+\.vtt$/.test(relative)) return { kind: "subtitle", moves: false };
  return null;
}

/** The bucket key of a file of a title's folder: the same path as under STORAGE_DIR. */
export function objectKey(movieId: string, relative: string): string {
  movieDir(movieId, "/"); // checks the id
  return `media/${movieId}/${relative}`;
}

/** The finished files of a title's folder on this disk. */
export function titleFilesOnDisk(movieId: string, root = storageRoot()): TitleFile[] {
  const dir = movieDir(movieId, root);
  const keepSource = getEnv().s3?.keepSource ?? "bucket";
  const found: TitleFile[] = [];
  const walk = (sub: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else if (entry.isFile()) {
        const kind = classifyTitleFile(relative, keepSource);
        if (!kind) continue;
        const stat = fs.statSync(path.join(dir, relative));
        found.push({ relative, path: path.join(dir, relative), ...kind, size: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
  };
  walk("");
  return found;
}

// ---------------------------------------------------------------------------
// The bucket and its health.

const globalForStore = globalThis as unknown as {
  __kalloObjectStore?: { settingsKey: string; store: ObjectStore };
  __kalloBucketHealth?: BucketHealthState;
};

type BucketHealthState = {
  ok: boolean;
  message?: string;
  kind?: ObjectStoreErrorKind;
  checkedAt: number;
  checking: Promise<void> | null;
};
const health = (globalForStore.__kalloBucketHealth ??= { ok: true, checkedAt: 0, checking: null });

/** The bucket named by the S3_* settings, or null when none is configured. */
export function objectStore(): ObjectStore | null {
  const settings = getEnv().s3;
  if (!settings) return null;
  const settingsKey = JSON.stringify(settings);
  const cached = globalForStore.__kalloObjectStore;
  if (cached?.settingsKey === settingsKey) return cached.store;
  const store = new ObjectStore(settings, { onOutcome: noteBucketOutcome });
  globalForStore.__kalloObjectStore = { settingsKey, store };
  return store;
}

function requireStore(): ObjectStore {
  const store = objectStore();
  if (!store)
    throw new ObjectStoreError(
      "configure",
      "other",
      "no bucket is configured: set S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
    );
  return store;
}

/** Every bucket call reports here: a timeout, a refused connection, a 5xx or refused credentials mark the bucket unreachable until a call succeeds. */
export function noteBucketOutcome(error: unknown): void {
  if (!error) {
    health.ok = true;
    health.message = undefined;
    health.kind = undefined;
    health.checkedAt = Date.now();
    return;
  }
  const kind = classifyError(error);
  if (kind === "missing" || kind === "checksum") return;
  const settings = getEnv().s3;
  const message = settings ? describeBucketProblem(error, settings) : String(error);
  // Said once in the log when it changes (every worker checks every few seconds).
  if (health.ok || health.message !== message) console.log(`[media] the bucket: ${message}`);
  health.ok = false;
  health.message = message;
  health.kind = kind;
  health.checkedAt = Date.now();
}

/** How long a known state of the bucket is trusted before it is checked again (in the background). */
export const HEALTH_TTL_MS = 5_000;

export type BucketHealth =
  { configured: false } | { configured: true; ok: boolean; message?: string; kind?: ObjectStoreErrorKind };

/**
 * The bucket's state as last seen, without waiting: a state older than
 * HEALTH_TTL_MS starts a check (HEAD bucket) whose answer the next caller reads.
 */
export function bucketHealth(): BucketHealth {
  const store = objectStore();
  if (!store) return { configured: false };
  if (Date.now() - health.checkedAt > HEALTH_TTL_MS && !health.checking) {
    health.checking = store
      .check()
      .catch(() => undefined)
      .finally(() => {
        health.checking = null;
      });
  }
  return { configured: true, ok: health.ok, message: health.message, kind: health.kind };
}

/** Check the bucket (when the last state is stale, or `force`) and give its state: /healthz waits for this. */
export async function checkBucket(options: { force?: boolean } = {}): Promise<BucketHealth> {
  const store = objectStore();
  if (!store) return { configured: false };
  if (options.force || Date.now() - health.checkedAt > HEALTH_TTL_MS) {
    health.checking ??= store
      .check()
      .catch(() => undefined)
      .finally(() => {
        health.checking = null;
      });
    await health.checking;
  }
  return { configured: true, ok: health.ok, message: health.message, kind: health.kind };
}

// ---------------------------------------------------------------------------
// The CDN in front of the bucket (MEDIA_BASE_URL): can it read the bucket?

/** A file of a few bytes the bucket holds for this check alone. */
export const CDN_PROBE_KEY = "kallo-health-check/cdn-probe.txt";
const CDN_PROBE_BODY = "kallo cdn probe\n";
/** A CDN's state is checked at start and then every this often (each check may cost the CDN one origin fetch). */
export const CDN_HEALTH_TTL_MS = 10 * 60_000;

type CdnHealthState = { problem: string | null; checkedAt: number; checking: Promise<void> | null };
const globalForCdn = globalThis as unknown as { __kalloCdnHealth?: CdnHealthState };
const cdnHealthState = (globalForCdn.__kalloCdnHealth ??= { problem: null, checkedAt: 0, checking: null });

/**
 * Ask the CDN for a file the bucket holds, by an address signed as a viewer's is: null when it answers with
 * the file, else what is wrong, naming the setting (a CDN that cannot read a private bucket answers 403).
 * Null without MEDIA_BASE_URL.
 */
export async function probeCdn(store: ObjectStore): Promise<string | null> {
  const { mediaBaseUrl, signing, timeoutMs } = store.settings;
  if (!mediaBaseUrl) return null;
  const origin = new URL(mediaBaseUrl).origin;
  if (!(await store.head(CDN_PROBE_KEY))) await store.putSmall(CDN_PROBE_KEY, CDN_PROBE_BODY);
  const url = await store.signedGetUrl(CDN_PROBE_KEY, new Date(), 600);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), cache: "no-store" });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return `MEDIA_BASE_URL: the CDN at ${origin} cannot be reached (${cause})`;
  }
  const body = await response.text().catch(() => "");
  if (response.ok && body === CDN_PROBE_BODY) return null;
  if (response.ok)
    return `MEDIA_BASE_URL: the CDN at ${origin} answers, but not with the bucket's file ${CDN_PROBE_KEY}`;
  const why =
    signing === "cdn"
      ? "it cannot read the bucket, or does not take the addresses MEDIA_CDN_KEY signs"
      : "it cannot read the bucket, or does not pass the presigned query on to it";
  return `MEDIA_BASE_URL: the CDN at ${origin} answers ${response.status} for a file the bucket holds (${CDN_PROBE_KEY}): ${why}. The README's "A CDN in front of a private bucket" says how`;
}

/** The CDN's state as last seen (null: fine, or no CDN); a stale one is checked in the background, or waited for with `wait`. */
export async function cdnProblem(options: { waitMs?: number } = {}): Promise<string | null> {
  const store = objectStore();
  if (!store?.settings.mediaBaseUrl) return null;
  if (Date.now() - cdnHealthState.checkedAt > CDN_HEALTH_TTL_MS && !cdnHealthState.checking) {
    cdnHealthState.checking = probeCdn(store)
      .catch((error: unknown) => (error instanceof Error ? error.message : String(error)))
      .then((problem) => {
        if (problem && problem !== cdnHealthState.problem) console.log(`[media] ${problem}`);
        cdnHealthState.problem = problem;
        cdnHealthState.checkedAt = Date.now();
      })
      .finally(() => {
        cdnHealthState.checking = null;
      });
  }
  if (options.waitMs && cdnHealthState.checking) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      cdnHealthState.checking,
      new Promise((resolve) => {
        timer = setTimeout(resolve, options.waitMs);
      }),
    ]);
    clearTimeout(timer);
  }
  return cdnHealthState.problem;
}

/**
 * For a page about to offer a title held in the bucket: is the bucket known
 * to be down? A stale state is checked first, waiting at most `waitMs`.
 */
export async function bucketIsDown(waitMs = 1000): Promise<boolean> {
  if (!objectStore()) return false;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    checkBucket(),
    new Promise((resolve) => {
      timer = setTimeout(resolve, waitMs);
    }),
  ]);
  clearTimeout(timer);
  const state = bucketHealth();
  return state.configured && !state.ok;
}

// ---------------------------------------------------------------------------
// Which titles are where.

const titleStoreQuery = preparedQuery((db: DB) =>
  db
    .select({ mediaStore: movies.mediaStore, durationSeconds: movies.durationSeconds })
    .from(movies)
    .where(eq(movies.id, sql.placeholder("movieId")))
    .prepare(),
);

function titleStore(db: DB, movieId: string): { mediaStore: "local" | "s3"; durationSeconds: number } | null {
  return titleStoreQuery(db).get({ movieId }) ?? null;
}

export type FileLocation = { where: "local"; path: string } | { where: "bucket"; key: string } | { where: "missing" };

/**
 * Where one of a title's files is now: on the disk when it is there (a title
 * being sent keeps playing from the box until the bucket has all of it), in
 * the bucket when the title is marked as held there, else nowhere.
 */
export function locateTitleFile(db: DB, movieId: string, localPath: string, root = storageRoot()): FileLocation {
  if (fs.existsSync(localPath)) return { where: "local", path: localPath };
  const title = titleStore(db, movieId);
  if (title?.mediaStore !== "s3" || !objectStore()) return { where: "missing" };
  const relative = path.relative(movieDir(movieId, root), localPath).split(path.sep).join("/");
  if (!classifyTitleFile(relative)) return { where: "missing" };
  return { where: "bucket", key: objectKey(movieId, relative) };
}

/** Is this title held in the bucket (and so unreachable while the bucket is)? */
export function isTitleInBucket(db: DB, movieId: string): boolean {
  return titleStore(db, movieId)?.mediaStore === "s3";
}

// ---------------------------------------------------------------------------
// Signed addresses.

/** Addresses are signed as of the start of a window of this length, so every viewer in it gets the same address and a CDN caches one copy. */
export const SIGNING_WINDOW_SECONDS = 15 * 60;
/** Enough to finish a title after starting it late in the window: three times its length, at least an hour. */
export const MIN_PLAY_SECONDS = 60 * 60;
/** The longest a V4 presigned address may live. */
export const MAX_SIGNED_SECONDS = 7 * 24 * 60 * 60;

/** The start of the signing window `now` falls in. */
export function signingTime(now: Date): Date {
  const window = SIGNING_WINDOW_SECONDS * 1000;
  return new Date(Math.floor(now.getTime() / window) * window);
}

/** How long an address signed at the start of a window stays valid: the window, then time to play the title to its end thrice over. */
export function signedLifetimeSeconds(durationSeconds: number): number {
  const play = Math.max(MIN_PLAY_SECONDS, Math.ceil(3 * Math.max(0, durationSeconds)));
  return Math.min(MAX_SIGNED_SECONDS, SIGNING_WINDOW_SECONDS + play);
}

/**
 * A short-lived GET address of a title's file in the bucket. Call only after
 * the viewer's right to play the title was checked: whoever holds the address
 * can read the file until it expires.
 */
export async function signedTitleFileUrl(db: DB, movieId: string, key: string, now = new Date()): Promise<string> {
  const title = titleStore(db, movieId);
  return requireStore().signedGetUrl(key, signingTime(now), signedLifetimeSeconds(title?.durationSeconds ?? 0));
}

/** Thrown when a title's files are in the bucket and the bucket cannot be reached: the viewer is told, nothing else changes. */
export class TitleUnreachable extends Error {
  readonly name = "TitleUnreachable";
}

export const TITLE_UNREACHABLE_MESSAGE = "This title cannot be reached right now. Please try again in a few minutes.";

/**
 * A rung's media playlist for a viewer already allowed to play it: as stored
 * when the rung is on the disk (its relative name resolves to our /stream
 * route), else with the rung named by one signed address of the bucket (or
 * CDN) — the same address for every segment, so a CDN caches the rung once.
 * Null when there is no such playlist.
 */
export async function rungPlaylistText(
  db: DB,
  movieId: string,
  rung: number,
  version = 0,
  now = new Date(),
  codec: LadderCodec = "h264",
): Promise<string | null> {
  const playlistPath = renditionPath(movieId, rung, "playlist", storageRoot(), version, codec);
  if (!(await ensureLocalCopy(db, movieId, playlistPath))) return null;
  const text = await fs.promises.readFile(playlistPath, "utf8");
  const media = locateTitleFile(db, movieId, renditionPath(movieId, rung, "media", storageRoot(), version, codec));
  if (media.where !== "bucket") return text;
  if (await bucketIsDown()) throw new TitleUnreachable(TITLE_UNREACHABLE_MESSAGE);
  const address = await signedTitleFileUrl(db, movieId, media.key, now);
  const name = renditionFileName(rung, "media", codec);
  return text
    .split("\n")
    .map((line) =>
      line === name
        ? address
        : line.startsWith("#EXT-X-MAP:")
          ? line.replace(`URI="${name}"`, `URI="${address}"`)
          : line,
    )
    .join("\n");
}

/**
 * For a file the box serves itself (a poster, subtitles, a playlist): true
 * when it is on the disk, fetching it back from the bucket first when the
 * title is held there and the disk lost it (a box restored from the replica).
 */
export async function ensureLocalCopy(
  db: DB,
  movieId: string,
  localPath: string,
  root = storageRoot(),
): Promise<boolean> {
  const location = locateTitleFile(db, movieId, localPath, root);
  if (location.where === "local") return true;
  if (location.where === "missing") return false;
  const store = requireStore();
  const info = await store.head(location.key);
  if (!info) return false;
  await store.downloadTo(location.key, localPath, info);
  return true;
}

// ---------------------------------------------------------------------------
// Moving titles between the disk and the bucket.

export type Progress = (event: { file: string; bytes: number; done: boolean }) => void;

export type MoveSummary = { files: number; sentBytes: number; removedLocal: number; alreadyThere: boolean };

/**
 * Send a title's files to the bucket and make it play from there. Each file
 * is sent (multipart for the large ones) and checked by size and ETag; a file
 * the bucket already holds identically is not sent again, so a stopped move
 * resumes where it was. Only when every file is verified is the title marked
 * as held in the bucket; then the film and its ladder are removed from the
 * disk — each only if it is still the file that was sent.
 */
/** What a move would do: how many files and bytes would go, nothing done. */
function dryRun(files: readonly { size: number }[]): MoveSummary {
  return {
    files: files.length,
    sentBytes: files.reduce((sum, file) => sum + file.size, 0),
    removedLocal: 0,
    alreadyThere: false,
  };
}

export async function sendTitleToBucket(
  db: DB,
  movieId: string,
  options: { root?: string; progress?: Progress; dryRun?: boolean } = {},
): Promise<MoveSummary> {
  const root = options.root ?? storageRoot();
  const store = requireStore();
  const files = titleFilesOnDisk(movieId, root);
  const title = titleStore(db, movieId);
  if (!title) return { files: 0, sentBytes: 0, removedLocal: 0, alreadyThere: false };
  if (files.length === 0) return { files: 0, sentBytes: 0, removedLocal: 0, alreadyThere: title.mediaStore === "s3" };
  if (options.dryRun) return dryRun(files);
  let sentBytes = 0;
  for (const file of files) {
    await store.putFile(objectKey(movieId, file.relative), file.path, {
      contentType: CONTENT_TYPES[path.extname(file.relative)] ?? "application/octet-stream",
      cacheControl: file.kind === "film" || file.kind === "ladder" ? "public, max-age=86400" : undefined,
    });
    sentBytes += file.size;
    options.progress?.({ file: file.relative, bytes: file.size, done: false });
  }
  const stillThere = db.update(movies).set({ mediaStore: "s3" }).where(eq(movies.id, movieId)).run().changes;
  if (!stillThere) {
    // Deleted while it was being sent: what was sent goes too.
    await store.deletePrefix(`media/${movieId}/`);
    return { files: files.length, sentBytes, removedLocal: 0, alreadyThere: false };
  }
  let removedLocal = 0;
  for (const file of files) {
    if (!file.moves) continue;
    const now = fs.statSync(file.path, { throwIfNoEntry: false });
    // Replaced since it was sent (a new ladder): it stays, and a later send takes it.
    if (!now || now.size !== file.size || now.mtimeMs !== file.mtimeMs) continue;
    fs.rmSync(file.path, { force: true });
    removedLocal++;
  }
  options.progress?.({ file: "", bytes: 0, done: true });
  return { files: files.length, sentBytes, removedLocal, alreadyThere: false };
}

/**
 * Bring a title held in the bucket back to the disk: every object is copied
 * (checked by size and ETag; one already on the disk identically is kept), the
 * title is marked local, then its objects are removed from the bucket.
 */
export async function bringTitleHome(
  db: DB,
  movieId: string,
  options: { root?: string; progress?: Progress; dryRun?: boolean } = {},
): Promise<MoveSummary> {
  const root = options.root ?? storageRoot();
  const store = requireStore();
  const objects = await store.list(`media/${movieId}/`);
  if (options.dryRun) return dryRun(objects);
  let bytes = 0;
  for (const object of objects) {
    const relative = object.key.slice(`media/${movieId}/`.length);
    if (!classifyTitleFile(relative)) continue;
    const localPath = path.join(movieDir(movieId, root), ...relative.split("/"));
    if (!(await sameAsObject(localPath, object))) await store.downloadTo(object.key, localPath, object);
    bytes += object.size;
    options.progress?.({ file: relative, bytes: object.size, done: false });
  }
  db.update(movies).set({ mediaStore: "local" }).where(eq(movies.id, movieId)).run();
  await store.deleteKeys(objects.map((object) => object.key));
  options.progress?.({ file: "", bytes: 0, done: true });
  return { files: objects.length, sentBytes: bytes, removedLocal: 0, alreadyThere: objects.length === 0 };
}

async function sameAsObject(localPath: string, object: ObjectInfo): Promise<boolean> {
  const stat = fs.statSync(localPath, { throwIfNoEntry: false });
  if (!stat || stat.size !== object.size) return false;
  return etagMatches(object.etag, await fileEtags(localPath));
}

/**
 * A title's (or a series') folder was removed from the disk: its objects go
 * from the bucket too, by a queued job that retries while the bucket is down.
 */
export function scheduleBucketRemoval(ownerId: string): void {
  if (!getEnv().s3) return;
  getDb()
    .insert(jobs)
    .values({ id: createId(), kind: BUCKET_REMOVE_JOB, movieId: null, payload: { prefix: `media/${ownerId}/` } })
    .run();
}

/**
 * One retired version of a replaced film left the disk: its objects go from
 * the bucket too (the first version's film and ladder, or a `v<N>/` folder).
 */
export function scheduleBucketVersionRemoval(movieId: string, version: number): void {
  if (!getEnv().s3) return;
  movieDir(movieId, "/"); // checks the id
  const prefixes =
    version === 0 ? [`media/${movieId}/video.mp4`, `media/${movieId}/hls/`] : [`media/${movieId}/v${version}/`];
  for (const prefix of prefixes)
    getDb().insert(jobs).values({ id: createId(), kind: BUCKET_REMOVE_JOB, movieId: null, payload: { prefix } }).run();
}

/** The job's work: remove every object under the prefix (a title's folder, or one version of its film). */
export async function removeBucketPrefix(prefix: string): Promise<number> {
  if (!/^media\/[a-z0-9]{8,32}\/(?:v[1-9]\d{0,5}\/|hls\/|video\.mp4)?$/.test(prefix))
    throw new Error(`Refusing to remove bucket prefix ${prefix}`);
  return requireStore().deletePrefix(prefix);
}

/** Titles and how many of them are on the disk and in the bucket (for the operator's views). */
export function titlesByStore(db: DB): { local: number; s3: number } {
  const rows = db
    .select({ store: movies.mediaStore, count: sql<number>`count(*)` })
    .from(movies)
    .groupBy(movies.mediaStore)
    .all();
  return {
    local: rows.find((row) => row.store === "local")?.count ?? 0,
    s3: rows.find((row) => row.store === "s3")?.count ?? 0,
  };
}

/** Remove a title's (or a series') files: its folder here, and its objects in the bucket (by a job that retries). */
export function removeMovieFiles(movieId: string, root = storageRoot()): void {
  fs.rmSync(movieDir(movieId, root), { recursive: true, force: true });
  scheduleBucketRemoval(movieId);
}

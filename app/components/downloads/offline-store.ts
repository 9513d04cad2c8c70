import type { LicenceTerms, SignedLicence } from "~/services/download-licence";

/**
 * Downloads kept on this device, in Cache Storage (cache "kallo-downloads"),
 * shared with the service worker (public/sw.js), which plays them:
 *
 *   /offline-media/<movieId>/meta       this download's record (JSON below)
 *   /offline-media/<movieId>/chunk/<n>  the rung's MP4, CHUNK_BYTES (2 MiB) at a time
 *   /offline-media/<movieId>/poster     its card poster
 *   /offline-media/<movieId>/subtitles/<language>.vtt   its subtitles, every language
 *                                       the title had when it was downloaded
 *   /offline-media/<movieId>/video.mp4  (not stored) what the player asks for;
 *                                       the worker answers its byte ranges
 *                                       from the chunks, licence permitting
 *
 * Chunks are fetched in order by byte range, so a download resumes from the
 * first missing chunk and nothing is fetched twice.
 */
export const DOWNLOAD_CACHE = "kallo-downloads";
export const CHUNK_BYTES = 2 * 1024 * 1024;

export type { LicenceTerms, SignedLicence };

export type DownloadRecord = {
  licence: SignedLicence;
  publicKey: JsonWebKey;
  title: { id: string; name: string; durationSeconds: number; poster: string };
  media: { url: string; sizeBytes: number };
  chunkBytes: number;
  /** Chunks stored so far (always the first ones). */
  chunks: number;
  startedAt: number;
  wifiOnly: boolean;
  /** The first offline play (the play window counts from it), and the latest clock reading seen. */
  firstPlayedAt: number | null;
  latestSeen: number;
  /** Where the viewer stopped, and positions not yet reported to the server. */
  positionSeconds: number;
  pendingProgress: number[];
  /** The server said this licence no longer holds. */
  revoked: boolean;
  /** The subtitles stored beside the film (absent in downloads made before subtitles existed), and the one shown. */
  subtitles?: Array<{ language: string; label: string }>;
  subtitleLanguage?: string | null;
  /** The profile that downloaded it: only that profile's downloads page shows it (absent: made before profiles, the account's first). */
  profileId?: string | null;
};

export const mediaUrl = (movieId: string) => `/offline-media/${movieId}/video.mp4`;
const metaUrl = (movieId: string) => `/offline-media/${movieId}/meta`;
const chunkUrl = (movieId: string, index: number) => `/offline-media/${movieId}/chunk/${index}`;
export const posterCacheUrl = (movieId: string) => `/offline-media/${movieId}/poster`;
export const subtitleCacheUrl = (movieId: string, language: string) =>
  `/offline-media/${movieId}/subtitles/${language}.vtt`;

/**
 * Ask the service worker to keep a copy of /downloads and the scripts it runs,
 * so the list opens (and plays) with no network: the worker precaches only the
 * offline page by itself. Resolves when the worker says it is done, or after
 * `timeoutMs`; never throws (a download does not depend on it).
 */
export async function keepDownloadsPageOffline(timeoutMs = 15_000): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  const kept = navigator.serviceWorker.ready.then(
    (registration) =>
      new Promise<void>((resolve) => {
        const worker = registration.active;
        if (!worker) return resolve();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        worker.postMessage({ type: "keep-downloads-page" }, [channel.port2]);
      }),
  );
  try {
    await Promise.race([kept, timeout]);
  } catch {
    // No worker: the page still downloads; it only will not open offline.
  } finally {
    clearTimeout(timer);
  }
}

/** What this browser lacks for downloads (empty: it has it all). */
export function missingFeatures(): string[] {
  const missing: string[] = [];
  if (typeof caches === "undefined") missing.push("Cache Storage");
  if (!("serviceWorker" in navigator)) missing.push("service workers");
  if (!navigator.storage?.estimate) missing.push("storage estimates");
  if (!globalThis.crypto?.subtle) missing.push("WebCrypto");
  return missing;
}

export function isComplete(record: DownloadRecord): boolean {
  return record.chunks * record.chunkBytes >= record.media.sizeBytes;
}

export function storedBytes(record: DownloadRecord): number {
  return Math.min(record.media.sizeBytes, record.chunks * record.chunkBytes);
}

async function store() {
  return caches.open(DOWNLOAD_CACHE);
}

export async function readRecord(movieId: string): Promise<DownloadRecord | null> {
  const response = await (await store()).match(metaUrl(movieId));
  return response ? ((await response.json()) as DownloadRecord) : null;
}

export async function writeRecord(record: DownloadRecord): Promise<void> {
  await (
    await store()
  ).put(
    metaUrl(record.title.id),
    new Response(JSON.stringify(record), { headers: { "Content-Type": "application/json" } }),
  );
}

export async function updateRecord(
  movieId: string,
  change: (record: DownloadRecord) => DownloadRecord | void,
): Promise<DownloadRecord | null> {
  const record = await readRecord(movieId);
  if (!record) return null;
  const next = change(record) ?? record;
  await writeRecord(next);
  return next;
}

export async function listRecords(): Promise<DownloadRecord[]> {
  if (typeof caches === "undefined") return [];
  const cache = await store();
  const records: DownloadRecord[] = [];
  for (const request of await cache.keys()) {
    if (!new URL(request.url).pathname.endsWith("/meta")) continue;
    const response = await cache.match(request);
    if (response) records.push((await response.json()) as DownloadRecord);
  }
  return records.sort((a, b) => b.startedAt - a.startedAt);
}

export async function putChunk(movieId: string, index: number, bytes: ArrayBuffer): Promise<void> {
  await (
    await store()
  ).put(
    chunkUrl(movieId, index),
    new Response(bytes, {
      headers: { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.byteLength) },
    }),
  );
}

/** Remove a download's every entry (record, chunks, poster, subtitles). */
export async function removeDownload(movieId: string): Promise<void> {
  const cache = await store();
  const prefix = `/offline-media/${movieId}/`;
  for (const request of await cache.keys()) {
    if (new URL(request.url).pathname.startsWith(prefix)) await cache.delete(request);
  }
}

export type StorageFacts = { usedBytes: number; freeBytes: number; persisted: boolean | null };

export async function storageFacts(): Promise<StorageFacts> {
  const estimate = await navigator.storage.estimate();
  const persisted = navigator.storage.persisted ? await navigator.storage.persisted() : null;
  return {
    usedBytes: estimate.usage ?? 0,
    freeBytes: Math.max(0, (estimate.quota ?? 0) - (estimate.usage ?? 0)),
    persisted,
  };
}

/** The licence's terms, checked against the signature with the server's public key (WebCrypto ECDSA P-256). */
export async function licenceIsGenuine(licence: SignedLicence, publicKey: JsonWebKey): Promise<boolean> {
  const { terms } = licence;
  const message = JSON.stringify([
    terms.id,
    terms.movieId,
    terms.rung,
    terms.issuedAt,
    terms.expiresAt,
    terms.playHours,
  ]);
  const key = await crypto.subtle.importKey("jwk", publicKey, { name: "ECDSA", namedCurve: "P-256" }, false, [
    "verify",
  ]);
  const signature = Uint8Array.from(atob(licence.signature.replace(/-/g, "+").replace(/_/g, "/")), (c) =>
    c.charCodeAt(0),
  );
  return crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, signature, new TextEncoder().encode(message));
}

export type Verdict =
  { ok: true; until: number } | { ok: false; reason: "expired" | "clock" | "revoked" | "forged" | "incomplete" };

/** The same rule the service worker applies before it serves a byte (services/downloads.server.ts `judgePlay`). */
export function judgeRecord(record: DownloadRecord, now = Date.now()): Verdict {
  if (record.revoked) return { ok: false, reason: "revoked" };
  if (!isComplete(record)) return { ok: false, reason: "incomplete" };
  const { terms } = record.licence;
  if (now < record.latestSeen - 60_000 || now < terms.issuedAt - 60_000) return { ok: false, reason: "clock" };
  const until =
    record.firstPlayedAt === null
      ? terms.expiresAt
      : Math.min(terms.expiresAt, record.firstPlayedAt + terms.playHours * 3600_000);
  return now < until ? { ok: true, until } : { ok: false, reason: "expired" };
}

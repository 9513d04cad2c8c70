import { isPassingFailure } from "~/utils/passing-failure";
import {
  CHUNK_BYTES,
  keepDownloadsPageOffline,
  posterCacheUrl,
  putChunk,
  subtitleCacheUrl,
  readRecord,
  removeDownload,
  storageFacts,
  updateRecord,
  writeRecord,
  DOWNLOAD_CACHE,
  type DownloadRecord,
  type SignedLicence,
} from "./offline-store";

/**
 * Fetching a download: a licence from the server, then the rung's MP4 by byte
 * ranges of CHUNK_BYTES, each stored as it arrives. Runs in the page (this
 * browser downloads only while Kallo is open; the page says so) and resumes
 * from the first missing chunk after a pause, a dropped network or a closed tab.
 */
export class DownloadProblem extends Error {
  constructor(
    readonly key: string,
    readonly values: Record<string, string | number> = {},
  ) {
    super(key);
    this.name = "DownloadProblem";
  }
}

type LicenceAnswer = {
  licence: SignedLicence;
  publicKey: JsonWebKey;
  title: DownloadRecord["title"];
  media: DownloadRecord["media"];
  subtitles?: Array<{ language: string; label: string; url: string }>;
  profileId?: string;
};

/** A download's family: its file is the AV1 + Opus rung (`240p-av1.mp4`) or H.264's. */
export function downloadCodec(record: Pick<DownloadRecord, "media">): DownloadCodec {
  return /-av1\.mp4(?:$|\?)/.test(record.media.url) ? "av1" : "h264";
}
export type DownloadCodec = "h264" | "av1";

async function askForLicence(
  movieId: string,
  rung: number,
  codec: DownloadCodec,
  replaces: string | null,
): Promise<LicenceAnswer> {
  const response = await fetch("/downloads/licences", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify({ movieId, rung, codec, replaces }),
  });
  const body = (await response.json().catch(() => ({}))) as Partial<LicenceAnswer> & { error?: string; key?: string };
  if (!response.ok || !body.licence)
    throw new DownloadProblem(body.key ?? "downloads:errors.notAvailable", {
      reason: body.error ?? String(response.status),
    });
  return body as LicenceAnswer;
}

const MB = 1_000_000;

/** Is the browser on a metered mobile link now? null: it does not say. */
export function onMobileData(): boolean | null {
  const connection = (navigator as Navigator & { connection?: { type?: string } }).connection;
  if (!connection || !connection.type) return null;
  return connection.type === "cellular";
}

/** Store the title's subtitles beside the film (a few kilobytes each); those that fail to arrive are left out. */
async function storeSubtitles(
  movieId: string,
  tracks: NonNullable<LicenceAnswer["subtitles"]>,
): Promise<Array<{ language: string; label: string }>> {
  const cache = await caches.open(DOWNLOAD_CACHE);
  const stored: Array<{ language: string; label: string }> = [];
  for (const track of tracks) {
    try {
      const response = await fetch(track.url, { credentials: "same-origin" });
      if (!response.ok) continue;
      const text = await response.text();
      await cache.put(
        subtitleCacheUrl(movieId, track.language),
        new Response(text, { headers: { "Content-Type": "text/vtt; charset=utf-8" } }),
      );
      stored.push({ language: track.language, label: track.label });
    } catch {
      // The film still plays; these subtitles come with the next renewal.
    }
  }
  return stored;
}

/**
 * Check the space, ask to keep the data, take a licence and write the
 * download's record (no film bytes yet), with the title's subtitles and the
 * language the viewer chose on the title's page.
 */
export async function prepareDownload(
  movieId: string,
  rung: number,
  sizeBytes: number,
  options: { wifiOnly: boolean; subtitleLanguage?: string | null; codec?: DownloadCodec },
): Promise<{ record: DownloadRecord; persisted: boolean | null }> {
  const codec = options.codec ?? "h264";
  const existing = await readRecord(movieId);
  const facts = await storageFacts();
  // The same file as the one begun: the same rung of the same family.
  const sameFile = existing !== null && existing.licence.terms.rung === rung && downloadCodec(existing) === codec;
  const need = sizeBytes - (sameFile ? existing.chunks * existing.chunkBytes : 0);
  // Room for the film plus a little for the record and the poster.
  if (facts.freeBytes < need + 5 * MB) {
    throw new DownloadProblem("downloads:notEnoughSpace", {
      need: Math.ceil(need / MB),
      free: Math.floor(facts.freeBytes / MB),
    });
  }
  // Ask the browser to keep downloads under storage pressure; the page says when it may not.
  const persisted = facts.persisted
    ? true
    : navigator.storage.persist
      ? await navigator.storage.persist().catch(() => false)
      : null;
  const answer = await askForLicence(movieId, rung, codec, existing?.licence.terms.id ?? null);
  if (existing && !sameFile) await removeDownload(movieId);
  const record: DownloadRecord = {
    licence: answer.licence,
    publicKey: answer.publicKey,
    title: answer.title,
    media: answer.media,
    chunkBytes: CHUNK_BYTES,
    chunks: sameFile ? existing.chunks : 0,
    startedAt: existing?.startedAt ?? Date.now(),
    wifiOnly: options.wifiOnly,
    firstPlayedAt: null,
    latestSeen: Date.now(),
    positionSeconds: existing?.positionSeconds ?? 0,
    pendingProgress: existing?.pendingProgress ?? [],
    revoked: false,
    profileId: answer.profileId ?? null,
    subtitles: await storeSubtitles(movieId, answer.subtitles ?? []),
    subtitleLanguage:
      options.subtitleLanguage === undefined ? (existing?.subtitleLanguage ?? null) : options.subtitleLanguage,
  };
  await writeRecord(record);
  // The list of downloads must open with no network: the worker keeps it now, once per device.
  await keepDownloadsPageOffline();
  try {
    const poster = await fetch(answer.title.poster, { credentials: "same-origin" });
    if (poster.ok) await (await caches.open(DOWNLOAD_CACHE)).put(posterCacheUrl(movieId), poster);
  } catch {
    // A download without its poster still plays.
  }
  return { record, persisted };
}

export type ProgressReport = { doneBytes: number; totalBytes: number };

/** How long before a chunk that failed for want of a network is asked for again: 1, 2, 4, then every 5 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(5_000, 1_000 * 2 ** attempt);
}

/** Wait `ms`, or less if `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * One chunk's bytes; null when it failed for want of a network (no answer, a cut or short answer, 5xx, 408,
 * 429) and is worth asking again. A refusal throws DownloadProblem.
 */
async function fetchChunk(url: string, start: number, end: number, signal: AbortSignal): Promise<ArrayBuffer | null> {
  try {
    // no-store: every range comes from the network whole (a browser cache can hand back a cut one).
    const response = await fetch(url, {
      headers: { Range: `bytes=${start}-${end}` },
      cache: "no-store",
      credentials: "same-origin",
      signal,
    });
    if (response.status !== 206) {
      if (isPassingFailure(response.status)) return null;
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      throw new DownloadProblem("downloads:errors.failed", { reason: body.message ?? String(response.status) });
    }
    const bytes = await response.arrayBuffer();
    return bytes.byteLength === end - start + 1 ? bytes : null;
  } catch (error) {
    if (error instanceof DownloadProblem) throw error;
    return null;
  }
}

/**
 * Fetch the chunks still missing. Stops when `signal` aborts (pause); throws
 * DownloadProblem for what the viewer should read. A chunk that fails for want
 * of a network (a bus, a lift, the bucket down) is asked for again until it
 * comes, every few seconds, with `onConnection(false)` meanwhile: the download
 * goes on by itself when the link is back. On a full device the unfinished
 * download is removed.
 */
export async function fetchMissingChunks(
  movieId: string,
  options: {
    signal: AbortSignal;
    onProgress: (report: ProgressReport) => void;
    waitForWifi: () => Promise<void>;
    onConnection?: (connected: boolean) => void;
  },
): Promise<DownloadRecord> {
  let record = await readRecord(movieId);
  if (!record) throw new DownloadProblem("downloads:errors.notAvailable");
  const total = record.media.sizeBytes;
  for (let index = record.chunks; index * record.chunkBytes < total; index++) {
    if (record.wifiOnly && onMobileData() === true) await options.waitForWifi();
    const start = index * record.chunkBytes;
    const end = Math.min(total, start + record.chunkBytes) - 1;
    let bytes = await fetchChunk(record.media.url, start, end, options.signal);
    for (let attempt = 0; !bytes; attempt++) {
      if (options.signal.aborted) return record;
      options.onConnection?.(false);
      await pause(retryDelayMs(attempt), options.signal);
      if (options.signal.aborted) return record;
      bytes = await fetchChunk(record.media.url, start, end, options.signal);
    }
    if (options.signal.aborted) return record;
    options.onConnection?.(true);
    try {
      await putChunk(movieId, index, bytes);
      record = (await updateRecord(movieId, (current) => ({ ...current, chunks: index + 1 }))) ?? record;
    } catch (error) {
      if (error instanceof DOMException && error.name === "QuotaExceededError") {
        await removeDownload(movieId);
        throw new DownloadProblem("downloads:quotaExceeded");
      }
      throw error;
    }
    options.onProgress({ doneBytes: Math.min(total, (index + 1) * record.chunkBytes), totalBytes: total });
  }
  return record;
}

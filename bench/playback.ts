/**
 * Playback on slow links: the adaptive HLS ladder against today's progressive
 * MP4, in a real Chromium on a throttled link. `npm run bench:playback`
 * after `npm run build`.
 *
 * 1. Film: a 1280x720 25 fps H.264 (about 2.5 Mbps, hard to compress: test
 *    pattern plus temporal noise) with AAC stereo, BENCH_FILM_MINUTES long,
 *    made once with ffmpeg and kept in the temp folder.
 * 2. Ingest: the built server on a fresh storage folder; the film goes up as
 *    a provider through the real upload route (`POST /provider/uploads`),
 *    with auto-approval on. Measured from the upload's 201 (file stored):
 *    time until the title is first playable (status ready: the lowest rungs
 *    are made), time until every rung is ready, the ladder's encode speed
 *    (film seconds ÷ encoding seconds of both passes, queue waits left out;
 *    the first pass's time includes the probe and poster of the processing
 *    job), disk of the renditions ÷ the uploaded file, and each rung's size.
 * 3. Playback: for each player in BENCH_PLAYERS, each link speed in
 *    BENCH_SPEEDS (kbps) and BENCH_RUNS times, one new browser (empty cache)
 *    with its own viewer account (so no resume position, screen lease or
 *    cache is shared between runs), signed in outside the browser (no
 *    throttle) and its session cookie put in the context. The page's link is
 *    throttled with CDP `Network.emulateNetworkConditions` (300 ms latency,
 *    kbps both ways) before the watch page opens. After the load event, the
 *    player's hydration and 2 s, the film bytes fetched so far (CDP
 *    `encodedDataLength` of `/stream/…` and `/api/files/…`) are "bytes
 *    before play"; then `video.play()` and, over BENCH_PLAY_SECONDS of wall
 *    time: time to first frame (requestVideoFrameCallback, else the first
 *    advancing `timeupdate`, else `playing`), stalls (`waiting` after the
 *    first frame that lasted 100 ms or more) and their seconds, seconds of
 *    film played (currentTime's forward steps), MB fetched per
 *    minute of film played, rungs played (`data-rung` samples, else the rung
 *    files fetched). Then a seek to minute 15 (75 % of a shorter film): time
 *    until `seeked`, a frame of the new position on screen and the position
 *    advancing again.
 *    Players: "adaptive" (the watch page's player: hls.js wherever MSE exists,
 *    as in Chromium; play is pressed once hls.js has attached, and the run
 *    notes how long after the load event that was), "native" (the same page
 *    with MSE hidden, so the player takes Chromium's native HLS, as it does
 *    on browsers without MSE),
 *    "progressive" (today's way: the watch page opens the same way, then,
 *    once hydrated, its player is swapped for today's
 *    `<video preload="metadata" controls src="/api/files/<id>.mp4">` with the
 *    same poster; its preload=metadata fetch is "bytes before play". The swap
 *    is after hydration because a different element in the HTML would make
 *    React re-render the page and put the new player back; the old element is
 *    emptied first so it fetches nothing more).
 *    Service workers are blocked: the app's worker precaches the app shell on
 *    a first visit, which would share the throttled link in every run alike.
 *    Each finished film response's body (CDP `dataLength`) is compared with
 *    its Content-Range / Content-Length (a Chromium bug has served truncated
 *    repeated ranges from its cache under throttling); mismatches are
 *    printed. Compressed answers (playlists) are left out: their
 *    Content-Length is the compressed size. Answers the media element
 *    cancels midway (it often does) are not checked either.
 *    Bytes against film: after 30 s of play, at the end of the play window
 *    and after a pause of BENCH_PAUSE_SECONDS (60), the film bytes fetched
 *    since the page opened (CDP, headers and playlists included) against the
 *    bytes of film played (each fetched range of a rung file mapped onto the
 *    rung's segments: those before the position, the one under it pro rata;
 *    see playback-bytes.ts) plus the stated read-ahead (30 s, 12 s under data
 *    saver: app/media/read-ahead.ts) at the peak bitrate of the rung fetched
 *    ahead; what is held ahead in seconds, and film fetched twice. The
 *    progressive MP4 has no segments: its bytes played are the file's bytes
 *    pro rata of the position.
 *    The cost the page shows before play (`data-cost`: its MB per hour, or
 *    its MB for the film turned into MB per hour) against the cost measured
 *    (MB fetched per hour of film played, read-ahead included), and the
 *    player's own count of what it fetched (`data-spent-bytes`) against CDP.
 * 4. A table per player and speed, the ratios of each player to the
 *    progressive one, the bytes and the cost tables, and the goals next to
 *    the figures.
 *
 * Knobs: BENCH_FILM_MINUTES (20), BENCH_RUNS (5), BENCH_PLAYERS
 * ("adaptive,progressive"; also "native"), BENCH_SPEEDS ("500,250"),
 * BENCH_PLAY_SECONDS (120), BENCH_PORT (3390), BENCH_PARALLEL (1 run at a
 * time, each in its own browser), BENCH_DATA_SAVER=1 (data saver on for the
 * viewers), BENCH_KEEP_STORAGE (keep the processed storage folder; set it to
 * that folder later to skip the upload and ladder: the encode figures are
 * read back from its bench-playback.json), CHROMIUM_PATH (/usr/bin/chromium),
 * BENCH_VERBOSE=1 (list every film request of each run: when, which range),
 * BENCH_SEEK_TO (seek to this second instead of minute 15), BENCH_PAUSE_SECONDS
 * (60; 0 for no pause), BENCH_VIEWPORT ("390x844", a phone; the player's
 * size caps the rung hls.js picks).
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { eq, like } from "drizzle-orm";
import { chromium, type Browser, type CDPSession, type Page } from "@playwright/test";
import { openDatabase } from "../app/db/client.server";
import { accounts, movies, playbackLeases, watchEvents } from "../app/db/schema";
import { probeMedia, runFfmpeg } from "../app/media/ffmpeg.server";
import { setSetting } from "../app/services/settings.server";
import { DATA_SAVER_READ_AHEAD_SECONDS, READ_AHEAD_SECONDS } from "../app/media/read-ahead";
import { percentile, prepareStorage, signIn, startServer, type RunningServer } from "./lib";
import { accountBytes, rungMap, type ByteAccount, type FetchedRange, type RungMap } from "./playback-bytes";

const FILM_MINUTES = Number(process.env.BENCH_FILM_MINUTES ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PLAYERS = (process.env.BENCH_PLAYERS ?? "adaptive,progressive")
  .split(",")
  .map((name) => name.trim())
  .filter(Boolean);
const SPEEDS = (process.env.BENCH_SPEEDS ?? "500,250")
  .split(",")
  .map(Number)
  .filter((kbps) => kbps > 0);
const PLAY_SECONDS = Number(process.env.BENCH_PLAY_SECONDS ?? 120);
const PORT = Number(process.env.BENCH_PORT ?? 3390);
const PARALLEL = Math.max(1, Number(process.env.BENCH_PARALLEL ?? 1));
const DATA_SAVER = process.env.BENCH_DATA_SAVER === "1";
const KEEP = process.env.BENCH_KEEP_STORAGE;
const VERBOSE = process.env.BENCH_VERBOSE === "1";
/** Seek to this second instead of minute 15 (BENCH_SEEK_TO). */
const SEEK_TO = process.env.BENCH_SEEK_TO ? Number(process.env.BENCH_SEEK_TO) : null;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const LATENCY_MS = 300;
const SETTLE_MS = 2_000;
const FIRST_FRAME_TIMEOUT_MS = 60_000;
const SEEK_TIMEOUT_MS = 60_000;
const FIGURES_FILE = "bench-playback.json";
const PAUSE_SECONDS = Number(process.env.BENCH_PAUSE_SECONDS ?? 60);
const [VIEW_WIDTH, VIEW_HEIGHT] = (process.env.BENCH_VIEWPORT ?? "390x844").split("x").map(Number);
/** The read-ahead the decision record states for these runs. */
const STATED_READ_AHEAD = DATA_SAVER ? DATA_SAVER_READ_AHEAD_SECONDS : READ_AHEAD_SECONDS;
/** Bytes against film are taken after this much play (and at the end of the window, and after the pause). */
const EARLY_CHECK_SECONDS = 30;
/** Data saver's promise: at most this many MB per hour of film. */
const DATA_SAVER_MB_PER_HOUR = 150;

type PlayerName = "adaptive" | "native" | "progressive";
for (const player of PLAYERS) {
  if (!["adaptive", "native", "progressive"].includes(player))
    throw new Error(`unknown player "${player}" in BENCH_PLAYERS (adaptive, native, progressive)`);
}

const seconds = (ms: number) => ms / 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function fmt(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}
function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}
function p50(values: number[]): number {
  return values.length === 0 ? Number.NaN : percentile(values, 50);
}
function max(values: number[]): number {
  return values.length === 0 ? Number.NaN : Math.max(...values);
}
/** Resolve with the promise, or reject after `ms` saying what took too long. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${(ms / 1000).toFixed(0)} s`)), ms);
    }),
  ]);
}

// ---------------------------------------------------------------------------
// 1. The film

async function makeFilm(minutes: number): Promise<string> {
  const file = path.join(os.tmpdir(), `kallo-bench-film-720p-${minutes}m.mp4`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial.mp4`;
  console.log(`making the ${minutes}-minute 720p film (once, kept at ${file})…`);
  const started = Date.now();
  await runFfmpeg(
    [
      "-y",
      "-hide_banner",
      "-nostdin",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=1280x720:rate=25",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=330:beep_factor=3:sample_rate=48000",
      "-filter_complex",
      "[0:v]noise=alls=12:allf=t,format=yuv420p[v]",
      "-map",
      "[v]",
      "-map",
      "1:a",
      "-t",
      String(minutes * 60),
      "-c:v",
      "libx264",
      "-preset",
      "veryfast",
      "-b:v",
      "2400k",
      "-maxrate",
      "2800k",
      "-bufsize",
      "5000k",
      "-c:a",
      "aac",
      "-b:a",
      "128k",
      "-ac",
      "2",
      "-movflags",
      "+faststart",
      "-f",
      "mp4",
      partial,
    ],
    { timeoutMs: Math.max(10 * 60_000, minutes * 60 * 5_000) },
  );
  fs.renameSync(partial, file);
  console.log(
    `  made in ${((Date.now() - started) / 1000).toFixed(0)} s, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`,
  );
  return file;
}

// ---------------------------------------------------------------------------
// 2. Upload and ladder

type RungFigures = {
  rung: number;
  width: number;
  height: number;
  sizeBytes: number;
  averageBandwidth: number;
  bandwidth: number;
  readyAfterSeconds: number;
};
type EncodeFigures = {
  movieId: string;
  filmMinutes: number;
  durationSeconds: number;
  sourceBytes: number;
  uploadSeconds: number;
  firstPlayableSeconds: number;
  allReadySeconds: number;
  encodeSeconds: number;
  rungs: RungFigures[];
  /** The machine's load average (1, 5, 15 min) when the upload was stored and when the last rung was ready. */
  loadAtUpload?: number[];
  loadAtEnd?: number[];
};

const viewerEmail = (index: number) => `watch${index}@bench.test`;
const viewerId = (index: number) => `benchwatch${String(index).padStart(5, "0")}`;

/**
 * One viewer account per run (no shared resume position, screen lease or data
 * saver choice). On a kept storage the accounts of earlier invocations are
 * reused: their viewings (where the player would resume), leases and data
 * saver choice are cleared.
 */
function ensureViewers(root: string, count: number): void {
  // BENCH_RUNS=0 measures the ladder alone.
  if (count === 0) return;
  const db = openDatabase(path.join(root, "data.db"));
  const { hash } = db.$client
    .prepare("SELECT password_hash AS hash FROM accounts WHERE id = ?")
    .get("benchviewer0001") as { hash: string };
  db.insert(accounts)
    .values(
      Array.from({ length: count }, (_, index) => ({
        id: viewerId(index),
        name: `Watcher ${index}`,
        email: viewerEmail(index),
        phoneNumber: "1",
        passwordHash: hash,
        role: "viewer" as const,
      })),
    )
    .onConflictDoNothing()
    .run();
  db.update(accounts).set({ dataSaver: null }).where(like(accounts.id, "benchwatch%")).run();
  db.delete(watchEvents).where(like(watchEvents.accountId, "benchwatch%")).run();
  db.delete(playbackLeases).where(like(playbackLeases.accountId, "benchwatch%")).run();
  db.$client.close();
}

/** Stream the film to /provider/uploads as the studio's form does; resolves with the new title's id. */
function uploadFilm(url: string, cookie: string, film: string): Promise<string> {
  const boundary = `----kallo-bench-${Date.now()}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    [
      field("name", "Bench playback film"),
      field("Description", "A test pattern with noise, for the playback benchmark."),
      field("Category", "benchcategory01"),
      field("cast", "Test Pattern"),
      `--${boundary}\r\nContent-Disposition: form-data; name="movie"; filename="film.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    ].join(""),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(film).size;
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/provider/uploads`,
      {
        method: "POST",
        headers: {
          Cookie: cookie,
          Accept: "application/json",
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": head.length + size + tail.length,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (response.statusCode !== 201)
            return reject(new Error(`upload answered ${response.statusCode}: ${text.slice(0, 300)}`));
          resolve((JSON.parse(text) as { movieId: string }).movieId);
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.write(head);
    const stream = fs.createReadStream(film);
    stream.on("error", reject);
    stream.on("end", () => request.end(tail));
    stream.pipe(request, { end: false });
  });
}

type RenditionRow = {
  rung: number;
  width: number;
  height: number;
  status: string;
  size_bytes: number;
  bandwidth: number;
  average_bandwidth: number;
  ready_at: number | null;
};
type JobRow = {
  kind: string;
  status: string;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
};

async function uploadAndProcess(
  server: RunningServer,
  root: string,
  film: string,
  durationSeconds: number,
): Promise<EncodeFigures> {
  const cookie = await signIn(server.url, "/cp", "provider@bench.test");
  const sourceBytes = fs.statSync(film).size;
  const uploadStarted = Date.now();
  const movieId = await uploadFilm(server.url, cookie, film);
  const stored = Date.now();
  const loadAtUpload = os.loadavg();
  console.log(
    `uploaded ${(sourceBytes / 1e6).toFixed(1)} MB in ${((stored - uploadStarted) / 1000).toFixed(1)} s (title ${movieId}); waiting for the ladder…`,
  );

  const db = new Database(path.join(root, "data.db"), { readonly: true, fileMustExist: true });
  const timeoutMs = 10 * 60_000 + durationSeconds * 6_000;
  let firstPlayable: number | null = null;
  let rows: RenditionRow[] = [];
  let jobRows: JobRow[] = [];
  try {
    for (;;) {
      const now = Date.now();
      if (now - stored > timeoutMs)
        throw new Error(`the ladder was not ready after ${(timeoutMs / 1000).toFixed(0)} s`);
      const movie = db.prepare("SELECT status, failure_reason AS reason FROM movies WHERE id = ?").get(movieId) as
        { status: string; reason: string | null } | undefined;
      if (!movie) throw new Error("the uploaded title disappeared");
      if (movie.status === "failed") throw new Error(`processing failed: ${movie.reason}`);
      if (movie.status === "ready" && firstPlayable === null) {
        firstPlayable = now;
        console.log(`  first playable after ${((now - stored) / 1000).toFixed(1)} s`);
      }
      rows = db
        .prepare(
          "SELECT rung, width, height, status, size_bytes, bandwidth, average_bandwidth, ready_at FROM movie_renditions WHERE movie_id = ? ORDER BY rung",
        )
        .all(movieId) as RenditionRow[];
      jobRows = db
        .prepare("SELECT kind, status, started_at, finished_at, error FROM jobs WHERE movie_id = ? ORDER BY created_at")
        .all(movieId) as JobRow[];
      const failedRungs = rows.filter((row) => row.status === "failed");
      if (failedRungs.length > 0)
        throw new Error(
          `rungs failed: ${failedRungs.map((row) => `${row.rung}p`).join(", ")} (${jobRows
            .map((job) => job.error)
            .filter(Boolean)
            .join("; ")})`,
        );
      if (firstPlayable !== null && rows.length > 0 && rows.every((row) => row.status === "ready")) break;
      await sleep(250);
    }
  } finally {
    db.close();
  }

  const readyTimes = rows.map((row) => row.ready_at ?? 0);
  const allReady = Math.max(...readyTimes);
  const firstPassReady = Math.min(...readyTimes);
  const processJob = jobRows.find((job) => job.kind === "process-movie");
  const ladderJob = jobRows.find((job) => job.kind === "make-ladder");
  // Encoding time of both passes without the queue's waits: the processing job up to its rungs, then the ladder job.
  const firstPass = firstPassReady - (processJob?.started_at ?? stored);
  const secondPass = ladderJob?.started_at && allReady > firstPassReady ? allReady - ladderJob.started_at : 0;
  return {
    movieId,
    filmMinutes: FILM_MINUTES,
    durationSeconds,
    sourceBytes,
    uploadSeconds: (stored - uploadStarted) / 1000,
    firstPlayableSeconds: ((firstPlayable ?? allReady) - stored) / 1000,
    allReadySeconds: (allReady - stored) / 1000,
    encodeSeconds: (firstPass + secondPass) / 1000,
    loadAtUpload,
    loadAtEnd: os.loadavg(),
    rungs: rows.map((row) => ({
      rung: row.rung,
      width: row.width,
      height: row.height,
      sizeBytes: row.size_bytes,
      averageBandwidth: row.average_bandwidth,
      bandwidth: row.bandwidth,
      readyAfterSeconds: ((row.ready_at ?? allReady) - stored) / 1000,
    })),
  };
}

function printEncodeFigures(figures: EncodeFigures, reused: boolean): void {
  const total = figures.rungs.reduce((sum, rung) => sum + rung.sizeBytes, 0);
  const minutes = figures.durationSeconds / 60;
  const speed = figures.durationSeconds / figures.encodeSeconds;
  const firstShare = figures.firstPlayableSeconds / figures.durationSeconds;
  console.log(
    `\nLadder of a ${minutes.toFixed(1)}-minute 1280x720 H.264 upload (${(figures.sourceBytes / 1e6).toFixed(1)} MB) on ${os.cpus().length} cores${reused ? " (figures saved by the run that made this storage)" : ""}`,
  );
  console.log(
    `  upload ${figures.uploadSeconds.toFixed(1)} s; from the stored upload: first playable ${figures.firstPlayableSeconds.toFixed(1)} s (${(firstShare * 100).toFixed(1)} % of the film's length, 1/${(1 / firstShare).toFixed(1)}; goal ≤ 1/8 ${firstShare <= 1 / 8 ? "✓" : "✗"}), all rungs ${figures.allReadySeconds.toFixed(1)} s`,
  );
  console.log(
    `  ladder encode ${figures.encodeSeconds.toFixed(1)} s for ${figures.durationSeconds.toFixed(0)} s of film: ${speed.toFixed(2)}× realtime (goal ≥ 1.5× ${speed >= 1.5 ? "✓" : "✗"}); wall from upload ${(figures.durationSeconds / figures.allReadySeconds).toFixed(2)}×`,
  );
  if (figures.loadAtUpload && figures.loadAtEnd)
    console.log(
      `  load average (1, 5, 15 min) at the upload ${figures.loadAtUpload.map((value) => value.toFixed(2)).join(", ")}; when the last rung was ready ${figures.loadAtEnd.map((value) => value.toFixed(2)).join(", ")}`,
    );
  console.log(
    `  renditions on disk ${(total / 1e6).toFixed(1)} MB = ${(total / figures.sourceBytes).toFixed(2)} × the uploaded file`,
  );
  for (const rung of figures.rungs) {
    console.log(
      `    ${`${rung.rung}p`.padStart(6)} ${`${rung.width}x${rung.height}`.padEnd(10)} ${(rung.sizeBytes / 1e6).toFixed(1).padStart(7)} MB  ${(rung.sizeBytes / 1e6 / minutes).toFixed(2).padStart(6)} MB/min  avg ${(rung.averageBandwidth / 1000).toFixed(0).padStart(5)} kbps  peak ${(rung.bandwidth / 1000).toFixed(0).padStart(5)} kbps  ready after ${rung.readyAfterSeconds.toFixed(1)} s`,
    );
  }
}

/** Published, free, for every viewer (auto-approval should already have done it). */
function ensureWatchable(root: string, movieId: string): void {
  const db = openDatabase(path.join(root, "data.db"));
  const movie = db
    .select({ approved: movies.approved, access: movies.access, status: movies.status })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get();
  if (!movie) throw new Error(`title ${movieId} is not in the database`);
  if (movie.status !== "ready") throw new Error(`title ${movieId} is ${movie.status}`);
  if (!movie.approved || movie.access !== "free") {
    console.log(`  (approving ${movieId} and making it free: approved=${movie.approved}, access=${movie.access})`);
    db.update(movies).set({ approved: true, access: "free" }).where(eq(movies.id, movieId)).run();
  }
  db.$client.close();
}

// ---------------------------------------------------------------------------
// 3. Playback runs

type MediaRequest = {
  url: string;
  rung: number | null;
  status: number;
  /** The body length the headers announce; null when they do not (or the body is compressed: Content-Length is then the compressed size). */
  expectedBytes: number | null;
  compressed: boolean;
  bodyBytes: number;
  encodedBytes: number;
  finalEncoded: number | null;
  fromCache: boolean;
  state: "loading" | "finished" | "failed" | "cancelled";
  /** The Range asked for, and when (Date.now()) the request started and ended: for BENCH_VERBOSE. */
  range: string;
  sentAt: number;
  endedAt: number | null;
};

/** The film's requests of one page, from CDP Network events. */
class MediaTraffic {
  readonly requests = new Map<string, MediaRequest>();

  constructor(cdp: CDPSession) {
    cdp.on("Network.requestWillBeSent", (event) => {
      const rung = filmRung(event.request.url);
      if (rung === undefined) return;
      this.requests.set(event.requestId, {
        url: event.request.url,
        rung,
        status: 0,
        expectedBytes: null,
        compressed: false,
        bodyBytes: 0,
        encodedBytes: 0,
        finalEncoded: null,
        fromCache: false,
        state: "loading",
        range: headerValue(event.request.headers, "range") ?? "",
        sentAt: Date.now(),
        endedAt: null,
      });
    });
    cdp.on("Network.requestServedFromCache", (event) => {
      const request = this.requests.get(event.requestId);
      if (request) request.fromCache = true;
    });
    cdp.on("Network.responseReceived", (event) => {
      const request = this.requests.get(event.requestId);
      if (!request) return;
      request.status = event.response.status;
      if (event.response.fromDiskCache || event.response.fromPrefetchCache) request.fromCache = true;
      const encoding = headerValue(event.response.headers, "content-encoding")?.trim().toLowerCase();
      request.compressed = Boolean(encoding && encoding !== "identity");
      request.expectedBytes = request.compressed ? null : expectedBodyBytes(event.response.headers);
    });
    cdp.on("Network.dataReceived", (event) => {
      const request = this.requests.get(event.requestId);
      if (!request) return;
      request.bodyBytes += event.dataLength;
      request.encodedBytes += event.encodedDataLength;
    });
    cdp.on("Network.loadingFinished", (event) => {
      const request = this.requests.get(event.requestId);
      if (!request) return;
      request.state = "finished";
      request.finalEncoded = event.encodedDataLength;
      request.endedAt = Date.now();
    });
    cdp.on("Network.loadingFailed", (event) => {
      const request = this.requests.get(event.requestId);
      if (!request) return;
      request.state = event.canceled ? "cancelled" : "failed";
      request.endedAt = Date.now();
    });
  }

  /** Bytes that came over the network so far (headers included; nothing for answers from the cache). */
  bytes(): number {
    let total = 0;
    for (const request of this.requests.values()) {
      if (request.finalEncoded !== null) total += request.finalEncoded;
      else if (!request.fromCache) total += Math.max(request.encodedBytes, request.bodyBytes);
      else total += request.encodedBytes;
    }
    return total;
  }

  /** Finished answers whose body length the headers announce. */
  checkable(): MediaRequest[] {
    return [...this.requests.values()].filter(
      (request) => request.state === "finished" && request.expectedBytes !== null,
    );
  }

  /** Finished answers whose body is not as long as their Content-Length / Content-Range said. */
  mismatches(): Array<MediaRequest & { path: string }> {
    return [...this.requests.values()]
      .filter(
        (request) =>
          request.state === "finished" && request.expectedBytes !== null && request.bodyBytes !== request.expectedBytes,
      )
      .map((request) => ({ ...request, path: new URL(request.url).pathname }));
  }

  /** What came of each rung file: from the asked range's start, as many bytes as arrived. */
  fetchedRanges(): FetchedRange[] {
    return [...this.requests.values()]
      .filter((request) => request.rung !== null && request.bodyBytes > 0)
      .map((request) => ({
        rung: request.rung!,
        offset: Number(/^bytes=(\d+)-/.exec(request.range)?.[1] ?? 0),
        bytes: request.bodyBytes,
        sentAt: request.sentAt,
      }));
  }

  rungsFetched(): number[] {
    return [
      ...new Set(
        [...this.requests.values()]
          .filter((request) => request.rung !== null && request.bodyBytes > 0)
          .map((request) => request.rung!),
      ),
    ].sort((a, b) => a - b);
  }
}

/** undefined: not a film request; null: a film request that is no rung file (playlists, the progressive MP4). */
function filmRung(url: string): number | null | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const stream = /^\/stream\/[^/]+\/(?:master\.m3u8|(\d+)p\.(m3u8|mp4))$/.exec(pathname);
  if (stream) return stream[2] === "mp4" ? Number(stream[1]) : null;
  if (/^\/api\/files\/[^/]+\.mp4$/.test(pathname)) return null;
  return undefined;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function expectedBodyBytes(headers: Record<string, string>): number | null {
  const range = /bytes (\d+)-(\d+)\//.exec(headerValue(headers, "content-range") ?? "");
  if (range) return Number(range[2]) - Number(range[1]) + 1;
  const length = headerValue(headers, "content-length");
  return length !== undefined && /^\d+$/.test(length.trim()) ? Number(length) : null;
}

/** Bytes against film at one moment of a run. */
type Checkpoint = {
  label: string;
  /** Seconds of film played so far. */
  playedSeconds: number;
  position: number;
  /** What the media element holds ahead of the position, in seconds. */
  bufferedAhead: number;
  /** Film bytes over the network since the page opened (headers and playlists included). */
  fetched: number;
  /** Bytes of film played (segments before the position; the progressive file pro rata). */
  played: number;
  /** The stated read-ahead in bytes (none for the progressive MP4, which states none). */
  allowance: number | null;
  account: ByteAccount | null;
  /** What the player itself says it fetched (`data-spent-bytes`), when it counts. */
  spentByPlayer: number | null;
};

type RunSpec = { player: PlayerName; kbps: number; run: number; account: number };
type RunResult = RunSpec & {
  ok: boolean;
  error?: string;
  mode?: string;
  firstFrameSeconds?: number;
  firstFrameHow?: string;
  stalls?: number;
  waits?: number;
  stallSeconds?: number;
  playedSeconds?: number;
  seekSeconds?: number | null;
  seekNote?: string;
  bytesBeforePlay?: number;
  bytesPerMinute?: number;
  rungsPlayed?: number[];
  rungsFetched?: number[];
  responses?: number;
  cacheAnswers?: number;
  mismatches?: number;
  mismatchDetail?: string[];
  checkpoints?: Checkpoint[];
  /** Everything the page fetched before play was pressed (finished answers, headers included). */
  pageBytesBeforePlay?: number;
  /** The cost the page showed before play, as MB per hour of film (a range, or one figure twice). */
  costShown?: { lowPerHour: number; highPerHour: number; text: string } | null;
  notes?: string[];
};

/** What the page keeps about the video from play() on (in the page: plain data, read back at the end). */
type PageState = {
  t0: number;
  startTime: number;
  frameAt: number | null;
  timeupdateAt: number | null;
  playingAt: number | null;
  /** `waiting` events after the first frame. */
  waits: number;
  /** Of those, the ones that kept the picture still for 100 ms or more. */
  stalls: number;
  stallMs: number;
  stallStart: number | null;
  lastTime: number;
  /** Seconds of film played: the sum of currentTime's forward steps between timeupdates (a jump is no playing). */
  played: number;
  playError: string | null;
  errors: string[];
  ended: boolean;
};
declare global {
  interface Window {
    __bench?: PageState;
  }
}

/** No MSE, as on an iPhone: the player takes the browser's native HLS. */
const HIDE_MSE = `(() => {
  for (const name of ["MediaSource", "ManagedMediaSource", "WebKitMediaSource"]) {
    Object.defineProperty(window, name, { value: undefined, configurable: true, writable: true });
  }
})();`;

const PLAYER_SELECTOR = "video[data-testid=player]";
const PROGRESSIVE_SELECTOR = "video[data-bench=progressive]";

/** Data saver on for this viewer: through the switch's route (POST /data-saver), else straight in the account's column. */
async function turnOnDataSaver(url: string, root: string, cookie: string, spec: RunSpec): Promise<string> {
  const response = await fetch(`${url}/data-saver`, {
    method: "POST",
    body: new URLSearchParams({ dataSaver: "on", redirectTo: "/" }),
    redirect: "manual",
    headers: {
      Cookie: cookie,
      "X-Forwarded-For": `10.78.${Math.floor(spec.account / 250)}.${(spec.account % 250) + 2}`,
    },
  });
  const db = openDatabase(path.join(root, "data.db"));
  try {
    const account = db
      .select({ dataSaver: accounts.dataSaver })
      .from(accounts)
      .where(eq(accounts.id, viewerId(spec.account)))
      .get();
    if (account?.dataSaver === true) return "the route";
    db.update(accounts)
      .set({ dataSaver: true })
      .where(eq(accounts.id, viewerId(spec.account)))
      .run();
    return `the account's column (POST /data-saver answered ${response.status} and changed nothing)`;
  } finally {
    db.$client.close();
  }
}

async function playbackRun(
  spec: RunSpec,
  server: RunningServer,
  root: string,
  movieId: string,
  filmSeconds: number,
  maps: ReadonlyMap<number, RungMap>,
  sourceBytes: number,
): Promise<RunResult> {
  const notes: string[] = [];
  let browser: Browser | undefined;
  try {
    const cookie = await signIn(server.url, "/login", viewerEmail(spec.account));
    if (DATA_SAVER) notes.push(`data saver via ${await turnOnDataSaver(server.url, root, cookie, spec)}`);
    browser = await chromium.launch({
      executablePath: CHROMIUM || undefined,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--autoplay-policy=no-user-gesture-required",
      ],
    });
    const context = await browser.newContext({
      serviceWorkers: "block",
      viewport: { width: VIEW_WIDTH, height: VIEW_HEIGHT },
    });
    const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
    await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: "Lax", secure: false }]);
    // tsx compiles this file with esbuild's keepNames: functions passed to page.evaluate call its __name helper.
    await context.addInitScript({ content: "globalThis.__name = (target) => target;" });
    if (spec.player === "native") await context.addInitScript({ content: HIDE_MSE });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
    const bytesPerSecond = (spec.kbps * 1000) / 8;
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: LATENCY_MS,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
    const traffic = new MediaTraffic(cdp);
    // Everything the page fetched (document, scripts, styles, images, film), for "the page before play".
    let pageBytes = 0;
    cdp.on("Network.loadingFinished", (event) => {
      pageBytes += event.encodedDataLength;
    });

    const opened = Date.now();
    let seekStartedAt: number | null = null;
    const response = await page.goto(`${server.url}/WatchMovie?id=${movieId}`, { waitUntil: "load", timeout: 180_000 });
    if (!response || response.status() !== 200) throw new Error(`the watch page answered ${response?.status()}`);
    const loadSeconds = (Date.now() - opened) / 1000;

    let selector = PLAYER_SELECTOR;
    if (spec.player === "progressive") {
      await waitForHydration(page);
      const swapped = await page.evaluate((id) => {
        const old =
          document.querySelector<HTMLVideoElement>("video[data-testid=player]") ??
          document.querySelector<HTMLVideoElement>("video");
        if (!old) return "no video element on the watch page";
        // Nothing more from the page's own player: no source, nothing loading.
        old.pause();
        old.removeAttribute("src");
        for (const source of Array.from(old.querySelectorAll("source"))) source.remove();
        old.load();
        const video = document.createElement("video");
        video.preload = "metadata";
        video.controls = true;
        const poster = old.getAttribute("poster");
        if (poster) video.setAttribute("poster", poster);
        video.className = old.className;
        video.dataset.bench = "progressive";
        video.src = `/api/files/${id}.mp4`;
        old.replaceWith(video);
        return null;
      }, movieId);
      if (swapped) throw new Error(swapped);
      selector = PROGRESSIVE_SELECTOR;
    } else {
      const found = await page
        .waitForSelector(PLAYER_SELECTOR, { state: "attached", timeout: 30_000 })
        .catch(() => null);
      if (!found) throw new Error("no video[data-testid=player] on the watch page (is the adaptive player there yet?)");
      // The server renders data-player-mode="none"; the player's script sets the mode it attached.
      const attached = await page
        .waitForSelector(`${PLAYER_SELECTOR}[data-player-mode]:not([data-player-mode=none])`, {
          state: "attached",
          timeout: 60_000,
        })
        .catch(() => null);
      if (!attached) notes.push("no data-player-mode after 60 s");
      // A player that attaches hls.js when the viewer reaches for it (data-player-loads="on-intent") is
      // pressed after the settle like the others: the library's download (at idle, or at play with data
      // saver) is part of its first frame as far as it has not finished by then. One that fetches it with the
      // page is pressed once it has attached (a play() before its src is hls.js's blob: was lost).
      const loadsOnIntent =
        (await page.getAttribute(PLAYER_SELECTOR, "data-player-loads").catch(() => null)) === "on-intent";
      const fetchedWhenIdle =
        (await page.getAttribute(PLAYER_SELECTOR, "data-player-fetch").catch(() => null)) === "when-idle";
      if (loadsOnIntent)
        notes.push(
          fetchedWhenIdle ? "hls.js fetched once the page was idle, attached on play" : "hls.js fetched on play",
        );
      else if ((await page.getAttribute(PLAYER_SELECTOR, "data-player-mode").catch(() => null)) === "mse") {
        const hlsAttached = await page
          .waitForFunction(
            (sel) => document.querySelector<HTMLVideoElement>(sel)?.src.startsWith("blob:") ?? false,
            PLAYER_SELECTOR,
            { timeout: 60_000, polling: 100 },
          )
          .catch(() => null);
        notes.push(
          hlsAttached
            ? `hls.js attached ${((Date.now() - opened) / 1000 - loadSeconds).toFixed(1)} s after load`
            : "hls.js not attached 60 s after load",
        );
      }
    }
    await sleep(SETTLE_MS);
    if (!(await page.$(selector)))
      throw new Error(`${selector} is gone after the settle (the page re-rendered its player?)`);
    const streamBytesBefore =
      spec.player === "progressive"
        ? [...traffic.requests.values()].filter((request) => request.url.includes("/stream/")).length
        : 0;
    if (streamBytesBefore > 0)
      notes.push(`${streamBytesBefore} /stream requests by the page's own player before the swap`);
    const mode =
      spec.player === "progressive"
        ? "progressive"
        : await page.getAttribute(selector, "data-player-mode").catch(() => null);
    if (spec.player === "native" && mode !== "native") notes.push(`player mode ${mode}, not native`);
    if (spec.player === "adaptive" && mode !== "mse") notes.push(`player mode ${mode}`);

    // The cost shown before play.
    const shown = await page.evaluate(() => {
      const cost = document.querySelector("[data-testid=data-cost]");
      if (!cost) return null;
      const number = (name: string) => {
        const value = cost.getAttribute(name);
        return value === null || value === "" ? null : Number(value);
      };
      return {
        text: (cost.textContent ?? "").trim(),
        low: number("data-megabytes-per-hour-low"),
        high: number("data-megabytes-per-hour-high"),
        film: number("data-megabytes"),
      };
    });
    const filmHours = filmSeconds / 3600;
    const costShown = shown
      ? {
          text: shown.text,
          lowPerHour: shown.low ?? (shown.film ?? Number.NaN) / filmHours,
          highPerHour: shown.high ?? (shown.film ?? Number.NaN) / filmHours,
        }
      : null;

    /** Bytes against film now; `readAhead` is the stated read-ahead that applies. */
    const checkpoint = async (label: string, readAhead: number): Promise<Checkpoint> => {
      const view = await withTimeout(
        page.evaluate((sel) => {
          const video = document.querySelector<HTMLVideoElement>(sel);
          if (!video) return null;
          let ahead = 0;
          for (let index = 0; index < video.buffered.length; index++) {
            if (video.buffered.start(index) <= video.currentTime + 0.1 && video.buffered.end(index) > video.currentTime)
              ahead = video.buffered.end(index) - video.currentTime;
          }
          const spent = document.querySelector("[data-spent-bytes]")?.getAttribute("data-spent-bytes");
          return {
            position: video.currentTime,
            ahead,
            played: window.__bench?.played ?? 0,
            spent: spent ? Number(spent) : null,
          };
        }, selector),
        10_000,
        "reading the position",
      );
      if (!view) throw new Error("the video element went away");
      const fetched = traffic.bytes();
      const account =
        spec.player === "progressive" ? null : accountBytes(maps, traffic.fetchedRanges(), view.position, readAhead);
      return {
        label,
        playedSeconds: view.played,
        position: view.position,
        bufferedAhead: view.ahead,
        fetched,
        played: account ? account.played : (sourceBytes * view.position) / filmSeconds,
        allowance: account ? account.allowance : null,
        account,
        spentByPlayer: view.spent,
      };
    };
    const checkpoints: Checkpoint[] = [];

    // Press play.
    const bytesBeforePlay = traffic.bytes();
    const pageBytesBeforePlay = pageBytes;
    const playStarted = Date.now();
    const installed = await page.evaluate((sel) => {
      const video = document.querySelector<HTMLVideoElement>(sel);
      if (!video) return `no ${sel}`;
      const now = () => performance.now();
      const state: PageState = {
        t0: 0,
        startTime: video.currentTime,
        frameAt: null,
        timeupdateAt: null,
        playingAt: null,
        waits: 0,
        stalls: 0,
        stallMs: 0,
        stallStart: null,
        lastTime: video.currentTime,
        played: 0,
        playError: null,
        errors: [],
        ended: false,
      };
      window.__bench = state;
      const firstSeen = () => state.frameAt ?? state.timeupdateAt ?? state.playingAt;
      const endStall = () => {
        if (state.stallStart !== null) {
          const stalled = now() - state.stallStart;
          state.stallMs += stalled;
          if (stalled >= 100) state.stalls++;
          state.stallStart = null;
        }
      };
      if (typeof video.requestVideoFrameCallback === "function") {
        video.requestVideoFrameCallback(() => {
          state.frameAt ??= now() - state.t0;
        });
      }
      video.addEventListener("timeupdate", () => {
        const step = video.currentTime - state.lastTime;
        if (!video.paused && !video.seeking && step > 0) {
          state.timeupdateAt ??= now() - state.t0;
          endStall();
          if (step < 2) state.played += step;
        }
        state.lastTime = video.currentTime;
      });
      video.addEventListener("playing", () => {
        if (video.readyState >= 3) state.playingAt ??= now() - state.t0;
        endStall();
      });
      video.addEventListener("waiting", () => {
        if (firstSeen() === null || video.seeking || state.stallStart !== null) return;
        state.waits++;
        state.stallStart = now();
      });
      video.addEventListener("error", () =>
        state.errors.push(`media error ${video.error?.code}: ${video.error?.message ?? ""}`),
      );
      video.addEventListener("ended", () => (state.ended = true));
      state.t0 = now();
      video.play().catch((error: unknown) => {
        state.playError = String(error);
      });
      return null;
    }, selector);
    if (installed) throw new Error(installed);

    // The play window: sample the position and the rung once a second.
    const rungSamples = new Set<number>();
    let lastTime = -1;
    while (Date.now() - playStarted < PLAY_SECONDS * 1000) {
      await sleep(Math.min(1000, PLAY_SECONDS * 1000 - (Date.now() - playStarted)));
      const sample = await withTimeout(
        page.evaluate((sel) => {
          const video = document.querySelector<HTMLVideoElement>(sel);
          return video ? { time: video.currentTime, rung: video.dataset.rung ?? null, ended: video.ended } : null;
        }, selector),
        10_000,
        "sampling the video",
      );
      if (!sample) throw new Error("the video element went away during play");
      if (sample.time > lastTime && lastTime >= 0 && sample.rung && Number(sample.rung) > 0)
        rungSamples.add(Number(sample.rung));
      lastTime = sample.time;
      if (sample.ended) break;
      if (checkpoints.length === 0 && Date.now() - playStarted >= EARLY_CHECK_SECONDS * 1000)
        checkpoints.push(await checkpoint(`${EARLY_CHECK_SECONDS} s`, STATED_READ_AHEAD));
    }
    const windowSeconds = (Date.now() - playStarted) / 1000;
    checkpoints.push(await checkpoint(`${PLAY_SECONDS} s`, STATED_READ_AHEAD));
    const bytesDuringPlay = traffic.bytes() - bytesBeforePlay;
    const state = await page.evaluate(() => {
      const state = window.__bench!;
      const video =
        document.querySelector<HTMLVideoElement>("video[data-bench=progressive]") ??
        document.querySelector<HTMLVideoElement>("video[data-testid=player]");
      const open = state.stallStart !== null ? performance.now() - state.stallStart : 0;
      return {
        ...state,
        stallMs: state.stallMs + open,
        stalls: state.stalls + (open >= 100 ? 1 : 0),
        currentTime: video?.currentTime ?? 0,
        duration: video?.duration ?? 0,
        rung: video?.dataset.rung ?? null,
      };
    });
    const firstFrameMs = state.frameAt ?? state.timeupdateAt ?? state.playingAt;
    const firstFrameHow = state.frameAt !== null ? "frame" : state.timeupdateAt !== null ? "timeupdate" : "playing";
    if (state.playError) notes.push(`play(): ${state.playError}`);
    if (state.errors.length > 0) notes.push(state.errors.join("; "));
    const playedSeconds = state.played;
    const result: RunResult = {
      ...spec,
      ok: firstFrameMs !== null && firstFrameMs <= FIRST_FRAME_TIMEOUT_MS,
      mode: mode ?? undefined,
      firstFrameSeconds: firstFrameMs !== null ? seconds(firstFrameMs) : undefined,
      firstFrameHow,
      stalls: state.stalls,
      waits: state.waits,
      stallSeconds: seconds(state.stallMs),
      // Scaled to the issue's 120 s when the window was cut short by the film's end.
      playedSeconds: (playedSeconds * PLAY_SECONDS) / Math.max(windowSeconds, 1e-3),
      bytesBeforePlay,
      bytesPerMinute: playedSeconds > 0 ? bytesDuringPlay / (playedSeconds / 60) : Number.NaN,
      rungsPlayed: [...rungSamples].sort((a, b) => a - b),
      notes,
    };
    if (!result.ok)
      result.error =
        firstFrameMs === null
          ? `no first frame in ${windowSeconds.toFixed(0)} s of play`
          : `first frame after ${fmt(seconds(firstFrameMs))} s`;
    notes.push(`page load ${loadSeconds.toFixed(1)} s`);
    if (Math.abs(state.currentTime - state.startTime - playedSeconds) > 2)
      notes.push(`position ${state.startTime.toFixed(1)} → ${state.currentTime.toFixed(1)} s`);

    // The pause: what the player fetches while nobody watches (what it holds stays within the playing read-ahead).
    if (PAUSE_SECONDS > 0 && firstFrameMs !== null) {
      await page.evaluate((sel) => document.querySelector<HTMLVideoElement>(sel)?.pause(), selector);
      await sleep(PAUSE_SECONDS * 1000);
      checkpoints.push(await checkpoint(`paused ${PAUSE_SECONDS} s`, STATED_READ_AHEAD));
    }
    result.checkpoints = checkpoints;
    result.costShown = costShown;
    result.pageBytesBeforePlay = pageBytesBeforePlay;

    // The seek: minute 15, or three quarters of a shorter film.
    if (firstFrameMs !== null) {
      const target = SEEK_TO ?? (filmSeconds > 15 * 60 + 30 ? 15 * 60 : Math.floor(filmSeconds * 0.75));
      seekStartedAt = Date.now();
      const seek = await withTimeout(
        page.evaluate(
          ([sel, to, timeoutMs]) =>
            new Promise<{ ok: boolean; seekedMs: number | null; playingMs: number | null; landed: number }>(
              (resolve) => {
                const video = document.querySelector<HTMLVideoElement>(sel as string)!;
                const t0 = performance.now();
                let seekedMs: number | null = null;
                let base = 0;
                // With requestVideoFrameCallback: also a frame of the new position on screen after seeked.
                const frames = typeof video.requestVideoFrameCallback === "function";
                let framed = !frames;
                const onFrame = (_now: number, metadata: VideoFrameCallbackMetadata) => {
                  if (seekedMs !== null && metadata.mediaTime >= base - 0.5) framed = true;
                  else video.requestVideoFrameCallback(onFrame);
                };
                if (frames) video.requestVideoFrameCallback(onFrame);
                const finish = (ok: boolean) => {
                  clearInterval(poll);
                  clearTimeout(timer);
                  video.removeEventListener("timeupdate", check);
                  resolve({ ok, seekedMs, playingMs: ok ? performance.now() - t0 : null, landed: video.currentTime });
                };
                const check = () => {
                  if (seekedMs !== null && framed && !video.paused && !video.seeking && video.currentTime > base + 0.04)
                    finish(true);
                };
                video.addEventListener(
                  "seeked",
                  () => {
                    seekedMs = performance.now() - t0;
                    base = video.currentTime;
                  },
                  { once: true },
                );
                video.addEventListener("timeupdate", check);
                const poll = setInterval(check, 50);
                const timer = setTimeout(() => finish(false), timeoutMs as number);
                video.currentTime = to as number;
                if (video.paused) void video.play().catch(() => undefined);
              },
            ),
          [selector, target, SEEK_TIMEOUT_MS] as const,
        ),
        SEEK_TIMEOUT_MS + 15_000,
        "the seek",
      );
      result.seekSeconds = seek.ok && seek.playingMs !== null ? seconds(seek.playingMs) : null;
      if (!seek.ok)
        result.seekNote = `no playing after the seek in ${SEEK_TIMEOUT_MS / 1000} s (seeked ${seek.seekedMs === null ? "never" : `after ${fmt(seconds(seek.seekedMs))} s`})`;
      else if (Math.abs(seek.landed - target) > 10)
        result.seekNote = `landed at ${seek.landed.toFixed(1)} s, not ${target} s`;
    }

    const all = [...traffic.requests.values()];
    const mismatches = traffic.mismatches();
    result.rungsFetched = traffic.rungsFetched();
    result.responses = traffic.checkable().length;
    result.cacheAnswers = all.filter((request) => request.fromCache).length;
    result.mismatches = mismatches.length;
    result.mismatchDetail = mismatches.map(
      (request) =>
        `${request.path} ${request.status}${request.fromCache ? " (cache)" : ""}: ${request.bodyBytes} of ${request.expectedBytes} bytes`,
    );
    if (VERBOSE) {
      for (const request of all) {
        const url = new URL(request.url);
        const at = (time: number | null) => (time === null ? "…" : ((time - opened) / 1000).toFixed(2));
        const sinceSeek =
          seekStartedAt === null || request.sentAt < seekStartedAt
            ? ""
            : ` (seek +${((request.sentAt - seekStartedAt) / 1000).toFixed(2)} s)`;
        result.notes?.push(
          `\n      ${at(request.sentAt)}–${at(request.endedAt)} s${sinceSeek} ${request.state} ${request.status} ${url.pathname}${url.search} ${request.range} ${request.bodyBytes}/${request.expectedBytes ?? "?"} bytes${request.compressed ? " compressed" : ""}${request.fromCache ? " cache" : ""}`,
        );
      }
    }
    await cdp.detach().catch(() => undefined);
    return result;
  } catch (error) {
    return { ...spec, ok: false, error: error instanceof Error ? error.message.split("\n")[0] : String(error), notes };
  } finally {
    await browser?.close().catch(() => undefined);
  }
}

/** React has taken the page's video element (or the player says it is attached). */
async function waitForHydration(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => {
        const video = document.querySelector("video[data-testid=player]") ?? document.querySelector("video");
        if (!video) return false;
        const mode = video.getAttribute("data-player-mode");
        return mode ? mode !== "none" : Object.keys(video).some((key) => key.startsWith("__reactFiber"));
      },
      undefined,
      { timeout: 60_000, polling: 100 },
    )
    .catch(() => undefined);
}

function describeRun(result: RunResult): string {
  const label = `[${result.player} ${result.kbps} kbps #${result.run + 1}]`;
  if (!result.ok && result.firstFrameSeconds === undefined)
    return `${label} FAILED: ${result.error}${result.notes?.length ? ` (${result.notes.join("; ")})` : ""}`;
  const rungs = result.rungsPlayed?.length
    ? result.rungsPlayed.map((rung) => `${rung}p`).join("→")
    : result.rungsFetched?.length
      ? `fetched ${result.rungsFetched.map((rung) => `${rung}p`).join(",")}`
      : "–";
  return (
    `${label}${result.ok ? "" : ` FAILED (${result.error})`} first frame ${fmt(result.firstFrameSeconds, 2)} s (${result.firstFrameHow}), ${result.stalls} stalls (${fmt(result.stallSeconds)} s, ${result.waits} waiting), ` +
    `played ${fmt(result.playedSeconds, 0)} s per ${PLAY_SECONDS} s, seek ${fmt(result.seekSeconds, 2)} s${result.seekNote ? ` (${result.seekNote})` : ""}, ` +
    `${fmt((result.bytesBeforePlay ?? 0) / 1024, 0)} KB before play, ${fmt((result.bytesPerMinute ?? Number.NaN) / 1e6, 2)} MB/min played, rungs ${rungs}, mode ${result.mode ?? "–"}, ` +
    `${result.mismatches}/${result.responses} checked sizes wrong, ${result.cacheAnswers} from cache${result.notes?.length ? `; ${result.notes.join("; ")}` : ""}` +
    (result.mismatchDetail?.length ? `\n    mismatches: ${result.mismatchDetail.slice(0, 5).join(" | ")}` : "") +
    (result.checkpoints ?? []).map((point) => `\n    ${describeCheckpoint(point)}`).join("") +
    (result.costShown
      ? `\n    cost shown before play: "${result.costShown.text}" = ${fmt(result.costShown.lowPerHour, 0)}–${fmt(result.costShown.highPerHour, 0)} MB/h`
      : "")
  );
}

const mb = (bytes: number | null | undefined) => fmt(bytes === null || bytes === undefined ? null : bytes / 1e6, 2);

function describeCheckpoint(point: Checkpoint): string {
  const within = point.allowance === null ? "" : point.fetched <= point.played + point.allowance ? " ✓" : " ✗";
  const parts = [
    `${point.label}: at ${fmt(point.position)} s (${fmt(point.playedSeconds)} s played), ${fmt(point.bufferedAhead)} s buffered ahead`,
    `fetched ${mb(point.fetched)} MB vs played ${mb(point.played)} MB + read-ahead ${point.allowance === null ? "(none stated)" : `${mb(point.allowance)} MB${within}`}`,
  ];
  if (point.account)
    parts.push(
      `ahead ${mb(point.account.ahead)} MB = ${fmt(point.account.aheadSeconds)} s, fetched twice ${mb(point.account.refetched)} MB, init ${fmt(point.account.init / 1000)} kB`,
    );
  if (point.spentByPlayer !== null)
    parts.push(
      `the player counted ${mb(point.spentByPlayer)} MB (${fmt((point.spentByPlayer / point.fetched) * 100, 0)} % of CDP)`,
    );
  return parts.join("; ");
}

/** MB fetched per hour of film played, at a checkpoint (what this viewer pays per hour, read-ahead included). */
function paidPerHour(point: Checkpoint | undefined): number {
  return point && point.playedSeconds > 0 ? point.fetched / 1e6 / (point.playedSeconds / 3600) : Number.NaN;
}

function printBytesTables(results: RunResult[]): void {
  console.log(
    `\nBytes fetched (since the page opened) against film played + the stated read-ahead (${STATED_READ_AHEAD} s${DATA_SAVER ? ", data saver" : ""}), MB, mean of the runs`,
  );
  console.log(
    "player        kbps  check        fetched  played  ahead s  buffered s  read-ahead  twice  within  player's count",
  );
  for (const player of PLAYERS as PlayerName[]) {
    for (const kbps of SPEEDS) {
      const runs = results.filter((result) => result.ok && result.player === player && result.kbps === kbps);
      const labels = [...new Set(runs.flatMap((result) => (result.checkpoints ?? []).map((point) => point.label)))];
      for (const label of labels) {
        const points = runs
          .map((result) => result.checkpoints?.find((point) => point.label === label))
          .filter((point): point is Checkpoint => Boolean(point));
        const allowances = points.map((point) => point.allowance).filter((value): value is number => value !== null);
        const within = allowances.length
          ? `${points.filter((point) => point.allowance !== null && point.fetched <= point.played + point.allowance).length}/${points.length}`
          : "–";
        const counted = points.filter((point) => point.spentByPlayer !== null);
        console.log(
          [
            player.padEnd(12),
            String(kbps).padStart(5),
            label.padEnd(11),
            mb(mean(points.map((point) => point.fetched))).padStart(8),
            mb(mean(points.map((point) => point.played))).padStart(7),
            fmt(mean(points.map((point) => point.account?.aheadSeconds ?? Number.NaN))).padStart(8),
            fmt(mean(points.map((point) => point.bufferedAhead))).padStart(11),
            (allowances.length ? mb(mean(allowances)) : "–").padStart(11),
            mb(mean(points.map((point) => point.account?.refetched ?? Number.NaN))).padStart(6),
            within.padStart(7),
            counted.length
              ? `${fmt(mean(counted.map((point) => (point.spentByPlayer! / point.fetched) * 100)), 0)} % of CDP`.padStart(
                  16,
                )
              : "–".padStart(16),
          ].join("  "),
        );
      }
      const pauses = runs
        .map((result) => {
          const points = result.checkpoints ?? [];
          const paused = points.find((point) => point.label.startsWith("paused"));
          const before = points[points.indexOf(paused!) - 1];
          return paused && before ? paused.fetched - before.fetched : Number.NaN;
        })
        .filter(Number.isFinite);
      if (pauses.length)
        console.log(`${" ".repeat(21)}fetched during the ${PAUSE_SECONDS} s pause: ${mb(mean(pauses))} MB`);
    }
  }

  console.log(
    `\nCost shown before play against cost measured (MB per hour of film played at the end of the ${PLAY_SECONDS} s window, read-ahead included; played: the rungs' own rate)`,
  );
  for (const player of PLAYERS as PlayerName[]) {
    for (const kbps of SPEEDS) {
      const runs = results.filter((result) => result.ok && result.player === player && result.kbps === kbps);
      if (runs.length === 0) continue;
      const ends = runs.map((result) => result.checkpoints?.find((point) => point.label === `${PLAY_SECONDS} s`));
      const paid = mean(ends.map(paidPerHour).filter(Number.isFinite));
      const played = mean(
        ends
          .filter((point): point is Checkpoint => Boolean(point && point.playedSeconds > 0))
          .map((point) => point.played / 1e6 / (point.playedSeconds / 3600)),
      );
      const shown = runs.map((result) => result.costShown).filter(Boolean) as NonNullable<RunResult["costShown"]>[];
      const low = mean(shown.map((cost) => cost.lowPerHour));
      const high = mean(shown.map((cost) => cost.highPerHour));
      // The shown figure is the film's rate; what was paid after 120 s also holds the read-ahead (up to 30 s).
      const inRange = Number.isFinite(played) && played >= low * 0.8 && played <= high * 1.2;
      const pageKb = mean(
        runs.map((result) => (result.pageBytesBeforePlay ?? Number.NaN) / 1000).filter(Number.isFinite),
      );
      console.log(
        `  ${player} @ ${kbps} kbps: the page before play ${fmt(pageKb, 0)} kB; shown ${fmt(low, 0)}${high !== low ? `–${fmt(high, 0)}` : ""} MB/h ("${shown[0]?.text ?? "–"}"); paid ${fmt(paid, 0)} MB/h (played ${fmt(played, 0)} MB/h): ${inRange ? "played within 20 % of what was shown ✓" : `played ${fmt(played / high, 2)}× the top of what was shown ✗`}${DATA_SAVER ? `; data saver ${fmt(paid, 0)} MB/h (goal ≤ ${DATA_SAVER_MB_PER_HOUR}) ${paid <= DATA_SAVER_MB_PER_HOUR ? "✓" : "✗"}` : ""}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------
// 4. The table

type Summary = {
  player: PlayerName;
  kbps: number;
  runs: number;
  ok: number;
  ffP50: number;
  ffMax: number;
  stallsMean: number;
  stallsMax: number;
  stallSecondsMean: number;
  played: number;
  seekP50: number;
  seekMax: number;
  kbBeforePlay: number;
  mbPerMinute: number;
  rungs: string;
  mismatches: number;
};

function summarise(player: PlayerName, kbps: number, results: RunResult[]): Summary {
  const ok = results.filter((result) => result.ok);
  const numbers = (pick: (result: RunResult) => number | null | undefined) =>
    ok.map(pick).filter((value): value is number => typeof value === "number" && Number.isFinite(value));
  const rungCounts = new Map<number, number>();
  for (const result of ok)
    for (const rung of result.rungsPlayed?.length ? result.rungsPlayed : (result.rungsFetched ?? []))
      rungCounts.set(rung, (rungCounts.get(rung) ?? 0) + 1);
  return {
    player,
    kbps,
    runs: results.length,
    ok: ok.length,
    ffP50: p50(numbers((result) => result.firstFrameSeconds)),
    ffMax: max(numbers((result) => result.firstFrameSeconds)),
    stallsMean: mean(numbers((result) => result.stalls)),
    stallsMax: max(numbers((result) => result.stalls)),
    stallSecondsMean: mean(numbers((result) => result.stallSeconds)),
    played: mean(numbers((result) => (result.playedSeconds ?? 0) * (120 / PLAY_SECONDS))),
    seekP50: p50(numbers((result) => result.seekSeconds)),
    seekMax: max(numbers((result) => result.seekSeconds)),
    kbBeforePlay: p50(numbers((result) => (result.bytesBeforePlay ?? Number.NaN) / 1024)),
    mbPerMinute: mean(numbers((result) => (result.bytesPerMinute ?? Number.NaN) / 1e6)),
    rungs:
      player === "progressive"
        ? "source"
        : [...rungCounts]
            .sort((a, b) => a[0] - b[0])
            .map(([rung, count]) => `${rung}p×${count}`)
            .join(" ") || "–",
    mismatches: results.reduce((sum, result) => sum + (result.mismatches ?? 0), 0),
  };
}

const COLUMNS: Array<{
  title: string;
  width: number;
  value: (summary: Summary) => string;
  ratio?: (summary: Summary) => number;
}> = [
  { title: "player", width: 12, value: (s) => s.player },
  { title: "kbps", width: 5, value: (s) => String(s.kbps) },
  { title: "ok", width: 5, value: (s) => `${s.ok}/${s.runs}` },
  { title: "1st frame p50", width: 13, value: (s) => fmt(s.ffP50, 2), ratio: (s) => s.ffP50 },
  { title: "max", width: 6, value: (s) => fmt(s.ffMax, 2), ratio: (s) => s.ffMax },
  { title: "stalls mean", width: 11, value: (s) => fmt(s.stallsMean), ratio: (s) => s.stallsMean },
  { title: "max", width: 4, value: (s) => fmt(s.stallsMax, 0), ratio: (s) => s.stallsMax },
  { title: "stall s", width: 7, value: (s) => fmt(s.stallSecondsMean), ratio: (s) => s.stallSecondsMean },
  { title: "played/120s", width: 11, value: (s) => fmt(s.played, 0), ratio: (s) => s.played },
  { title: "seek p50", width: 8, value: (s) => fmt(s.seekP50, 2), ratio: (s) => s.seekP50 },
  { title: "max", width: 6, value: (s) => fmt(s.seekMax, 2), ratio: (s) => s.seekMax },
  { title: "KB pre-play", width: 11, value: (s) => fmt(s.kbBeforePlay, 0), ratio: (s) => s.kbBeforePlay },
  { title: "MB/min", width: 6, value: (s) => fmt(s.mbPerMinute, 2), ratio: (s) => s.mbPerMinute },
  { title: "trunc", width: 5, value: (s) => String(s.mismatches) },
  { title: "rungs played", width: 0, value: (s) => s.rungs },
];

function row(cells: string[]): string {
  return cells
    .map((cell, index) =>
      COLUMNS[index].width ? cell.padStart(Math.max(COLUMNS[index].width, COLUMNS[index].title.length)) : cell,
    )
    .join("  ");
}

/** The issue's goals for a summary of an adaptive player, as "figure goal ✓/✗". */
function goals(summary: Summary): string[] {
  const check = (label: string, value: number, limit: number, unit: string) =>
    `${label} ${fmt(value, 2)}${unit} (goal ≤ ${limit}${unit}) ${Number.isFinite(value) && value <= limit ? "✓" : "✗"}`;
  const lines: string[] = [];
  if (summary.kbps === 500)
    lines.push(
      check("first frame p50", summary.ffP50, 2.5, " s"),
      check("stalls max", summary.stallsMax, 0, ""),
      check("seek p50", summary.seekP50, 3, " s"),
    );
  if (summary.kbps === 250)
    lines.push(check("first frame p50", summary.ffP50, 4, " s"), check("stalls max", summary.stallsMax, 1, ""));
  lines.push(check("video before play", summary.kbBeforePlay, 64, " KB"));
  if (DATA_SAVER) lines.push(check("data saver", summary.mbPerMinute, 2.5, " MB/min"));
  return lines;
}

function printTable(results: RunResult[]): void {
  const summaries: Summary[] = [];
  for (const player of PLAYERS as PlayerName[]) {
    for (const kbps of SPEEDS)
      summaries.push(
        summarise(
          player,
          kbps,
          results.filter((result) => result.player === player && result.kbps === kbps),
        ),
      );
  }
  console.log(
    `\nPlayback, ${RUNS} runs each, ${PLAY_SECONDS} s of play, ${LATENCY_MS} ms latency${DATA_SAVER ? ", data saver on" : ""} (times in s; played scaled to 120 s; MB per minute of film played; KB p50)`,
  );
  console.log(row(COLUMNS.map((column) => column.title)));
  for (const summary of summaries) console.log(row(COLUMNS.map((column) => column.value(summary))));

  const baselines = summaries.filter((summary) => summary.player === "progressive");
  if (baselines.length > 0) {
    console.log("\nRatios to the progressive player (× of progressive; below 1 is better except played/120s)");
    for (const summary of summaries) {
      const baseline = baselines.find((candidate) => candidate.kbps === summary.kbps);
      if (!baseline || summary.player === "progressive") continue;
      console.log(
        row(
          COLUMNS.map((column, index) => {
            if (index === 0) return `${summary.player}÷prog`;
            if (index === 1) return String(summary.kbps);
            if (!column.ratio) return "";
            const ratio = column.ratio(summary) / column.ratio(baseline);
            return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "–";
          }),
        ),
      );
    }
  }

  console.log("\nGoals (issue) for the adaptive players");
  for (const summary of summaries.filter((candidate) => candidate.player !== "progressive")) {
    console.log(`  ${summary.player} @ ${summary.kbps} kbps: ${goals(summary).join("; ")}`);
  }
  printBytesTables(results);
  const mismatches = results.reduce((sum, result) => sum + (result.mismatches ?? 0), 0);
  const responses = results.reduce((sum, result) => sum + (result.responses ?? 0), 0);
  console.log(
    `\nFinished film responses whose body did not match their Content-Length/Content-Range (Chromium cache truncation under throttling): ${mismatches} of ${responses} checked`,
  );
  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0) {
    console.log(`Failed runs: ${failed.length} of ${results.length}`);
    for (const result of failed)
      console.log(`  ${result.player} ${result.kbps} kbps #${result.run + 1}: ${result.error}`);
  }
}

// ---------------------------------------------------------------------------
// Main

const specs: RunSpec[] = [];
// Runs interleaved (every player and speed once, then again), so a slow minute of the machine hits all alike.
for (let run = 0; run < RUNS; run++) {
  for (const player of PLAYERS as PlayerName[])
    for (const kbps of SPEEDS) specs.push({ player, kbps, run, account: specs.length });
}

let root: string;
let figures: EncodeFigures | null = null;
const reusing = Boolean(KEEP && KEEP !== "1" && fs.existsSync(path.join(KEEP, FIGURES_FILE)));
if (reusing) {
  root = KEEP!;
  figures = JSON.parse(fs.readFileSync(path.join(root, FIGURES_FILE), "utf8")) as EncodeFigures;
  console.log(`reusing the processed storage ${root} (title ${figures.movieId}, a ${figures.filmMinutes}-minute film)`);
} else {
  const prepared = await prepareStorage("playback");
  root = prepared.root;
  setSetting(prepared.db, "autoApproveMovies", true);
  prepared.db.$client.close();
}
ensureViewers(root, specs.length);

const film = reusing ? null : await makeFilm(FILM_MINUTES);
const server = await startServer(root, PORT);
try {
  if (!figures) {
    const durationSeconds = (await probeMedia(film!)).durationSeconds;
    figures = await uploadAndProcess(server, root, film!, durationSeconds);
    fs.writeFileSync(path.join(root, FIGURES_FILE), JSON.stringify(figures, null, 2));
  }
  printEncodeFigures(figures, reusing);
  ensureWatchable(root, figures.movieId);

  console.log(
    `\n${specs.length} playback runs (${PLAYERS.join(", ")} × ${SPEEDS.join(", ")} kbps × ${RUNS}), ${PARALLEL} at a time, ${PLAY_SECONDS} s of play each`,
  );
  const results: RunResult[] = [];
  let next = 0;
  const movieId = figures.movieId;
  const filmSeconds = figures.durationSeconds;
  // Each rung's segments (time and byte range), to tell bytes played from bytes read ahead.
  const maps = new Map<number, RungMap>();
  for (const rung of figures.rungs) {
    const playlist = path.join(root, "media", movieId, "hls", `${rung.rung}p.m3u8`);
    if (fs.existsSync(playlist))
      maps.set(rung.rung, rungMap(rung.rung, fs.readFileSync(playlist, "utf8"), rung.bandwidth));
  }
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, specs.length) }, async () => {
      while (next < specs.length) {
        const spec = specs[next++];
        // The whole run is bounded too: page load, play window, seek and margins.
        const result = await withTimeout(
          playbackRun(spec, server, root, movieId, filmSeconds, maps, figures!.sourceBytes),
          600_000 + PLAY_SECONDS * 1000,
          `${spec.player} ${spec.kbps} kbps run`,
        ).catch((error: unknown): RunResult => ({
          ...spec,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        }));
        results.push(result);
        console.log(describeRun(result));
      }
    }),
  );
  printTable(results);
} finally {
  await server.stop();
  if (KEEP) console.log(`\nstorage kept: rerun with BENCH_KEEP_STORAGE=${root} to skip the upload and the ladder`);
  else fs.rmSync(root, { recursive: true, force: true });
}

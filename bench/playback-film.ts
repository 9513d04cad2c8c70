/** The playback bench's film: made by ffmpeg, uploaded through the studio's form, processed into the ladder, and the viewers who will watch it. */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { eq, like } from "drizzle-orm";
import { openDatabase } from "../app/db/client.server";
import { accounts, movies, playbackLeases, watchEvents } from "../app/db/schema";
import { runFfmpeg } from "../app/media/ffmpeg.server";
import { rungName } from "../app/media/ladder";
import { signIn, type RunningServer } from "./lib";
import { FILM_MINUTES, sleep } from "./playback-settings";

// ---------------------------------------------------------------------------
// 1. The film

export async function makeFilm(minutes: number): Promise<string> {
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
  /** "h264" or "av1" (a storage made before AV1 has H.264 alone, and no codec recorded). */
  codec?: "h264" | "av1";
  width: number;
  height: number;
  sizeBytes: number;
  averageBandwidth: number;
  bandwidth: number;
  readyAfterSeconds: number;
};
export type EncodeFigures = {
  movieId: string;
  filmMinutes: number;
  durationSeconds: number;
  sourceBytes: number;
  uploadSeconds: number;
  firstPlayableSeconds: number;
  allReadySeconds: number;
  encodeSeconds: number;
  /** The AV1 + Opus pass: from the last H.264 rung ready to the last AV1 rung ready (0 without AV1). */
  av1EncodeSeconds?: number;
  rungs: RungFigures[];
  /** The machine's load average (1, 5, 15 min) when the upload was stored and when the last rung was ready. */
  loadAtUpload?: number[];
  loadAtEnd?: number[];
};

export const viewerEmail = (index: number) => `watch${index}@bench.test`;
export const viewerId = (index: number) => `benchwatch${String(index).padStart(5, "0")}`;

/**
 * One viewer account per run (no shared resume position, screen lease or data
 * saver choice). On a kept storage the accounts of earlier invocations are
 * reused: their viewings (where the player would resume), leases and data
 * saver choice are cleared.
 */
export function ensureViewers(root: string, count: number): void {
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
  codec: "h264" | "av1";
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

export async function uploadAndProcess(
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
          "SELECT rung, codec, width, height, status, size_bytes, bandwidth, average_bandwidth, ready_at FROM movie_renditions WHERE movie_id = ? ORDER BY codec DESC, rung",
        )
        .all(movieId) as RenditionRow[];
      jobRows = db
        .prepare("SELECT kind, status, started_at, finished_at, error FROM jobs WHERE movie_id = ? ORDER BY created_at")
        .all(movieId) as JobRow[];
      const failedRungs = rows.filter((row) => row.status === "failed");
      if (failedRungs.length > 0)
        throw new Error(
          `rungs failed: ${failedRungs.map((row) => rungName(row.rung, row.codec)).join(", ")} (${jobRows
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

  // The H.264 ladder's figures as before AV1; the AV1 pass (made after it) on its own.
  const h264Rows = rows.filter((row) => row.codec === "h264");
  const av1Rows = rows.filter((row) => row.codec === "av1");
  const readyTimes = h264Rows.map((row) => row.ready_at ?? 0);
  const allReady = Math.max(...readyTimes);
  const av1Ready = av1Rows.length > 0 ? Math.max(...av1Rows.map((row) => row.ready_at ?? 0)) : allReady;
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
    av1EncodeSeconds: (av1Ready - allReady) / 1000,
    loadAtUpload,
    loadAtEnd: os.loadavg(),
    rungs: rows.map((row) => ({
      rung: row.rung,
      codec: row.codec,
      width: row.width,
      height: row.height,
      sizeBytes: row.size_bytes,
      averageBandwidth: row.average_bandwidth,
      bandwidth: row.bandwidth,
      readyAfterSeconds: ((row.ready_at ?? allReady) - stored) / 1000,
    })),
  };
}

export function printEncodeFigures(figures: EncodeFigures, reused: boolean): void {
  const total = figures.rungs.reduce((sum, rung) => sum + rung.sizeBytes, 0);
  const minutes = figures.durationSeconds / 60;
  const speed = figures.durationSeconds / figures.encodeSeconds;
  const firstShare = figures.firstPlayableSeconds / figures.durationSeconds;
  console.log(
    `\nLadder of a ${minutes.toFixed(1)}-minute 1280x720 H.264 upload (${(figures.sourceBytes / 1e6).toFixed(1)} MB) on ${os.cpus().length} cores${reused ? " (figures saved by the run that made this storage)" : ""}`,
  );
  console.log(
    `  upload ${figures.uploadSeconds.toFixed(1)} s; from the stored upload: first playable ${figures.firstPlayableSeconds.toFixed(1)} s (${(firstShare * 100).toFixed(1)} % of the film's length, 1/${(1 / firstShare).toFixed(1)}; goal ≤ 1/8 ${firstShare <= 1 / 8 ? "✓" : "✗"}), all H.264 rungs ${figures.allReadySeconds.toFixed(1)} s`,
  );
  console.log(
    `  ladder encode ${figures.encodeSeconds.toFixed(1)} s for ${figures.durationSeconds.toFixed(0)} s of film: ${speed.toFixed(2)}× realtime (goal ≥ 1.5× ${speed >= 1.5 ? "✓" : "✗"}); wall from upload ${(figures.durationSeconds / figures.allReadySeconds).toFixed(2)}×`,
  );
  if (figures.loadAtUpload && figures.loadAtEnd)
    console.log(
      `  load average (1, 5, 15 min) at the upload ${figures.loadAtUpload.map((value) => value.toFixed(2)).join(", ")}; when the last rung was ready ${figures.loadAtEnd.map((value) => value.toFixed(2)).join(", ")}`,
    );
  if (figures.av1EncodeSeconds)
    console.log(
      `  AV1 + Opus pass (after the H.264 ladder) ${figures.av1EncodeSeconds.toFixed(1)} s: ${((figures.av1EncodeSeconds / figures.durationSeconds) * 60).toFixed(1)} s per minute of film`,
    );
  console.log(
    `  renditions on disk ${(total / 1e6).toFixed(1)} MB = ${(total / figures.sourceBytes).toFixed(2)} × the uploaded file`,
  );
  for (const rung of figures.rungs) {
    console.log(
      `    ${rungName(rung.rung, rung.codec ?? "h264").padStart(9)} ${`${rung.width}x${rung.height}`.padEnd(10)} ${(rung.sizeBytes / 1e6).toFixed(1).padStart(7)} MB  ${(rung.sizeBytes / 1e6 / minutes).toFixed(2).padStart(6)} MB/min  avg ${(rung.averageBandwidth / 1000).toFixed(0).padStart(5)} kbps  peak ${(rung.bandwidth / 1000).toFixed(0).padStart(5)} kbps  ready after ${rung.readyAfterSeconds.toFixed(1)} s`,
    );
  }
}

/** Published, free, for every viewer (auto-approval should already have done it). */
export function ensureWatchable(root: string, movieId: string): void {
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

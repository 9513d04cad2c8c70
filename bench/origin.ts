/**
 * bench:origin — what the box itself serves when films live in the bucket
 * behind a CDN, against films on the box's disk.
 *
 * For MEDIA_STORE=local, then MEDIA_STORE=s3 (s3rver on loopback as the
 * bucket, nginx with proxy_cache and 1 MiB byte-range slices in front of it
 * as the CDN, MEDIA_BASE_URL pointing at nginx):
 *  1. a provider uploads a film; upload-to-playable is timed until every rung
 *     is ready (and, with s3, the title plays from the bucket, every object
 *     checked): the bucket step's overhead;
 *  2. BENCH_VIEWERS HTTP viewers each open the watch page, the master and the
 *     rung playlists, and fetch the whole film at 360p by the playlist's byte
 *     ranges: bytes and requests the box answered per viewer-minute of film,
 *     against the film bytes; what the bucket sent behind the CDN; the box's
 *     CPU per viewer;
 *  3. BENCH_BROWSERS Chromium viewers on a 500 kbps link with 300 ms latency
 *     play BENCH_PLAY_SECONDS: first frame and stalls. Every other one presses
 *     play as soon as the player is on the screen, before the page's scripts
 *     have run (the press is held until they run, then the player plays); the
 *     others once the page is hydrated. Each kind is compared with its kind.
 * Needs `npm run build` and nginx (nginx-light has proxy_cache and slice).
 * Ports 9380–9383 (BENCH_PORT_BASE).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { eq } from "drizzle-orm";
import { accounts, movieRenditions, movies } from "../app/db/schema";
import { runFfmpeg } from "../app/media/ffmpeg.server";
import { startS3rver } from "../tests/fixtures/s3-servers";
import { cpuMs, prepareStorage, signIn, startServer } from "./lib";
import { testChromiumPath } from "../tests/fixtures/browser";

const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 40);
const BROWSERS = Number(process.env.BENCH_BROWSERS ?? 2);
const FILM_SECONDS = Number(process.env.BENCH_FILM_SECONDS ?? 120);
const PLAY_SECONDS = Number(process.env.BENCH_PLAY_SECONDS ?? 30);
const KBPS = Number(process.env.BENCH_KBPS ?? 500);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const RUNG = Number(process.env.BENCH_RUNG ?? 360);
const BASE = Number(process.env.BENCH_PORT_BASE ?? 9380);
const PORTS = { bucket: BASE, cdn: BASE + 1, box: BASE + 2 };
const LADDER = "144,240,360,480";

type ModeResult = {
  mode: "local" | "s3";
  uploadToPlayableSeconds: number;
  viewers: number;
  viewerMinutes: number;
  boxRequests: number;
  boxBytes: number;
  filmBytes: number;
  boxCpuMsPerViewer: number;
  bucketBytes: number | null;
  cdnHitRatio: number | null;
  /** First frames of viewers who pressed play once the page was hydrated. */
  firstFrameSeconds: number[];
  /** First frames of viewers who pressed play before the page's scripts ran. */
  earlyFirstFrameSeconds: number[];
  stalls: number[];
  stallSeconds: number[];
};

async function makeFilm(): Promise<string> {
  const file = path.join(os.tmpdir(), `kallo-bench-origin-480p-${FILM_SECONDS}s.mp4`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial.mp4`;
  // prettier-ignore
  await runFfmpeg(["-y", "-hide_banner", "-nostdin", "-loglevel", "error",
    "-f", "lavfi", "-i", "testsrc2=size=854x480:rate=25", "-f", "lavfi", "-i", "sine=frequency=330:sample_rate=48000",
    "-filter_complex", "[0:v]noise=alls=10:allf=t,format=yuv420p[v]", "-map", "[v]", "-map", "1:a",
    "-t", String(FILM_SECONDS), "-c:v", "libx264", "-preset", "veryfast", "-b:v", "1500k",
    "-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart", "-f", "mp4", partial], { timeoutMs: 30 * 60_000 });
  fs.renameSync(partial, file);
  return file;
}

/** The multipart upload a browser without JavaScript sends. */
function uploadFilm(url: string, cookie: string, film: string): Promise<string> {
  const boundary = `----kallo-bench-${Date.now()}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    [
      field("name", "Origin benchmark film"),
      field("Category", "benchcategory01"),
      `--${boundary}\r\nContent-Disposition: form-data; name="movie"; filename="film.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    ].join(""),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/provider/uploads`, {
      method: "POST",
      headers: {
        Cookie: cookie,
        Accept: "application/json",
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": head.length + fs.statSync(film).size + tail.length,
      },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (response.statusCode !== 201) return reject(new Error(`upload answered ${response.statusCode}: ${text}`));
        resolve((JSON.parse(text) as { movieId: string }).movieId);
      });
    });
    request.on("error", reject);
    request.write(head);
    const stream = fs.createReadStream(film);
    stream.on("end", () => request.end(tail));
    stream.pipe(request, { end: false });
  });
}

function startNginx(dir: string): { stop: () => Promise<void>; log: string } {
  const log = path.join(dir, "access.log");
  // nginx's workers run as an unprivileged user: they must reach the cache and temporary folders.
  fs.chmodSync(dir, 0o755);
  for (const sub of ["cache", "tmp"]) fs.mkdirSync(path.join(dir, sub), { recursive: true, mode: 0o777 });
  const conf = `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log error;
events { worker_connections 4096; }
http {
  log_format origin '$upstream_cache_status $body_bytes_sent $upstream_bytes_received';
  access_log ${log} origin;
  client_body_temp_path ${dir}/tmp/body; proxy_temp_path ${dir}/tmp/proxy; fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi; scgi_temp_path ${dir}/tmp/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=films:16m max_size=4g inactive=1h use_temp_path=off;
  server {
    listen 127.0.0.1:${PORTS.cdn};
    location / {
      if ($request_method = OPTIONS) {
        add_header Access-Control-Allow-Origin * always;
        add_header Access-Control-Allow-Headers "Range, If-Range" always;
        add_header Access-Control-Max-Age 86400 always;
        return 204;
      }
      add_header Access-Control-Allow-Origin * always;
      add_header Access-Control-Expose-Headers "Content-Range, Content-Length, Accept-Ranges" always;
      slice 1m;
      proxy_cache films;
      # The signed query is part of the key: one entry per rung and signing window.
      proxy_cache_key $uri$is_args$args$slice_range;
      proxy_set_header Range $slice_range;
      proxy_cache_valid 200 206 1h;
      proxy_cache_lock on;
      proxy_http_version 1.1;
      proxy_set_header Host 127.0.0.1:${PORTS.bucket};
      proxy_pass http://127.0.0.1:${PORTS.bucket}/kallo-media/;
    }
  }
}`;
  fs.writeFileSync(path.join(dir, "nginx.conf"), conf);
  const child: ChildProcess = spawn("nginx", ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "inherit" });
  return {
    log,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGQUIT");
      }),
  };
}

type Segment = { url: string; start: number; length: number };

/** fetch, tried again (up to three times) when a kept-alive connection was closed under it. */
async function fetchAgain(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** A media playlist's byte ranges, resolved against its own address. */
function segmentsOf(text: string, base: string): Segment[] {
  const segments: Segment[] = [];
  const lines = text.split("\n");
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    const map = /^#EXT-X-MAP:URI="([^"]+)",BYTERANGE="(\d+)@(\d+)"/.exec(lines[i]);
    if (map) {
      segments.push({ url: new URL(map[1], base).href, start: Number(map[3]), length: Number(map[2]) });
      next = Number(map[3]) + Number(map[2]);
      continue;
    }
    const range = /^#EXT-X-BYTERANGE:(\d+)(?:@(\d+))?/.exec(lines[i]);
    if (range) {
      const start = range[2] !== undefined ? Number(range[2]) : next;
      segments.push({ url: new URL(lines[i + 1], base).href, start, length: Number(range[1]) });
      next = start + Number(range[1]);
    }
  }
  return segments;
}

async function httpViewer(
  box: string,
  movieId: string,
  cookie: string,
  tally: { boxRequests: number; boxBytes: number; filmBytes: number },
) {
  const fromBox = async (pathname: string) => {
    const response = await fetchAgain(`${box}${pathname}`, { headers: { Cookie: cookie, "Accept-Encoding": "gzip" } });
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${body.toString().slice(0, 200)}`);
    tally.boxRequests++;
    tally.boxBytes += Number(response.headers.get("Content-Length") ?? body.length);
    return body.toString("utf8");
  };
  await fromBox(`/WatchMovie?id=${movieId}`);
  await fromBox(`/stream/${movieId}/master.m3u8`);
  const playlistPath = `/stream/${movieId}/${RUNG}p.m3u8`;
  const playlist = await fromBox(playlistPath);
  for (const segment of segmentsOf(playlist, `${box}${playlistPath}`)) {
    const onBox = segment.url.startsWith(box);
    const response = await fetchAgain(segment.url, {
      headers: {
        Range: `bytes=${segment.start}-${segment.start + segment.length - 1}`,
        ...(onBox ? { Cookie: cookie } : {}),
      },
    });
    const bytes = (await response.arrayBuffer()).byteLength;
    if (response.status !== 206 || bytes !== segment.length)
      throw new Error(`segment answered ${response.status} with ${bytes} bytes`);
    tally.filmBytes += bytes;
    if (onBox) {
      tally.boxRequests++;
      tally.boxBytes += bytes;
    }
  }
}

async function browserViewer(browser: Browser, box: string, movieId: string, cookie: string, early: boolean) {
  const context = await browser.newContext({ baseURL: box });
  const [name, value] = cookie.split("=");
  await context.addCookies([{ name, value, url: box }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: (KBPS * 1000) / 8,
    uploadThroughput: (KBPS * 1000) / 8,
  });
  // Each film request (rung files, on the box or the CDN): its Range, to tell a segment from a whole file.
  const filmRequests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!/\.(mp4|m4s)$/.test(url.pathname)) return;
    filmRequests.push(`${url.port === String(PORTS.cdn) ? "cdn" : "box"} ${request.headers()["range"] ?? "no range"}`);
  });
  if (early) {
    // Play pressed as soon as the player shows: the page's scripts are still on their way.
    await page.goto(`/WatchMovie?id=${movieId}`, { waitUntil: "commit" });
  } else {
    await page.goto(`/WatchMovie?id=${movieId}`);
    // Hydrated: the player has chosen how it plays.
    await page.waitForSelector("video[data-player-mode]:not([data-player-mode='none'])");
  }
  const result = await page
    .locator("video")
    .first()
    .evaluate(async (video: HTMLVideoElement, playSeconds) => {
      let stalls = 0;
      let stallStarted = 0;
      let stalledMs = 0;
      let started = false;
      video.addEventListener("waiting", () => {
        if (started && !stallStarted) {
          stalls++;
          stallStarted = performance.now();
        }
      });
      video.addEventListener("playing", () => {
        if (stallStarted) stalledMs += performance.now() - stallStarted;
        stallStarted = 0;
      });
      video.muted = true;
      const pressed = performance.now();
      for (let attempt = 0; ; attempt++) {
        try {
          await video.play();
          break;
        } catch (error) {
          if ((error as Error).name !== "AbortError" || attempt === 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      }
      while (video.currentTime <= 0 || video.readyState < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      const firstFrame = (performance.now() - pressed) / 1000;
      started = true;
      await new Promise((resolve) => setTimeout(resolve, playSeconds * 1000));
      if (stallStarted) stalledMs += performance.now() - stallStarted;
      return { firstFrame, stalls, stalledSeconds: stalledMs / 1000 };
    }, PLAY_SECONDS);
  const video = page.locator("video").first();
  const how = (await video.getAttribute("data-play-held"))
    ? " (the press held until the page ran)"
    : (await video.getAttribute("data-player-handed-over"))
      ? " (taken over from the browser's own HLS)"
      : "";
  const mode = `${await video.getAttribute("data-player-mode")}${how}`;
  await context.close();
  return { ...result, mode, firstRequests: filmRequests.slice(0, 3) };
}

async function runMode(
  mode: "local" | "s3",
  film: string,
  bucketEnv: Record<string, string>,
  cdnLog: string | null,
): Promise<ModeResult> {
  const { root, db } = await prepareStorage(`origin-${mode}`);
  const passwordHash = db
    .select({ hash: accounts.passwordHash })
    .from(accounts)
    .where(eq(accounts.id, "benchviewer0001"))
    .get()!.hash;
  const count = VIEWERS + BROWSERS;
  db.insert(accounts)
    .values(
      Array.from({ length: count }, (_, index) => ({
        id: `originviewer${String(index).padStart(4, "0")}`,
        name: `Viewer ${index}`,
        email: `origin${index}@bench.test`,
        phoneNumber: "1",
        passwordHash,
        role: "viewer" as const,
      })),
    )
    .run();
  const server = await startServer(root, PORTS.box, {
    env: { LADDER, ...(mode === "s3" ? { ...bucketEnv, MEDIA_BASE_URL: `http://127.0.0.1:${PORTS.cdn}` } : {}) },
  });
  try {
    const provider = await signIn(server.url, "/cp", "provider@bench.test");
    const started = Date.now();
    const movieId = await uploadFilm(server.url, provider, film);
    const rungs = LADDER.split(",").length;
    for (;;) {
      const title = db
        .select({ status: movies.status, store: movies.mediaStore })
        .from(movies)
        .where(eq(movies.id, movieId))
        .get();
      const ready = db
        .select()
        .from(movieRenditions)
        .where(eq(movieRenditions.movieId, movieId))
        .all()
        .filter((row) => row.status === "ready");
      if (title?.status === "failed") throw new Error("the film failed to process");
      if (title?.status === "ready" && ready.length >= rungs && (mode === "local" || title.store === "s3")) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const uploadToPlayableSeconds = (Date.now() - started) / 1000;
    db.update(movies).set({ approved: true }).where(eq(movies.id, movieId)).run();
    console.log(
      `[${mode}] upload to playable${mode === "s3" ? " from the bucket" : ""}: ${uploadToPlayableSeconds.toFixed(1)} s`,
    );

    // One sign-in after another (each is a password hash), tried again if a loaded box drops one.
    const cookies: string[] = [];
    for (let index = 0; index < count; index++) {
      for (let attempt = 1; ; attempt++) {
        try {
          cookies.push(await signIn(server.url, "/login", `origin${index}@bench.test`));
          break;
        } catch (error) {
          if (attempt === 3) throw error;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    }
    const tally = { boxRequests: 0, boxBytes: 0, filmBytes: 0 };
    const cpuBefore = cpuMs(server.process.pid!);
    const viewersStarted = Date.now();
    await Promise.all(cookies.slice(0, VIEWERS).map((cookie) => httpViewer(server.url, movieId, cookie, tally)));
    const boxCpuMs = cpuMs(server.process.pid!) - cpuBefore;
    console.log(
      `[${mode}] ${VIEWERS} HTTP viewers fetched the film in ${((Date.now() - viewersStarted) / 1000).toFixed(1)} s`,
    );

    let bucketBytes: number | null = null;
    let cdnHitRatio: number | null = null;
    if (cdnLog && fs.existsSync(cdnLog)) {
      const lines = fs.readFileSync(cdnLog, "utf8").trim().split("\n").filter(Boolean);
      bucketBytes = lines.reduce((sum, line) => sum + (Number(line.split(" ")[2]) || 0), 0);
      cdnHitRatio = lines.filter((line) => line.startsWith("HIT")).length / Math.max(1, lines.length);
    }

    const firstFrameSeconds: number[] = [];
    const earlyFirstFrameSeconds: number[] = [];
    const stalls: number[] = [];
    const stallSeconds: number[] = [];
    if (BROWSERS > 0) {
      const browser = await chromium.launch({ executablePath: testChromiumPath() });
      try {
        for (const [index, cookie] of cookies.slice(VIEWERS).entries()) {
          const early = index % 2 === 1;
          const played = await browserViewer(browser, server.url, movieId, cookie, early);
          (early ? earlyFirstFrameSeconds : firstFrameSeconds).push(played.firstFrame);
          stalls.push(played.stalls);
          stallSeconds.push(played.stalledSeconds);
          console.log(
            `[${mode}] Chromium at ${KBPS} kbps, play pressed ${early ? "before the scripts ran" : "once hydrated"}: first frame ${played.firstFrame.toFixed(2)} s, ${played.stalls} stalls (${played.stalledSeconds.toFixed(1)} s); player ${played.mode}; first film requests: ${played.firstRequests.join(", ") || "none"}`,
          );
        }
      } finally {
        await browser.close();
      }
    }
    const filmMinutes = FILM_SECONDS / 60;
    return {
      mode,
      uploadToPlayableSeconds,
      viewers: VIEWERS,
      viewerMinutes: VIEWERS * filmMinutes,
      boxRequests: tally.boxRequests,
      boxBytes: tally.boxBytes,
      filmBytes: tally.filmBytes,
      boxCpuMsPerViewer: boxCpuMs / VIEWERS,
      bucketBytes,
      cdnHitRatio,
      firstFrameSeconds,
      earlyFirstFrameSeconds,
      stalls,
      stallSeconds,
    };
  } finally {
    await server.stop();
    db.$client.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
const mb = (bytes: number) => (bytes / 1e6).toFixed(2);

async function main() {
  if (spawnSync("sh", ["-c", "command -v nginx"]).status !== 0)
    throw new Error("nginx is needed: apt-get install nginx-light");
  const film = await makeFilm();
  console.log(
    `film: ${FILM_SECONDS} s at 480p, ${mb(fs.statSync(film).size)} MB; ${VIEWERS} HTTP viewers at ${RUNG}p, ${BROWSERS} Chromium viewers at ${KBPS} kbps / ${LATENCY_MS} ms`,
  );
  const results: ModeResult[] = [];
  results.push(await runMode("local", film, {}, null));
  const bucket = await startS3rver(PORTS.bucket);
  const cdnDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-bench-cdn-"));
  const cdn = startNginx(cdnDir);
  try {
    results.push(await runMode("s3", film, bucket.env, cdn.log));
  } finally {
    await cdn.stop();
    await bucket.stop();
    fs.rmSync(cdnDir, { recursive: true, force: true });
  }

  const [local, s3] = results;
  console.log("\n| | local disk | bucket + CDN |");
  console.log("|---|---|---|");
  const row = (label: string, a: string, b: string) => console.log(`| ${label} | ${a} | ${b} |`);
  row("upload to playable (s)", local.uploadToPlayableSeconds.toFixed(1), s3.uploadToPlayableSeconds.toFixed(1));
  row(
    "box requests per viewer-minute",
    (local.boxRequests / local.viewerMinutes).toFixed(2),
    (s3.boxRequests / s3.viewerMinutes).toFixed(2),
  );
  row("box MB per viewer-minute", mb(local.boxBytes / local.viewerMinutes), mb(s3.boxBytes / s3.viewerMinutes));
  row("film MB per viewer-minute", mb(local.filmBytes / local.viewerMinutes), mb(s3.filmBytes / s3.viewerMinutes));
  row(
    "box bytes / film bytes",
    `${((100 * local.boxBytes) / local.filmBytes).toFixed(2)} %`,
    `${((100 * s3.boxBytes) / s3.filmBytes).toFixed(2)} %`,
  );
  row("box CPU per viewer (ms)", local.boxCpuMsPerViewer.toFixed(1), s3.boxCpuMsPerViewer.toFixed(1));
  row("bucket MB sent behind the CDN", "—", s3.bucketBytes === null ? "?" : mb(s3.bucketBytes));
  row("CDN hit ratio (1 MiB slices)", "—", s3.cdnHitRatio === null ? "?" : `${(100 * s3.cdnHitRatio).toFixed(1)} %`);
  row(
    `first frame at ${KBPS} kbps, pressed once hydrated (s, mean)`,
    mean(local.firstFrameSeconds).toFixed(2),
    mean(s3.firstFrameSeconds).toFixed(2),
  );
  row(
    `first frame at ${KBPS} kbps, pressed before the scripts ran (s, mean)`,
    mean(local.earlyFirstFrameSeconds).toFixed(2),
    mean(s3.earlyFirstFrameSeconds).toFixed(2),
  );
  row(
    `stalls in ${PLAY_SECONDS} s (mean count / s)`,
    `${mean(local.stalls).toFixed(1)} / ${mean(local.stallSeconds).toFixed(1)}`,
    `${mean(s3.stalls).toFixed(1)} / ${mean(s3.stallSeconds).toFixed(1)}`,
  );
  const share = (100 * s3.boxBytes) / s3.filmBytes;
  const firstFrameRatio = mean(s3.firstFrameSeconds) / mean(local.firstFrameSeconds);
  const earlyFirstFrameRatio = mean(s3.earlyFirstFrameSeconds) / mean(local.earlyFirstFrameSeconds);
  const overhead = (100 * (s3.uploadToPlayableSeconds - local.uploadToPlayableSeconds)) / local.uploadToPlayableSeconds;
  console.log("\ngoals:");
  console.log(`  box bytes ≤ 1 % of film bytes: ${share.toFixed(2)} % ${share <= 1 ? "met" : "NOT met"}`);
  for (const [when, ratio] of [
    ["pressed once hydrated", firstFrameRatio],
    ["pressed before the scripts ran", earlyFirstFrameRatio],
  ] as const) {
    if (Number.isNaN(ratio)) continue;
    console.log(
      `  first frame ratio bucket/local ≤ 1.1, ${when}: ${ratio.toFixed(2)} ${ratio <= 1.1 ? "met" : "NOT met"}`,
    );
  }
  console.log(`  upload-to-playable overhead ≤ 10 %: ${overhead.toFixed(1)} % ${overhead <= 10 ? "met" : "NOT met"}`);
  // One core-second serves this many viewers' pages and playlists.
  const viewersPerCoreSecond = 1000 / s3.boxCpuMsPerViewer;
  console.log(
    `  the box's CPU per viewer (a watch page, the master and one rung playlist): ${s3.boxCpuMsPerViewer.toFixed(1)} ms → ${(2 * viewersPerCoreSecond).toFixed(0)} viewers starting per second on 2 cores`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

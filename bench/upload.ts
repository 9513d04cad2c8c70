/**
 * Upload: a 1 GB film to the studio over loopback, three ways —
 *   1. one multipart POST to /provider/uploads (the form without JavaScript);
 *   2. resumable (tus, 8 MiB requests as the upload page sends them) without interruption;
 *   3. resumable with three disconnects at random points (the client aborts, then resumes).
 * For each: time, throughput, the server's peak memory growth, and a viewer's
 * latency meanwhile (1 MiB byte ranges of another film and the /movies page,
 * one after another), against the same viewer with no upload running. For the
 * interrupted run: the bytes sent twice (what the client had handed to the
 * connection past what the server kept when it resumed).
 * Run with `npm run bench:upload` after `npm run build`; BENCH_UPLOAD_MB sets the size.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Upload } from "tus-js-client";
import { movies } from "../app/db/schema";
import { movieVideoPath } from "../app/media/storage.server";
import {
  download,
  percentile,
  prepareStorage,
  rssMiB,
  sampleMemory,
  signIn,
  startServer,
  type RunningServer,
} from "./lib";

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const DISCONNECTS = 3;
const CHUNK_BYTES = 8 * 1024 * 1024;
const MiB = 1024 * 1024;
const viewedId = "benchmovie00001";

const { root, db } = await prepareStorage("upload");
// The film a viewer watches while the upload runs.
const viewed = movieVideoPath(viewedId, root);
fs.mkdirSync(path.dirname(viewed), { recursive: true });
fs.writeFileSync(viewed, Buffer.alloc(64 * MiB, 3));
db.insert(movies)
  .values({
    id: viewedId,
    name: "Watched meanwhile",
    categoryId: "benchcategory01",
    providerId: "benchprovider01",
    status: "ready",
    approved: true,
    videoFile: `${viewedId}.mp4`,
    sizeBytes: 64 * MiB,
  })
  .run();
db.$client.close();

// The uploaded "film": an ISO media header, so the content check passes, then filler (its processing fails, as it should).
const fileBytes = SIZE_MB * MiB;
const fileHead = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), Buffer.alloc(12)]);
const source = path.join(root, "bench-source.mp4");
{
  const out = fs.openSync(source, "w");
  fs.writeSync(out, fileHead);
  const filler = Buffer.alloc(MiB, 7);
  for (let written = fileHead.length; written < fileBytes; written += filler.length)
    fs.writeSync(out, filler, 0, Math.min(filler.length, fileBytes - written));
  fs.closeSync(out);
}

const server = await startServer(root, 3603);
const cookie = await signIn(server.url, "/cp", "provider@bench.test");
const viewerCookie = await signIn(server.url, "/login", "viewer@bench.test");

type ViewerProbe = { stop: () => Promise<{ ranges: number[]; pages: number[] }> };

/** A viewer seeking around another film and opening the catalogue, one request after another, until stopped. */
function viewerProbe(): ViewerProbe {
  const ranges: number[] = [];
  const pages: number[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      if (i % 5 === 4) {
        const page = await download(`${server.url}/movies`, { Cookie: viewerCookie });
        if (page.status !== 200) throw new Error(`/movies answered ${page.status}`);
        pages.push(page.ms);
      } else {
        const start = Math.floor(Math.random() * 63) * MiB;
        const range = await download(`${server.url}/api/files/${viewedId}.mp4`, {
          Cookie: viewerCookie,
          Range: `bytes=${start}-${start + MiB - 1}`,
        });
        if (range.status !== 206 || range.bytes !== MiB)
          throw new Error(`range answered ${range.status} with ${range.bytes} bytes`);
        ranges.push(range.ms);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { ranges, pages };
    },
  };
}

function multipartUpload(): Promise<void> {
  const boundary = `----kallo-bench-${Date.now()}`;
  const head = Buffer.from(
    [
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench multipart\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="Category"\r\n\r\nbenchcategory01\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="movie"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    ].join(""),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise<void>((resolve, reject) => {
    const request = http.request(
      `${server.url}/provider/uploads`,
      {
        method: "POST",
        headers: {
          Cookie: cookie,
          Origin: server.url,
          Accept: "application/json",
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": head.length + fileBytes + tail.length,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          response.statusCode === 201
            ? resolve()
            : reject(new Error(`multipart upload answered ${response.statusCode}`)),
        );
      },
    );
    request.on("error", reject);
    request.write(head);
    const file = fs.createReadStream(source, { highWaterMark: MiB });
    file.pipe(request, { end: false });
    file.on("end", () => request.end(tail));
  });
}

/** A tus upload of the source; with `disconnects`, the client aborts at that many random points and resumes. Returns the bytes sent twice. */
function resumableUpload(name: string, disconnects: number): Promise<{ resentBytes: number }> {
  const cutPoints = Array.from({ length: disconnects }, () => Math.floor(fileBytes * (0.1 + 0.8 * Math.random()))).sort(
    (a, b) => a - b,
  );
  let resentBytes = 0;
  let lastSent = 0;
  return new Promise((resolve, reject) => {
    const upload = new Upload(fs.createReadStream(source), {
      endpoint: `${server.url}/provider/uploads/tus`,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 500, 1000],
      storeFingerprintForResuming: false,
      headers: { Cookie: cookie, Origin: server.url },
      metadata: { name, Category: "benchcategory01", filename: "bench.mp4" },
      onProgress: (sent) => {
        lastSent = sent;
        if (cutPoints.length > 0 && sent >= cutPoints[0]) {
          cutPoints.shift();
          void upload.abort().then(async () => {
            await new Promise((resume) => setTimeout(resume, 200));
            const head = await fetch(upload.url!, {
              method: "HEAD",
              headers: { "Tus-Resumable": "1.0.0", Cookie: cookie },
            });
            const kept = Number(head.headers.get("Upload-Offset"));
            resentBytes += Math.max(0, lastSent - kept);
            upload.start();
          });
        }
      },
      onSuccess: () => resolve({ resentBytes }),
      onError: reject,
    });
    upload.start();
  });
}

type Run = {
  name: string;
  seconds: number;
  growthMiB: number;
  ranges: number[];
  pages: number[];
  resentBytes?: number;
};

async function measure(name: string, work: () => Promise<{ resentBytes: number } | void>): Promise<Run> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const baseline = rssMiB(server.process.pid!);
  const memory = sampleMemory(server.process.pid!, 20);
  const probe = viewerProbe();
  const started = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const { ranges, pages } = await probe.stop();
  const peak = memory.stop();
  return {
    name,
    seconds,
    growthMiB: peak - baseline,
    ranges,
    pages,
    resentBytes: result ? result.resentBytes : undefined,
  };
}

async function idleViewer(seconds: number): Promise<Run> {
  return measure("no upload (the viewer alone)", () => new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
}

const runs: Run[] = [];
runs.push(await idleViewer(5));
runs.push(await measure("multipart POST, one request", multipartUpload));
runs.push(await measure("resumable (tus), uninterrupted", () => resumableUpload("Bench tus", 0)));
runs.push(
  await measure(`resumable (tus), ${DISCONNECTS} disconnects`, () => resumableUpload("Bench tus cut", DISCONNECTS)),
);

const ms = (values: number[], p: number) => (values.length ? `${percentile(values, p).toFixed(1)}` : "-");
console.log(
  `\nUpload of ${SIZE_MB} MB over loopback to the studio (server peak memory growth; a viewer's latency meanwhile, ms)`,
);
for (const run of runs) {
  const upload = run.name.startsWith("no upload")
    ? ""
    : `${run.seconds.toFixed(1)} s, ${(SIZE_MB / run.seconds).toFixed(0)} MB/s, memory +${run.growthMiB.toFixed(0)} MiB; `;
  console.log(
    `  ${run.name}: ${upload}1 MiB range p50 ${ms(run.ranges, 50)} / p99 ${ms(run.ranges, 99)} (${run.ranges.length}); /movies p50 ${ms(run.pages, 50)} / p99 ${ms(run.pages, 99)} (${run.pages.length})`,
  );
}
const whole = runs[2];
const cut = runs[3];
console.log(
  `  ${DISCONNECTS} disconnects cost ${(cut.seconds - whole.seconds).toFixed(1)} s (${((cut.seconds / whole.seconds - 1) * 100).toFixed(0)} %) against the uninterrupted run;`,
);
console.log(
  `  bytes sent twice: ${((cut.resentBytes ?? 0) / 1024).toFixed(0)} KiB in all (${((cut.resentBytes ?? 0) / DISCONNECTS / 1024).toFixed(0)} KiB a disconnect; goal: under one request, ${CHUNK_BYTES / MiB} MiB)`,
);
await stop(server);

async function stop(running: RunningServer) {
  await running.stop();
  fs.rmSync(root, { recursive: true, force: true });
}

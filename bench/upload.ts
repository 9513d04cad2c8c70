/**
 * Upload: a 1 GB multipart upload to the studio endpoint, generated on the
 * fly (nothing is held in the client either). Prints throughput and the
 * server's peak memory growth. Run with `npm run bench:upload` after `npm run build`.
 */
import http from "node:http";
import { eq } from "drizzle-orm";
import { migrateDatabase, openDatabase } from "../app/db/client.server";
import { movies } from "../app/db/schema";
import { prepareStorage, rssMiB, sampleMemory, signIn, startServer } from "./lib";

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const { root, db } = await prepareStorage("upload");
db.$client.close();
const server = await startServer(root, 3603);
const cookie = await signIn(server.url, "/cp", "provider@bench.test");

const boundary = `----kallo-bench-${Date.now()}`;
const head = Buffer.from(
  [
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBench upload\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="Category"\r\n\r\nbenchcategory01\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="movie"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  ].join(""),
);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
// An ISO media header, so the content check passes; the rest is filler.
const fileHead = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), Buffer.alloc(12)]);
const chunk = Buffer.alloc(1024 * 1024, 7);
const fileBytes = SIZE_MB * 1024 * 1024;
const total = head.length + fileHead.length + fileBytes + tail.length;

const baseline = rssMiB(server.process.pid!);
const memory = sampleMemory(server.process.pid!, 20);
const started = process.hrtime.bigint();
const status = await new Promise<number>((resolve, reject) => {
  const request = http.request(
    `${server.url}/provider/uploads`,
    { method: "POST", headers: { Cookie: cookie, Accept: "application/json", "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": total } },
    (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    },
  );
  request.on("error", reject);
  let sent = 0;
  request.write(head);
  request.write(fileHead);
  const pump = () => {
    while (sent < fileBytes) {
      const piece = sent + chunk.length <= fileBytes ? chunk : chunk.subarray(0, fileBytes - sent);
      sent += piece.length;
      if (!request.write(piece)) return void request.once("drain", pump);
    }
    request.end(tail);
  };
  pump();
});
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const peak = memory.stop();
if (status !== 201) throw new Error(`upload answered ${status}`);

// The filler is not a film: remove the row before its processing job would fail on it.
const check = openDatabase(`${root}/data.db`);
migrateDatabase(check);
const stored = check.select().from(movies).where(eq(movies.name, "Bench upload")).get();
check.$client.close();

console.log(`\nUpload of ${SIZE_MB} MB (multipart, loopback) to /provider/uploads`);
console.log(`  ${(SIZE_MB / seconds).toFixed(0)} MB/s (${seconds.toFixed(1)} s), stored size ${stored?.sizeBytes ?? 0} bytes`);
console.log(`  server memory: ${baseline.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB (growth ${(peak - baseline).toFixed(0)} MiB)`);
await server.stop();
(await import("node:fs")).rmSync(root, { recursive: true, force: true });

/**
 * Range serving: throughput of a 512 MB film through /api/files/... against
 * nginx (sendfile) serving the same file, and first-byte latency of random
 * seeks. Prints numbers; run with `npm run bench:range` after `npm run build`.
 * Needs nginx (Debian: apt-get install nginx-light).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { movies } from "../app/db/schema";
import { movieVideoPath } from "../app/media/storage.server";
import { download, percentile, prepareStorage, sampleMemory, signIn, startServer } from "./lib";

const SIZE_MB = Number(process.env.BENCH_SIZE_MB ?? 512);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SEEKS = Number(process.env.BENCH_SEEKS ?? 200);
const movieId = "benchmovie00001";

const { root, db } = await prepareStorage("range");
const file = movieVideoPath(movieId, root);
fs.mkdirSync(path.dirname(file), { recursive: true });
execFileSync("dd", ["if=/dev/urandom", `of=${file}`, "bs=1M", `count=${SIZE_MB}`, "status=none"]);
const size = fs.statSync(file).size;
// nginx's worker runs as an unprivileged user: let it read the film.
for (let dir = path.dirname(file); dir.startsWith(root); dir = path.dirname(dir)) fs.chmodSync(dir, 0o755);
fs.chmodSync(file, 0o644);
db.insert(movies)
  .values({
    id: movieId,
    name: "Bench",
    categoryId: "benchcategory01",
    providerId: "benchprovider01",
    status: "ready",
    approved: true,
    videoFile: `${movieId}.mp4`,
    sizeBytes: size,
  })
  .run();
db.$client.close();

const nginxDir = path.join(root, "nginx");
fs.mkdirSync(nginxDir, { recursive: true });
const nginxPort = 3601;
fs.writeFileSync(
  path.join(nginxDir, "nginx.conf"),
  `daemon off; worker_processes 1; pid ${nginxDir}/nginx.pid; error_log ${nginxDir}/error.log;
events { worker_connections 64; }
http { access_log off; sendfile on; tcp_nopush on; types { video/mp4 mp4; }
  client_body_temp_path ${nginxDir}; proxy_temp_path ${nginxDir}; fastcgi_temp_path ${nginxDir}; uwsgi_temp_path ${nginxDir}; scgi_temp_path ${nginxDir};
  server { listen 127.0.0.1:${nginxPort}; location /files/ { alias ${path.dirname(file)}/; } } }`,
);
const nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((candidate) => fs.existsSync(candidate));
if (!nginxBinary) throw new Error("nginx is not installed (apt-get install nginx-light)");
const nginx = spawn(nginxBinary, ["-c", path.join(nginxDir, "nginx.conf"), "-p", nginxDir], { stdio: "inherit" });
process.once("exit", () => nginx.kill("SIGTERM"));
const server = await startServer(root, 3602);
const cookie = await signIn(server.url, "/login", "viewer@bench.test");
await new Promise((resolve) => setTimeout(resolve, 500));

const targets = {
  kallo: { url: `${server.url}/api/files/${movieId}.mp4`, headers: { Cookie: cookie } },
  nginx: { url: `http://127.0.0.1:${nginxPort}/files/video.mp4`, headers: {} },
};

const results: Record<string, { mbPerSecond: number; seekP50: number; seekP95: number }> = {};
const serverBaseline = (await import("./lib")).rssMiB(server.process.pid!);
const memory = sampleMemory(server.process.pid!);
for (const [name, target] of Object.entries(targets)) {
  await download(target.url, target.headers); // warm the page cache
  const speeds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = await download(target.url, target.headers);
    if (result.bytes !== size)
      throw new Error(`${name}: got ${result.bytes} of ${size} bytes (status ${result.status})`);
    speeds.push(result.bytes / 1024 / 1024 / (result.ms / 1000));
  }
  const seeks: number[] = [];
  for (let i = 0; i < SEEKS; i++) {
    const start = Math.floor(Math.random() * (size - 65536));
    const result = await download(target.url, { ...target.headers, Range: `bytes=${start}-${start + 65535}` });
    if (result.status !== 206 || result.bytes !== 65536)
      throw new Error(`${name}: seek answered ${result.status} with ${result.bytes} bytes`);
    seeks.push(result.ttfbMs);
  }
  results[name] = { mbPerSecond: Math.max(...speeds), seekP50: percentile(seeks, 50), seekP95: percentile(seeks, 95) };
}
const peak = memory.stop();

console.log(
  `\nRange serving, ${SIZE_MB} MB file over loopback (best of ${ROUNDS} full downloads; ${SEEKS} random 64 KiB seeks)`,
);
for (const [name, r] of Object.entries(results)) {
  console.log(
    `  ${name.padEnd(6)} ${r.mbPerSecond.toFixed(0).padStart(6)} MB/s   seek first byte p50 ${r.seekP50.toFixed(2)} ms, p95 ${r.seekP95.toFixed(2)} ms`,
  );
}
console.log(`  ratio kallo/nginx throughput: ${(results.kallo.mbPerSecond / results.nginx.mbPerSecond).toFixed(2)}`);
console.log(
  `  server memory: ${serverBaseline.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB while serving (growth ${(peak - serverBaseline).toFixed(0)} MiB)`,
);

await server.stop();
nginx.kill("SIGTERM");
fs.rmSync(root, { recursive: true, force: true });

/**
 * bench:restore — a new, empty box given back the service from the bucket
 * alone: the films are in the bucket (MEDIA_STORE=s3), the database's
 * Litestream replica in its `db/` folder (LITESTREAM_REPLICA_URL=bucket).
 * Times `npm run restore -- --from-replica` into an empty STORAGE_DIR, the
 * server's start, and a viewer's first playlist and first film bytes (the
 * playlist fetched back from the bucket on that first request). One
 * OpenStack Swift node on loopback stands in for the bucket (ports
 * BENCH_PORT_BASE + 3 to + 7, from 9385). Needs `npm run build`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { movies } from "../app/db/schema";
import { runFfmpeg } from "../app/media/ffmpeg.server";
import { startSwift, swiftAvailable } from "../tests/fixtures/s3-servers";
import { prepareStorage, signIn, startServer } from "./lib";

const BASE = Number(process.env.BENCH_PORT_BASE ?? 9385);

function run(script: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited ${code}`))));
  });
}

async function main() {
  // Swift: Litestream 0.3 finds no backups in s3rver's listings (its generations' prefixes).
  if (!swiftAvailable()) throw new Error("needs OpenStack Swift and memcached (see .ci/run)");
  const bucket = await startSwift(BASE + 3);
  const env = { ...bucket.env, LITESTREAM_REPLICA_URL: "bucket", LADDER: "144,240" };
  // Before anything reads the settings: this process replicates into the same bucket.
  Object.assign(process.env, env);
  const { root, db } = await prepareStorage("restore-source");
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-bench-new-box-"));
  const { startReplication } = await import("../scripts/litestream");
  try {
    // The old box: a film uploaded, laddered and sent to the bucket; the database replicated beside it.
    const film = path.join(root, "film.mp4");
    // prettier-ignore
    await runFfmpeg(["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=426x240:rate=25",
      "-t", "20", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", film]);
    const replication = startReplication(path.join(root, "data.db"), "bucket");
    const old = await startServer(root, BASE + 1, { env });
    const provider = await signIn(old.url, "/cp", "provider@bench.test");
    const form = new FormData();
    form.append("name", "Restored film");
    form.append("Category", "benchcategory01");
    form.append("movie", new Blob([fs.readFileSync(film)]), "film.mp4");
    const answer = await fetch(`${old.url}/provider/uploads`, {
      method: "POST",
      body: form,
      headers: { Cookie: provider, Accept: "application/json" },
    });
    const { movieId } = (await answer.json()) as { movieId: string };
    while (db.select({ store: movies.mediaStore }).from(movies).where(eq(movies.id, movieId)).get()?.store !== "s3")
      await new Promise((resolve) => setTimeout(resolve, 250));
    db.update(movies).set({ approved: true }).where(eq(movies.id, movieId)).run();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await old.stop();
    await replication.stop();
    db.$client.close();
    fs.rmSync(root, { recursive: true, force: true });
    console.log(`the old box is gone; its title ${movieId} and database live in the bucket only`);

    // The new box: nothing but the settings.
    const storage = path.join(fresh, "storage");
    const started = Date.now();
    await run("scripts/restore.ts", ["--from-replica"], { ...env, STORAGE_DIR: storage });
    const restored = Date.now();
    const server = await startServer(storage, BASE + 2, { env });
    const serving = Date.now();
    const viewer = await signIn(server.url, "/login", "viewer@bench.test");
    const page = await fetch(`${server.url}/WatchMovie?id=${movieId}`, { headers: { Cookie: viewer } });
    const playlist = await fetch(`${server.url}/stream/${movieId}/240p.m3u8`, { headers: { Cookie: viewer } });
    const text = await playlist.text();
    const address = /^(http.*)$/m.exec(text)?.[1];
    if (page.status !== 200 || playlist.status !== 200 || !address)
      throw new Error(`not serving: ${page.status} ${playlist.status}`);
    const bytes = await fetch(address, { headers: { Range: "bytes=0-65535" } });
    if (bytes.status !== 206) throw new Error(`the film answered ${bytes.status}`);
    const playing = Date.now();
    await server.stop();
    const s = (ms: number) => (ms / 1000).toFixed(1);
    console.log(`\nempty box → serving, films in the bucket, database from its replica:`);
    console.log(`  restore (litestream restore, integrity check)  ${s(restored - started)} s`);
    console.log(`  server start (migrations, workers, /healthz)   ${s(serving - restored)} s`);
    console.log(`  first page, playlist (fetched back) and bytes   ${s(playing - serving)} s`);
    console.log(`  in all                                          ${s(playing - started)} s`);
  } finally {
    await bucket.stop();
    fs.rmSync(fresh, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

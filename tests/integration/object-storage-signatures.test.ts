import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import { movies } from "~/db/schema";
import { runFfmpeg } from "~/media/ffmpeg.server";
import { objectStore, rungPlaylistText, signingTime } from "~/media/media-store.server";
import { startMediaJobs } from "~/jobs/media-jobs.server";
import { receiveMovieUpload } from "~/routes-support/title-requests.server";
import { startReplication } from "../../scripts/litestream";
import { startSwift, swiftAvailable, type S3Server } from "../fixtures/s3-servers";
import { addProvidersAndCategory } from "../fixtures/studio-rows";
import { keepServerState, serverGlobals } from "../fixtures/server-state";

/**
 * Against a server that checks V4 signatures — OpenStack Swift with s3api and
 * tempauth, one node on loopback — what s3rver cannot prove: the film in the
 * bucket is read only through a valid, unexpired signed address; and the
 * database's Litestream replica lives in the same bucket and restores a new
 * box. Skipped, saying so, where Swift is not installed (`.ci/run` installs it).
 */
const available = swiftAvailable();
if (!available)
  console.warn(
    "[swift] not installed (apt-get install swift-proxy swift-account swift-container swift-object memcached): skipped",
  );

const restoreServerState = keepServerState();
const globals = serverGlobals;
let swift: S3Server;
let root: string;
let db: DB;
let movieId: string;
const providerId = "provider0000001";
const categoryId = "category0000001";

function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  if (!available) return;
  const started = Date.now();
  swift = await startSwift();
  console.log(`[swift] one node with s3api up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-swift-it-"));
  Object.assign(process.env, swift.env, {
    STORAGE_DIR: root,
    DATABASE_PATH: path.join(root, "data.db"),
    LADDER: "144",
    S3_RETRY_SECONDS: "1",
  });
  delete globals.__kalloDb;
  delete globals.__kalloMediaJobs;
  delete globals.__kalloObjectStore;
  db = getDb();
  migrateDatabase(db);
  addProvidersAndCategory(db, [providerId], categoryId);
  const film = path.join(root, "film-source.mp4");
  // prettier-ignore
  await runFfmpeg(["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=256x144:rate=25",
    "-t", "3", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", film]);
  const form = new FormData();
  form.append("name", "Signed film");
  form.append("Category", categoryId);
  form.append("movie", new Blob([fs.readFileSync(film)]), "film.mp4");
  fs.rmSync(film);
  const result = await receiveMovieUpload(
    db,
    new Request("http://localhost/provider/Movieupload", { method: "POST", body: form }),
    { providerId, layout: "form", root, maxFileBytes: 50 * 1024 * 1024 },
  );
  if (!result.ok) throw new Error("upload refused");
  movieId = result.movieId;
  const runner = startMediaJobs();
  await runner.idle();
  await runner.stop();
  delete globals.__kalloMediaJobs;
}, 300_000);

afterAll(async () => {
  restoreServerState();
  await swift?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!available)("films in a bucket that checks signatures (OpenStack Swift s3api)", () => {
  it("sends the title there, checked, and plays it from the signed address of the playlist", async () => {
    expect(db.select({ store: movies.mediaStore }).from(movies).where(eq(movies.id, movieId)).get()?.store).toBe("s3");
    const address = /^(http.*)$/m.exec((await rungPlaylistText(db, movieId, 144))!)![1];
    const answer = await fetch(address, { headers: { Range: "bytes=0-63" } });
    expect(answer.status).toBe(206);
    expect(
      Buffer.from(await answer.arrayBuffer())
        .subarray(4, 8)
        .toString("latin1"),
    ).toBe("ftyp");
  });

  it("refuses a viewer without a signed address", async () => {
    const answer = await fetch(`${swift.endpoint}/${swift.bucket}/media/${movieId}/hls/144p.mp4`, {
      headers: { Range: "bytes=0-63" },
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(await answer.text()).not.toContain("ftyp");
  });

  it("refuses an expired address, and an address turned to another file", async () => {
    const key = `media/${movieId}/hls/144p.mp4`;
    const expired = await objectStore()!.signedGetUrl(key, signingTime(new Date(Date.now() - 2 * 3600_000)), 3600);
    const refused = await fetch(expired);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/expired/i);
    const valid = await objectStore()!.signedGetUrl(key, new Date(), 600);
    const turned = await fetch(valid.replace("144p.mp4", "144p.m3u8"));
    expect(turned.status).toBe(403);
    expect(await turned.text()).toMatch(/SignatureDoesNotMatch/);
  });

  it("keeps the database's Litestream replica in the same bucket, and a new box restores from it", async () => {
    const replication = startReplication(path.join(root, "data.db"), "bucket");
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      db.update(movies).set({ description: "written after the replica started" }).where(eq(movies.id, movieId)).run();
      // Litestream ships the WAL every second; it sends the last writes before it stops.
      await new Promise((resolve) => setTimeout(resolve, 2500));
    } finally {
      await replication.stop();
    }
    const objects = await objectStore()!.list("db/");
    expect(objects.length).toBeGreaterThan(0);

    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-swift-restore-"));
    try {
      const storage = path.join(fresh, "storage");
      const started = Date.now();
      const restored = await run("scripts/restore.ts", ["--from-replica"], {
        STORAGE_DIR: storage,
        DATABASE_PATH: path.join(storage, "data.db"),
        LITESTREAM_REPLICA_URL: "bucket",
      });
      expect(restored.output).toMatch(/from the replica/);
      expect(restored.code).toBe(0);
      console.log(`[swift] restored the database from the bucket in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const copy = openDatabase(path.join(storage, "data.db"));
      const row = copy.select().from(movies).where(eq(movies.id, movieId)).get();
      copy.$client.close();
      expect(row).toMatchObject({
        description: "written after the replica started",
        mediaStore: "s3",
        status: "ready",
      });
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  }, 180_000);

  it("names a key the bucket does not know, a secret that is not the key's, and a bucket that is not there, by their settings", async () => {
    const { ObjectStore, ObjectStoreError, describeBucketProblem } = await import("~/media/object-store.server");
    const { parseEnv } = await import("~/utils/env.server");
    const said: Record<string, string> = {};
    for (const [label, change] of [
      ["key", { S3_ACCESS_KEY_ID: "nosuchaccount:nosuchuser" }],
      ["secret", { S3_SECRET_ACCESS_KEY: "not-the-secret" }],
      ["bucket", { S3_BUCKET: "no-such-bucket" }],
    ] as const) {
      const settings = parseEnv({ ...swift.env, SESSION_SECRET: "x".repeat(32), ...change }).s3!;
      const store = new ObjectStore(settings);
      try {
        await store.check();
        said[label] = "ok";
      } catch (error) {
        expect(error).toBeInstanceOf(ObjectStoreError);
        said[label] =
          `${(error as InstanceType<typeof ObjectStoreError>).kind}: ${describeBucketProblem(error, settings)}`;
      } finally {
        store.client.destroy();
      }
    }
    console.log(`[swift] ${JSON.stringify(said)}`);
    // Swift cannot tell an unknown key from a wrong secret (it answers SignatureDoesNotMatch): both settings are named.
    expect(said.key).toMatch(
      /^auth: S3_SECRET_ACCESS_KEY: the secret is not the one of key "nosuchaccount:nosuchuser"/,
    );
    expect(said.key).toContain("check S3_ACCESS_KEY_ID as well");
    expect(said.secret).toMatch(/^auth: S3_SECRET_ACCESS_KEY: the secret is not the one of key/);
    expect(said.bucket).toMatch(/^no-bucket: S3_BUCKET: the bucket "no-such-bucket" does not exist/);
  }, 60_000);
});

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, migrateDatabase, type DB } from "~/db/client.server";
import { jobs, movieRenditions, movies } from "~/db/schema";
import { runFfmpeg } from "~/media/ffmpeg.server";
import {
  BUCKET_SEND_JOB,
  bucketHealth,
  checkBucket,
  locateTitleFile,
  objectStore,
  rungPlaylistText,
  TitleUnreachable,
} from "~/media/media-store.server";
import { movieDir, renditionPath } from "~/media/storage.server";
import { startMediaJobs } from "~/jobs/media-jobs.server";
import { receiveMovieUpload } from "~/routes-support/title-requests.server";
import { deleteTitle } from "~/services/title-lifecycle.server";
import { startS3rver, type S3Server } from "../fixtures/s3-servers";
import { freePort } from "../fixtures/ports";
import { addProvidersAndCategory } from "../fixtures/studio-rows";
import { keepServerState, serverGlobals } from "../fixtures/server-state";

/**
 * Films in an S3-compatible bucket, end to end against s3rver on loopback
 * (a real server speaking the protocol; it checks no signatures — that is
 * proven against Swift in object-storage-signatures.test.ts): an upload is
 * processed and laddered on the disk, sent to the bucket checked, and plays
 * from signed addresses; `media:move` both ways, killed in the middle; the
 * bucket down and back; a Litestream replica in the same bucket restored.
 */
const restoreServerState = keepServerState();
const globals = serverGlobals;

let root: string;
let fixtures: string;
let db: DB;
let s3: S3Server;
let film: string;
const providerId = "provider0000001";
const categoryId = "category0000001";

async function upload(name: string): Promise<string> {
  const form = new FormData();
  form.append("name", name);
  form.append("Category", categoryId);
  form.append("movie", new Blob([fs.readFileSync(film)]), "film.mp4");
  const result = await receiveMovieUpload(
    db,
    new Request("http://localhost/provider/Movieupload", { method: "POST", body: form }),
    { providerId, layout: "form", root, maxFileBytes: 50 * 1024 * 1024 },
  );
  if (!result.ok) throw new Error(`upload refused: ${JSON.stringify(result)}`);
  return result.movieId;
}

async function runJobsUntilIdle(): Promise<void> {
  const runner = startMediaJobs();
  await runner.idle();
  await runner.stop();
  delete globals.__kalloMediaJobs;
}

const titleStore = (movieId: string) =>
  db.select({ store: movies.mediaStore }).from(movies).where(eq(movies.id, movieId)).get()?.store;
const localFiles = (movieId: string) => {
  const dir = movieDir(movieId, root);
  return fs.existsSync(dir)
    ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.includes(".")).sort()
    : [];
};
const md5 = (buffer: Buffer) => createHash("md5").update(buffer).digest("hex");

function mediaMove(args: string[], onLine?: (line: string, child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/media-move.ts", ...args], {
      env: { ...process.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line) continue;
        output += `${line}\n`;
        onLine?.(line, child);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code, signal) => resolve({ code, signal, output }));
  });
}

beforeAll(async () => {
  s3 = await startS3rver(await freePort());
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-s3-it-"));
  fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-s3-fixtures-"));
  Object.assign(process.env, s3.env, {
    STORAGE_DIR: root,
    DATABASE_PATH: path.join(root, "data.db"),
    MEDIA_JOBS: "1",
    LADDER: "144,240",
    S3_RETRY_SECONDS: "1",
    S3_TIMEOUT_SECONDS: "3",
  });
  delete globals.__kalloDb;
  delete globals.__kalloMediaJobs;
  delete globals.__kalloObjectStore;
  db = getDb();
  migrateDatabase(db);
  addProvidersAndCategory(db, [providerId], categoryId);
  film = path.join(fixtures, "film.mp4");
  // prettier-ignore
  await runFfmpeg(["-y", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=426x240:rate=25",
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "4", "-shortest", "-c:v", "libx264",
    "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart", film]);
}, 300_000);

afterAll(async () => {
  restoreServerState();
  await s3?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
  if (fixtures) fs.rmSync(fixtures, { recursive: true, force: true });
});

describe("a film uploaded with MEDIA_STORE=s3", () => {
  let movieId: string;

  it("is laddered on the disk, then sent to the bucket checked, and only then leaves the disk", async () => {
    movieId = await upload("Bucket film");
    await runJobsUntilIdle();
    expect(db.select({ status: movies.status }).from(movies).where(eq(movies.id, movieId)).get()?.status).toBe("ready");
    expect(titleStore(movieId)).toBe("s3");
    const sendJobs = db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, BUCKET_SEND_JOB), eq(jobs.movieId, movieId)))
      .all();
    expect(sendJobs.map((job) => job.status)).toEqual(["done"]);
    // The film and its rungs left the disk; posters and playlists stay as copies the box serves.
    const left = localFiles(movieId);
    expect(left).toContain("hls/144p.m3u8");
    expect(left).toContain("poster-card.jpg");
    expect(left.filter((file) => file.endsWith(".mp4"))).toEqual([]);
    const objects = (await objectStore()!.list(`media/${movieId}/`)).map(
      (object) => object.key.split(`${movieId}/`)[1],
    );
    expect(objects).toEqual(
      expect.arrayContaining(["video.mp4", "hls/144p.mp4", "hls/240p.mp4", "hls/144p.m3u8", "poster-card.jpg"]),
    );
  }, 300_000);

  it("plays from signed addresses: the rung's playlist names one address per rung, whose byte ranges are the segments", async () => {
    const text = (await rungPlaylistText(db, movieId, 240))!;
    const lines = text.split("\n");
    const addresses = new Set(lines.filter((line) => line.startsWith("http")));
    expect(addresses.size).toBe(1);
    const address = [...addresses][0];
    expect(new URL(address).searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(text).toContain(`#EXT-X-MAP:URI="${address}"`);
    const init = /#EXT-X-MAP:URI="[^"]+",BYTERANGE="(\d+)@(\d+)"/.exec(text)!;
    const [length, offset] = [Number(init[1]), Number(init[2])];
    const answer = await fetch(address, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
    expect(answer.status).toBe(206);
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(bytes.length).toBe(length);
    expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
    // The byte route names the same file in the bucket.
    expect(locateTitleFile(db, movieId, renditionPath(movieId, 240, "media", root))).toEqual({
      where: "bucket",
      key: `media/${movieId}/hls/240p.mp4`,
    });
  });

  it("fetches a playlist or poster back from the bucket when the disk lost it (a box restored from the replica)", async () => {
    const playlist = renditionPath(movieId, 144, "playlist", root);
    const before = fs.readFileSync(playlist);
    fs.rmSync(playlist);
    const text = await rungPlaylistText(db, movieId, 144);
    expect(text).toContain("#EXTM3U");
    expect(md5(fs.readFileSync(playlist))).toBe(md5(before));
  });

  it("moves to the disk and back with media:move, each time killed in the middle and run again", async () => {
    const second = await upload("Second film");
    await runJobsUntilIdle();
    expect(titleStore(second)).toBe("s3");
    const reference = md5(
      Buffer.from(
        await (await fetch(new URL(/^(http.*)$/m.exec((await rungPlaylistText(db, second, 240))!)![1]))).arrayBuffer(),
      ),
    );

    // --to local, killed after its first title: that one is home, the other still in the bucket and still playable.
    const dry = await mediaMove(["--to", "local", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.output).toMatch(/2 titles on the bucket to move to this disk \(dry run/);
    expect(titleStore(movieId)).toBe("s3");
    const killed = await mediaMove(["--to", "local"], (line, child) => {
      if (/ 1\/2 .*checked/.test(line)) child.kill("SIGKILL");
    });
    expect(killed.signal).toBe("SIGKILL");
    expect([titleStore(movieId), titleStore(second)].sort()).toEqual(["local", "s3"]);
    const again = await mediaMove(["--to", "local"]);
    expect(again.code).toBe(0);
    expect(again.output).toMatch(/1 titles on the bucket/);
    expect([titleStore(movieId), titleStore(second)]).toEqual(["local", "local"]);
    expect(localFiles(second)).toEqual(expect.arrayContaining(["video.mp4", "hls/144p.mp4", "hls/240p.mp4"]));
    expect(md5(fs.readFileSync(renditionPath(second, 240, "media", root)))).toBe(reference);
    expect(await objectStore()!.list(`media/${second}/`)).toEqual([]);
    // Local again: the playlist names our own byte route (relative), no signed address.
    expect(await rungPlaylistText(db, second, 240)).not.toMatch(/X-Amz-Signature/);

    // --to s3, killed as soon as it starts sending: nothing was removed from the disk, the rerun finishes.
    const toBucket = await mediaMove(["--to", "s3"], (line, child) => {
      if (/ 1\/2 .*checked/.test(line)) child.kill("SIGKILL");
    });
    expect(toBucket.signal).toBe("SIGKILL");
    const rerun = await mediaMove(["--to", "s3"]);
    expect(rerun.code).toBe(0);
    expect([titleStore(movieId), titleStore(second)]).toEqual(["s3", "s3"]);
    expect(localFiles(second).filter((file) => file.endsWith(".mp4"))).toEqual([]);
    const address = /^(http.*)$/m.exec((await rungPlaylistText(db, second, 240))!)![1];
    expect(md5(Buffer.from(await (await fetch(address)).arrayBuffer()))).toBe(reference);
  }, 600_000);

  it("keeps serving while the bucket is down: the title says it cannot be reached, a new upload plays from the disk, and is sent when the bucket is back", async () => {
    await s3.pause();
    const health = await checkBucket({ force: true });
    expect(health).toMatchObject({ configured: true, ok: false });
    await expect(rungPlaylistText(db, movieId, 240)).rejects.toBeInstanceOf(TitleUnreachable);

    const third = await upload("Made while the bucket is down");
    const runner = startMediaJobs();
    // Processed and laddered; the send fails and waits its turn.
    const until = Date.now() + 240_000;
    let failedTries = 0;
    while (Date.now() < until) {
      const row = db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, BUCKET_SEND_JOB), eq(jobs.movieId, third)))
        .get();
      if (row?.status === "queued" && row.error) {
        failedTries = row.attempts;
        expect(row.runAfter?.getTime() ?? 0).toBeGreaterThan(Date.now() - 1000);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(failedTries).toBeGreaterThanOrEqual(1);
    expect(db.select({ status: movies.status }).from(movies).where(eq(movies.id, third)).get()?.status).toBe("ready");
    expect(titleStore(third)).toBe("local");
    // Nothing was removed from the disk: it plays from the box.
    expect(localFiles(third)).toEqual(expect.arrayContaining(["video.mp4", "hls/144p.mp4", "hls/240p.mp4"]));
    expect(await rungPlaylistText(db, third, 240)).not.toMatch(/X-Amz-Signature/);

    await s3.resume();
    await runner.idle();
    await runner.stop();
    delete globals.__kalloMediaJobs;
    expect(titleStore(third)).toBe("s3");
    expect(bucketHealth()).toMatchObject({ ok: true });
    expect(localFiles(third).filter((file) => file.endsWith(".mp4"))).toEqual([]);
  }, 300_000);

  it("makes a rung a title held in the bucket lacks (a longer LADDER) from its film fetched back, and sends it there", async () => {
    const held = await upload("Longer ladder");
    await runJobsUntilIdle();
    expect(titleStore(held)).toBe("s3");
    // As if LADDER had been 144 when it was made: its 240p rung is nowhere.
    db.delete(movieRenditions)
      .where(and(eq(movieRenditions.movieId, held), eq(movieRenditions.rung, 240)))
      .run();
    fs.rmSync(renditionPath(held, 240, "playlist", root));
    await objectStore()!.deleteKeys([`media/${held}/hls/240p.mp4`, `media/${held}/hls/240p.m3u8`]);
    expect(localFiles(held).filter((file) => file.endsWith(".mp4"))).toEqual([]);

    // The next start's backfill queues its ladder job; the film comes back, 240p is made and goes to the bucket.
    await runJobsUntilIdle();
    const rung = db
      .select({ status: movieRenditions.status })
      .from(movieRenditions)
      .where(and(eq(movieRenditions.movieId, held), eq(movieRenditions.rung, 240)))
      .get();
    expect(rung?.status).toBe("ready");
    const objects = (await objectStore()!.list(`media/${held}/`)).map((object) => object.key.split(`${held}/`)[1]);
    expect(objects).toEqual(expect.arrayContaining(["video.mp4", "hls/240p.mp4", "hls/240p.m3u8"]));
    expect(localFiles(held).filter((file) => file.endsWith(".mp4"))).toEqual([]);
    expect(await rungPlaylistText(db, held, 240)).toContain("X-Amz-Signature");
  }, 300_000);

  it("removes a deleted title's objects from the bucket", async () => {
    const doomed = await upload("Short-lived");
    await runJobsUntilIdle();
    expect((await objectStore()!.list(`media/${doomed}/`)).length).toBeGreaterThan(0);
    expect(deleteTitle(db, doomed, { id: providerId, role: "provider" }, root)).toBe("deleted");
    await runJobsUntilIdle();
    expect(await objectStore()!.list(`media/${doomed}/`)).toEqual([]);
    expect(db.select().from(movieRenditions).where(eq(movieRenditions.movieId, doomed)).all()).toEqual([]);
  }, 300_000);
});

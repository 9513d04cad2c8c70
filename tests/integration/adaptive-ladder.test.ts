import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, migrateDatabase, type DB } from "~/db/client.server";
import { jobs, movieRenditions, movies } from "~/db/schema";
import { probeMedia } from "~/media/ffmpeg.server";
import { makeVideoFixture } from "../fixtures/media";
import { parseMediaPlaylist, playlistStats } from "~/media/hls";
import { DEFAULT_LADDER } from "~/media/ladder";
import { movieDir, movieHlsDir, renditionPath } from "~/media/storage.server";
import type { JobRunner } from "~/services/jobs.server";
import { startMediaJobs } from "~/jobs/media-jobs.server";
import { deleteTitle } from "~/services/title-lifecycle.server";
import { av1Progress, enqueueMissingLadders, LADDER_JOB } from "~/services/renditions.server";
import { receiveMovieUpload } from "~/routes-support/title-requests.server";
import { addProvidersAndCategory } from "../fixtures/studio-rows";

/**
 * The adaptive ladder end to end, as the server runs it: an upload, the media
 * job runner of `startMediaJobs` (first rungs before the title is ready, the
 * rest in a `make-ladder` job), a restart in the middle, and the backfill.
 * The server's environment points at a temporary STORAGE_DIR and database.
 */
const savedEnv = {
  STORAGE_DIR: process.env.STORAGE_DIR,
  DATABASE_PATH: process.env.DATABASE_PATH,
  LADDER: process.env.LADDER,
  MEDIA_JOBS: process.env.MEDIA_JOBS,
};
const globals = globalThis as unknown as { __kalloDb?: DB; __kalloMediaJobs?: JobRunner };

let root: string;
let fixtures: string;
let db: DB;
let runner: JobRunner | null = null;
let movieId: string;
const providerId = "provider0000001";
const categoryId = "category0000001";
const FIRST_PASS = [144];
/** The rungs left finished when a restart interrupts the 360p encode. */
const FINISHED_BEFORE_CRASH = [144, 240];
const ALL_RUNGS = [144, 240, 360];

/**
 * What the server process does at start: the backfill, then the media job runner picking up unfinished jobs
 * (one a killed process was running waits 30 s in the server; here it goes again at once).
 */
function startServerJobs(): JobRunner {
  runner = startMediaJobs({ crashBackoffMs: () => 0 });
  return runner;
}

/** The server process stops (its runner finishes what it is doing; a crash is simulated in the database). */
async function stopServerJobs() {
  await runner?.stop();
  runner = null;
  delete globals.__kalloMediaJobs;
}

async function runServerJobs() {
  const jobsRunner = startServerJobs();
  await jobsRunner.idle();
  await stopServerJobs();
}

/** The title's rows of one family (H.264 by default), lowest rung first. */
const renditionRows = (codec: "h264" | "av1" = "h264") =>
  db
    .select()
    .from(movieRenditions)
    .where(and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.codec, codec)))
    .orderBy(movieRenditions.rung)
    .all();
const readyRungs = (codec: "h264" | "av1" = "h264") =>
  renditionRows(codec)
    .filter((row) => row.status === "ready")
    .map((row) => row.rung);
const ladderJobs = () =>
  db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, LADDER_JOB), eq(jobs.movieId, movieId)))
    .all();
const fileIdentity = (file: string) => {
  const stat = fs.statSync(file);
  return { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size };
};

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-ladder-it-"));
  fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-ladder-fixtures-"));
  process.env.STORAGE_DIR = root;
  process.env.DATABASE_PATH = path.join(root, "data.db");
  process.env.MEDIA_JOBS = "1";
  delete process.env.LADDER;
  // This file's own server process: no connection or runner from elsewhere.
  delete globals.__kalloDb;
  delete globals.__kalloMediaJobs;
  db = getDb();
  migrateDatabase(db);
  addProvidersAndCategory(db, [providerId], categoryId);
  // Which rungs were ready at the moment a title became ready (same transaction as the update).
  db.$client.exec(`
    CREATE TEMP TABLE ready_moments (movie_id TEXT NOT NULL, ready_rungs TEXT, ladder_jobs INTEGER NOT NULL);
    CREATE TEMP TRIGGER record_ready_moment AFTER UPDATE OF status ON movies
    WHEN NEW.status = 'ready' AND OLD.status <> 'ready'
    BEGIN
      INSERT INTO ready_moments
      SELECT NEW.id,
        (SELECT group_concat(rung) FROM (SELECT rung FROM movie_renditions WHERE movie_id = NEW.id AND status = 'ready' ORDER BY rung)),
        (SELECT count(*) FROM jobs WHERE kind = '${LADDER_JOB}' AND movie_id = NEW.id);
    END;
  `);
  // A 4-second 640x360 film with sound: the ladder gives it 144p, 240p and 360p.
  const film = await makeVideoFixture(fixtures, "mp4-faststart", 4, "640x360");
  const form = new FormData();
  form.append("name", "Ladder");
  form.append("Category", categoryId);
  form.append("movie", new Blob([fs.readFileSync(film)]), "film.mp4");
  const result = await receiveMovieUpload(
    db,
    new Request("http://localhost/provider/Movieupload", { method: "POST", body: form }),
    {
      providerId,
      layout: "form",
      root,
      maxFileBytes: 50 * 1024 * 1024,
    },
  );
  if (!result.ok) throw new Error(`upload refused: ${JSON.stringify(result)}`);
  movieId = result.movieId;
});

afterAll(async () => {
  await stopServerJobs();
  globals.__kalloDb?.$client.close();
  delete globals.__kalloDb;
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  if (root) fs.rmSync(root, { recursive: true, force: true });
  if (fixtures) fs.rmSync(fixtures, { recursive: true, force: true });
});

describe("the adaptive ladder of an uploaded film", () => {
  it("is playable at 144p the moment it is ready, and gets 240p and 360p, then their AV1 + Opus twins, from the make-ladder job", async () => {
    await runServerJobs();
    expect(db.select({ status: movies.status }).from(movies).where(eq(movies.id, movieId)).get()?.status).toBe("ready");
    const moments = db.$client
      .prepare("SELECT ready_rungs AS rungs, ladder_jobs AS ladderJobs FROM ready_moments WHERE movie_id = ?")
      .all(movieId);
    expect(moments).toEqual([{ rungs: FIRST_PASS.join(","), ladderJobs: 0 }]);
    expect(readyRungs()).toEqual(ALL_RUNGS);
    // The AV1 rungs (LADDER_CODECS defaults to both families), made after every H.264 rung.
    expect(readyRungs("av1")).toEqual(ALL_RUNGS);
    // What the administrator's list says of them.
    expect(av1Progress(db)).toMatchObject({ ready: 3, pending: 0, failed: 0, titlesQueued: 0 });
    expect(av1Progress(db).bytes).toBe(renditionRows("av1").reduce((sum, row) => sum + row.sizeBytes, 0));
    const h264Done = Math.max(...renditionRows().map((row) => row.readyAt!.getTime()));
    for (const row of renditionRows("av1")) expect(row.readyAt!.getTime()).toBeGreaterThanOrEqual(h264Done);
    expect(ladderJobs().map((job) => job.status)).toEqual(["done"]);
    // Nothing left in tmp/ from the uploads or the encoders.
    expect(fs.readdirSync(path.join(root, "tmp"))).toEqual([]);
  });

  it("stores each rung as one fragmented MP4 whose playlist's byte ranges tile the file", async () => {
    const hls = movieHlsDir(movieId, root);
    expect(fs.readdirSync(hls).sort()).toEqual(
      ALL_RUNGS.flatMap((rung) => [`${rung}p.m3u8`, `${rung}p.mp4`, `${rung}p-av1.m3u8`, `${rung}p-av1.mp4`]).sort(),
    );
    const sizes = { 144: [256, 144], 240: [426, 240], 360: [640, 360] } as Record<number, [number, number]>;
    for (const row of [...renditionRows(), ...renditionRows("av1")]) {
      const media = renditionPath(movieId, row.rung, "media", root, 0, row.codec);
      const size = fs.statSync(media).size;
      const playlist = parseMediaPlaylist(
        fs.readFileSync(renditionPath(movieId, row.rung, "playlist", root, 0, row.codec), "utf8"),
      );
      expect(playlist.uri).toBe(row.codec === "av1" ? `${row.rung}p-av1.mp4` : `${row.rung}p.mp4`);
      expect(playlist.init.offset).toBe(0);
      expect(playlist.init.length).toBeGreaterThan(0);
      // Init section, then every segment right after the one before, to the file's last byte.
      let next = playlist.init.length;
      for (const segment of playlist.segments) {
        expect(segment.offset).toBe(next);
        expect(segment.length).toBeGreaterThan(0);
        next = segment.offset + segment.length;
        expect(next).toBeLessThanOrEqual(size);
      }
      expect(next).toBe(size);
      // The init section is an ISO file's ftyp box followed by its moov.
      const head = Buffer.alloc(8);
      const handle = fs.openSync(media, "r");
      fs.readSync(handle, head, 0, 8, 0);
      fs.closeSync(handle);
      expect(head.toString("latin1", 4, 8)).toBe("ftyp");

      const stats = playlistStats(playlist);
      expect(stats.durationSeconds).toBeGreaterThan(3.5);
      expect(stats.durationSeconds).toBeLessThan(4.5);
      expect(row).toMatchObject({
        status: "ready",
        width: sizes[row.rung][0],
        height: sizes[row.rung][1],
        sizeBytes: size,
        bandwidth: stats.bandwidth,
        averageBandwidth: stats.averageBandwidth,
      });
      expect(row.averageBandwidth).toBeGreaterThan(0);
      expect(row.bandwidth).toBeGreaterThanOrEqual(row.averageBandwidth);
      expect(row.codecs).toMatch(row.codec === "av1" ? /^av01\.0\.\d\dM\.08,opus$/ : /^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
      expect(row.durationSeconds).toBeCloseTo(stats.durationSeconds, 3);
      expect(row.readyAt).toBeInstanceOf(Date);

      const probe = await probeMedia(media);
      expect(probe).toMatchObject({
        videoCodec: row.codec === "av1" ? "av1" : "h264",
        audioCodec: row.codec === "av1" ? "opus" : "aac",
        pixelFormat: "yuv420p",
        width: sizes[row.rung][0],
        height: sizes[row.rung][1],
      });
    }
    // Higher rungs cost more; an AV1 rung costs less than its H.264 twin.
    for (const codec of ["h264", "av1"] as const) {
      const rows = renditionRows(codec);
      for (let index = 1; index < rows.length; index++)
        expect(rows[index].averageBandwidth).toBeGreaterThan(rows[index - 1].averageBandwidth);
    }
    for (const twin of renditionRows("av1"))
      expect(twin.averageBandwidth).toBeLessThan(
        renditionRows().find((row) => row.rung === twin.rung)!.averageBandwidth,
      );
  });

  it("resumes a ladder stopped midway without making the finished rungs again", async () => {
    const kept = Object.fromEntries(
      FINISHED_BEFORE_CRASH.flatMap((rung) =>
        (["media", "playlist"] as const).map((kind) => {
          const file = renditionPath(movieId, rung, kind, root);
          return [file, fileIdentity(file)];
        }),
      ),
    );
    // The process died while encoding 360p: its job was running, its row pending, its files not yet moved in.
    db.update(jobs)
      .set({ status: "running", startedAt: new Date(), finishedAt: null })
      .where(and(eq(jobs.kind, LADDER_JOB), eq(jobs.movieId, movieId)))
      .run();
    db.update(movieRenditions)
      .set({ status: "pending", sizeBytes: 0, bandwidth: 0, averageBandwidth: 0, codecs: "", readyAt: null })
      .where(
        and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.codec, "h264"), eq(movieRenditions.rung, 360)),
      )
      .run();
    for (const kind of ["media", "playlist"] as const) fs.rmSync(renditionPath(movieId, 360, kind, root));
    expect(readyRungs()).toEqual(FINISHED_BEFORE_CRASH);

    await runServerJobs();

    expect(readyRungs()).toEqual(ALL_RUNGS);
    expect(fs.existsSync(renditionPath(movieId, 360, "media", root))).toBe(true);
    expect(fs.existsSync(renditionPath(movieId, 360, "playlist", root))).toBe(true);
    for (const [file, identity] of Object.entries(kept))
      expect(fileIdentity(file), path.basename(file)).toEqual(identity);
    // The interrupted job itself was run again: no second job for the same title.
    expect(ladderJobs()).toEqual([expect.objectContaining({ status: "done", attempts: 2 })]);
    const row = renditionRows().find((entry) => entry.rung === 360)!;
    expect(row.sizeBytes).toBe(fs.statSync(renditionPath(movieId, 360, "media", root)).size);
  });

  it("backfills a ready title without a ladder once, however often the backfill runs", () => {
    // Titles the backfill must leave alone: one with its whole ladder, one whose top rung failed, one still processing.
    const other = (id: string, status: "ready" | "processing") =>
      db.insert(movies).values({ id, name: id, categoryId, providerId, status, width: 640, height: 360 }).run();
    other("completeladder1", "ready");
    other("failedladder01", "ready");
    other("stillprocess01", "processing");
    for (const rung of ALL_RUNGS) {
      for (const codec of ["h264", "av1"] as const) {
        db.insert(movieRenditions)
          .values({ movieId: "completeladder1", rung, codec, width: 2, height: 2, status: "ready" })
          .run();
        db.insert(movieRenditions)
          .values({
            movieId: "failedladder01",
            rung,
            codec,
            width: 2,
            height: 2,
            status: rung === 360 ? "failed" : "ready",
          })
          .run();
      }
    }
    // A longer LADDER is a missing rung too, but never one above a title's own size.
    expect(enqueueMissingLadders(db, [144, 240, 360, 480, 720, 1080])).toBe(0);
    // A title from before AV1 (H.264 alone) gets its AV1 rungs once AV1 is on, and only then.
    other("beforeav10001", "ready");
    for (const rung of ALL_RUNGS)
      db.insert(movieRenditions).values({ movieId: "beforeav10001", rung, width: 2, height: 2, status: "ready" }).run();
    expect(enqueueMissingLadders(db, DEFAULT_LADDER, ["h264"])).toBe(0);
    expect(enqueueMissingLadders(db, DEFAULT_LADDER, ["h264", "av1"])).toBe(1);
    db.delete(jobs).where(eq(jobs.movieId, "beforeav10001")).run();
    db.delete(movies).where(eq(movies.id, "beforeav10001")).run();

    // Our title loses its ladder (from before ladders existed, say).
    fs.rmSync(movieHlsDir(movieId, root), { recursive: true });
    db.delete(movieRenditions).where(eq(movieRenditions.movieId, movieId)).run();

    expect(enqueueMissingLadders(db, DEFAULT_LADDER, ["h264", "av1"])).toBe(1);
    expect(enqueueMissingLadders(db, DEFAULT_LADDER, ["h264", "av1"])).toBe(0);
    const queued = db
      .select({ movieId: jobs.movieId })
      .from(jobs)
      .where(and(eq(jobs.kind, LADDER_JOB), eq(jobs.status, "queued")))
      .all();
    expect(queued).toEqual([{ movieId }]);
  });

  it("runs the backfilled job at the next start; a title deleted while its ladder is made leaves no ladder files", async () => {
    const jobsBefore = ladderJobs().length;
    const tmp = path.join(root, "tmp");
    // The next start runs the backfill again (nothing more to queue) and then the queued job.
    const failures = vi.spyOn(console, "error");
    const jobsRunner = startServerJobs();
    // Wait until ffmpeg is writing the first rungs (so it has the film open), then delete the title.
    const encoderWriting = () =>
      fs.readdirSync(tmp).some((name) => {
        if (!name.includes(`ladder-${movieId}`)) return false;
        try {
          return fs.readdirSync(path.join(tmp, name)).length > 0;
        } catch {
          return false; // removed in between: that run is over
        }
      });
    const started = Date.now();
    while (!encoderWriting() && Date.now() - started < 20_000) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ladderJobs()).toHaveLength(jobsBefore);
    expect(ladderJobs().filter((job) => job.status === "running")).toHaveLength(1);
    // Planned, and not all made yet.
    expect(renditionRows().map((row) => row.rung)).toEqual(ALL_RUNGS);
    expect(renditionRows("av1").map((row) => row.rung)).toEqual(ALL_RUNGS);
    expect(renditionRows().some((row) => row.status === "pending")).toBe(true);
    expect(deleteTitle(db, movieId, { id: providerId, role: "provider" }, root)).toBe("deleted");
    expect(fs.existsSync(movieDir(movieId, root))).toBe(false);

    await jobsRunner.idle();
    await stopServerJobs();
    // The job ended without an error (a failure would be logged and retried); its row went with the title.
    const logged = [...failures.mock.calls];
    failures.mockRestore();
    expect(logged).toEqual([]);
    expect(ladderJobs()).toEqual([]);
    expect(
      db
        .select()
        .from(jobs)
        .all()
        .filter((job) => job.status !== "done"),
    ).toEqual([]);
    expect(fs.existsSync(movieHlsDir(movieId, root))).toBe(false);
    const left = fs.existsSync(movieDir(movieId, root))
      ? fs.readdirSync(movieDir(movieId, root), { recursive: true })
      : [];
    expect(left).toEqual([]);
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movieId)).all()).toEqual([]);
  });
});

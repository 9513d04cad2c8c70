import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, migrateDatabase, type DB } from "~/db/client.server";
import {
  accounts,
  categories,
  comments,
  filmReplacements,
  movieRenditions,
  movies,
  ratings,
  watchEvents,
} from "~/db/schema";
import { probeMedia } from "~/media/ffmpeg.server";
import { movieHlsDir, movieVideoPath, moviePosterPath, renditionPath } from "~/media/storage.server";
import type { JobRunner } from "~/services/jobs.server";
import { startMediaJobs } from "~/jobs/media-jobs.server";
import {
  checkReplacement,
  latestReplacement,
  removeRetiredVersions,
  startReplacement,
} from "~/services/film-replacements.server";
import { authorizeHlsStream, movieRenditions as progressiveFiles } from "~/services/playback.server";
import { resumePosition } from "~/services/watching.server";
import { receiveMovieUpload } from "~/routes-support/title-requests.server";
import { makeVideoFixture } from "../fixtures/media";

/**
 * Replacing a film as the server does it, with real (tiny) films: the old
 * version plays until the new one's whole ladder is made, then one
 * transaction swaps them; views, ratings, comments and history stay; the old
 * version's addresses keep working until its files are removed; a film
 * ffmpeg cannot use leaves the title as it was.
 */
const savedEnv = {
  STORAGE_DIR: process.env.STORAGE_DIR,
  DATABASE_PATH: process.env.DATABASE_PATH,
  LADDER: process.env.LADDER,
};
const globals = globalThis as unknown as { __kalloDb?: DB; __kalloMediaJobs?: JobRunner };

let root: string;
let fixtures: string;
let db: DB;
let movieId: string;
const providerId = "provider0000001";
const otherProviderId = "provider0000002";
const viewerId = "viewer00000001";
const admin = { id: "admin000000001", role: "admin" as const };
const categoryId = "category0000001";
const provider = { id: providerId, role: "provider" as const };

async function runServerJobs() {
  const runner = startMediaJobs();
  await runner.idle();
  await runner.stop();
  delete globals.__kalloMediaJobs;
}

function replaceWith(file: string, actor = provider) {
  const copy = path.join(fixtures, `${Date.now()}-${path.basename(file)}`);
  fs.copyFileSync(file, copy);
  return startReplacement(db, {
    movieId,
    actor,
    file: { path: copy, originalName: path.basename(file), size: fs.statSync(copy).size },
    place: fs.renameSync,
    root,
  });
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-replace-it-"));
  fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-replace-fixtures-"));
  process.env.STORAGE_DIR = root;
  process.env.DATABASE_PATH = path.join(root, "data.db");
  process.env.LADDER = "144,240";
  delete globals.__kalloDb;
  delete globals.__kalloMediaJobs;
  db = getDb();
  migrateDatabase(db);
  db.insert(accounts)
    .values([
      { id: providerId, name: "P", email: "p@example.com", phoneNumber: "1", passwordHash: "x", role: "provider" },
      { id: otherProviderId, name: "Q", email: "q@example.com", phoneNumber: "1", passwordHash: "x", role: "provider" },
      { id: viewerId, name: "V", email: "v@example.com", phoneNumber: "1", passwordHash: "x" },
      { id: admin.id, name: "A", email: "a@example.com", phoneNumber: "1", passwordHash: "x", role: "admin" },
    ])
    .run();
  db.insert(categories).values({ id: categoryId, name: "Action", slug: "action" }).run();
  const first = await makeVideoFixture(fixtures, "mp4-faststart", 6);
  const form = new FormData();
  form.append("name", "Asali");
  form.append("Category", categoryId);
  form.append("movie", new Blob([fs.readFileSync(first)]), "first.mp4");
  const uploaded = await receiveMovieUpload(
    db,
    new Request("http://localhost/provider/Movieupload", { method: "POST", body: form }),
    { providerId, layout: "form", root, maxFileBytes: 50 * 1024 * 1024 },
  );
  if (!uploaded.ok) throw new Error("upload failed");
  movieId = uploaded.movieId;
  await runServerJobs();
  db.update(movies).set({ approved: true, views: 5 }).where(eq(movies.id, movieId)).run();
  // A viewer's history (stopped at second 5 of the 6), rating and comment.
  db.insert(watchEvents)
    .values({
      id: "watch0000001",
      accountId: viewerId,
      movieId,
      startedAt: new Date(),
      updatedAt: new Date(),
      positionSeconds: 5,
    })
    .run();
  db.insert(ratings).values({ movieId, accountId: viewerId, stars: 4 }).run();
  db.insert(comments).values({ id: "comment00001", movieId, accountId: viewerId, body: "Madalla" }).run();
}, 240_000);

afterAll(() => {
  globals.__kalloDb?.$client.close();
  delete globals.__kalloDb;
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(fixtures, { recursive: true, force: true });
});

describe("replacing a film", () => {
  it("is its own provider's, one at a time, and not while the title is first processed", () => {
    expect(checkReplacement(db, movieId, { id: otherProviderId, role: "provider" })).toMatchObject({ status: 403 });
    expect(checkReplacement(db, movieId, admin)).toMatchObject({ status: 403 });
    expect(checkReplacement(db, "nosuchtitle01", provider)).toMatchObject({ status: 404 });
    expect(checkReplacement(db, movieId, provider)).toEqual({ ok: true, mediaVersion: 0 });
  });

  it("plays the old version until the new ladder is made, then swaps both in one go; everything else stays", async () => {
    const oldVideo = movieVideoPath(movieId, root);
    const oldDuration = db.select().from(movies).where(eq(movies.id, movieId)).get()!.durationSeconds;
    const newFilm = await makeVideoFixture(fixtures, "mov", 3);
    const started = replaceWith(newFilm);
    expect(started).toMatchObject({ ok: true, version: 1 });
    // Queued: nothing about the title has changed, and a second replacement waits its turn.
    expect(db.select().from(movies).where(eq(movies.id, movieId)).get()).toMatchObject({
      mediaVersion: 0,
      durationSeconds: oldDuration,
    });
    expect(replaceWith(newFilm)).toMatchObject({ ok: false, status: 409 });
    expect(latestReplacement(db, movieId)).toMatchObject({ status: "processing", originalName: "clip.mov" });
    // The version being made is nobody's to fetch.
    const viewer = { id: viewerId, role: "viewer" as const };
    expect(authorizeHlsStream(db, { movieId, file: "144p.mp4", version: 1 }, viewer, "device1")).toMatchObject({
      status: 404,
    });

    await runServerJobs();

    const title = db.select().from(movies).where(eq(movies.id, movieId)).get()!;
    expect(title).toMatchObject({ mediaVersion: 1, durationSeconds: 3, status: "ready", approved: true, views: 5 });
    const rows = db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movieId)).all();
    // The H.264 ladder swapped in with the film; its AV1 + Opus twins made by the ladder job queued after.
    expect(rows.map((row) => [row.codec, row.rung, row.status]).sort()).toEqual([
      ["av1", 144, "ready"],
      ["av1", 240, "ready"],
      ["h264", 144, "ready"],
      ["h264", 240, "ready"],
    ]);
    for (const row of rows) {
      const file = renditionPath(movieId, row.rung, "media", root, 1, row.codec);
      expect(fs.statSync(file).size).toBe(row.sizeBytes);
      expect((await probeMedia(file)).durationSeconds).toBeCloseTo(3, 0);
    }
    expect((await probeMedia(movieVideoPath(movieId, root, 1))).videoCodec).toBe("h264");
    expect(title.sizeBytes).toBe(fs.statSync(movieVideoPath(movieId, root, 1)).size);
    // Views, rating, comment and history are the title's, and stay.
    expect(db.select().from(ratings).where(eq(ratings.movieId, movieId)).all()).toHaveLength(1);
    expect(db.select().from(comments).where(eq(comments.movieId, movieId)).all()).toHaveLength(1);
    const history = db.select().from(watchEvents).where(eq(watchEvents.movieId, movieId)).get()!;
    expect(history.positionSeconds).toBe(5);
    // Stopped at second 5 of a film now 3 s long: the viewer starts the new cut from the beginning.
    expect(resumePosition(history.positionSeconds, title.durationSeconds)).toBe(0);
    expect(latestReplacement(db, movieId)).toMatchObject({ status: "done" });

    // Streams: the current version at v1/, the old one still at its own addresses while it is kept.
    expect(authorizeHlsStream(db, { movieId, file: "master.m3u8" }, viewer, "device1")).toMatchObject({
      allowed: true,
      mediaVersion: 1,
    });
    expect(authorizeHlsStream(db, { movieId, file: "240p.mp4", version: 1 }, viewer, "device1")).toMatchObject({
      allowed: true,
      path: renditionPath(movieId, 240, "media", root, 1),
    });
    expect(authorizeHlsStream(db, { movieId, file: "240p.mp4" }, viewer, "device1")).toMatchObject({
      allowed: true,
      path: renditionPath(movieId, 240, "media", root, 0),
    });
    expect(authorizeHlsStream(db, { movieId, file: "240p.mp4", version: 2 }, viewer, "device1")).toMatchObject({
      status: 404,
    });
    expect(authorizeHlsStream(db, { movieId, file: "master.m3u8", version: 1 }, viewer, "device1")).toMatchObject({
      status: 404,
    });
    // Old clients' progressive file is the new version's.
    expect(progressiveFiles(db, movieId).at(-1)!.path).toBe(movieVideoPath(movieId, root, 1));

    // The old version's files go after the keeping time; the title's posters never.
    expect(removeRetiredVersions(db, { root, now: new Date() })).toBe(0);
    expect(fs.existsSync(oldVideo)).toBe(true);
    expect(removeRetiredVersions(db, { root, now: new Date(Date.now() + 7 * 3600 * 1000) })).toBe(1);
    expect(fs.existsSync(oldVideo)).toBe(false);
    expect(fs.existsSync(movieHlsDir(movieId, root, 0))).toBe(false);
    expect(fs.existsSync(movieVideoPath(movieId, root, 1))).toBe(true);
    expect(fs.existsSync(moviePosterPath(movieId, "card", "jpg", root))).toBe(true);
    expect(authorizeHlsStream(db, { movieId, file: "240p.mp4" }, viewer, "device1")).toMatchObject({ status: 404 });
  }, 240_000);

  it("leaves the title playing as it was when the new film cannot be used, and says why", async () => {
    const before = db.select().from(movies).where(eq(movies.id, movieId)).get()!;
    const good = fs.readFileSync(await makeVideoFixture(fixtures, "mp4-faststart", 2));
    const broken = path.join(fixtures, "broken.mp4");
    fs.writeFileSync(broken, Buffer.concat([good.subarray(0, 64), Buffer.alloc(100_000, 5)]));
    const started = replaceWith(broken);
    if (!started.ok) throw new Error("refused");
    await runServerJobs();
    expect(db.select().from(movies).where(eq(movies.id, movieId)).get()).toEqual(before);
    const row = db.select().from(filmReplacements).where(eq(filmReplacements.id, started.replacementId)).get()!;
    expect(row.status).toBe("failed");
    expect(["unreadable", "noVideo", "noDuration"]).toContain(row.failureReason);
    expect(fs.existsSync(path.dirname(movieVideoPath(movieId, root, started.version)))).toBe(false);
    expect(checkReplacement(db, movieId, provider)).toMatchObject({ ok: true });
  }, 120_000);
});

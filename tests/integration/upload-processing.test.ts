import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import { jobs, movies } from "~/db/schema";
import { probeMedia } from "~/media/ffmpeg.server";
import { isMoovBeforeMdat, processMovie } from "~/jobs/process-movie.server";
import { markTitleFailed } from "~/services/title-lifecycle.server";
import { failureReasonOf, MOVIE_JOB, type ProcessMoviePayload } from "~/services/movie-processing.server";
import { moviePosterPath, movieVideoPath, sizedPosterPath } from "~/media/storage.server";
import { moviePosterPaths } from "~/media/posters.server";
import { startJobRunner } from "~/services/jobs.server";
import { deleteTitle } from "~/services/title-lifecycle.server";
import { receiveMovieUpload } from "~/routes-support/title-requests.server";
import { makeVideoFixture } from "../fixtures/media";
import { addProvidersAndCategory } from "../fixtures/studio-rows";

let root: string;
let fixtures: string;
let db: DB;
const providerId = "provider0000001";
const otherProviderId = "provider0000002";
const categoryId = "category0000001";

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-upload-it-"));
  fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-fixtures-"));
  db = openDatabase(path.join(root, "data.db"));
  migrateDatabase(db);
  addProvidersAndCategory(db, [providerId, otherProviderId], categoryId);
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(fixtures, { recursive: true, force: true });
});

async function uploadRequest(
  fields: Record<string, string>,
  files: Array<{ field: string; file: string }>,
): Promise<Request> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const { field, file } of files) form.append(field, new Blob([fs.readFileSync(file)]), path.basename(file));
  return new Request("http://localhost/provider/Movieupload", { method: "POST", body: form });
}

async function runJobs() {
  const runner = startJobRunner(
    db,
    {
      [MOVIE_JOB]: async (job) => {
        await processMovie(db, job.movieId!, job.payload as ProcessMoviePayload, root);
      },
    },
    {
      concurrency: 1,
      pollMs: 50,
      onFailure: (job, error, final) => final && markTitleFailed(db, job.movieId!, failureReasonOf(error)),
    },
  );
  await runner.idle();
  await runner.stop();
}

const upload = (request: Request, layout: "form" | "legacy" = "form", owner = providerId) =>
  receiveMovieUpload(db, request, { providerId: owner, layout, root, maxFileBytes: 50 * 1024 * 1024 });

describe("uploading and processing a film", () => {
  it("fixes an MP4 with its index at the end and transcodes an AVI; both become Ready and browser-playable", async () => {
    const lateIndex = await makeVideoFixture(fixtures, "mp4-moov-at-end");
    const avi = await makeVideoFixture(fixtures, "avi");
    expect(await isMoovBeforeMdat(lateIndex)).toBe(false);
    const poster = path.join(fixtures, "poster.png");
    await sharp({ create: { width: 600, height: 900, channels: 3, background: "#aa5500" } })
      .png()
      .toFile(poster);

    const first = await upload(
      await uploadRequest({ name: "Late Index", Description: "d", Category: categoryId, cast: "A, B" }, [
        { field: "movie", file: lateIndex },
        { field: "poster", file: poster },
      ]),
    );
    const second = await upload(
      await uploadRequest({ name: "Old Tape", Category: categoryId }, [{ field: "movie", file: avi }]),
    );
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(db.select().from(movies).where(eq(movies.id, first.movieId)).get()?.status).toBe("processing");

    await runJobs();

    for (const movieId of [first.movieId, second.movieId]) {
      const movie = db.select().from(movies).where(eq(movies.id, movieId)).get()!;
      expect(movie).toMatchObject({ status: "ready", videoFile: `${movieId}.mp4`, posterFile: `${movieId}-card.jpg` });
      const video = movieVideoPath(movieId, root);
      const probe = await probeMedia(video);
      expect(probe).toMatchObject({ videoCodec: "h264", audioCodec: "aac", pixelFormat: "yuv420p" });
      expect(await isMoovBeforeMdat(video)).toBe(true);
      expect(movie.durationSeconds).toBeGreaterThanOrEqual(2);
      expect(movie.sizeBytes).toBe(fs.statSync(video).size);
      const card = await sharp(moviePosterPath(movieId, "card", "jpg", root)).metadata();
      expect([card.width, card.height]).toEqual([300, 200]);
      // Every size the pages offer in srcset is made with the title, in AVIF and JPEG.
      for (const file of moviePosterPaths(movieId, root)) {
        const meta = await sharp(file.path).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([
          file.format === "avif" ? "heif" : "jpeg",
          file.width,
          file.height,
        ]);
      }
      const tall = await sharp(sizedPosterPath(movieId, "tall", 720, "avif", root)).metadata();
      expect([tall.width, tall.height]).toEqual([720, 900]);
      // Only the final files remain in the title's folder.
      expect(fs.readdirSync(path.dirname(video)).sort()).toEqual(
        [...moviePosterPaths(movieId, root).map((file) => path.basename(file.path)), "video.mp4"].sort(),
      );
    }
    expect(fs.readdirSync(path.join(root, "tmp"))).toEqual([]);
  });

  it("accepts the old clients' layout: text parts, then the movie and the poster both named file", async () => {
    const clip = await makeVideoFixture(fixtures, "mp4-faststart");
    const poster = path.join(fixtures, "legacy-poster.jpg");
    await sharp({ create: { width: 400, height: 300, channels: 3, background: "#0055aa" } })
      .jpeg()
      .toFile(poster);
    const result = await upload(
      await uploadRequest({ uploadedByUser: otherProviderId, name: "Legacy", Category: categoryId, Description: "x" }, [
        { field: "file", file: clip },
        { field: "file", file: poster },
      ]),
      "legacy",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const row = db.select().from(movies).where(eq(movies.id, result.movieId)).get()!;
    expect(row.providerId).toBe(providerId); // uploadedByUser is ignored
    await runJobs();
    expect(db.select().from(movies).where(eq(movies.id, result.movieId)).get()?.status).toBe("ready");
  });

  it("refuses a missing title and a renamed executable, storing nothing", async () => {
    const clip = await makeVideoFixture(fixtures, "mp4-faststart");
    const before = db.select().from(movies).all().length;
    const noTitle = await upload(
      await uploadRequest({ name: "  ", Category: categoryId }, [{ field: "movie", file: clip }]),
    );
    expect(noTitle).toMatchObject({ ok: false, status: 400, fieldErrors: { name: ["studio:errors.titleRequired"] } });

    const fake = path.join(fixtures, "fake.mp4");
    fs.writeFileSync(fake, Buffer.concat([Buffer.from("\x7fELF\x02\x01\x01"), Buffer.alloc(4096)]));
    const exe = await upload(
      await uploadRequest({ name: "Virus", Category: categoryId }, [{ field: "movie", file: fake }]),
    );
    expect(exe).toMatchObject({ ok: false, status: 400, fieldErrors: { movie: ["studio:errors.contentMismatch"] } });

    const wrongExtension = path.join(fixtures, "film.flv");
    fs.copyFileSync(clip, wrongExtension);
    const flv = await upload(
      await uploadRequest({ name: "Flv", Category: categoryId }, [{ field: "movie", file: wrongExtension }]),
    );
    expect(flv).toMatchObject({ ok: false, fieldErrors: { movie: ["studio:errors.wrongExtension"] } });

    const unknownCategory = await upload(
      await uploadRequest({ name: "Lost", Category: "nope" }, [{ field: "movie", file: clip }]),
    );
    expect(unknownCategory).toMatchObject({ ok: false, fieldErrors: { Category: ["studio:errors.categoryUnknown"] } });

    expect(db.select().from(movies).all().length).toBe(before);
    expect(fs.readdirSync(path.join(root, "tmp"))).toEqual([]);
  });

  it("refuses at once a file ffprobe cannot read, with the reason, and keeps nothing", async () => {
    const broken = path.join(fixtures, "broken.avi");
    fs.writeFileSync(
      broken,
      Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("AVI LIST"), Buffer.alloc(2048, 9)]),
    );
    const before = db.select().from(movies).all().length;
    const result = await upload(
      await uploadRequest({ name: "Broken", Category: categoryId }, [{ field: "movie", file: broken }]),
    );
    // A clear reason the form translates, never ffprobe's own words (server paths, memory addresses).
    expect(result).toMatchObject({ ok: false, status: 400 });
    const [reason] = (!result.ok && result.fieldErrors.movie) || [];
    expect(["studio:list.failure.unreadable", "studio:list.failure.noVideo"]).toContain(reason);
    expect(db.select().from(movies).all().length).toBe(before);
    expect(fs.readdirSync(path.join(root, "tmp"))).toEqual([]);
  });

  it("marks a film the processing job cannot read as Failed with the reason", async () => {
    const clip = await makeVideoFixture(fixtures, "mp4-faststart");
    const result = await upload(
      await uploadRequest({ name: "Spoiled later", Category: categoryId }, [{ field: "movie", file: clip }]),
    );
    if (!result.ok) throw new Error("upload failed");
    // The file is damaged on disk after the upload was accepted (a failing disk, say).
    const source = path.join(path.dirname(movieVideoPath(result.movieId, root)), "source.mp4");
    fs.writeFileSync(source, Buffer.concat([fs.readFileSync(clip).subarray(0, 32), Buffer.alloc(4096, 7)]));
    await runJobs();
    const row = db.select().from(movies).where(eq(movies.id, result.movieId)).get()!;
    expect(row.status).toBe("failed");
    expect(["unreadable", "noVideo", "noDuration"]).toContain(row.failureReason);
    expect(db.select().from(jobs).where(eq(jobs.movieId, result.movieId)).get()?.status).toBe("failed");
  });

  it("accepts a QuickTime .mov and a Matroska .mkv and makes them browser-playable", async () => {
    for (const kind of ["mov", "mkv"] as const) {
      const file = await makeVideoFixture(fixtures, kind);
      const result = await upload(
        await uploadRequest({ name: `From ${kind}`, Category: categoryId }, [{ field: "movie", file }]),
      );
      expect(result.ok, kind).toBe(true);
      if (!result.ok) return;
      await runJobs();
      const movie = db.select().from(movies).where(eq(movies.id, result.movieId)).get()!;
      expect(movie.status, kind).toBe("ready");
      const probe = await probeMedia(movieVideoPath(result.movieId, root));
      expect(probe).toMatchObject({ videoCodec: "h264", audioCodec: "aac", pixelFormat: "yuv420p" });
    }
  });

  it("lets only the owner or an administrator delete a title, and removes every file", async () => {
    const clip = await makeVideoFixture(fixtures, "mp4-faststart");
    const result = await upload(
      await uploadRequest({ name: "Short", Category: categoryId }, [{ field: "movie", file: clip }]),
    );
    if (!result.ok) throw new Error("upload failed");
    await runJobs();
    const folder = path.dirname(movieVideoPath(result.movieId, root));
    expect(fs.existsSync(folder)).toBe(true);
    expect(deleteTitle(db, result.movieId, { id: otherProviderId, role: "provider" }, root)).toBe("forbidden");
    expect(deleteTitle(db, result.movieId, { id: "viewer", role: "viewer" }, root)).toBe("forbidden");
    expect(fs.existsSync(folder)).toBe(true);
    expect(deleteTitle(db, result.movieId, { id: providerId, role: "provider" }, root)).toBe("deleted");
    expect(fs.existsSync(folder)).toBe(false);
    expect(db.select().from(movies).where(eq(movies.id, result.movieId)).get()).toBeUndefined();
    expect(deleteTitle(db, result.movieId, { id: providerId, role: "provider" }, root)).toBe("notFound");
  });
});

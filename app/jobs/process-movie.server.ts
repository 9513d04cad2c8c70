import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies } from "~/db/schema";
import { FilmRefused, type ProcessMoviePayload } from "~/services/movie-processing.server";
import { markTitleReady } from "~/services/title-lifecycle.server";
import { moveIntoPlace, removeQuietly, temporaryPath } from "~/media/atomic-files.server";
import {
  BROWSER_H264_ARGS,
  extractFramePng,
  localInput,
  probeMedia,
  runFfmpeg,
  type MediaProbe,
} from "~/media/ffmpeg.server";
import { writeMoviePosters } from "~/media/posters.server";
import { movieDir, movieVideoPath, publicPosterName, publicVideoName, storagePaths } from "~/media/storage.server";

/**
 * Turn an uploaded film into what every browser plays: an MP4 with H.264
 * video in yuv420p, AAC audio and the index (moov) at the front, so playback
 * and seeking start at once. A file that already is one is kept as it is; an
 * MP4 with the index at the end is rewritten without re-encoding; anything
 * else (.avi, .wmv, .3gp, .mpeg, other codecs) is transcoded.
 */
/** Largest picture we produce: 1080p, which covers the HD guidance; bigger sources are scaled down. */
const MAX_WIDTH = 1920;
const MAX_HEIGHT = 1080;

export type PlaybackPlan = "keep" | "remux" | "transcode";

/** What must be done to a probed file so browsers can play it. */
export function planPlayback(probe: MediaProbe, moovFirst: boolean | null): PlaybackPlan {
  const isMp4 = /mp4|mov/.test(probe.formatName);
  const videoOk = probe.videoCodec === "h264" && probe.pixelFormat === "yuv420p";
  const audioOk = probe.audioCodec === null || probe.audioCodec === "aac";
  const sizeOk = (probe.width ?? 0) <= MAX_WIDTH && (probe.height ?? 0) <= MAX_HEIGHT;
  if (!isMp4 || !videoOk || !audioOk || !sizeOk) return "transcode";
  return moovFirst ? "keep" : "remux";
}

/** Whether an ISO media file has its `moov` box before `mdat` (null when the file is not one). */
export async function isMoovBeforeMdat(file: string): Promise<boolean | null> {
  const handle = await fs.promises.open(file, "r");
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    for (let boxes = 0; offset + 8 <= size && boxes < 1000; boxes++) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      if (bytesRead < 8) return null;
      let boxSize = header.readUInt32BE(0);
      const type = header.toString("latin1", 4, 8);
      if (boxSize === 1) {
        if (bytesRead < 16) return null;
        boxSize = Number(header.readBigUInt64BE(8));
      } else if (boxSize === 0) {
        boxSize = size - offset;
      }
      if (type === "moov") return true;
      if (type === "mdat") return false;
      if (boxSize < 8) return null;
      offset += boxSize;
    }
    return null;
  } finally {
    await handle.close();
  }
}

export function transcodeArguments(source: string, output: string, probe: MediaProbe): string[] {
  const args = ["-y", "-hide_banner", "-nostdin", ...localInput(source), "-map", "0:v:0"];
  if (probe.audioCodec) args.push("-map", "0:a:0");
  // Fit inside 1080p, keep the aspect ratio, and round to even sizes as yuv420p requires.
  const scale = `scale='min(${MAX_WIDTH},iw)':'min(${MAX_HEIGHT},ih)':force_original_aspect_ratio=decrease,scale=trunc(iw/2)*2:trunc(ih/2)*2`;
  args.push("-vf", scale, ...BROWSER_H264_ARGS, "-profile:v", "high");
  if (probe.audioCodec) args.push("-c:a", "aac", "-b:a", "128k", "-ac", "2");
  args.push("-movflags", "+faststart", "-f", "mp4", output);
  return args;
}

/**
 * Make `source` the browser-playable film at `destination`: moved as it is,
 * remuxed with the index first, or transcoded (planPlayback); the source is
 * gone afterwards. What is written goes through a temporary file in `tmpDir`
 * (same file system), so `destination` is either absent or whole.
 */
export async function makeBrowserPlayable(
  source: string,
  destination: string,
  probe: MediaProbe,
  tmpDir: string,
): Promise<PlaybackPlan> {
  const plan = planPlayback(probe, await isMoovBeforeMdat(source).catch(() => null));
  const timeoutMs = Math.max(10 * 60_000, probe.durationSeconds * 20_000);
  if (plan === "keep") {
    moveIntoPlace(source, destination);
    return plan;
  }
  const output = temporaryPath(tmpDir, "video.mp4");
  try {
    const args =
      plan === "remux"
        ? [
            "-y",
            "-hide_banner",
            "-nostdin",
            ...localInput(source),
            "-map",
            "0",
            "-c",
            "copy",
            "-movflags",
            "+faststart",
            "-f",
            "mp4",
            output,
          ]
        : transcodeArguments(source, output, probe);
    await runFfmpeg(args, { timeoutMs });
    moveIntoPlace(output, destination);
  } catch (error) {
    removeQuietly(output);
    throw error;
  }
  removeQuietly(source);
  return plan;
}

export type ProcessResult = { plan: PlaybackPlan; probe: MediaProbe };

/**
 * The job handler: make the film playable, make the posters, run
 * `beforeReady` (the ladder's first rungs), and mark the title ready.
 */
export async function processMovie(
  db: DB,
  movieId: string,
  payload: ProcessMoviePayload,
  root: string,
  hooks: { beforeReady?: () => Promise<unknown> } = {},
): Promise<ProcessResult | null> {
  const movie = db.select({ id: movies.id }).from(movies).where(eq(movies.id, movieId)).get();
  if (!movie) return null; // deleted while queued: nothing to do
  const dir = movieDir(movieId, root);
  const source = path.join(dir, path.basename(payload.source));
  const tmpDir = storagePaths(root).tmp;
  const destination = movieVideoPath(movieId, root);

  let probe: MediaProbe;
  try {
    probe = await probeMedia(source);
  } catch (error) {
    if (!fs.existsSync(source) && fs.existsSync(destination)) {
      // The film was finished before a restart; only the posters and the row may be missing.
      probe = await probeMedia(destination);
    } else {
      throw new FilmRefused(
        "unreadable",
        `ffprobe could not read ${source}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (!probe.videoCodec) throw new FilmRefused("noVideo", "the file has no video stream");
  if (!(probe.durationSeconds > 0)) throw new FilmRefused("noDuration", "the film has no duration; it may be damaged");

  let plan: PlaybackPlan = "keep";
  if (fs.existsSync(source)) plan = await makeBrowserPlayable(source, destination, probe, tmpDir);

  const final = await probeMedia(destination);
  const posterSource = payload.poster ? path.join(dir, path.basename(payload.poster)) : null;
  if (posterSource && fs.existsSync(posterSource)) {
    await writeMoviePosters(movieId, posterSource, { root, position: "attention" });
    removeQuietly(posterSource);
  } else if (!fs.existsSync(path.join(dir, "poster-card.jpg"))) {
    // No poster given: a frame from a tenth of the way in, past most fade-ins and titles.
    const frame = await extractFramePng(destination, final.durationSeconds / 10);
    await writeMoviePosters(movieId, frame, { root });
  }

  await hooks.beforeReady?.();
  const { size } = fs.statSync(destination);
  const stillThere = markTitleReady(db, movieId, {
    videoFile: publicVideoName(movieId),
    posterFile: publicPosterName(movieId),
    sizeBytes: size,
    durationSeconds: Math.round(final.durationSeconds),
    width: final.width,
    height: final.height,
  });
  // Deleted while it was being processed: what was just written must go too.
  if (!stillThere) fs.rmSync(dir, { recursive: true, force: true });
  return { plan, probe };
}

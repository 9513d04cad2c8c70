import fs from "node:fs";
import path from "node:path";
import type { DB } from "~/db/client.server";
import { temporaryPath } from "~/media/atomic-files.server";
import { extractFramePng, probeMedia, type MediaProbe } from "~/media/ffmpeg.server";
import { encodeRungs } from "~/media/ladder-encode.server";
import { planLadder } from "~/media/ladder";
import { moviePosterPaths, writeMoviePosters } from "~/media/posters.server";
import { movieHlsDir, movieVersionDir, movieVideoPath, storagePaths } from "~/media/storage.server";
import { replacementToMake, swapInReplacement, type ReplaceFilmPayload } from "~/services/film-replacements.server";
import { FilmRefused } from "~/services/movie-processing.server";
import { makeBrowserPlayable } from "./process-movie.server";

/**
 * The job that makes a replacement film and swaps it in (services/film-replacements):
 * in the new version's own folder, the upload becomes the browser-playable
 * film (as a new upload does), then its whole ladder is encoded in one ffmpeg
 * run (one decode for every rung), and only then does the title play it — so
 * viewers keep every quality they had until the swap (decision 051). A retried
 * job starts the version's work again from the file it has.
 */
export type ReplaceResult = { movieId: string; version: number; rungs: number[]; swappedAt: Date };

export async function replaceFilm(
  db: DB,
  payload: ReplaceFilmPayload,
  options: { root: string; ladder: readonly number[] },
): Promise<ReplaceResult | null> {
  const row = replacementToMake(db, payload.replacementId);
  if (!row) return null;
  const { movieId, version } = row;
  const dir = movieVersionDir(movieId, version, options.root);
  const source = path.join(dir, path.basename(row.sourceFile));
  const destination = movieVideoPath(movieId, options.root, version);
  const tmpDir = storagePaths(options.root).tmp;

  if (fs.existsSync(source)) {
    let probe: MediaProbe;
    try {
      probe = await probeMedia(source);
    } catch (error) {
      throw new FilmRefused(
        "unreadable",
        `ffprobe could not read ${source}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!probe.videoCodec) throw new FilmRefused("noVideo", "the file has no video stream");
    if (!(probe.durationSeconds > 0))
      throw new FilmRefused("noDuration", "the film has no duration; it may be damaged");
    await makeBrowserPlayable(source, destination, probe, tmpDir);
  } else if (!fs.existsSync(destination)) {
    throw new FilmRefused("unreadable", `the replacement's file is missing from ${dir}`);
  }

  const film = await probeMedia(destination);
  const plan = planLadder({ width: film.width, height: film.height }, options.ladder);
  const hlsDir = movieHlsDir(movieId, options.root, version);
  // A retried job begins the ladder again: nothing half-made from an earlier try is kept.
  fs.rmSync(hlsDir, { recursive: true, force: true });
  const encoded = await encodeRungs(destination, plan, {
    hasAudio: film.audioCodec !== null,
    workDir: temporaryPath(tmpDir, `replace-${movieId}-v${version}`),
    hlsDir,
    timeoutMs: Math.max(10 * 60_000, film.durationSeconds * 30_000),
  });

  // A title whose first processing had failed has no posters yet: a frame a tenth of the way in.
  const posters = moviePosterPaths(movieId, options.root);
  if (!fs.existsSync(posters[0]!.path)) {
    const frame = await extractFramePng(destination, film.durationSeconds / 10);
    await writeMoviePosters(movieId, frame, { root: options.root });
  }

  const swappedAt = new Date();
  const swapped = swapInReplacement(
    db,
    payload.replacementId,
    {
      sizeBytes: fs.statSync(destination).size,
      durationSeconds: film.durationSeconds,
      width: film.width,
      height: film.height,
      rungs: encoded,
    },
    swappedAt,
  );
  if (!swapped) {
    // The title was deleted (its folder with it) or the replacement given up meanwhile.
    fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return { movieId, version, rungs: encoded.map((rung) => rung.rung), swappedAt };
}

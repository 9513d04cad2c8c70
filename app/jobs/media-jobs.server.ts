import { getDb } from "~/db/client.server";
import { stopAllMediaTools } from "~/media/ffmpeg.server";
import { processMovie } from "~/jobs/process-movie.server";
import { markTitleFailed } from "~/services/title-lifecycle.server";
import { failureReasonOf, MOVIE_JOB, type ProcessMoviePayload } from "~/services/movie-processing.server";
import { storageRoot } from "~/media/storage.server";
import { getEnv } from "~/utils/env.server";
import { startJobRunner, type JobRunner } from "~/services/jobs.server";
import { replaceFilm } from "~/jobs/replace-film.server";
import { markReplacementFailed, REPLACE_FILM_JOB, type ReplaceFilmPayload } from "~/services/film-replacements.server";
import {
  buildLadder,
  enqueueLadderJob,
  enqueueMissingLadders,
  LADDER_JOB,
  markLadderFailed,
} from "~/services/renditions.server";

/**
 * The server process's job runner for media work. Started once when the
 * server build loads; it picks up jobs that a previous process left unfinished.
 */
const globalForJobs = globalThis as unknown as { __kalloMediaJobs?: JobRunner };

export function startMediaJobs(): JobRunner {
  if (globalForJobs.__kalloMediaJobs) return globalForJobs.__kalloMediaJobs;
  const db = getDb();
  const { ladder } = getEnv();
  // The backfill: titles without their whole ladder (from before ladders, or a longer LADDER) get a job.
  const backfilled = enqueueMissingLadders(db, ladder);
  if (backfilled > 0) console.log(`[media] ${backfilled} titles queued for their adaptive ladder`);
  const runner = startJobRunner(
    db,
    {
      [MOVIE_JOB]: async (job) => {
        if (!job.movieId) return;
        const started = Date.now();
        const movieId = job.movieId;
        const root = storageRoot();
        // The lowest rungs are made before the title is ready: it plays as soon as it is listed.
        const result = await processMovie(db, movieId, job.payload as ProcessMoviePayload, root, {
          beforeReady: () => buildLadder(db, movieId, { root, ladder, pass: "first" }),
        });
        if (result) {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(
            `[media] ${movieId} ready (${result.plan}, ${result.probe.durationSeconds.toFixed(1)} s of video in ${seconds} s)`,
          );
          enqueueLadderJob(db, movieId);
          runner.poke();
        }
      },
      // A replaced film: made and laddered beside the version that plays, then swapped in (decision 039).
      [REPLACE_FILM_JOB]: async (job) => {
        const started = Date.now();
        const result = await replaceFilm(db, job.payload as ReplaceFilmPayload, { root: storageRoot(), ladder });
        if (result) {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(`[media] ${result.movieId} now plays version ${result.version} (made in ${seconds} s)`);
        }
      },
      [LADDER_JOB]: async (job) => {
        if (!job.movieId) return;
        const started = Date.now();
        const made = await buildLadder(db, job.movieId, { root: storageRoot(), ladder, pass: "all" });
        if (made.length > 0) {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(
            `[media] ${job.movieId} ladder: ${made.map((spec) => `${spec.rung}p`).join(", ")} made in ${seconds} s`,
          );
        }
      },
    },
    {
      concurrency: getEnv().mediaJobs,
      onFailure: (job, error, final) => {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`[media] job ${job.id} for ${job.movieId} failed${final ? "" : " (will retry)"}: ${message}`);
        if (final && job.kind === REPLACE_FILM_JOB)
          markReplacementFailed(db, (job.payload as ReplaceFilmPayload).replacementId, failureReasonOf(error));
        else if (final && job.movieId && job.kind === LADDER_JOB) markLadderFailed(db, job.movieId);
        else if (final && job.movieId) markTitleFailed(db, job.movieId, failureReasonOf(error));
      },
    },
  );
  globalForJobs.__kalloMediaJobs = runner;
  return runner;
}

/** A clean stop: take no more jobs, end the running ones' encoders, and put those jobs back in the queue. */
export async function stopMediaJobs(): Promise<void> {
  const runner = globalForJobs.__kalloMediaJobs;
  if (!runner) return;
  stopAllMediaTools();
  await runner.stop();
}

import { getDb } from "~/db/client.server";
import { markMovieFailed, MOVIE_JOB, processMovie, type ProcessMoviePayload } from "~/media/process-movie.server";
import { storageRoot } from "~/media/storage.server";
import { getEnv } from "~/utils/env.server";
import { startJobRunner, type JobRunner } from "./jobs.server";

/**
 * The server process's job runner for media work. Started once when the
 * server build loads; it picks up jobs that a previous process left unfinished.
 */
const globalForJobs = globalThis as unknown as { __kalloMediaJobs?: JobRunner };

export function startMediaJobs(): JobRunner {
  if (globalForJobs.__kalloMediaJobs) return globalForJobs.__kalloMediaJobs;
  const db = getDb();
  const runner = startJobRunner(
    db,
    {
      [MOVIE_JOB]: async (job) => {
        if (!job.movieId) return;
        const started = Date.now();
        const result = await processMovie(db, job.movieId, job.payload as ProcessMoviePayload, storageRoot());
        if (result) {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(`[media] ${job.movieId} ready (${result.plan}, ${result.probe.durationSeconds.toFixed(1)} s of video in ${seconds} s)`);
        }
      },
    },
    {
      concurrency: getEnv().mediaJobs,
      onFailure: (job, error, final) => {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`[media] job ${job.id} for ${job.movieId} failed${final ? "" : " (will retry)"}: ${message}`);
        if (final && job.movieId) markMovieFailed(db, job.movieId, message);
      },
    },
  );
  globalForJobs.__kalloMediaJobs = runner;
  return runner;
}

/** Ask the runner to look for work now (after an upload). */
export function pokeMediaJobs(): void {
  startMediaJobs().poke();
}

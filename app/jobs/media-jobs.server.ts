import { and, eq, inArray, ne } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { jobs } from "~/db/schema";
import { stopAllMediaTools } from "~/media/ffmpeg.server";
import { processMovie } from "~/jobs/process-movie.server";
import { markTitleFailed } from "~/services/title-lifecycle.server";
import { failureReasonOf, MOVIE_JOB, type ProcessMoviePayload } from "~/services/movie-processing.server";
import { storageRoot } from "~/media/storage.server";
import { rungName } from "~/media/ladder";
import { diskFullReason } from "~/services/disk.server";
import {
  BUCKET_REMOVE_JOB,
  BUCKET_SEND_JOB,
  ensureLocalCopy,
  removeBucketPrefix,
  sendTitleToBucket,
} from "~/media/media-store.server";
import { enqueueJob } from "~/services/jobs.server";
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

export function startMediaJobs(options: { crashBackoffMs?: (attempts: number) => number } = {}): JobRunner {
  if (globalForJobs.__kalloMediaJobs) return globalForJobs.__kalloMediaJobs;
  const db = getDb();
  const { ladder, ladderCodecs: codecs, databasePath, databaseRoomBytes, mediaStore, s3 } = getEnv();
  // With MEDIA_STORE=s3 a title's files go to the bucket once its whole ladder is made.
  const sendToBucket = (movieId: string, ladderJobId: string) => {
    if (mediaStore === "s3" && !ladderJobWaiting(db, movieId, ladderJobId))
      enqueueJob(db, BUCKET_SEND_JOB, { movieId });
  };
  // The backfill: titles without their whole ladder (from before ladders, a longer LADDER, or AV1 turned on) get a job.
  // A database that cannot write now (a full disk) leaves it to the next start.
  try {
    const backfilled = enqueueMissingLadders(db, ladder, codecs);
    if (backfilled > 0) console.log(`[media] ${backfilled} titles queued for their adaptive ladder`);
  } catch (error) {
    console.error(`[media] the ladders' backfill waits for the next start: ${(error as Error).message}`);
  }
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
          beforeReady: () => buildLadder(db, movieId, { root, ladder, codecs, pass: "first" }),
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
      // A replaced film: made and laddered beside the version that plays, then swapped in (decision 051).
      [REPLACE_FILM_JOB]: async (job) => {
        const started = Date.now();
        const result = await replaceFilm(db, job.payload as ReplaceFilmPayload, { root: storageRoot(), ladder });
        if (result) {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(`[media] ${result.movieId} now plays version ${result.version} (made in ${seconds} s)`);
          // Its AV1 rungs follow in a ladder job of their own (the H.264 ladder swapped in without waiting for them).
          if (codecs.includes("av1") && enqueueLadderJob(db, result.movieId)) runner.poke();
          // The new version plays from the disk until the bucket has it, like a new title.
          if (mediaStore === "s3") enqueueJob(db, BUCKET_SEND_JOB, { movieId: result.movieId });
        }
      },
      [LADDER_JOB]: async (job) => {
        if (!job.movieId) return;
        const started = Date.now();
        const movieId = job.movieId;
        const root = storageRoot();
        // A title held in the bucket that needs more rungs (a longer LADDER) gets its film back on the
        // disk for them; the bucket job queued after takes the new rungs there and the film off the disk.
        const made = await buildLadder(db, movieId, {
          root,
          ladder,
          codecs,
          pass: "all",
          fetchSource: async (source) => {
            if (await ensureLocalCopy(db, movieId, source, root))
              console.log(`[media] ${movieId}: its film is back from the bucket for new rungs`);
          },
        });
        sendToBucket(job.movieId, job.id);
        if (made.length > 0) {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(
            `[media] ${job.movieId} ladder: ${made.map((spec) => rungName(spec.rung, spec.codec)).join(", ")} made in ${seconds} s`,
          );
        }
      },
      [BUCKET_SEND_JOB]: async (job) => {
        // A ladder job still queued needs the film on the disk; its end queues this again. (The one that
        // queued this may still be finishing: its rungs are on the disk already.)
        if (!job.movieId || ladderJobWaiting(db, job.movieId, "", ["queued"])) return;
        const started = Date.now();
        const sent = await sendTitleToBucket(db, job.movieId);
        if (sent.files > 0)
          console.log(
            `[media] ${job.movieId} in the bucket: ${sent.files} files, ${(sent.sentBytes / 1024 / 1024).toFixed(1)} MB checked in ${((Date.now() - started) / 1000).toFixed(1)} s; ${sent.removedLocal} removed from the disk`,
          );
      },
      [BUCKET_REMOVE_JOB]: async (job) => {
        await removeBucketPrefix(String(job.payload.prefix));
      },
    },
    {
      concurrency: getEnv().mediaJobs,
      label: "media",
      crashBackoffMs: options.crashBackoffMs,
      waitReason: () => diskFullReason(storageRoot(), databasePath, databaseRoomBytes),
      // The bucket may be down for a while: its jobs wait 30 s, 1 min, 2 min, … (at most an hour) between tries, about a day in all.
      retries: Object.fromEntries(
        [BUCKET_SEND_JOB, BUCKET_REMOVE_JOB].map((kind) => [
          kind,
          {
            maxAttempts: 30,
            backoffMs: (attempts: number) => Math.min(3_600_000, (s3?.retryMs ?? 30_000) * 2 ** (attempts - 1)),
          },
        ]),
      ),
      onFailure: (job, error, final) => {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`[media] job ${job.id} for ${job.movieId} failed${final ? "" : " (will retry)"}: ${message}`);
        // A title whose files could not reach the bucket keeps playing from the disk.
        if (job.kind === BUCKET_SEND_JOB || job.kind === BUCKET_REMOVE_JOB) return;
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

/** Is a ladder job (other than `exceptJobId`) waiting or running for this title? */
function ladderJobWaiting(
  db: ReturnType<typeof getDb>,
  movieId: string,
  exceptJobId = "",
  statuses: Array<"queued" | "running"> = ["queued", "running"],
): boolean {
  return (
    db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, LADDER_JOB),
          eq(jobs.movieId, movieId),
          inArray(jobs.status, statuses),
          ne(jobs.id, exceptJobId),
        ),
      )
      .get() !== undefined
  );
}

/** A clean stop: take no more jobs, end the running ones' encoders, and put those jobs back in the queue. */
export async function stopMediaJobs(): Promise<void> {
  const runner = globalForJobs.__kalloMediaJobs;
  if (!runner) return;
  stopAllMediaTools();
  await runner.stop();
}

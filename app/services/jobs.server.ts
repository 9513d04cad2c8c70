import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { jobs } from "~/db/schema";
import { isDiskFullError } from "~/db/database-room.server";
import { endStaleMediaTool, watchMediaTools } from "~/media/ffmpeg.server";
import { inCluster, onWorkerNote, tellOtherWorkers } from "~/utils/cluster.server";
import { createId } from "~/utils/ids.server";

/**
 * A small job queue persisted in SQLite. Jobs are rows; a runner in the
 * process that runs the background work (the only one, or the background
 * worker of several: utils/cluster.server.ts) claims queued rows one at a time (up to `concurrency` of
 * each kind at once), runs the handler for their kind and records the outcome. Because the
 * state is in the database, a restart loses nothing: `recoverInterruptedJobs`
 * puts jobs that were running back in the queue — after ending the encoder a
 * killed process may have left running (its pid is on the row), counting the
 * interrupted try, and after a short wait that grows with each try.
 */
export type JobHandler = (job: {
  id: string;
  movieId: string | null;
  payload: Record<string, unknown>;
}) => Promise<void>;

export type JobRow = typeof jobs.$inferSelect;

export const MAX_ATTEMPTS = 3;

/** The runners of this process, so a job queued here starts at once rather than at the next poll. */
const liveRunners = new Set<{ kinds: readonly string[]; poke: () => void }>();

function pokeRunners(kind: string): void {
  for (const runner of liveRunners) if (runner.kinds.includes(kind)) runner.poke();
}

/**
 * With several workers the runners live in the background worker only: a job
 * queued by another worker is announced to it over the cluster's channel, so
 * it starts within milliseconds instead of at the next poll.
 */
const JOB_QUEUED = "job-queued";
onWorkerNote(JOB_QUEUED, (note) => pokeRunners(String(note.jobKind)));

export function enqueueJob(
  db: DB,
  kind: string,
  options: { movieId?: string; payload?: Record<string, unknown> } = {},
): string {
  const id = createId();
  db.insert(jobs)
    .values({ id, kind, movieId: options.movieId ?? null, payload: options.payload ?? {} })
    .run();
  pokeRunners(kind);
  // After the enqueueing code (and its transaction) has finished, like the pokes.
  if (inCluster()) queueMicrotask(() => tellOtherWorkers(JOB_QUEUED, { jobKind: kind }));
  return id;
}

/** How long a job interrupted by a killed process waits before its next try: 30 s, then 60 s, … */
export function crashBackoffMs(attempts: number): number {
  return 30_000 * 2 ** Math.max(0, attempts - 1);
}

export type RecoveryOptions = {
  backoffMs?: (attempts: number) => number;
  /** Called for a job whose every try was interrupted: it is marked failed. */
  onGiveUp?: (job: JobRow, error: Error) => void;
  now?: number;
};

/**
 * At start: jobs of these kinds left "running" by a stopped process. Their
 * stale encoder is ended; a job with tries left is queued again after a
 * backoff, one without is failed. Returns how many were found.
 */
export function recoverInterruptedJobs(db: DB, kinds?: string[], options: RecoveryOptions = {}): number {
  const running = kinds ? and(eq(jobs.status, "running"), inArray(jobs.kind, kinds)) : eq(jobs.status, "running");
  const rows = db.select().from(jobs).where(running).all();
  const now = options.now ?? Date.now();
  for (const row of rows) {
    if (row.toolPid) endStaleMediaTool(row.toolPid);
    if (row.attempts >= MAX_ATTEMPTS) {
      const error = new JobInterrupted(`the server stopped during each of its ${row.attempts} tries`);
      db.update(jobs)
        .set({ status: "failed", finishedAt: new Date(now), error: error.message, toolPid: null })
        .where(eq(jobs.id, row.id))
        .run();
      options.onGiveUp?.({ ...row, status: "failed" }, error);
    } else {
      const runAfter = new Date(now + (options.backoffMs ?? crashBackoffMs)(row.attempts));
      db.update(jobs)
        .set({ status: "queued", startedAt: null, toolPid: null, runAfter })
        .where(eq(jobs.id, row.id))
        .run();
    }
  }
  return rows.length;
}

/** Atomically take the oldest queued job of the given kinds, or null. */
export function claimNextJob(db: DB, kinds: string[]): JobRow | null {
  return db.transaction((tx) => {
    const next = tx
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.status, "queued"),
          inArray(jobs.kind, kinds),
          or(isNull(jobs.runAfter), lte(jobs.runAfter, new Date())),
        ),
      )
      .orderBy(asc(jobs.createdAt))
      .limit(1)
      .get();
    if (!next) return null;
    tx.update(jobs)
      .set({ status: "running", startedAt: new Date(), runAfter: null, attempts: sql`${jobs.attempts} + 1` })
      .where(eq(jobs.id, next.id))
      .run();
    return { ...next, status: "running" as const, attempts: next.attempts + 1 };
  });
}

/** Put a running job back in the queue without counting the try it was on. */
export function requeueJob(db: DB, id: string): void {
  db.update(jobs)
    .set({ status: "queued", startedAt: null, toolPid: null, attempts: sql`max(${jobs.attempts} - 1, 0)` })
    .where(and(eq(jobs.id, id), eq(jobs.status, "running")))
    .run();
}

export function finishJob(
  db: DB,
  id: string,
  outcome: { ok: true } | { ok: false; error: string; retry: boolean; runAfter?: Date },
): void {
  if (outcome.ok) {
    db.update(jobs)
      .set({ status: "done", finishedAt: new Date(), error: null, toolPid: null })
      .where(eq(jobs.id, id))
      .run();
  } else {
    db.update(jobs)
      .set({
        status: outcome.retry ? "queued" : "failed",
        finishedAt: outcome.retry ? null : new Date(),
        runAfter: outcome.retry ? (outcome.runAfter ?? null) : null,
        error: outcome.error,
        toolPid: null,
      })
      .where(eq(jobs.id, id))
      .run();
  }
}

export type JobRunner = {
  /** Look for work now (call after enqueueing). */
  poke: () => void;
  /** Stop taking new jobs and wait for the running ones (end their tools first to stop at once: they go back in the queue). */
  stop: () => Promise<void>;
  /** Why the runner waits now (a full disk, a database that cannot write), or null. */
  waiting: () => string | null;
  /** Resolves when no job is queued or running (for tests and the seed). */
  idle: () => Promise<void>;
};

export function startJobRunner(
  db: DB,
  handlers: Record<string, JobHandler>,
  options: {
    concurrency: number;
    pollMs?: number;
    onFailure?: (job: JobRow, error: unknown, final: boolean) => void;
    /** Delete a job's row once it is done (its payload holds what should not be kept, an email say). */
    forgetDone?: boolean;
    /** The wait before retrying a job a killed process was running (tests shorten it). */
    crashBackoffMs?: (attempts: number) => number;
    /** Why no job may start now (the disk is full, say), or null; checked before each job. */
    waitReason?: () => string | null;
    /** Name for the log ("media", "mail"). */
    label?: string;
    /** Kinds that retry more often than MAX_ATTEMPTS, each try after a wait (work against a service that may be down a while). */
    retries?: Record<string, { maxAttempts: number; backoffMs: (attempts: number) => number }>;
  },
): JobRunner {
  const kinds = Object.keys(handlers);
  const label = options.label ?? kinds.join(", ");
  const running = new Set<Promise<void>>();
  let stopped = false;
  let idleWaiters: Array<() => void> = [];
  /**
   * The runner never ends its process: a database that cannot write (a full
   * disk) or any other failure of its own bookkeeping makes it wait and try
   * again at the next poll, saying why once.
   */
  let waiting: string | null = null;
  const wait = (reason: string) => {
    if (waiting !== reason) console.error(`[jobs] ${label} jobs wait: ${reason}`);
    waiting = reason;
  };
  const goOn = () => {
    if (waiting) console.log(`[jobs] ${label} jobs go on (${waiting} no longer holds)`);
    waiting = null;
  };
  const reasonOf = (error: unknown) =>
    isDiskFullError(error) ? "the disk is full" : `the database failed (${(error as Error)?.message ?? error})`;
  /** Jobs to put back in the queue once the database can write again. */
  const toRequeue = new Set<string>();
  let recovered = false;

  const recover = () => {
    recoverInterruptedJobs(db, kinds, {
      backoffMs: options.crashBackoffMs,
      onGiveUp: (job, error) => options.onFailure?.(job, error, true),
    });
    recovered = true;
  };
  try {
    recover();
  } catch (error) {
    wait(reasonOf(error));
  }

  const checkIdle = () => {
    if (running.size > 0) return;
    try {
      const queued = db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.status, "queued"), inArray(jobs.kind, kinds)))
        .limit(1)
        .get();
      if (queued) return;
    } catch {
      return;
    }
    const waiters = idleWaiters;
    idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  };

  /** The runner's own writes: a failure leaves the job to be put back later, never an error out of the runner. */
  const putBack = (id: string) => {
    try {
      requeueJob(db, id);
      toRequeue.delete(id);
    } catch (error) {
      toRequeue.add(id);
      wait(reasonOf(error));
    }
  };

  // Each kind has its own `concurrency` slots, so a long job of one kind (a
  // feature film's ladder) never keeps a job of another (a new upload) waiting.
  const runningOf = new Map<string, number>(kinds.map((kind) => [kind, 0]));
  const fill = () => {
    if (stopped) return;
    const reason = options.waitReason?.() ?? null;
    if (reason) return wait(reason);
    try {
      if (!recovered) recover();
      for (const id of toRequeue) {
        requeueJob(db, id);
        toRequeue.delete(id);
      }
    } catch (error) {
      return wait(reasonOf(error));
    }
    goOn();
    for (const kind of kinds) {
      while (!stopped && !waiting && (runningOf.get(kind) ?? 0) < options.concurrency) {
        let job: JobRow | null;
        try {
          job = claimNextJob(db, [kind]);
        } catch (error) {
          wait(reasonOf(error));
          break;
        }
        if (!job) break;
        const claimed = job;
        runningOf.set(kind, (runningOf.get(kind) ?? 0) + 1);
        const task = (async () => {
          try {
            // Each media tool the job starts is recorded on its row while it runs.
            const recordTool = (pid: number | null) => {
              try {
                db.update(jobs).set({ toolPid: pid }).where(eq(jobs.id, claimed.id)).run();
              } catch {
                // Only a help for ending a stale tool after a crash (setpriv ends it anyway).
              }
            };
            await watchMediaTools(recordTool, () =>
              handlers[claimed.kind]({ id: claimed.id, movieId: claimed.movieId, payload: claimed.payload }),
            );
            if (options.forgetDone) db.delete(jobs).where(eq(jobs.id, claimed.id)).run();
            else finishJob(db, claimed.id, { ok: true });
          } catch (error) {
            // Stopped under it (a clean stop), or the disk filled: back in the queue as it was, the try not counted.
            const diskFull = isDiskFullError(error) || options.waitReason?.() != null;
            if (stopped || diskFull) {
              if (diskFull && !stopped) wait(options.waitReason?.() ?? "the disk is full");
              putBack(claimed.id);
              return;
            }
            const message = error instanceof Error ? error.message : String(error);
            const policy = options.retries?.[claimed.kind];
            const final =
              claimed.attempts >= (policy?.maxAttempts ?? MAX_ATTEMPTS) ||
              (error as { permanent?: boolean }).permanent === true;
            const runAfter = policy ? new Date(Date.now() + policy.backoffMs(claimed.attempts)) : undefined;
            try {
              finishJob(db, claimed.id, { ok: false, error: message.slice(0, 2000), retry: !final, runAfter });
              options.onFailure?.(claimed, error, final);
            } catch (bookkeeping) {
              putBack(claimed.id);
              wait(reasonOf(bookkeeping));
            }
          }
        })()
          .catch((error: unknown) => {
            // Only the bookkeeping of a job that ended can land here (a full disk when it is marked done).
            putBack(claimed.id);
            wait(reasonOf(error));
          })
          .finally(() => {
            running.delete(task);
            runningOf.set(kind, (runningOf.get(kind) ?? 1) - 1);
            fill();
            checkIdle();
          });
        running.add(task);
      }
    }
  };

  const timer = setInterval(fill, options.pollMs ?? 2000);
  timer.unref();
  queueMicrotask(fill);
  // Poked after the enqueueing code (and its transaction) has finished.
  const live = { kinds, poke: () => queueMicrotask(fill) };
  liveRunners.add(live);

  return {
    poke: live.poke,
    waiting: () => waiting,
    stop: async () => {
      stopped = true;
      liveRunners.delete(live);
      clearInterval(timer);
      await Promise.allSettled([...running]);
    },
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        queueMicrotask(() => {
          fill();
          checkIdle();
        });
      }),
  };
}

/** A job given up because the server was killed under every one of its tries. */
export class JobInterrupted extends Error {
  readonly name = "JobInterrupted";
}

/** An error that retrying will not fix (a file ffmpeg cannot read, say). */
export class PermanentJobError extends Error {
  readonly permanent = true;
}

/**
 * Serving with several processes (WORKERS, default one per core), with Node's
 * own cluster (docs/decisions/030-workers.md):
 *
 * - The primary (the process of `npm start` or scripts/serve.ts) forks the
 *   workers and serves nothing itself. It owns the listening socket and hands
 *   each new connection to the next worker (the cluster's round-robin); the
 *   socket's own address reaches the worker, so who the client is works as
 *   with one process.
 * - Every worker runs scripts/serve.ts, the whole server (timeouts, body
 *   caps, the app). The first one is the background worker: it alone runs the job
 *   queue, the backfills and the sweeps (utils/cluster.server.ts says which
 *   process it is). Jobs queued by the others reach it over the channel.
 * - What the workers must share in memory the primary keeps: upload locks,
 *   the password-hash slots, and their metrics, summed when /metrics is read.
 * - The first worker starts alone; the others once it listens, so the site
 *   answers as soon as one process is up.
 * - A worker that ends on its own is replaced — at once after a long life,
 *   after 1 s, 2 s, 4 s … (at most a minute) when it keeps ending soon after
 *   it starts, so a crash loop does not spin. A replaced background worker
 *   queues again the jobs its predecessor was running (the jobs' own rule for
 *   a killed process). A worker that ends before the site is first up ends
 *   the start, with exit code 1.
 * - SIGTERM/SIGINT: every worker stops as one process does (new connections
 *   refused, requests under way finish within SHUTDOWN_GRACE_SECONDS, running
 *   jobs back in the queue, the database closed); the primary waits for them
 *   all, then for `afterStop` (Litestream), and exits 0. A second signal exits
 *   at once: the workers follow, as they do whenever the primary disappears.
 *
 * WORKERS=1 serves in one process, without a cluster, as before
 * (scripts/serve.ts `runServer` chooses).
 */
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import { coordinateWorkers, tellWorker, WORKER_ROLE_ENV, type WorkerRole } from "../app/utils/cluster.server";
import { METRICS_QUESTION } from "../app/utils/metrics.server";

/** A worker that ends sooner than this after it started counts as a quick end: its replacement waits longer each time. */
const QUICK_END_MS = 30_000;
const LONGEST_RESTART_WAIT_MS = 60_000;
/** The note that tells a worker to stop. */
export const STOP_NOTE = "stop";

export type PrimaryOptions = {
  workers: number;
  /** The script each worker runs, and its arguments. */
  exec: string;
  args: string[];
  /** How long a worker's stop may let requests under way finish (SHUTDOWN_GRACE_SECONDS). */
  stopGraceMs: number;
  /** Printed once every worker listens. */
  startupLines: string[];
  /** After the last worker has stopped (Litestream ships the last writes). */
  afterStop?: () => Promise<void>;
};

/** How long a replacement waits after `quickEnds` quick ends in a row: none, then 1 s, 2 s, 4 s, … at most a minute. */
export function restartDelayMs(quickEnds: number): number {
  return quickEnds === 0 ? 0 : Math.min(LONGEST_RESTART_WAIT_MS, 1000 * 2 ** (quickEnds - 1));
}

type Slot = {
  role: WorkerRole;
  worker: Worker | null;
  startedAt: number;
  quickEnds: number;
  restart?: NodeJS.Timeout;
};

/** Fork the workers, keep them running, and stop them all on SIGTERM/SIGINT. Resolves once every worker listens. */
export async function runPrimary(options: PrimaryOptions): Promise<void> {
  cluster.setupPrimary({ exec: options.exec, args: options.args });
  const metrics = new AggregatorRegistry();
  coordinateWorkers({ [METRICS_QUESTION]: () => metrics.clusterMetrics() });

  const slots: Slot[] = Array.from({ length: options.workers }, (_, index) => ({
    role: index === 0 ? "background" : "serving",
    worker: null,
    startedAt: 0,
    quickEnds: 0,
  }));
  let up = false;
  let stoppingSince = 0;
  let failStart: (error: Error) => void = () => undefined;

  const start = (slot: Slot): Worker => {
    slot.startedAt = Date.now();
    const worker = cluster.fork({ [WORKER_ROLE_ENV]: slot.role });
    slot.worker = worker;
    worker.once("exit", (code, signal) => {
      if (slot.worker === worker) slot.worker = null;
      if (stoppingSince) return;
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      if (!up) {
        failStart(new Error(`a worker ended while the server was starting (${how})`));
        return;
      }
      slot.quickEnds = Date.now() - slot.startedAt < QUICK_END_MS ? slot.quickEnds + 1 : 0;
      const delay = restartDelayMs(slot.quickEnds);
      console.error(
        `[serve] worker ${worker.process.pid} (${slot.role}) ended (${how}); a new one starts ${delay ? `in ${delay / 1000} s` : "now"}`,
      );
      slot.restart = setTimeout(() => {
        slot.restart = undefined;
        if (!stoppingSince) start(slot);
      }, delay);
    });
    return worker;
  };

  const live = () => slots.flatMap((slot) => (slot.worker ? [slot.worker] : []));

  /** Stop every worker as one process stops; resolves with 0 when each stopped cleanly. */
  let stopping: Promise<number> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      for (const slot of slots) clearTimeout(slot.restart);
      const workers = live();
      const ended = workers.map(
        (worker) =>
          new Promise<number>((resolve) => {
            if (worker.isDead()) return resolve(worker.process.exitCode ?? 1);
            worker.once("exit", (code) => resolve(code ?? 1));
          }),
      );
      for (const worker of workers) tellWorker(worker, STOP_NOTE);
      // A worker's stop takes at most its grace for requests, then as long again for its background work.
      const cutOff = setTimeout(
        () => {
          for (const worker of live()) worker.process.kill("SIGKILL");
        },
        2 * options.stopGraceMs + 5_000,
      );
      const codes = await Promise.all(ended);
      clearTimeout(cutOff);
      await options.afterStop?.();
      return codes.every((code) => code === 0) ? 0 : 1;
    })();
    return stopping;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince) {
      console.log(`[serve] ${signal} again: exiting now`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    console.log(
      `[serve] ${signal}: stopping ${live().length} workers (new connections refused, requests under way may finish)`,
    );
    void stop().then((code) => {
      console.log(`[serve] stopped in ${Date.now() - stoppingSince} ms`);
      process.exit(code);
    });
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  // The first worker alone, then the others: on a busy box (a restart after a crash, say) the site answers as
  // soon as one process is up, instead of when all of them, started side by side, have shared the cores.
  try {
    await new Promise<void>((resolve, reject) => {
      failStart = reject;
      start(slots[0]).once("listening", () => resolve());
    });
  } catch (error) {
    console.error(`Kallo cannot start: ${(error as Error).message}.`);
    stoppingSince = Date.now();
    await stop();
    process.exit(1);
  }
  up = true;
  for (const line of options.startupLines) console.log(line);
  const pids = (role: WorkerRole) => slots.filter((slot) => slot.role === role).map((slot) => slot.worker?.process.pid);
  void Promise.all(
    slots.slice(1).map((slot) => new Promise<void>((resolve) => start(slot).once("listening", () => resolve()))),
  ).then(() =>
    console.log(
      `[serve] ${slots.length} workers (WORKERS): ${pids("background").join(", ")} answers requests and runs the background work, ${pids("serving").join(", ")} answer${slots.length > 2 ? "" : "s"} requests`,
    ),
  );
}

/**
 * Serving with several processes (WORKERS, default one per core), with Node's
 * own cluster (docs/decisions/030-workers.md):
 *
 * - The primary (the process of `npm start` or scripts/serve.ts) forks the
 *   workers and serves nothing itself. It owns the listening socket for its
 *   whole life (scripts/front-door.ts) and hands each new connection to the
 *   next worker that serves, in turn; while no worker serves (both down at
 *   once), connections wait in it instead of being refused. The socket's own
 *   address reaches the worker, so who the client is works as with one
 *   process.
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
 * - SIGHUP (`npm run reload`, `npm run upgrade`): the workers move to the
 *   build the `build` link names now (or the one the control file names), one
 *   at a time, while the primary keeps the listening socket: a new worker
 *   listens before the one it replaces stops, so no connection is refused.
 *   A build that needs migrations the database has not taken is refused (a
 *   worker never runs code newer than the schema). The background worker moves
 *   last: stopped first (its jobs go back to the queue), then its successor
 *   starts, while the serving workers answer. The outcome goes to the run file
 *   (`STORAGE_DIR/.kallo-server.json`), which `npm run upgrade` waits for.
 * - The build a primary runs is marked in use (scripts/builds-in-use.ts), so a
 *   later `npm run build` keeps it; if it is gone all the same, the primary
 *   says so once and does not replace workers in a loop.
 *
 * WORKERS=1 serves in one process, without a cluster, as before
 * (scripts/serve.ts `runServer` chooses); it moves to a new build only by a
 * restart.
 */
import cluster, { type Worker } from "node:cluster";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { AggregatorRegistry } from "prom-client";
import { schemaState } from "../app/db/schema-version.server";
import { putBackDatabase } from "../app/services/backup.server";
import { markInUse, readBuildInfo } from "./builds-in-use";
import { coordinateWorkers, tellWorker, WORKER_ROLE_ENV, type WorkerRole } from "../app/utils/cluster.server";
import { METRICS_QUESTION } from "../app/utils/metrics.server";
import { onceServing, openFrontDoor } from "./front-door";

/** A worker that ends sooner than this after it started counts as a quick end: its replacement waits longer each time. */
const QUICK_END_MS = 30_000;
const LONGEST_RESTART_WAIT_MS = 60_000;
/** The note that tells a worker to stop. */
export const STOP_NOTE = "stop";

/** A worker's exit code when it refuses to run on this database (its build needs migrations the database lacks). */
export const SCHEMA_BEHIND_EXIT = 78;
/** The environment variable that tells a process which build folder it runs (its migrations and version). */
export const BUILD_DIR_ENV = "KALLO_BUILD_DIR";
/** How long a new worker may take to listen during a reload before the reload gives up. */
const RELOAD_LISTEN_MS = 60_000;

export type PrimaryOptions = {
  workers: number;
  /** Where the primary listens (PORT, HOST). */
  port: number;
  host?: string;
  /** The script each worker runs, and its arguments (the server build's path first). */
  exec: string;
  args: string[];
  /** The build folder the workers run (`.builds/<time>`). */
  buildDir: string;
  /** The database (a reload checks the new build's migrations against it; a rollback restores it). */
  databasePath: string;
  /** Where the primary says who it is and how its last reload went (STORAGE_DIR/.kallo-server.json). */
  runFile: string;
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
  const door = openFrontDoor(options.port, options.host, (worker) => !retired.has(worker) && !stoppingSince);

  const slots: Slot[] = Array.from({ length: options.workers }, (_, index) => ({
    role: index === 0 ? "background" : "serving",
    worker: null,
    startedAt: 0,
    quickEnds: 0,
  }));
  let up = false;
  let stoppingSince = 0;
  let failStart: (error: Error) => void = () => undefined;
  /** The build the workers run, and every replacement starts from. */
  let current = { exec: options.exec, args: options.args, buildDir: options.buildDir };
  let unmark = markInUse(current.buildDir);
  /** Workers told to stop by a reload: their end is not replaced. */
  const retired = new WeakSet<Worker>();
  let saidBuildGone = false;
  const runInfo: Record<string, unknown> = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    workers: options.workers,
  };
  const writeRunFile = (extra: Record<string, unknown> = {}) => {
    Object.assign(runInfo, { build: current.buildDir, version: readBuildInfo(current.buildDir).version }, extra);
    try {
      fs.mkdirSync(path.dirname(options.runFile), { recursive: true });
      fs.writeFileSync(`${options.runFile}.part`, `${JSON.stringify(runInfo, null, 2)}\n`);
      fs.renameSync(`${options.runFile}.part`, options.runFile);
    } catch (error) {
      console.error(`[serve] could not write ${options.runFile}: ${(error as Error).message}`);
    }
  };

  const fork = (role: WorkerRole): Worker =>
    cluster.fork({ [WORKER_ROLE_ENV]: role, [BUILD_DIR_ENV]: current.buildDir });

  /** Make `worker` (a new one by default) the slot's worker, replaced as the rules below say when it ends on its own. */
  const start = (slot: Slot, worker: Worker = fork(slot.role)): Worker => {
    slot.startedAt = Date.now();
    slot.worker = worker;
    worker.once("exit", (code, signal) => {
      if (slot.worker === worker) slot.worker = null;
      if (stoppingSince || retired.has(worker)) return;
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      if (!up) {
        failStart(new Error(`a worker ended while the server was starting (${how})`));
        return;
      }
      if (!fs.existsSync(current.exec)) {
        // Removed by hand (npm run build keeps a build in use): a replacement would crash at once, again and again.
        if (!saidBuildGone)
          console.error(
            `[serve] worker ${worker.process.pid} (${slot.role}) ended (${how}) and cannot be replaced: the build it ran (${current.buildDir}) is gone. Move the server to the current build: npm run reload`,
          );
        saidBuildGone = true;
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
      await door.close();
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
      unmark();
      fs.rmSync(options.runFile, { force: true });
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

  /** Resolves when the worker listens; rejects when it ends first or takes longer than RELOAD_LISTEN_MS. */
  const listening = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.process.kill("SIGKILL");
        reject(new Error(`a new worker did not listen within ${RELOAD_LISTEN_MS / 1000} s`));
      }, RELOAD_LISTEN_MS);
      onceServing(worker, () => {
        clearTimeout(timer);
        resolve();
      });
      worker.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(
            code === SCHEMA_BEHIND_EXIT
              ? "the new build needs migrations this database has not taken"
              : `a new worker ended while starting (${signal ? `killed by ${signal}` : `exit code ${code}`})`,
          ),
        );
      });
    });
  const ended = (worker: Worker) =>
    new Promise<void>((resolve) => {
      if (worker.isDead()) return resolve();
      worker.once("exit", () => resolve());
    });
  /** Tell a worker to stop as one process does (requests under way finish), without replacing it. */
  const retire = (worker: Worker | null) => {
    if (!worker) return Promise.resolve();
    retired.add(worker);
    door.remove(worker);
    tellWorker(worker, STOP_NOTE);
    return ended(worker);
  };

  /** A worker of the build the slot moves to, fresh: its first quick ends are not held against it. */
  const moveInto = (slot: Slot, worker: Worker) => {
    slot.quickEnds = 0;
    start(slot, worker);
  };

  /**
   * Move every worker to `target` one at a time. A serving worker's successor listens before it stops; the
   * background worker stops first (the serving ones answer meanwhile), then its successor starts. On a
   * failure the workers already moved go back to the build they came from.
   */
  const moveTo = async (target: typeof current): Promise<void> => {
    const from = current;
    current = target;
    cluster.setupPrimary({ exec: target.exec, args: target.args });
    const moved: Slot[] = [];
    try {
      for (const slot of [...slots.filter((s) => s.role === "serving"), ...slots.filter((s) => s.role !== "serving")]) {
        if (stoppingSince) throw new Error("the server is stopping");
        const old = slot.worker;
        clearTimeout(slot.restart);
        if (slot.role === "serving") {
          const fresh = fork(slot.role);
          await listening(fresh);
          moveInto(slot, fresh);
          moved.push(slot);
          await retire(old).then(() => undefined);
        } else {
          await retire(old);
          slot.worker = null;
          const fresh = fork(slot.role);
          try {
            await listening(fresh);
          } catch (error) {
            // The background worker comes back on the build it ran.
            current = from;
            cluster.setupPrimary({ exec: from.exec, args: from.args });
            start(slot);
            throw error;
          }
          moveInto(slot, fresh);
          moved.push(slot);
        }
      }
    } catch (error) {
      current = from;
      cluster.setupPrimary({ exec: from.exec, args: from.args });
      for (const slot of moved) {
        const back = fork(slot.role);
        await listening(back).catch(() => undefined);
        const leaving = slot.worker;
        moveInto(slot, back);
        void retire(leaving);
      }
      throw error;
    }
  };
  /** What a reload is asked to do: the control file next to the run file, or else the build `build` names now. */
  const readControl = (): { id: string; action: "reload" | "rollback"; build: string; backup?: string } => {
    const controlFile = `${options.runFile.replace(/\.json$/, "")}.control.json`;
    try {
      const control = JSON.parse(fs.readFileSync(controlFile, "utf8")) as {
        id: string;
        action?: "reload" | "rollback";
        build: string;
        backup?: string;
      };
      fs.rmSync(controlFile, { force: true });
      return { action: "reload", ...control };
    } catch {
      return { id: `signal-${Date.now()}`, action: "reload", build: path.resolve("build") };
    }
  };

  let reloading = false;
  const onReload = async () => {
    const control = readControl();
    const started = Date.now();
    const report = (state: "done" | "refused" | "failed", message: string) => {
      console[state === "done" ? "log" : "error"](`[serve] ${control.action}: ${message}`);
      writeRunFile({
        lastControl: { id: control.id, action: control.action, state, message, at: new Date().toISOString() },
      });
    };
    if (reloading || stoppingSince || !up)
      return report("refused", "the server is starting, stopping or already moving");
    reloading = true;
    try {
      const buildDir = fs.realpathSync(control.build);
      const target = {
        exec: path.join(buildDir, "server", "serve.js"),
        args: [path.join(buildDir, "index.js"), ...current.args.slice(1)],
        buildDir,
      };
      if (!fs.existsSync(target.exec) || !fs.existsSync(target.args[0]))
        return report("refused", `${buildDir} is not a whole build (npm run build makes one)`);
      const version = readBuildInfo(buildDir).version;
      if (control.action === "rollback") {
        if (!control.backup || !fs.existsSync(control.backup))
          return report("refused", `no backup at ${control.backup}`);
        // The database goes back: no worker may hold it meanwhile (a short stop: new connections wait in the primary until the first worker of the old build serves).
        await Promise.all(slots.map((slot) => retire(slot.worker)));
        for (const slot of slots) slot.worker = null;
        const kept = putBackDatabase(options.databasePath, control.backup);
        current = target;
        cluster.setupPrimary({ exec: target.exec, args: target.args });
        await Promise.all(slots.map((slot) => listening(start(slot))));
        unmark();
        unmark = markInUse(buildDir);
        return report(
          "done",
          `restored ${control.backup} and started ${buildDir} (Kallo ${version}) in ${((Date.now() - started) / 1000).toFixed(1)} s; the database as the upgrade left it is kept at ${kept}`,
        );
      }
      const sqlite = new Database(options.databasePath, { readonly: true, fileMustExist: true });
      let pending: string[];
      try {
        pending = schemaState(sqlite, path.join(buildDir, "drizzle")).pending.map((migration) => migration.tag);
      } finally {
        sqlite.close();
      }
      if (pending.length)
        return report(
          "refused",
          `${buildDir} (Kallo ${version}) needs migrations the database has not taken (${pending.join(", ")}): npm run upgrade takes a backup and migrates first`,
        );
      const from = current.buildDir;
      const unmarkTarget = markInUse(buildDir);
      try {
        await moveTo(target);
      } catch (error) {
        if (buildDir !== from) unmarkTarget();
        return report("failed", `${(error as Error).message}; the workers stay on ${from}`);
      }
      // The build left is no longer in use (the same build's mark, just written again, stays).
      if (buildDir !== from) {
        unmark();
        unmark = unmarkTarget;
      }
      saidBuildGone = false;
      report(
        "done",
        `${slots.length} workers moved to ${buildDir} (Kallo ${version}) one at a time in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    } catch (error) {
      report("failed", (error as Error).message);
    } finally {
      reloading = false;
    }
  };
  process.on("SIGHUP", () => void onReload());

  // The first worker alone, then the others: on a busy box (a restart after a crash, say) the site answers as
  // soon as one process is up, instead of when all of them, started side by side, have shared the cores.
  try {
    await new Promise<void>((resolve, reject) => {
      failStart = reject;
      door.listening.then(() => onceServing(start(slots[0]), resolve), reject);
    });
  } catch (error) {
    console.error(`Kallo cannot start: ${(error as Error).message}.`);
    stoppingSince = Date.now();
    await stop();
    process.exit(1);
  }
  up = true;
  writeRunFile();
  for (const line of options.startupLines) console.log(line);
  const pids = (role: WorkerRole) => slots.filter((slot) => slot.role === role).map((slot) => slot.worker?.process.pid);
  void Promise.all(
    slots.slice(1).map((slot) => new Promise<void>((resolve) => onceServing(start(slot), resolve))),
  ).then(() =>
    console.log(
      `[serve] ${slots.length} workers (WORKERS): ${pids("background").join(", ")} answers requests and runs the background work, ${pids("serving").join(", ")} answer${slots.length > 2 ? "" : "s"} requests`,
    ),
  );
}

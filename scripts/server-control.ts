/**
 * Talking to the running server from `npm run upgrade`, `npm run reload` and
 * `npm run rollback`: its primary writes STORAGE_DIR/.kallo-server.json (pid,
 * build, version, workers, the outcome of its last reload), reads a request
 * from the control file next to it on SIGHUP, and answers in the run file.
 */
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { processRuns } from "../app/utils/processes.server";
import { pointLink } from "./builds-in-use";

export type RunningServer = {
  pid: number;
  build: string;
  version: string;
  workers: number;
  lastControl?: { id: string; action: string; state: "done" | "refused" | "failed"; message: string };
};

export function runFilePath(storageDir: string): string {
  return path.join(storageDir, ".kallo-server.json");
}

/** The server running on this STORAGE_DIR, or null (none, or its run file outlived it). */
export function runningServer(storageDir: string): RunningServer | null {
  try {
    const server = JSON.parse(fs.readFileSync(runFilePath(storageDir), "utf8")) as RunningServer;
    return Number.isInteger(server.pid) && processRuns(server.pid) ? server : null;
  } catch {
    return null;
  }
}

/** Ask the running primary to reload or roll back, and wait for its answer (at most `timeoutMs`). */
export async function askServer(
  storageDir: string,
  server: RunningServer,
  request: { action: "reload" | "rollback"; build: string; backup?: string },
  timeoutMs = 180_000,
): Promise<NonNullable<RunningServer["lastControl"]>> {
  const id = randomUUID();
  const controlFile = runFilePath(storageDir).replace(/\.json$/, ".control.json");
  fs.writeFileSync(`${controlFile}.part`, JSON.stringify({ id, ...request }));
  fs.renameSync(`${controlFile}.part`, controlFile);
  process.kill(server.pid, "SIGHUP");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      const now = JSON.parse(fs.readFileSync(runFilePath(storageDir), "utf8")) as RunningServer;
      if (now.lastControl?.id === id) return now.lastControl;
    } catch {
      // Being rewritten: read again.
    }
    if (!processRuns(server.pid)) return { id, action: request.action, state: "failed", message: "the server stopped" };
  }
  return { id, action: request.action, state: "failed", message: `no answer within ${timeoutMs / 1000} s` };
}

/** What `npm run upgrade` did, newest last (STORAGE_DIR/backups/upgrades.json): what `npm run rollback` undoes. */
export type UpgradeRecord = {
  at: string;
  backup: string;
  fromBuild: string;
  fromVersion: string;
  toBuild?: string;
  toVersion?: string;
  rolledBackAt?: string;
};

export function upgradesFile(storageDir: string): string {
  return path.join(storageDir, "backups", "upgrades.json");
}

export function readUpgrades(storageDir: string): UpgradeRecord[] {
  try {
    return JSON.parse(fs.readFileSync(upgradesFile(storageDir), "utf8")) as UpgradeRecord[];
  } catch {
    return [];
  }
}

export function writeUpgrades(storageDir: string, records: UpgradeRecord[]): void {
  const file = upgradesFile(storageDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.part`, `${JSON.stringify(records, null, 2)}\n`);
  fs.renameSync(`${file}.part`, file);
}

/** Point the `build` link at `buildDir` in one step (what `npm start` runs next). */
export function pointBuildLink(buildDir: string): void {
  pointLink("build", path.relative(process.cwd(), buildDir));
}

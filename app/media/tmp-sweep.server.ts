import fs from "node:fs";
import path from "node:path";
import { PROCESS_TAG } from "./atomic-files.server";
import { processRuns } from "~/utils/processes.server";

/**
 * What a killed process leaves in STORAGE_DIR/tmp (a partial upload, a
 * transcode's output, a ladder's work folder) is removed here, never what a
 * live request or job still writes:
 * - made by a process that is gone (its pid no longer runs): removed at once;
 * - made by another live process, or named without a tag: removed once
 *   nothing in it was written for FOREIGN_IDLE_MS (a pid can be reused);
 * - made by this process: left to its owner, which removes it on failure;
 *   only something not written for OWN_IDLE_MS (a leak) is removed.
 */
export const FOREIGN_IDLE_MS = 30 * 60 * 1000;
export const OWN_IDLE_MS = 6 * 60 * 60 * 1000;

const TAG = /^p(\d+)-([0-9a-f]{6})-/;

/** The newest write in a file or folder (a ladder's work folder is written to file by file). */
function lastWriteMs(entry: string): number {
  const stat = fs.lstatSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, lastWriteMs(path.join(entry, name)));
  return newest;
}

function sizeOf(entry: string): number {
  const stat = fs.lstatSync(entry);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(entry).reduce((total, name) => total + sizeOf(path.join(entry, name)), 0);
}

export type SweepResult = { removed: number; bytes: number };

export function sweepTemporaryFiles(tmpDir: string, now = Date.now()): SweepResult {
  const result: SweepResult = { removed: 0, bytes: 0 };
  if (!fs.existsSync(tmpDir)) return result;
  for (const name of fs.readdirSync(tmpDir)) {
    const entry = path.join(tmpDir, name);
    try {
      const tag = TAG.exec(name);
      const own = name.startsWith(`${PROCESS_TAG}-`);
      const idleMs = now - lastWriteMs(entry);
      const orphan = own ? idleMs > OWN_IDLE_MS : tag && !processRuns(Number(tag[1])) ? true : idleMs > FOREIGN_IDLE_MS;
      if (!orphan) continue;
      const bytes = sizeOf(entry);
      fs.rmSync(entry, { recursive: true, force: true });
      result.removed++;
      result.bytes += bytes;
    } catch (error) {
      // Gone meanwhile (its owner finished): nothing to do.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return result;
}

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Files appear whole or not at all: they are written under STORAGE_DIR/tmp
 * (the same file system as their destination) and renamed into place, which
 * is atomic. A crash leaves at most a stray file in tmp/, never half a poster.
 */

/**
 * Every temporary name starts with the tag of the process that made it
 * (`p<pid>-<random>`), so a sweep can tell what a dead process left behind
 * from what a live request or job still writes (tmp-sweep.server.ts).
 */
export const PROCESS_TAG = `p${process.pid}-${randomBytes(3).toString("hex")}`;

/** A fresh, unused path in `tmpDir` whose name ends like `finalName` (tools pick formats by extension). */
export function temporaryPath(tmpDir: string, finalName: string): string {
  fs.mkdirSync(tmpDir, { recursive: true });
  return path.join(tmpDir, `${PROCESS_TAG}-${randomBytes(8).toString("hex")}-${path.basename(finalName)}`);
}

/** Move a finished temporary file to its destination, creating the destination folder. */
export function moveIntoPlace(temporaryFile: string, destination: string): void {
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  fs.renameSync(temporaryFile, destination);
}

export function removeQuietly(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * Produce a file through `write(tempPath)` and rename it to `destination` once
 * `write` has finished; on failure the temporary file is removed and the error
 * is passed on.
 */
export async function writeAtomically(
  destination: string,
  tmpDir: string,
  write: (temporaryFile: string) => Promise<unknown>,
): Promise<void> {
  const temporaryFile = temporaryPath(tmpDir, destination);
  try {
    await write(temporaryFile);
    moveIntoPlace(temporaryFile, destination);
  } catch (error) {
    removeQuietly(temporaryFile);
    throw error;
  }
}

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/**
 * Backups a small operator can run while the service is serving:
 *
 *   <backup>/data.db        a consistent copy of the database, made with SQLite's online backup
 *                           (pages copied under the database's own locking, never a torn file copy)
 *   <backup>/media/…        the films, ladders and posters, brought up to date: new and changed
 *   <backup>/categories/…   files copied, files no longer in the service removed
 *
 * Temporary work (tmp/), unfinished uploads (uploads/) and written mail are not kept. Restoring
 * goes only into an empty storage folder, so a live service is never overwritten.
 */
export const BACKED_UP_FOLDERS = ["media", "categories"] as const;
const DATABASE_FILE = "data.db";

export type SyncCounts = { copied: number; copiedBytes: number; removed: number; unchanged: number };
export type BackupSummary = { databaseBytes: number; databaseMs: number; files: SyncCounts; filesMs: number };

/** A consistent copy of the database while the service writes to it (SQLite's online backup), checked, at `finalPath`. */
export async function backUpDatabase(databasePath: string, finalPath: string): Promise<string> {
  fs.mkdirSync(path.dirname(finalPath), { recursive: true });
  const partPath = `${finalPath}.part`;
  fs.rmSync(partPath, { force: true });
  const source = new Database(databasePath, { fileMustExist: true });
  try {
    await source.backup(partPath);
  } finally {
    source.close();
  }
  // The copy is one file: its journal back to a rollback journal, so no `-wal` or `-shm` is left beside it.
  const copy = new Database(partPath, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
  checkIntegrity(partPath);
  fs.renameSync(partPath, finalPath);
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${partPath}${suffix}`, { force: true });
  return finalPath;
}

/**
 * Put a backup's database file in place of the database (no process may hold it meanwhile): the database
 * as it was is kept beside it, `<database>.rolled-back-<time>`, and its WAL files go. Returns that path.
 */
export function putBackDatabase(databasePath: string, backup: string): string {
  const kept = `${databasePath}.rolled-back-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  if (fs.existsSync(databasePath)) fs.renameSync(databasePath, kept);
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${databasePath}${suffix}`, { force: true });
  fs.copyFileSync(backup, `${databasePath}.part`);
  fs.renameSync(`${databasePath}.part`, databasePath);
  return kept;
}

export async function backUp(options: {
  databasePath: string;
  storageDir: string;
  target: string;
}): Promise<BackupSummary> {
  const started = performance.now();
  const finalPath = await backUpDatabase(options.databasePath, path.join(options.target, DATABASE_FILE));
  const databaseMs = performance.now() - started;

  // The files after the database: every title the copy knows was on disk before it was made.
  const filesStarted = performance.now();
  const files: SyncCounts = { copied: 0, copiedBytes: 0, removed: 0, unchanged: 0 };
  for (const folder of BACKED_UP_FOLDERS)
    syncFolder(path.join(options.storageDir, folder), path.join(options.target, folder), files);
  return { databaseBytes: fs.statSync(finalPath).size, databaseMs, files, filesMs: performance.now() - filesStarted };
}

/** Make `to` hold what `from` holds: copy new and changed files (by size and modification time), remove the rest. */
export function syncFolder(from: string, to: string, counts: SyncCounts): void {
  const sourceEntries = fs.existsSync(from) ? fs.readdirSync(from, { withFileTypes: true }) : [];
  fs.mkdirSync(to, { recursive: true });
  const kept = new Set<string>();
  for (const entry of sourceEntries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    kept.add(entry.name);
    if (entry.isDirectory()) {
      syncFolder(source, target, counts);
      continue;
    }
    if (!entry.isFile()) continue;
    const stat = fs.statSync(source);
    const existing = fs.existsSync(target) ? fs.statSync(target) : null;
    if (existing && existing.size === stat.size && Math.abs(existing.mtimeMs - stat.mtimeMs) < 1) {
      counts.unchanged++;
      continue;
    }
    const part = `${target}.part`;
    fs.copyFileSync(source, part);
    fs.utimesSync(part, stat.atime, stat.mtime);
    fs.renameSync(part, target);
    counts.copied++;
    counts.copiedBytes += stat.size;
  }
  for (const entry of fs.readdirSync(to, { withFileTypes: true })) {
    if (kept.has(entry.name)) continue;
    const target = path.join(to, entry.name);
    counts.removed += entry.isDirectory() ? countFiles(target) : 1;
    fs.rmSync(target, { recursive: true, force: true });
  }
}

function countFiles(dir: string): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }))
    count += entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1;
  return count;
}

/** Throws unless SQLite finds the file sound. */
export function checkIntegrity(databasePath: string): void {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma("integrity_check", { simple: true });
    if (result !== "ok") throw new Error(`The database copy at ${databasePath} is damaged: ${String(result)}`);
  } finally {
    db.close();
  }
}

export class RestoreRefused extends Error {}

/** Whether a storage folder already holds a service (a database, or any media). */
export function holdsAService(storageDir: string, databasePath: string): boolean {
  return fs.existsSync(databasePath) || holdsMedia(storageDir);
}

function holdsMedia(storageDir: string): boolean {
  const media = path.join(storageDir, "media");
  return fs.existsSync(media) && fs.readdirSync(media).length > 0;
}

export type RestoreSummary = { databaseBytes: number; files: SyncCounts; ms: number };

/**
 * Restore a backup into an empty storage folder. With `databaseFrom`, the
 * database comes from there instead (when it is `databasePath` itself, a
 * Litestream restore has just written it there);
 * the media still come from the backup when one is given.
 */
export function restore(options: {
  source?: string;
  storageDir: string;
  databasePath: string;
  databaseFrom?: string;
}): RestoreSummary {
  const restoredAlready = options.databaseFrom === options.databasePath;
  if ((!restoredAlready && fs.existsSync(options.databasePath)) || holdsMedia(options.storageDir)) {
    throw new RestoreRefused(
      `${options.storageDir} already holds a service (a database or media). Restore only into an empty STORAGE_DIR; move the old one away first.`,
    );
  }
  const started = performance.now();
  const database = options.databaseFrom ?? (options.source ? path.join(options.source, DATABASE_FILE) : null);
  if (!database || !fs.existsSync(database))
    throw new RestoreRefused(`No database to restore${options.source ? ` in ${options.source}` : ""}`);
  checkIntegrity(database);
  fs.mkdirSync(path.dirname(options.databasePath), { recursive: true });
  if (database !== options.databasePath) fs.copyFileSync(database, options.databasePath);
  const files: SyncCounts = { copied: 0, copiedBytes: 0, removed: 0, unchanged: 0 };
  if (options.source) {
    for (const folder of BACKED_UP_FOLDERS)
      syncFolder(path.join(options.source, folder), path.join(options.storageDir, folder), files);
  }
  return { databaseBytes: fs.statSync(options.databasePath).size, files, ms: performance.now() - started };
}

import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies } from "~/db/schema";
import { storagePaths } from "~/media/storage.server";
import { databaseRoomState } from "~/db/database-room.server";
import { renditionDiskTotal } from "./renditions.server";

/**
 * What the disk under STORAGE_DIR holds and has left, for the administrator:
 * free and total space, the reserve uploads may not eat into, and what the
 * films, their ladders and the temporary work (jobs in progress, unfinished
 * uploads) take. Films and ladders are summed from their rows (measured when
 * they were made); temporary files are counted on disk.
 */
export type DiskUsage = {
  freeBytes: number;
  totalBytes: number;
  reserveBytes: number;
  filmBytes: number;
  renditionBytes: number;
  temporaryBytes: number;
  /** Free space is under twice the reserve: uploads will soon be refused. */
  low: boolean;
};

export function diskUsage(db: DB, root: string, reserveBytes: number): DiskUsage {
  fs.mkdirSync(root, { recursive: true });
  const stats = fs.statfsSync(root);
  const freeBytes = stats.bavail * stats.bsize;
  const films = db
    .select({ bytes: sql<number>`coalesce(sum(${movies.sizeBytes}), 0)` })
    .from(movies)
    .where(eq(movies.status, "ready"))
    .get();
  const { tmp, uploads } = storagePaths(root);
  return {
    freeBytes,
    totalBytes: stats.blocks * stats.bsize,
    reserveBytes,
    filmBytes: films?.bytes ?? 0,
    renditionBytes: renditionDiskTotal(db).bytes,
    temporaryBytes: folderBytes(tmp) + folderBytes(uploads),
    low: freeBytes < reserveBytes * 2,
  };
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
    const file = path.join(dir, entry.name);
    try {
      total += entry.isDirectory() ? folderBytes(file) : fs.statSync(file).size;
    } catch {
      // Gone while we counted (a job finished).
    }
  }
  return total;
}

const MB = 1024 * 1024;

/**
 * Why the media jobs must wait for disk space now, or null: the database's
 * room has been given up (the disk filled), or the disk is nearly full. The
 * same answer in every process, read from the disk itself, so /healthz and
 * /metrics say what the background worker does.
 */
export function diskFullReason(root: string, databasePath: string, roomBytes: number): string | null {
  fs.mkdirSync(root, { recursive: true });
  const stats = fs.statfsSync(root);
  const free = stats.bavail * stats.bsize;
  // A room not made yet on a disk with space for it is no full disk: the disk watch makes it.
  if (roomBytes > 0 && !databaseRoomState(databasePath).kept && free < 2 * roomBytes)
    return `the disk is full (${Math.floor(free / MB)} MB free): the database runs on its room (DATABASE_ROOM_MB); media jobs wait until ${Math.ceil((2 * roomBytes) / MB)} MB are free`;
  const floor = Math.max(roomBytes / 4, 16 * MB);
  if (free < floor) return `the disk is nearly full (${Math.floor(free / MB)} MB free); media jobs wait`;
  return null;
}

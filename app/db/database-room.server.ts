import fs from "node:fs";
import path from "node:path";

/**
 * The database's own room on a disk that something else fills (a log, a
 * backup, a copied film). Beside the database lies a file of DATABASE_ROOM_MB
 * (`.database-room`) that holds space for it. When a write fails because the
 * disk is full — or, checked every half minute, when the disk is nearly full —
 * the room is given up (the file removed) and the write tried again: sign-in,
 * sign-out, progress and purchases go on for as long as that room lasts. The
 * room is made again once the disk has twice its size free.
 *
 * Every process (each worker) may give the room up; making it again is the
 * background worker's (jobs/disk-watch.server.ts).
 */
export const ROOM_FILE = ".database-room";
const SQLITE_DISK_FULL = new Set(["SQLITE_FULL", "ENOSPC", "EDQUOT"]);

/** Is this error (or one it wraps: Drizzle wraps the driver's) a full disk? */
export function isDiskFullError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && SQLITE_DISK_FULL.has(code)) return true;
    if (current instanceof Error && /database or disk is full/i.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function roomFileOf(databasePath: string): string {
  return path.join(path.dirname(databasePath), ROOM_FILE);
}

/** When this process last gave a room up (a write retried right after may count on it). */
const releasedAt = new Map<string, number>();
const RECENT_MS = 5_000;

/**
 * Give the database's room up, if it is still there. True when there is now
 * more room than when the write failed: this call removed the file, or this
 * process removed it a moment ago (a transaction retried after its statement
 * gave the room up).
 */
export function releaseDatabaseRoom(databasePath: string, reason = "a write found the disk full"): boolean {
  const file = roomFileOf(databasePath);
  let size = 0;
  try {
    size = fs.statSync(file).size;
    fs.rmSync(file);
  } catch {
    return Date.now() - (releasedAt.get(file) ?? 0) < RECENT_MS;
  }
  releasedAt.set(file, Date.now());
  console.error(
    `[disk] ${reason}: the database's room (${Math.round(size / 1024 / 1024)} MB, DATABASE_ROOM_MB) is given up so sign-in, progress and purchases go on; free some disk space`,
  );
  return true;
}

export type RoomState = { file: string; kept: boolean; bytes: number };

export function databaseRoomState(databasePath: string): RoomState {
  const file = roomFileOf(databasePath);
  try {
    return { file, kept: true, bytes: fs.statSync(file).size };
  } catch {
    return { file, kept: false, bytes: 0 };
  }
}

function freeBytes(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/**
 * Keep the room: make the file when it is missing and the disk has twice its
 * size free; give it up when the disk has less than a quarter of it free
 * (before the database meets the wall). Returns what it did.
 */
export function keepDatabaseRoom(
  databasePath: string,
  bytes: number,
): "kept" | "made" | "released" | "waiting" | "off" {
  const file = roomFileOf(databasePath);
  const dir = path.dirname(file);
  if (bytes <= 0) {
    fs.rmSync(file, { force: true });
    return "off";
  }
  fs.mkdirSync(dir, { recursive: true });
  const state = databaseRoomState(databasePath);
  const free = freeBytes(dir);
  if (state.kept && state.bytes >= bytes) {
    if (free < bytes / 4 && releaseDatabaseRoom(databasePath, "the disk is nearly full")) return "released";
    return "kept";
  }
  if (free < bytes * 2) return "waiting";
  const temporary = `${file}.${process.pid}`;
  let fd: number | undefined;
  try {
    fd = fs.openSync(temporary, "w");
    // Written, not only sized: a sparse file would hold no space at all.
    const chunk = Buffer.alloc(1024 * 1024);
    for (let written = 0; written < bytes; written += chunk.length) {
      fs.writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - written));
    }
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temporary, file);
    return "made";
  } catch {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    return "waiting";
  }
}

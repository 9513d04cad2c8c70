import { keepDatabaseRoom } from "~/db/database-room.server";
import { startPeriodic } from "~/services/periodic.server";
import { getEnv } from "~/utils/env.server";

const DISK_WATCH_INTERVAL_MS = 30_000;

/**
 * The database's room (db/database-room.server.ts), kept by the background
 * worker: made at start and again once the disk has space, given up before
 * the disk is quite full. Every half minute.
 */
export function watchDatabaseRoom(): void {
  const { databasePath, databaseRoomBytes } = getEnv();
  try {
    const outcome = keepDatabaseRoom(databasePath, databaseRoomBytes);
    if (outcome === "made")
      console.log(
        `[disk] the database keeps ${Math.round(databaseRoomBytes / 1024 / 1024)} MB of room (DATABASE_ROOM_MB)`,
      );
  } catch (error) {
    console.error("[disk] keeping the database's room failed:", (error as Error).message);
  }
}

/** A second after start (writing the room must not hold the start up), then every half minute. */
export function startDiskWatch(): void {
  startPeriodic("disk-watch", DISK_WATCH_INTERVAL_MS, watchDatabaseRoom, 1_000);
}

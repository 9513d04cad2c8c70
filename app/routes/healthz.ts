import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { spareBytes, storageRoot } from "~/media/storage.server";
import { diskFullReason } from "~/services/disk.server";
import { getEnv } from "~/utils/env.server";

/**
 * Liveness and readiness for the container: the process answers and the
 * database reads. "degraded" (still 200: restarting would not help) when the
 * disk is full or down to its reserve, with the reasons: uploads refused,
 * media jobs waiting, the database running on its room (DATABASE_ROOM_MB).
 * The operator's monitoring sees it here; /metrics says the same in numbers.
 */
export function loader() {
  try {
    getDb().get(sql`select 1`);
  } catch (error) {
    console.error("[healthz] database check failed:", (error as Error).message);
    return Response.json(
      { status: "error", message: "database unavailable" },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
  const env = getEnv();
  const reasons: string[] = [];
  const full = diskFullReason(storageRoot(), env.databasePath, env.databaseRoomBytes);
  if (full) reasons.push(full);
  if (spareBytes(storageRoot(), env.diskReserveBytes) <= 0)
    reasons.push("disk space is down to DISK_RESERVE_MB: uploads are refused");
  const body = reasons.length === 0 ? { status: "ok" } : { status: "degraded", message: reasons.join("; "), reasons };
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}

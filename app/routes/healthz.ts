import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { spareBytes, storageRoot } from "~/media/storage.server";
import { getEnv } from "~/utils/env.server";

/**
 * Liveness and readiness for the container: the process answers and the
 * database reads. "degraded" (still 200: restarting would not help) when the
 * disk is down to its reserve, so uploads are being refused and the database
 * may soon be unable to grow; the operator's monitoring sees it here.
 */
export function loader() {
  try {
    getDb().get(sql`select 1`);
  } catch (error) {
    console.error("[healthz] database check failed", error);
    return Response.json(
      { status: "error", message: "database unavailable" },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
  const spare = spareBytes(storageRoot(), getEnv().diskReserveBytes);
  const body =
    spare > 0
      ? { status: "ok" }
      : { status: "degraded", message: "disk space is down to DISK_RESERVE_MB: uploads are refused" };
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}

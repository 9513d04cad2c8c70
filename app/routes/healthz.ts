import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { bucketHealth, bucketIsDown, cdnProblem } from "~/media/media-store.server";
import { SETTINGS_KINDS, type ObjectStoreErrorKind } from "~/media/object-store.server";
import { spareBytes, storageRoot } from "~/media/storage.server";
import { diskFullReason } from "~/services/disk.server";
import { getEnv } from "~/utils/env.server";
import { runningVersion } from "~/utils/version.server";

/**
 * Liveness and readiness for the container: the process answers and the
 * database reads. "degraded" (still 200: restarting would not help) when the
 * disk is full or down to its reserve, with the reasons: uploads refused,
 * media jobs waiting, the database running on its room (DATABASE_ROOM_MB);
 * or the media bucket (MEDIA_STORE=s3) cannot be reached. The operator's monitoring sees it
 * here; /metrics says the same in numbers.
 */
export async function loader() {
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
  // A stale state is checked again, waiting at most 2 s (a bucket that hangs is reported as down).
  const down = await bucketIsDown(2000);
  const bucket = bucketHealth();
  if (bucket.configured && down) {
    const settings = bucket.kind && SETTINGS_KINDS.includes(bucket.kind);
    reasons.push(
      settings
        ? `the media bucket refuses this box: ${bucket.message}. Titles held there cannot play; new titles play from the disk and are sent once it is mended`
        : `the media bucket cannot be reached (${bucket.message ?? "no answer"}): titles held there cannot play; new titles play from the disk and are sent when it is back`,
    );
  }
  // The CDN in front (MEDIA_BASE_URL), checked every ten minutes: one that cannot read the bucket plays nothing.
  const cdn = bucket.configured && !down ? await cdnProblem({ waitMs: 2000 }) : null;
  if (cdn) reasons.push(`${cdn}: titles held in the bucket cannot play`);
  const body = reasons.length === 0 ? { status: "ok" } : { status: "degraded", message: reasons.join("; "), reasons };
  return Response.json(
    {
      ...body,
      version: runningVersion().version,
      commit: runningVersion().commit,
      ...(bucket.configured ? { mediaStore: bucket.ok ? "ok" : mediaStoreState(bucket.kind) } : {}),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** /healthz's word for a bucket that fails: what an operator's monitor can match on. */
function mediaStoreState(kind: ObjectStoreErrorKind | undefined): string {
  if (kind === "no-bucket") return "no-bucket";
  if (kind === "auth") return "keys-refused";
  if (kind === "clock") return "clock-skew";
  return "unreachable";
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { jobs, resumableUploads } from "~/db/schema";
import { storageRoot } from "~/media/storage.server";
import { databaseRoomState } from "~/db/database-room.server";
import { bucketHealth, bucketIsDown, cdnProblem, titlesByStore } from "~/media/media-store.server";
import { diskFullReason, diskUsage } from "~/services/disk.server";
import { allowList, isAllowed } from "~/utils/address-list";
import { clientAddress } from "~/utils/client.server";
import { getEnv } from "~/utils/env.server";
import { gauge, metricsContentType, metricsText } from "~/utils/metrics.server";

/**
 * GET /metrics — Prometheus text format: requests by route pattern and
 * status with durations, media bytes sent (recorded by the server; summed
 * over every worker), and, read now, jobs by kind and status, unfinished
 * uploads and the disk. Only for the
 * addresses in METRICS_ALLOW (loopback by default); anyone else gets a 404.
 */
const jobsGauge = gauge("kallo_jobs", "Background jobs by kind and status", ["kind", "status"]);
const uploadsGauge = gauge("kallo_unfinished_uploads", "Resumable uploads not finished yet", []);
const diskFullGauge = gauge(
  "kallo_disk_full",
  "1 while the disk is full: the database runs on its room (DATABASE_ROOM_MB) and media jobs wait",
  [],
);
const diskGauge = gauge(
  "kallo_disk_bytes",
  "Disk under STORAGE_DIR: free, total, and what films, ladders and temporary work take",
  ["what"],
);

const titlesGauge = gauge(
  "kallo_titles_by_store",
  "Titles whose film and ladder are on this disk or in the media bucket",
  ["store"],
);
const bucketGauge = gauge(
  "kallo_media_bucket_up",
  "1 when the media bucket answered its last request, 0 when it did not (only with a bucket)",
  [],
);

const bucketProblemGauge = gauge(
  "kallo_media_bucket_problem",
  "1 for what is wrong with the media bucket now (no-bucket, auth, clock, network, timeout, server, other), else 0",
  ["kind"],
);
const cdnGauge = gauge(
  "kallo_media_cdn_up",
  "1 when the CDN in front of the bucket (MEDIA_BASE_URL) answered its last check with the bucket's file, else 0 (only with MEDIA_BASE_URL)",
  [],
);
const BUCKET_PROBLEMS = ["no-bucket", "auth", "clock", "network", "timeout", "server", "other"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const env = getEnv();
  const allowed = allowList(env.metricsAllow);
  if (!allowed || !isAllowed(allowed, clientAddress(request)))
    return new Response("Not found\n", { status: 404, headers: { "Cache-Control": "no-store" } });
  const db = getDb();
  jobsGauge.reset();
  for (const row of db
    .select({ kind: jobs.kind, status: jobs.status, count: sql<number>`count(*)` })
    .from(jobs)
    .groupBy(jobs.kind, jobs.status)
    .all()) {
    jobsGauge.set({ kind: row.kind, status: row.status }, row.count);
  }
  uploadsGauge.set(
    db
      .select({ count: sql<number>`count(*)` })
      .from(resumableUploads)
      .where(sql`${resumableUploads.completedAt} is null`)
      .get()?.count ?? 0,
  );
  const disk = diskUsage(db, storageRoot(), env.diskReserveBytes);
  diskGauge.set({ what: "free" }, disk.freeBytes);
  diskGauge.set({ what: "total" }, disk.totalBytes);
  diskGauge.set({ what: "reserve" }, disk.reserveBytes);
  diskGauge.set({ what: "films" }, disk.filmBytes);
  diskGauge.set({ what: "ladders" }, disk.renditionBytes);
  diskGauge.set({ what: "temporary" }, disk.temporaryBytes);
  diskGauge.set({ what: "database_room" }, databaseRoomState(env.databasePath).bytes);
  diskFullGauge.set(diskFullReason(storageRoot(), env.databasePath, env.databaseRoomBytes) ? 1 : 0);
  const byStore = titlesByStore(db);
  titlesGauge.set({ store: "local" }, byStore.local);
  titlesGauge.set({ store: "s3" }, byStore.s3);
  if (bucketHealth().configured) {
    const down = await bucketIsDown();
    bucketGauge.set(down ? 0 : 1);
    const state = bucketHealth();
    const kind = down && state.configured ? (state.kind ?? "other") : null;
    for (const each of BUCKET_PROBLEMS) bucketProblemGauge.set({ kind: each }, each === kind ? 1 : 0);
    if (getEnv().s3?.mediaBaseUrl) cdnGauge.set((await cdnProblem()) ? 0 : 1);
  }
  return new Response(await metricsText(), {
    headers: { "Content-Type": metricsContentType, "Cache-Control": "no-store" },
  });
}

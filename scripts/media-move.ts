/**
 * `npm run media:move -- --to s3` sends every title's film, ladder, posters
 * and subtitles to the bucket named by the S3_* settings and makes it play
 * from there; `--to local` brings them back to this disk. Safe to stop at any
 * moment and run again: a title changes place only once every one of its
 * files is checked at the other end, and files already there are not sent
 * twice. `--dry-run` says what would move. Runs beside the serving process.
 */
import { eq, asc } from "drizzle-orm";
import { getDb } from "../app/db/client.server";
import { movies } from "../app/db/schema";
import { bringTitleHome, objectStore, sendTitleToBucket } from "../app/media/media-store.server";
import { commandEnv } from "./command-env";

const args = process.argv.slice(2);
const toIndex = args.indexOf("--to");
const target = toIndex >= 0 ? args[toIndex + 1] : args.find((arg) => arg.startsWith("--to="))?.slice(5);
const dryRun = args.includes("--dry-run");
if (target !== "s3" && target !== "local") {
  console.error("Usage: npm run media:move -- --to s3|local [--dry-run]");
  process.exit(2);
}
commandEnv("media:move", { signs: false });
const store = objectStore();
if (!store) {
  console.error(
    "[media:move] no bucket configured: set S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE for a service other than AWS)",
  );
  process.exit(2);
}

const db = getDb();
const from = target === "s3" ? "local" : "s3";
// Ready titles only: one still being processed is sent by its own job when its ladder is done.
const titles = db
  .select({ id: movies.id, name: movies.name })
  .from(movies)
  .where(eq(movies.mediaStore, from))
  .orderBy(asc(movies.uploadedAt))
  .all();
const started = Date.now();
let bytes = 0;
let moved = 0;
let failed = 0;
const mb = (value: number) => `${(value / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `[media:move] ${titles.length} titles on ${from === "s3" ? "the bucket" : "this disk"} to move to ${target === "s3" ? `bucket ${store.bucket}` : "this disk"}${dryRun ? " (dry run: nothing changes)" : ""}`,
);
for (const [index, title] of titles.entries()) {
  const label = `[media:move] ${index + 1}/${titles.length} ${title.id} ${JSON.stringify(title.name)}`;
  try {
    const status = db.select({ status: movies.status }).from(movies).where(eq(movies.id, title.id)).get()?.status;
    if (target === "s3" && status !== "ready") {
      console.log(`${label}: ${status ?? "gone"}, left for its own job`);
      continue;
    }
    const summary =
      target === "s3"
        ? await sendTitleToBucket(db, title.id, { dryRun })
        : await bringTitleHome(db, title.id, { dryRun });
    bytes += summary.sentBytes;
    moved++;
    const elapsed = (Date.now() - started) / 1000;
    console.log(
      `${label}: ${summary.files} files, ${mb(summary.sentBytes)}${dryRun ? " would move" : " checked"}${
        target === "s3" && !dryRun ? `, ${summary.removedLocal} removed from the disk` : ""
      } — ${mb(bytes)} in ${elapsed.toFixed(1)} s (${mb(bytes / Math.max(elapsed, 0.001))}/s)`,
    );
  } catch (error) {
    failed++;
    console.error(
      `${label}: not moved (${error instanceof Error ? error.message : String(error)}); run again to retry`,
    );
  }
}
console.log(
  `[media:move] done: ${moved} titles${dryRun ? " would move" : " moved"}, ${failed} failed, ${mb(bytes)} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
store.client.destroy();
process.exit(failed > 0 ? 1 : 0);

/**
 * `npm run media:cors -- [origin ...]` lets the site's pages read the bucket's
 * films by byte range: the player (hls.js fetches segments) and the offline
 * downloader (2 MiB ranges kept in Cache Storage). Without arguments the
 * origin is PUBLIC_URL's. Run once after creating the bucket, and again when
 * the site's address changes. A CDN in front (MEDIA_BASE_URL) must pass these
 * headers on, or set the same rule itself.
 */
import { objectStore } from "../app/media/media-store.server";
import { commandEnv } from "./command-env";

const given = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const env = commandEnv("media:cors", { signs: false });
const origins = given.length > 0 ? given : env.publicUrl ? [new URL(env.publicUrl).origin] : [];
if (origins.length === 0) {
  console.error("Usage: npm run media:cors -- https://kallo.example.com [more origins]   (or set PUBLIC_URL)");
  process.exit(2);
}
for (const origin of origins) {
  if (origin !== "*" && new URL(origin).origin !== origin) {
    console.error(`[media:cors] ${origin} is not an origin (scheme://host[:port], no path)`);
    process.exit(2);
  }
}
const store = objectStore();
if (!store) {
  console.error("[media:cors] no bucket configured: set S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY");
  process.exit(2);
}
try {
  await store.allowBrowserReads(origins);
  console.log(`[media:cors] bucket ${store.bucket}: GET and HEAD with Range allowed from ${origins.join(", ")}`);
} catch (error) {
  console.error(`[media:cors] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
} finally {
  store.client.destroy();
}

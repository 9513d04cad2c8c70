/**
 * `npm run backup -- <dir>`: while the service runs, write a consistent copy
 * of the database (SQLite's online backup) to <dir>/data.db and bring <dir>/media
 * and <dir>/categories up to date (new files copied, removed titles pruned).
 * Run it again into the same folder: only what changed is copied.
 */
import path from "node:path";
import { backUp } from "../app/services/backup.server";
import { getEnv } from "../app/utils/env.server";

const target = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
if (!target) {
  console.error("Usage: npm run backup -- <backup folder>");
  process.exit(2);
}
const env = getEnv();
const summary = await backUp({
  databasePath: env.databasePath,
  storageDir: env.storageDir,
  target: path.resolve(target),
});
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `[backup] database: ${mb(summary.databaseBytes)} MB copied in ${(summary.databaseMs / 1000).toFixed(1)} s (integrity ok) → ${path.resolve(target, "data.db")}`,
);
console.log(
  `[backup] files: ${summary.files.copied} copied (${mb(summary.files.copiedBytes)} MB), ${summary.files.removed} removed, ${summary.files.unchanged} unchanged, in ${(summary.filesMs / 1000).toFixed(1)} s`,
);

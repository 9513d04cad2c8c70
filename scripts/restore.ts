/**
 * `npm run restore -- <dir>`: restore a backup made by `npm run backup` into
 * an empty STORAGE_DIR (a folder that already holds a database or media is
 * refused). `npm run restore -- --from-replica [<dir>]`: the database from
 * LITESTREAM_REPLICA_URL instead (its newest writes), the media from <dir>
 * when given.
 */
import fs from "node:fs";
import path from "node:path";
import { holdsAService, restore, RestoreRefused } from "../app/services/backup.server";
import { getEnv } from "../app/utils/env.server";
import { restoreFromReplica } from "./litestream";

const args = process.argv.slice(2);
const fromReplica = args.includes("--from-replica");
const source = args.find((arg) => !arg.startsWith("-"));
const env = getEnv();
if (!source && !fromReplica) {
  console.error(
    "Usage: npm run restore -- <backup folder>   or   npm run restore -- --from-replica [<backup folder for the media>]",
  );
  process.exit(2);
}
try {
  let databaseFrom: string | undefined;
  if (fromReplica) {
    if (!env.litestreamReplicaUrl)
      throw new RestoreRefused("--from-replica needs LITESTREAM_REPLICA_URL (the replica to restore from)");
    if (holdsAService(env.storageDir, env.databasePath))
      throw new RestoreRefused(`${env.storageDir} already holds a service; restore only into an empty STORAGE_DIR`);
    fs.mkdirSync(path.dirname(env.databasePath), { recursive: true });
    restoreFromReplica(env.litestreamReplicaUrl, env.databasePath);
    databaseFrom = env.databasePath;
  }
  const summary = restore({
    source: source ? path.resolve(source) : undefined,
    storageDir: env.storageDir,
    databasePath: env.databasePath,
    databaseFrom,
  });
  console.log(
    `[restore] database ${(summary.databaseBytes / 1024 / 1024).toFixed(1)} MB (integrity ok)${fromReplica ? " from the replica" : ""}, ${summary.files.copied} files (${(summary.files.copiedBytes / 1024 / 1024).toFixed(1)} MB) into ${env.storageDir} in ${(summary.ms / 1000).toFixed(1)} s`,
  );
  console.log("[restore] start the service as usual (npm start); migrations bring an older backup up to date");
} catch (error) {
  if (!(error instanceof RestoreRefused)) throw error;
  console.error(`[restore] refused: ${error.message}`);
  process.exit(1);
}

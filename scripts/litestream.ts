/**
 * Litestream (continuous replication of the SQLite database to a folder or
 * an S3-compatible bucket), from its npm package's binary. Run beside the
 * server when LITESTREAM_REPLICA_URL is set; `npm run restore -- --from-replica`
 * restores from the same replica.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getEnv, type S3Settings } from "../app/utils/env.server";

export function litestreamBinary(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve(`@flydotio/litestream-${process.platform}-${process.arch}/package.json`);
  return path.join(path.dirname(pkg), "litestream");
}

/**
 * A replica as Litestream takes it: URLs as they are, a plain path as a
 * file:// URL, and `bucket` as the `db/` folder of the media bucket (S3_*).
 */
export function replicaUrl(value: string, s3: S3Settings | undefined = getEnv().s3): string {
  if (value === "bucket") {
    if (!s3) throw new Error("LITESTREAM_REPLICA_URL=bucket needs the bucket's settings (S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)");
    const query = new URLSearchParams({ region: s3.region });
    if (s3.endpoint) query.set("endpoint", s3.endpoint);
    if (s3.forcePathStyle) query.set("forcePathStyle", "true");
    return `s3://${s3.bucket}/db?${query}`;
  }
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : pathToFileURL(path.resolve(value)).href;
}

/** Litestream's environment: the bucket's key when the replica is in it and no key of its own is given. */
function litestreamEnv(s3: S3Settings | undefined = getEnv().s3): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (s3 && !env.LITESTREAM_ACCESS_KEY_ID && !env.AWS_ACCESS_KEY_ID) {
    env.LITESTREAM_ACCESS_KEY_ID = s3.accessKeyId;
    env.LITESTREAM_SECRET_ACCESS_KEY = s3.secretAccessKey;
  }
  return env;
}

export type Replication = { process: ChildProcess; stop: () => Promise<void> };

/** Start replicating; the child's log lines are prefixed. Stopping lets it ship the last writes first. */
export function startReplication(databasePath: string, replica: string): Replication {
  const child = spawn(litestreamBinary(), ["replicate", databasePath, replicaUrl(replica)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: litestreamEnv(),
  });
  const prefix = (chunk: Buffer) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, "[litestream] "));
  child.stdout!.on("data", prefix);
  child.stderr!.on("data", prefix);
  let exited = false;
  child.once("exit", (code, signal) => {
    exited = true;
    if (code !== 0 && signal !== "SIGTERM")
      console.error(
        `[litestream] stopped unexpectedly (${signal ?? `exit ${code}`}); the database is no longer replicated`,
      );
  });
  return {
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Restore the newest copy in a replica to `output` (which must not exist). */
export function restoreFromReplica(replica: string, output: string): void {
  const result = spawnSync(litestreamBinary(), ["restore", "-o", output, replicaUrl(replica)], {
    stdio: "inherit",
    env: litestreamEnv(),
  });
  if (result.status !== 0) throw new Error(`litestream restore from ${replica} failed (exit ${result.status})`);
}

/**
 * Litestream (continuous replication of the SQLite database to a folder or
 * an S3-compatible bucket), from its npm package's binary. Run beside the
 * server when LITESTREAM_REPLICA_URL is set; `npm run restore -- --from-replica`
 * restores from the same replica.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getEnv, type S3Settings } from "../app/utils/env.server";

/**
 * Litestream's binary: LITESTREAM_PATH, else the npm package's for this platform. The registry has it for
 * linux-x64 and macOS only (the linux-arm64 package the wrapper names was never published): elsewhere
 * LITESTREAM_PATH names a Litestream 0.3 installed by hand.
 */
export function litestreamBinary(): string {
  if (process.env.LITESTREAM_PATH) return process.env.LITESTREAM_PATH;
  const platform = `${process.platform}-${process.arch}`;
  try {
    const require = createRequire(import.meta.url);
    return path.join(path.dirname(require.resolve(`@flydotio/litestream-${platform}/package.json`)), "litestream");
  } catch {
    throw new Error(
      `Litestream has no npm package for ${platform}: install Litestream 0.3 (litestream.io) and set LITESTREAM_PATH to its binary, or leave LITESTREAM_REPLICA_URL unset`,
    );
  }
}

/** A replica as Litestream takes it: URLs as they are, a plain path as a file:// URL; `bucket` is described by its settings. */
export function replicaUrl(value: string, s3: S3Settings | undefined = getEnv().s3): string {
  if (value === "bucket") {
    if (!s3)
      throw new Error(
        "LITESTREAM_REPLICA_URL=bucket needs the bucket's settings (S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)",
      );
    return `s3://${s3.bucket}/db${s3.endpoint ? ` at ${s3.endpoint}` : ""}`;
  }
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : pathToFileURL(path.resolve(value)).href;
}

/**
 * Litestream's arguments for a database and a replica. `bucket` (the `db/`
 * folder of the media bucket, S3_*) goes through a configuration file, the
 * only way Litestream 0.3 takes an endpoint other than AWS's (R2, B2, MinIO,
 * Ceph, Swift); the key stays in the environment.
 */
function litestreamArguments(
  command: "replicate" | "restore",
  databasePath: string,
  replica: string,
  output?: string,
): string[] {
  if (replica !== "bucket") {
    const target = replicaUrl(replica);
    return command === "replicate" ? ["replicate", databasePath, target] : ["restore", "-o", output!, target];
  }
  const s3 = getEnv().s3;
  if (!s3) throw new Error(replicaUrl(replica, s3));
  // Beside the database, one per purpose, rewritten each time (never a trail of them in the temp folder).
  const config = litestreamConfigPath(command, command === "replicate" ? databasePath : output!);
  const lines = [
    "dbs:",
    `  - path: ${JSON.stringify(databasePath)}`,
    "    replicas:",
    "      - type: s3",
    `        bucket: ${JSON.stringify(s3.bucket)}`,
    "        path: db",
    `        region: ${JSON.stringify(s3.region)}`,
    ...(s3.endpoint ? [`        endpoint: ${JSON.stringify(s3.endpoint)}`] : []),
    `        force-path-style: ${s3.forcePathStyle ? "true" : "false"}`,
    "",
  ];
  fs.writeFileSync(config, lines.join("\n"), { mode: 0o600 });
  return command === "replicate"
    ? ["replicate", "-config", config]
    : ["restore", "-config", config, "-o", output!, databasePath];
}

/** Where the configuration file for `command` on the database at `databasePath` goes (no secret is in it). */
export function litestreamConfigPath(command: "replicate" | "restore", databasePath: string): string {
  return path.join(path.dirname(databasePath), `.litestream-${command}.yml`);
}

/** Litestream's environment: the bucket's key when no key of its own is given. */
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
  const child = spawn(litestreamBinary(), litestreamArguments("replicate", databasePath, replica), {
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
  const result = spawnSync(litestreamBinary(), litestreamArguments("restore", output, replica, output), {
    stdio: "inherit",
    env: litestreamEnv(),
  });
  fs.rmSync(litestreamConfigPath("restore", output), { force: true });
  if (result.status !== 0) throw new Error(`litestream restore from ${replica} failed (exit ${result.status})`);
}

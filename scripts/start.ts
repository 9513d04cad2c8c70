/**
 * `npm start` (production) and `npm run demo`: apply migrations, make sure an
 * administrator exists, optionally add the demo content, then serve the build
 * (scripts/serve.ts, in WORKERS processes: scripts/workers.ts). These steps and
 * Litestream run once, in this process. Runs the same steps in the Docker
 * image and in CI.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Replication } from "./litestream";

const demo = process.argv.includes("--demo");
process.env.NODE_ENV ??= "production";

if (demo && !process.env.SESSION_SECRET) {
  // The demo keeps its own random secret in storage/, so sign-ins survive restarts.
  const storageDir = path.resolve(process.env.STORAGE_DIR ?? "storage");
  const secretFile = path.join(storageDir, ".demo-session-secret");
  fs.mkdirSync(storageDir, { recursive: true });
  if (!fs.existsSync(secretFile)) fs.writeFileSync(secretFile, randomBytes(32).toString("hex"), { mode: 0o600 });
  process.env.SESSION_SECRET = fs.readFileSync(secretFile, "utf8").trim();
}

// The demo knows its own address: links in its mail point there (never at a request's Host).
if (demo) process.env.PUBLIC_URL ??= `http://localhost:${process.env.PORT ?? 3000}`;

const { EnvError, getEnv } = await import("../app/utils/env.server");
let env;
try {
  env = getEnv();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(`\nKallo cannot start.\n${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

// A folder the server cannot write stops the start here, with what fixes it (not a stack trace from SQLite).
const { storageRefusal } = await import("../app/utils/storage-access.server");
const cannotWrite = storageRefusal([env.storageDir, path.dirname(env.databasePath)]);
if (cannotWrite) {
  console.error(`\nKallo cannot start: ${cannotWrite}\n`);
  process.exit(1);
}

// A bucket that cannot work with these settings stops the start; one that does not answer now does not.
if (env.s3) {
  const { describeBucketProblem, ObjectStore, ObjectStoreError, SETTINGS_KINDS } =
    await import("../app/media/object-store.server");
  const store = new ObjectStore(env.s3);
  // A bucket that does not answer within 5 s is not waited for (the SDK would try for minutes).
  let timer: NodeJS.Timeout | undefined;
  const quiet = new Promise<"quiet">((resolve) => {
    timer = setTimeout(() => resolve("quiet"), 5_000);
  });
  try {
    const { probeCdn } = await import("../app/media/media-store.server");
    // The bucket, then the CDN in front of it (MEDIA_BASE_URL) asked for a file the bucket holds.
    const checking = store.check().then(() => probeCdn(store));
    checking.catch(() => undefined); // answered after the 5 s: not heard
    const outcome = await Promise.race([checking, quiet]);
    if (outcome === "quiet")
      console.log("[start] the media bucket has not answered within 5 s; /healthz says when it does");
    else if (outcome)
      console.log(`[start] ${outcome}: titles held in the bucket cannot play until it can; /healthz says when it does`);
  } catch (error) {
    const problem = describeBucketProblem(error, env.s3);
    if (error instanceof ObjectStoreError && SETTINGS_KINDS.includes(error.kind) && error.kind !== "clock") {
      console.error(`\nKallo cannot start: the media bucket: ${problem}\n`);
      process.exit(1);
    }
    console.log(
      `[start] the media bucket: ${problem}. Titles held there cannot play until it answers; /healthz says when it does`,
    );
  } finally {
    clearTimeout(timer);
    store.client.destroy();
  }
}

// The AWS SDK's own warning of this is kept quiet (media/object-store.server.ts): said once here.
if (env.mediaStore === "s3" && Number(process.versions.node.split(".")[0]) < 22) {
  console.log(
    `[start] the bucket is reached with the AWS SDK version in package-lock.json; its releases after January 2027 need Node 22 (this is Node ${process.versions.node})`,
  );
}

const linkedBuild = path.resolve("build/index.js");
if (!fs.existsSync(linkedBuild)) {
  console.error("Kallo cannot start: build/index.js is missing. Run `npm run build` first.");
  process.exit(1);
}
// The build the link names now: this server, its migrations, its version and every worker it starts use it.
const serverBuild = fs.realpathSync(linkedBuild);
process.env.KALLO_BUILD_DIR = path.dirname(serverBuild);

const { openDatabase, migrateDatabase, migrationsFolder } = await import("../app/db/client.server");
const { recordVersion, refusalToStart, schemaState } = await import("../app/db/schema-version.server");
const { runningVersion } = await import("../app/utils/version.server");
const { ensureAdministrator } = await import("../app/services/bootstrap.server");
const { settlePriceCurrency } = await import("../app/services/price-currency.server");

const running = runningVersion();
const db = openDatabase(env.databasePath);
// Never older code on a database a newer version migrated.
const refusal = refusalToStart(schemaState(db.$client, migrationsFolder()), running);
if (refusal) {
  console.error(`\nKallo cannot start.\n${refusal}\n`);
  process.exit(1);
}
migrateDatabase(db);
recordVersion(db.$client, running.version, migrationsFolder());
// Never a price read in a currency it was not set in.
const { recorded, refusal: wrongCurrency } = settlePriceCurrency(db, env.currency);
if (recorded > 0)
  console.log(
    `[start] ${recorded} prices had no recorded currency (migration 0018 of an earlier version dropped it); recorded as ${env.currency}, what they have been charged in since (audit log: prices.currency_recorded)`,
  );
if (wrongCurrency) {
  console.error(`\nKallo cannot start.\n${wrongCurrency}\n`);
  process.exit(1);
}
console.log(
  `[start] Kallo ${running.version}${running.commit ? ` (${running.commit})` : ""}; database ready at ${env.databasePath}`,
);

// Demo content first: its administrator then counts as the first one. Its films are made while the site
// serves (titles appear as each is ready), unless --demo-media-first (the end-to-end tests) waits for them.
let makeDemoMedia: (() => Promise<void>) | null = null;
if (demo) {
  const { seedDemoBasics } = await import("../app/demo/seed-demo.server");
  const { DEMO_ACCOUNTS } = await import("../app/demo/demo-catalogue");
  const { summary, makeMedia } = await seedDemoBasics(db, {
    storageDir: env.storageDir,
    ladder: env.ladder,
    codecs: env.ladderCodecs,
  });
  if (process.argv.includes("--demo-media-first")) await makeMedia();
  else makeDemoMedia = makeMedia;
  console.log(
    `[demo] accounts, ${summary.categories} categories and ${summary.plans} plans ready; ${summary.movies} titles ${makeDemoMedia ? "follow while the site serves" : "ready"}`,
  );
  console.log("[demo] sign in with:");
  for (const account of DEMO_ACCOUNTS) {
    console.log(`        ${account.role.padEnd(8)} ${account.email}  /  ${account.password}`);
  }
}

const admin = await ensureAdministrator(db, { email: env.adminEmail, password: env.adminPassword });
if (admin.created && admin.oneTimePassword) {
  console.log("\n[start] First administrator created. This password is shown once; sign in and change it:");
  console.log(`        email:    ${admin.email}\n        password: ${admin.oneTimePassword}\n`);
} else if (admin.created) {
  console.log(`[start] administrator ${admin.email} created from ADMIN_EMAIL`);
}

if (!makeDemoMedia) db.$client.close();

// Continuous replication of the database, when the operator asked for it; it ships the last writes after the server stops.
let replication: Replication | null = null;
if (env.litestreamReplicaUrl) {
  const { litestreamBinary, startReplication, replicaUrl } = await import("./litestream");
  try {
    litestreamBinary();
  } catch (error) {
    console.error(`\nKallo cannot start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  replication = startReplication(env.databasePath, env.litestreamReplicaUrl);
  console.log(`[start] Litestream replicates the database to ${replicaUrl(env.litestreamReplicaUrl)}`);
}

// One process, or a primary with WORKERS workers (scripts/workers.ts); Litestream stops after the last of them.
const { runServer, serveOptionsFrom } = await import("./serve");
await runServer(serveOptionsFrom(env, serverBuild), {
  workers: env.workers,
  databasePath: env.databasePath,
  storageDir: env.storageDir,
  afterStop: async () => {
    await replication?.stop();
  },
});

// Started by `npm start` (or `npm run demo`): npm ends on SIGTERM without passing it on, so a process manager's
// stop reached npm alone and left the server running. When npm goes, the server stops as SIGTERM stops it.
const npm = process.env.npm_lifecycle_event ? npmAncestor() : null;
if (npm) {
  const watch = setInterval(() => {
    try {
      process.kill(npm, 0);
      return;
    } catch {
      // gone
    }
    clearInterval(watch);
    console.log("[start] npm, which started this server, has ended: stopping as on SIGTERM");
    process.kill(process.pid, "SIGTERM");
  }, 500);
  watch.unref();
}

/** The npm process this one was started by (through the shell npm runs scripts in), from /proc; null elsewhere. */
function npmAncestor(): number | null {
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    try {
      const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (/(^|[/\0])npm(-cli\.js)?([\0 ]|$)/.test(commandLine)) return pid;
      // The fourth field of /proc/<pid>/stat is its parent (after the name in parentheses).
      pid = Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);
    } catch {
      return null;
    }
  }
  return null;
}

if (makeDemoMedia) {
  console.log(
    "[demo] the site serves now; the demo's films are being made (each title appears once its film is ready):",
  );
  makeDemoMedia()
    .catch((error: unknown) => console.error("[demo] making the demo's films failed:", error))
    .finally(() => db.$client.close());
}

/**
 * `npm run upgrade`, after `git pull` (or unpacking a release) on a box that
 * serves: nothing stops and no request is refused.
 *
 * 1. An online backup of the database (STORAGE_DIR/backups/upgrade-<time>/data.db),
 *    recorded in STORAGE_DIR/backups/upgrades.json for `npm run rollback`.
 * 2. `npm run build`: the new build is made beside the one serving.
 * 3. The new build's migrations, on the live database. Old code keeps serving
 *    meanwhile, so a migration old code cannot live with (`-- kallo:stop`) is
 *    not run: the command says which and why, and `--with-stop` runs it with
 *    the server stopped (start it again after).
 * 4. Prices: never read in a currency they were not set in (the upgrade stops
 *    here, the old build serving, if CURRENCY and the prices differ).
 * 5. The running server moves its workers to the new build one at a time
 *    (SIGHUP to its primary: scripts/workers.ts).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { migrateDatabase, openDatabase } from "../app/db/client.server";
import { recordVersion, schemaState } from "../app/db/schema-version.server";
import { backUpDatabase } from "../app/services/backup.server";
import { settlePriceCurrency } from "../app/services/price-currency.server";
import { getEnv } from "../app/utils/env.server";
import { readBuildInfo } from "./builds-in-use";
import { askServer, readUpgrades, runningServer, writeUpgrades } from "./server-control";

const KEPT_UPGRADE_BACKUPS = 3;
const withStop = process.argv.includes("--with-stop");
const started = Date.now();
const say = (line: string) => console.log(`[upgrade] ${line}`);
const fail = (line: string): never => {
  console.error(`[upgrade] ${line}`);
  process.exit(1);
};
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

const env = getEnv();
const server = runningServer(env.storageDir);
const fromBuild = server?.build ?? (fs.existsSync("build") ? fs.realpathSync("build") : null);
// Builds name their version since 1.4 (version.json); an older build's version is older than that.
const fromVersion =
  server?.version ??
  (fromBuild
    ? fs.existsSync(path.join(fromBuild, "version.json"))
      ? readBuildInfo(fromBuild).version
      : "1.3 or older"
    : "none");
say(
  server
    ? `Kallo ${fromVersion} serves (pid ${server.pid}, ${server.workers} worker${server.workers === 1 ? "" : "s"}, ${fromBuild})`
    : "no server says it runs on this STORAGE_DIR: the new build is made and the database migrated; start it after (a server of Kallo 1.3 or older does not say so: restart it once this is done)",
);

// 1. The backup first.
const stamp = new Date().toISOString().replace(/[-:.]/g, "").replace("T", "-").slice(0, 15);
const backup = path.resolve(env.storageDir, "backups", `upgrade-${stamp}`, "data.db");
if (fs.existsSync(env.databasePath)) {
  await backUpDatabase(env.databasePath, backup);
  say(`backup of the database: ${backup} (${(fs.statSync(backup).size / 1024 / 1024).toFixed(1)} MB, integrity ok)`);
}
const records = readUpgrades(env.storageDir);
const record = { at: new Date().toISOString(), backup, fromBuild: fromBuild ?? "", fromVersion };
records.push(record);
// Only the last few upgrades' backups stay.
for (const old of records.slice(0, -KEPT_UPGRADE_BACKUPS))
  fs.rmSync(path.dirname(old.backup), { recursive: true, force: true });
writeUpgrades(env.storageDir, records.slice(-KEPT_UPGRADE_BACKUPS));

// 2. The new build, beside the one serving.
const built = spawnSync(process.execPath, ["--import", "tsx", "scripts/build.ts"], { stdio: "inherit" });
if (built.status !== 0) fail("the build failed; the server runs on as before");
const toBuild = fs.realpathSync("build");
const toVersion = readBuildInfo(toBuild).version;
Object.assign(record, { toBuild, toVersion });
writeUpgrades(env.storageDir, records.slice(-KEPT_UPGRADE_BACKUPS));

// 3. Migrations.
const migrations = path.join(toBuild, "drizzle");
const db = openDatabase(env.databasePath);
const state = schemaState(db.$client, migrations);
if (state.unknown > 0)
  fail(
    `the database has migrations Kallo ${toVersion} does not know (it was migrated by ${state.databaseVersion?.version ?? "a newer version"}): going back is npm run rollback`,
  );
const needStop = state.pending.filter((migration) => migration.stop);
// A server of 1.3 or older does not say it runs (no run file, no kallo_versions): it may run all the same.
const mayRunUnseen = !server && state.databaseVersion === null && fs.existsSync(env.databasePath);
if (needStop.length > 0 && (server || mayRunUnseen) && !withStop) {
  for (const migration of needStop) say(`${migration.tag} needs a short stop: ${migration.stop}`);
  fail(
    server
      ? "this upgrade needs the server stopped while it migrates (a few seconds): run npm run upgrade -- --with-stop, then start the server again. Nothing was migrated; the server runs on as before."
      : "this upgrade needs the server stopped while it migrates, and a server of Kallo 1.3 or older may be running unseen: stop it, run npm run upgrade -- --with-stop, then start it. Nothing was migrated.",
  );
}
if (needStop.length > 0 && server) {
  say(`stopping the server (pid ${server.pid}) for ${needStop.map((migration) => migration.tag).join(", ")}`);
  process.kill(server.pid, "SIGTERM");
  while (runningServer(env.storageDir)) await new Promise((resolve) => setTimeout(resolve, 200));
}
if (state.pending.length > 0) {
  migrateDatabase(db, migrations);
  say(`migrated: ${state.pending.map((migration) => migration.tag).join(", ")}`);
} else say("no migrations to take");
recordVersion(db.$client, toVersion, migrations);

// 4. Prices keep their currency.
const { recorded, refusal: wrongCurrency } = settlePriceCurrency(db, env.currency);
if (recorded > 0) say(`${recorded} prices had no recorded currency; recorded as ${env.currency} (audit log)`);
db.$client.close();
if (wrongCurrency)
  fail(
    `${wrongCurrency}\n${server ? "The server stays on the build it runs until the prices are settled; then: npm run reload" : "Settle the prices, then start the server (npm start)."}`,
  );

// 5. The workers move.
if (!server || (needStop.length > 0 && withStop)) {
  say(`done in ${seconds()}: start the server (npm start) to run Kallo ${toVersion}`);
} else if (server.workers <= 1) {
  say(
    `done in ${seconds()}, but this server runs in one process (WORKERS=1): it moves to Kallo ${toVersion} only when restarted (its start refuses requests for a few seconds; with WORKERS=2 or more the next upgrade refuses none)`,
  );
} else {
  const answer = await askServer(env.storageDir, server, { action: "reload", build: toBuild });
  if (answer.state !== "done") fail(`the server did not move: ${answer.message}`);
  say(answer.message);
  say(`Kallo ${fromVersion} → ${toVersion} in ${seconds()}; going back: npm run rollback (restores ${backup})`);
}

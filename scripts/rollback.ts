/**
 * `npm run rollback`: undo the last `npm run upgrade`. The database goes back
 * to the backup the upgrade took, and the build it ran before serves it
 * again; the database as the upgrade left it is kept beside (writes made
 * since the upgrade are in that copy, not in the restored one). A running
 * server does it itself (a short stop: connections are refused until the
 * first worker of the old build listens, a few seconds); without one, the
 * files are put back and `npm start` runs the old build.
 */
import fs from "node:fs";
import { putBackDatabase } from "../app/services/backup.server";
import { getEnv } from "../app/utils/env.server";
import { askServer, pointBuildLink, readUpgrades, runningServer, writeUpgrades } from "./server-control";

const say = (line: string) => console.log(`[rollback] ${line}`);
const fail = (line: string): never => {
  console.error(`[rollback] ${line}`);
  process.exit(1);
};
const started = Date.now();
const env = getEnv();
const records = readUpgrades(env.storageDir);
const last = [...records].reverse().find((record) => !record.rolledBackAt);
if (!last) fail("no upgrade to undo (STORAGE_DIR/backups/upgrades.json lists none)");
const upgrade = last!;
if (!fs.existsSync(upgrade.backup)) fail(`the upgrade's backup is gone: ${upgrade.backup}`);
if (!upgrade.fromBuild || !fs.existsSync(`${upgrade.fromBuild}/index.js`))
  fail(
    `the build Kallo ${upgrade.fromVersion} ran (${upgrade.fromBuild || "none"}) is gone: check out that version, npm run build, then run this again`,
  );
say(`going back from Kallo ${upgrade.toVersion ?? "?"} to ${upgrade.fromVersion}: the database of ${upgrade.at}`);

pointBuildLink(upgrade.fromBuild);
const server = runningServer(env.storageDir);
if (server && server.workers > 1) {
  const answer = await askServer(env.storageDir, server, {
    action: "rollback",
    build: upgrade.fromBuild,
    backup: upgrade.backup,
  });
  if (answer.state !== "done") fail(answer.message);
  say(answer.message);
} else {
  if (server) fail(`stop the server first (pid ${server.pid} runs in one process), then run this again`);
  const kept = putBackDatabase(env.databasePath, upgrade.backup);
  say(
    `restored ${upgrade.backup}; the database as the upgrade left it is kept at ${kept}; npm start runs Kallo ${upgrade.fromVersion}`,
  );
}
upgrade.rolledBackAt = new Date().toISOString();
writeUpgrades(env.storageDir, records);
say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);

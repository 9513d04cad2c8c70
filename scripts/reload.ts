/**
 * `npm run reload`: move the running server's workers to the build `build`
 * names now, one at a time, refusing no request (a restart without a stop).
 * Refused when that build needs migrations the database has not taken: `npm
 * run upgrade` backs up and migrates first.
 */
import path from "node:path";
import { getEnv } from "../app/utils/env.server";
import { askServer, runningServer } from "./server-control";

const env = getEnv();
const server = runningServer(env.storageDir);
if (!server) {
  console.error("[reload] no server runs on this STORAGE_DIR");
  process.exit(1);
}
if (server.workers <= 1) {
  console.error("[reload] this server runs in one process (WORKERS=1): it moves to another build only when restarted");
  process.exit(1);
}
const answer = await askServer(env.storageDir, server, { action: "reload", build: path.resolve("build") });
console[answer.state === "done" ? "log" : "error"](`[reload] ${answer.message}`);
process.exit(answer.state === "done" ? 0 : 1);

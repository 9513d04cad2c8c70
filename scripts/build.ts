/**
 * `npm run build`: a new build is made beside the one in use, then switched
 * to at once, so an upgrade in place never leaves a half-built box.
 *
 * Each build goes into its own folder, `.builds/<time>/`: the server build
 * (`index.js`), the browser bundle (`public/`, with its Brotli and gzip twins)
 * and the compiled start and server scripts (`server/`). When it is whole,
 * the link `build` is pointed at it in one step (a new link renamed over the
 * old one: rename(2) is atomic), and `public/build` links to `build/public`.
 * A server already running keeps the build it started with — each process
 * resolves the link once, and a worker replaced meanwhile runs the same
 * build as its siblings — until it is moved to the new one (`npm run
 * upgrade`, `npm run reload`) or restarted. Each build carries its own
 * migrations (`drizzle/`) and names its version (`version.json`). The two
 * newest builds are kept, and any build a running server uses (its
 * `in-use/<pid>` marker: builds-in-use.ts) however old; others are removed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildServer } from "./build-server";
import { buildsInUse, describeBuild, pointLink } from "./builds-in-use";
import { readUpgrades } from "./server-control";
import { compressAssets } from "./compress-assets";

const BUILDS = ".builds";
const KEPT = 2;

const started = Date.now();
const stamp = new Date().toISOString().replace(/[-:.]/g, "").replace("T", "-").slice(0, 15);
const out = path.join(BUILDS, stamp);

/** A build that fails leaves nothing behind: its folder goes, the build in use stays. */
function failed(what: string, code: number): never {
  fs.rmSync(out, { recursive: true, force: true });
  console.error(`[build] ${what} failed; the build in use is unchanged`);
  process.exit(code);
}

function run(command: string, args: string[], env: Record<string, string>): void {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) failed(`${command} ${args.join(" ")}`, result.status ?? 1);
}

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

// remix.config.js reads KALLO_BUILD_DIR: the server build and the browser bundle go into this build's folder.
run(process.execPath, [path.resolve("node_modules/@remix-run/dev/dist/cli.js"), "build"], { KALLO_BUILD_DIR: out });
let compressed: Awaited<ReturnType<typeof compressAssets>>;
let serverFiles: Awaited<ReturnType<typeof buildServer>>;
try {
  compressed = await compressAssets(path.join(out, "public"));
  serverFiles = await buildServer(path.join(out, "server"));
  // The build's own migrations and version: a server on this build migrates and checks with these, whatever the checkout holds later.
  fs.cpSync("drizzle", path.join(out, "drizzle"), { recursive: true });
  fs.writeFileSync(path.join(out, "version.json"), `${JSON.stringify(describeBuild(), null, 2)}\n`);
} catch (error) {
  console.error(error);
  failed("the build", 1);
}

pointLink("build", out);
pointLink(path.join("public", "build"), path.join("..", "build", "public"));

// The new build and the one before it stay, and every build a running server uses (its workers' replacements
// start from it); older ones go.
const inUse = buildsInUse(BUILDS);
// The build the last upgrade came from: `npm run rollback` starts it again.
const lastUpgrade = readUpgrades(path.resolve(process.env.STORAGE_DIR ?? "storage")).at(-1);
if (lastUpgrade?.fromBuild && !lastUpgrade.rolledBackAt)
  inUse.set(
    path.basename(lastUpgrade.fromBuild),
    `npm run rollback goes back to it (Kallo ${lastUpgrade.fromVersion})`,
  );
const builds = fs
  .readdirSync(BUILDS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()
  .reverse();
for (const old of builds.slice(KEPT)) {
  if (inUse.has(old))
    console.log(`[build] kept ${path.join(BUILDS, old)}: a running server uses it (${inUse.get(old)})`);
  else fs.rmSync(path.join(BUILDS, old), { recursive: true, force: true });
}

console.log(
  `[build] ${out}: ${compressed.files} browser files compressed, ${serverFiles.length} server files; build → ${out} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);

/**
 * Builds (`.builds/<time>/`, scripts/build.ts) and the servers that run
 * them. A server's primary marks the build it runs (`in-use/<pid>`) from its
 * start until it stops or moves to another build, so `npm run build` never
 * removes a build whose workers may still be replaced; a marker whose
 * process is gone (killed with -9, a crash) no longer counts.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { processRuns } from "../app/utils/processes.server";

export type BuildInfo = { version: string; commit: string | null; builtAt: string };

/**
 * What `npm run build` writes into a build's version.json: the package's version and the checkout's commit
 * (or `KALLO_COMMIT` where the sources are not a git checkout, as in a container's build).
 */
export function describeBuild(): BuildInfo {
  const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version?: string };
  let commit: string | null = process.env.KALLO_COMMIT?.trim().slice(0, 12) || null;
  if (!commit)
    try {
      commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim();
    } catch {
      // Not a git checkout (an unpacked release): the version alone names it.
    }
  return { version: pkg.version ?? "0.0.0", commit, builtAt: new Date().toISOString() };
}

/** A build's version.json, or what the checkout says for a build made before builds carried one. */
export function readBuildInfo(buildDir: string): BuildInfo {
  try {
    return JSON.parse(fs.readFileSync(path.join(buildDir, "version.json"), "utf8")) as BuildInfo;
  } catch {
    return { version: "unknown", commit: null, builtAt: "" };
  }
}

/** The folder of the build a server build file (`.builds/<time>/index.js`) belongs to. */
export function buildDirOf(serverBuildPath: string): string {
  return path.dirname(fs.realpathSync(serverBuildPath));
}

/**
 * Mark `buildDir` as used by this process; returns what removes the mark. A build folder this process may not
 * write (a container's image, built once and never rebuilt in place) is not marked: nothing there removes it.
 */
export function markInUse(buildDir: string, pid = process.pid): () => void {
  const marker = path.join(buildDir, "in-use", String(pid));
  try {
    fs.mkdirSync(path.dirname(marker), { recursive: true });
    fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
  } catch {
    return () => undefined;
  }
  return () => fs.rmSync(marker, { force: true });
}

/** The builds under `root` that a running process uses, with its pids ("pid 1234"); stale markers are removed. */
export function buildsInUse(root: string): Map<string, string> {
  const used = new Map<string, string>();
  if (!fs.existsSync(root)) return used;
  for (const build of fs.readdirSync(root)) {
    const markers = path.join(root, build, "in-use");
    if (!fs.statSync(markers, { throwIfNoEntry: false })?.isDirectory()) continue;
    const pids: number[] = [];
    for (const name of fs.readdirSync(markers)) {
      const pid = Number(name);
      if (Number.isInteger(pid) && pid > 0 && processRuns(pid)) pids.push(pid);
      else fs.rmSync(path.join(markers, name), { force: true });
    }
    if (pids.length) used.set(build, `a running server uses it (${pids.map((pid) => `pid ${pid}`).join(", ")})`);
  }
  return used;
}

/** Point `link` at `target` in one step; a folder left there by an older layout is replaced once. */
export function pointLink(link: string, target: string): void {
  const stat = fs.lstatSync(link, { throwIfNoEntry: false });
  if (stat && !stat.isSymbolicLink()) fs.rmSync(link, { recursive: true, force: true });
  const next = `${link}.next-${process.pid}`;
  fs.rmSync(next, { force: true });
  fs.symlinkSync(target, next);
  fs.renameSync(next, link);
}

import fs from "node:fs";
import path from "node:path";

export type RunningVersion = { version: string; commit: string | null };

let cached: RunningVersion | null = null;

/**
 * The version this process runs: the build's `version.json` (written by `npm
 * run build`, in the folder KALLO_BUILD_DIR names), else package.json's. Said
 * on /healthz, in the start log and in the administrator's footer.
 */
export function runningVersion(): RunningVersion {
  if (cached) return cached;
  const buildDir = process.env.KALLO_BUILD_DIR;
  const candidates = [
    ...(buildDir ? [path.join(buildDir, "version.json")] : []),
    path.resolve(process.cwd(), "package.json"),
  ];
  for (const file of candidates) {
    try {
      const { version, commit } = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: string; commit?: string };
      if (version) return (cached = { version, commit: commit ?? null });
    } catch {
      // The next place says it.
    }
  }
  return (cached = { version: "unknown", commit: null });
}

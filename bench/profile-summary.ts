/**
 * Where a V8 CPU profile's time went, in a few lines: the share of samples
 * spent in garbage collection, idle, and under each package or part of our
 * own code (a sample counts once for every package on its stack, so "under
 * react-dom" includes what react-dom called), and the functions with the most
 * self time. `npm run bench:catalogue` prints it for the server's profile when
 * BENCH_PROFILE_DIR is set; `node --import tsx bench/profile-summary.ts
 * <file.cpuprofile>` prints it for any profile.
 */
import fs from "node:fs";
import { pathToFileURL } from "node:url";

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** What a frame belongs to: a package, Node itself, V8's own work, or a module of ours (from the build's source names). */
export function frameArea(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === "(garbage collector)") return "garbage collection";
    if (functionName === "(idle)") return "idle";
    if (functionName === "(program)") return "V8 / native (program)";
    return functionName ? `native: ${functionName}` : "native";
  }
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nodeModule) return nodeModule[1]!;
  if (url.startsWith("node:")) return "node internals";
  if (/\/build\/index\.js$/.test(url)) return "app (server build)";
  if (/\/scripts\/|\/build\/server\//.test(url)) return "scripts/serve.ts";
  return url.replace(/^file:\/\//, "");
}

export type ProfileSummary = {
  totalMs: number;
  busyMs: number;
  areas: Array<{ area: string; ms: number }>;
  functions: Array<{ name: string; ms: number }>;
  /** Time under frames whose function name matches a label's pattern (inclusive). */
  marked: Array<{ label: string; ms: number }>;
};

/** Inclusive time per area, self time per function, and inclusive time under the frames `marks` name. */
export function summariseProfile(profile: CpuProfile, marks: Record<string, RegExp> = {}): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const marked = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  profile.samples.forEach((nodeId, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    totalMs += ms;
    const leaf = byId.get(nodeId)!;
    const leafArea = frameArea(leaf.callFrame);
    if (leafArea === "idle") {
      idleMs += ms;
      return;
    }
    const { functionName, url, lineNumber } = leaf.callFrame;
    const name =
      `${functionName || "(anonymous)"} ${url ? `${frameArea(leaf.callFrame)}:${lineNumber + 1}` : ""}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const seenAreas = new Set<string>();
    const seenMarks = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === "(root)") continue;
      seenAreas.add(frameArea(frame));
      for (const [label, pattern] of Object.entries(marks)) if (pattern.test(frame.functionName)) seenMarks.add(label);
    }
    for (const area of seenAreas) areas.set(area, (areas.get(area) ?? 0) + ms);
    for (const label of seenMarks) marked.set(label, (marked.get(label) ?? 0) + ms);
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    totalMs,
    busyMs: totalMs - idleMs,
    areas: sorted(areas).map(([area, ms]) => ({ area, ms })),
    functions: sorted(functions).map(([name, ms]) => ({ name, ms })),
    marked: sorted(marked).map(([label, ms]) => ({ label, ms })),
  };
}

/** Frames worth naming in a page server's profile (inclusive time under each). */
export const PAGE_MARKS: Record<string, RegExp> = {
  "React rendering (renderToPipeableStream work)": /^(performWork|renderNodeDestructive|retryTask)$/,
  "translate (t())": /^(t|translate|fixedT)$/,
  "route matching (matchRoutes)": /^(matchRoutes|matchRoutesImpl|flattenRoutes|rankRouteBranches)$/,
  "SQL (better-sqlite3 prepare)": /^prepare$/,
  "SQL (better-sqlite3 all/get/run)": /^(all|get|run|values)$/,
  loaders: /^loader$/,
};

export function printProfileSummary(file: string, requests?: number, top = 15): void {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const summary = summariseProfile(profile, PAGE_MARKS);
  const share = (ms: number) => `${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)} %`;
  const perRequest = (ms: number) => (requests ? `  ${(ms / requests).toFixed(2).padStart(6)} ms/request` : "");
  console.log(
    `profile ${file}: ${(summary.busyMs / 1000).toFixed(1)} s busy of ${(summary.totalMs / 1000).toFixed(1)} s`,
  );
  console.log("  under each area (inclusive; a sample counts once per area on its stack):");
  for (const { area, ms } of summary.areas.slice(0, top)) console.log(`    ${share(ms)}  ${area}${perRequest(ms)}`);
  console.log("  named frames (inclusive):");
  for (const { label, ms } of summary.marked) console.log(`    ${share(ms)}  ${label}${perRequest(ms)}`);
  console.log("  functions with the most self time:");
  for (const { name, ms } of summary.functions.slice(0, top)) console.log(`    ${share(ms)}  ${name}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error("usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [requests]");
    process.exit(2);
  }
  const requests = Number(files.at(-1));
  for (const file of files.filter((name) => name.endsWith(".cpuprofile")))
    printProfileSummary(file, Number.isFinite(requests) ? requests : undefined, 25);
}

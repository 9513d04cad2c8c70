/**
 * `npm test`: every check of the project — typecheck, lint, the unit and
 * integration tests, the build, the /api tests and the end-to-end tests in
 * Chromium — with work that does not wait on another running side by side,
 * and a timing table at the end (phases, then files), also written to
 * `.cache/test-timings.md` (and as JSON beside it) for `.ci/run`.
 *
 * The order, from what each phase needs:
 *   typecheck, lint, build and the demo's media start at once;
 *   the unit tests start once the demo is made (its seed test reads it), the /api tests once the build is;
 *   the end-to-end tests run alone at the end (they keep both cores busy: anything beside them slows them as much).
 * The demo is seeded once, into a temporary folder, and copied by whoever needs it
 * (KALLO_TEST_DEMO_DIR): the seed test and the end-to-end server no longer make
 * its films twice. Each of them seeds on its own when run alone.
 *
 * Every phase runs even when another failed (a failure says all it can), except one
 * whose input failed (no build, no /api tests). The exit code is 1 when any failed.
 * `npm test -- unit api` runs only those phases (and what they need).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

type PhaseName = "typecheck" | "lint" | "build" | "demo" | "unit" | "api" | "e2e";

type Phase = {
  name: PhaseName;
  label: string;
  command: string[];
  needs: PhaseName[];
  /** Phases that must have succeeded, not just ended, for this one to mean anything. */
  requires: PhaseName[];
  /** Its output streams as it comes (a phase that runs alone), else it is printed whole when it ends. */
  live?: boolean;
  env?: Record<string, string>;
};

type FileTiming = { file: string; seconds: number; tests: number };
/** A failed test, named, with the first lines of what it said: printed last, where CI's kept tail shows it. */
type Failure = { test: string; message: string };
type PhaseResult = {
  name: PhaseName;
  label: string;
  status: "passed" | "failed" | "skipped";
  startedAt: number;
  seconds: number;
  files: FileTiming[];
  failures: Failure[];
};

/** The lines of a failure worth reading at the end: colour codes dropped, and of the stack only our own frames. */
function firstLines(text: string, count = 12): string {
  return stripVTControlCharacters(text)
    .split("\n")
    .filter((line) => line.trim() !== "" && !(/^\s*at /.test(line) && /node_modules|<anonymous>|node:/.test(line)))
    .slice(0, count)
    .join("\n");
}

const cacheDir = path.resolve(".cache");
fs.mkdirSync(cacheDir, { recursive: true });
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-test-reports-"));
const demoDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kallo-test-demo-")), "storage");
const npm = (script: string, ...args: string[]) => [
  "npm",
  "run",
  "--silent",
  script,
  ...(args.length ? ["--", ...args] : []),
];

const PHASES: Phase[] = [
  { name: "typecheck", label: "typecheck", command: npm("typecheck"), needs: [], requires: [] },
  { name: "lint", label: "lint", command: npm("lint"), needs: [], requires: [] },
  { name: "build", label: "build", command: npm("build"), needs: [], requires: [] },
  {
    name: "demo",
    label: "demo media",
    command: ["node", "--import", "tsx", "scripts/seed-demo.ts"],
    needs: [],
    requires: [],
    env: { STORAGE_DIR: demoDir, DATABASE_PATH: "", LOG_LEVEL: "error" },
  },
  {
    name: "unit",
    label: "unit and integration",
    command: npm("test:unit", "--reporter=default", "--reporter=json", `--outputFile.json=${reportDir}/unit.json`),
    needs: ["demo"],
    requires: ["demo"],
  },
  {
    name: "api",
    label: "api",
    command: npm("test:api", "--reporter=default", "--reporter=json", `--outputFile.json=${reportDir}/api.json`),
    needs: ["build"],
    requires: ["build"],
  },
  {
    name: "e2e",
    label: "e2e",
    command: npm("test:e2e"),
    needs: ["build", "demo", "typecheck", "lint", "unit", "api"],
    requires: ["build", "demo"],
    live: true,
    env: { E2E_TIMINGS_FILE: `${reportDir}/e2e.json` },
  },
];

type VitestReport = {
  testResults: Array<{
    name: string;
    startTime: number;
    endTime: number;
    message?: string;
    assertionResults: Array<{ fullName: string; status: string; failureMessages?: string[] }>;
  }>;
};
type E2eReport = { files: FileTiming[]; failures?: Failure[] };

function readReport<T>(report: string): T | undefined {
  return fs.existsSync(report) ? (JSON.parse(fs.readFileSync(report, "utf8")) as T) : undefined;
}

/** Per file, from vitest's JSON report: the time from its first test's start to its end, and what failed. */
function vitestReport(report: string): { files: FileTiming[]; failures: Failure[] } {
  const json = readReport<VitestReport>(report);
  if (!json) return { files: [], failures: [] };
  const failures: Failure[] = [];
  for (const result of json.testResults) {
    const file = path.relative(process.cwd(), result.name);
    for (const test of result.assertionResults)
      if (test.status === "failed")
        failures.push({
          test: `${file} › ${test.fullName}`,
          message: firstLines(test.failureMessages?.join("\n") ?? ""),
        });
    // A file that failed before any test ran (an import, a hook) says so only here.
    if (result.message && !result.assertionResults.some((test) => test.status === "failed"))
      failures.push({ test: file, message: firstLines(result.message) });
  }
  return {
    files: json.testResults.map((result) => ({
      file: path.relative(process.cwd(), result.name),
      seconds: (result.endTime - result.startTime) / 1000,
      tests: result.assertionResults.length,
    })),
    failures,
  };
}

/** Per file, from tests/e2e/fixtures/timing-reporter.ts: the sum of its tests' times (two workers share the wall). */
function e2eReport(report: string): { files: FileTiming[]; failures: Failure[] } {
  const json = readReport<E2eReport>(report);
  const failures = (json?.failures ?? []).map((failure) => ({ ...failure, message: firstLines(failure.message) }));
  return { files: json?.files ?? [], failures };
}

const started = Date.now();
const wanted = new Set(process.argv.slice(2) as PhaseName[]);
for (const name of wanted)
  if (!PHASES.some((phase) => phase.name === name)) {
    console.error(`npm test: no phase "${name}" (${PHASES.map((phase) => phase.name).join(", ")})`);
    process.exit(2);
  }
/** The phases asked for and what they require. */
const chosen = new Set<PhaseName>();
const choose = (name: PhaseName) => {
  if (chosen.has(name)) return;
  chosen.add(name);
  for (const need of PHASES.find((phase) => phase.name === name)!.requires) choose(need);
};
for (const phase of PHASES) if (wanted.size === 0 || wanted.has(phase.name)) choose(phase.name);

const results = new Map<PhaseName, PhaseResult>();
const running = new Map<PhaseName, Promise<void>>();

function run(phase: Phase): Promise<void> {
  const startedAt = Date.now();
  const failedInput = phase.requires.find((name) => results.get(name)?.status !== "passed");
  if (failedInput) {
    console.log(`\n[test] ${phase.label}: skipped (${results.get(failedInput)!.label} did not pass)`);
    results.set(phase.name, {
      name: phase.name,
      label: phase.label,
      status: "skipped",
      startedAt,
      seconds: 0,
      files: [],
      failures: [],
    });
    return Promise.resolve();
  }
  console.log(`[test] ${phase.label}: started at ${Math.round((startedAt - started) / 1000)} s`);
  return new Promise((resolve) => {
    const child = spawn(phase.command[0], phase.command.slice(1), {
      env: { ...process.env, ...phase.env, KALLO_TEST_DEMO_DIR: demoDir, FORCE_COLOR: process.env.FORCE_COLOR ?? "0" },
      stdio: ["ignore", phase.live ? "inherit" : "pipe", phase.live ? "inherit" : "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.on("close", (code) => {
      const seconds = (Date.now() - startedAt) / 1000;
      const status = code === 0 ? "passed" : "failed";
      if (!phase.live) {
        console.log(`\n──── ${phase.label} (${phase.command.join(" ")}) ────`);
        process.stdout.write(output.endsWith("\n") || output === "" ? output : `${output}\n`);
      }
      console.log(`[test] ${phase.label}: ${status} in ${seconds.toFixed(0)} s`);
      const report =
        phase.name === "unit" || phase.name === "api"
          ? vitestReport(path.join(reportDir, `${phase.name}.json`))
          : phase.name === "e2e"
            ? e2eReport(path.join(reportDir, "e2e.json"))
            : { files: [], failures: [] };
      const failures =
        status === "failed" && report.failures.length === 0 && !phase.live
          ? [
              {
                test: `${phase.label}: the end of its output`,
                message: output.trimEnd().split("\n").slice(-15).join("\n"),
              },
            ]
          : report.failures;
      results.set(phase.name, {
        name: phase.name,
        label: phase.label,
        status,
        startedAt,
        seconds,
        files: report.files,
        failures,
      });
      resolve();
    });
  });
}

/** Start every phase whose needs have ended; resolve when all have. */
async function runAll(): Promise<void> {
  const pending = PHASES.filter((phase) => chosen.has(phase.name));
  while (pending.length > 0 || running.size > 0) {
    for (const phase of [...pending]) {
      if (!phase.needs.every((name) => !chosen.has(name) || results.has(name))) continue;
      pending.splice(pending.indexOf(phase), 1);
      running.set(
        phase.name,
        run(phase).finally(() => running.delete(phase.name)),
      );
    }
    if (running.size > 0) await Promise.race(running.values());
  }
}

function table(all: PhaseResult[]): string {
  const lines = ["", "Where the time went (npm test):", "", "| phase | result | from | seconds |", "|---|---|---|---|"];
  for (const result of all)
    lines.push(
      `| ${result.label} | ${result.status} | ${Math.round((result.startedAt - started) / 1000)} s | ${result.seconds.toFixed(1)} |`,
    );
  lines.push(`| **npm test** | | | **${((Date.now() - started) / 1000).toFixed(1)}** |`);
  for (const result of all) {
    if (result.files.length === 0) continue;
    const slowest = [...result.files].sort((a, b) => b.seconds - a.seconds);
    const total = slowest.reduce((sum, file) => sum + file.seconds, 0);
    lines.push(
      "",
      `${result.label}, by file (${result.name === "e2e" ? "the sum of its tests' times" : "from its first test to its end"}; ${total.toFixed(0)} s in all):`,
      "",
      "| file | tests | seconds |",
      "|---|---|---|",
      ...slowest.map((file) => `| ${file.file} | ${file.tests} | ${file.seconds.toFixed(1)} |`),
    );
  }
  const failures = all.flatMap((result) => result.failures);
  if (failures.length > 0) {
    lines.push("", `What failed (${failures.length}):`);
    for (const failure of failures)
      lines.push("", `✘ ${failure.test}`, ...failure.message.split("\n").map((line) => `    ${line}`));
  }
  return lines.join("\n");
}

await runAll();
const all = PHASES.filter((phase) => results.has(phase.name)).map((phase) => results.get(phase.name)!);
fs.writeFileSync(
  path.join(cacheDir, "test-timings.json"),
  JSON.stringify({ seconds: (Date.now() - started) / 1000, phases: all }, null, 2),
);
const summary = table(all);
fs.writeFileSync(path.join(cacheDir, "test-timings.md"), `${summary}\n`);
console.log(summary);
fs.rmSync(reportDir, { recursive: true, force: true });
fs.rmSync(path.dirname(demoDir), { recursive: true, force: true });
const failed = all.filter((result) => result.status !== "passed");
if (failed.length > 0) {
  console.log(`\nnpm test: ${failed.map((result) => `${result.label} ${result.status}`).join(", ")}`);
  process.exit(1);
}

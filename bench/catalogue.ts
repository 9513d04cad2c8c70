/**
 * Catalogue pages under load: 10,000 titles (plus ratings, comments, a month
 * of viewings and their ladders), 50 concurrent keep-alive connections of a
 * signed-in viewer, on /movies, /moviecategory?q= and /WatchMovie?id=.
 *
 * The server runs twice in one run — `WORKERS=1`, then the default number of
 * workers — and prints per page kind: p50/p95/p99 response times (loopback,
 * so server time plus a fraction of a millisecond), requests per second, the
 * server's CPU milliseconds per request and its peak memory (RSS of the server
 * and its children: all of them, and the largest one). After each run, its
 * floor: the same pages rendered by the same build from loader data held in
 * memory (bench/floor-server.ts), in as many processes, and how far the server
 * is above it. The goals are printed for the server and, for what rendering
 * the pages alone reaches here, for the floor.
 *
 * Run with `npm run bench:catalogue` after `npm run build`. BENCH_TITLES and
 * BENCH_REQUESTS (per page kind and run) change the size of the run,
 * BENCH_PORT the port, BENCH_WORKERS the runs ("1,default"). With
 * BENCH_PROFILE_DIR each server writes its CPU profile there and the largest
 * costs in it are printed (bench/profile-summary.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { accounts } from "../app/db/schema";
import { seedBulkCatalogue } from "./catalogue-seed";
import {
  cpuMs,
  pageGetter,
  percentile,
  prepareStorage,
  processTree,
  sampleTreeMemory,
  signIn,
  startServer,
  type RunningServer,
} from "./lib";
import { printProfileSummary } from "./profile-summary";
import { formatSequential, seedLongSeries, timeSequentially } from "./series-seed";

const TITLES = Number(process.env.BENCH_TITLES ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const PORT = Number(process.env.BENCH_PORT ?? 3604);
const RUNS = (process.env.BENCH_WORKERS ?? "1,default").split(",").map((value) => value.trim());
const CONNECTIONS = 50;
/** Episodes of the long series whose page is timed after each run's load. */
const SERIES_EPISODES = 100;
const SERIES_REQUESTS = 300;
/** The floor renders this many distinct URLs of each page kind (their loader data is captured once). */
const FLOOR_URLS = 12;
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
// The default run must not inherit a WORKERS of the shell that started the benchmark.
delete process.env.WORKERS;

const { root, db } = await prepareStorage("catalogue");
const viewerIds = ["benchviewer0001"];
const passwordHash = db.$client
  .prepare("SELECT password_hash AS hash FROM accounts WHERE id = ?")
  .get("benchviewer0001") as { hash: string };
db.insert(accounts)
  .values(
    Array.from({ length: 200 }, (_, i) => {
      const accountId = `bulkviewer${String(i).padStart(5, "0")}`;
      viewerIds.push(accountId);
      return {
        id: accountId,
        name: `Viewer ${i}`,
        email: `viewer${i}@bulk.test`,
        phoneNumber: "1",
        passwordHash: passwordHash.hash,
        role: "viewer" as const,
      };
    }),
  )
  .run();
const seeded = process.hrtime.bigint();
const catalogue = seedBulkCatalogue(db, { count: TITLES, providerIds: ["benchprovider01"], viewerIds });
console.log(
  `seeded ${TITLES} titles, ratings, comments and ${TITLES * 5} viewings in ${(Number(process.hrtime.bigint() - seeded) / 1e9).toFixed(1)} s`,
);
// A long series among them: its page is timed on its own (one connection), as a viewer opening it meets it.
const longSeries = seedLongSeries(db, { episodes: SERIES_EPISODES });
db.$client.close();

type PageKind = {
  label: string;
  path: (i: number) => string;
  goal: { p95Ms: number; requestsPerSecond?: number };
};
const sorts = ["", "?sort=new", "?sort=old", "?filter=trending", "?filter=featured", "?page=3", "?page=40&sort=old"];
const words = catalogue.searchWords;
const ids = catalogue.movieIds;
const PAGE_KINDS: PageKind[] = [
  {
    label: "/movies (sorts, filters, pages)",
    path: (i) => `/movies${sorts[i % sorts.length]}`,
    goal: { p95Ms: 100, requestsPerSecond: 500 },
  },
  {
    label: "/moviecategory?q=",
    path: (i) => `/moviecategory?q=${encodeURIComponent(words[i % words.length]!)}${i % 3 === 0 ? "&page=2" : ""}`,
    goal: { p95Ms: 150 },
  },
  {
    label: "/WatchMovie?id=",
    path: (i) => `/WatchMovie?id=${ids[(i * 7919) % ids.length]}`,
    goal: { p95Ms: 100, requestsPerSecond: 500 },
  },
];
const CPU_GOAL_MS = 3;
const MEMORY_GOAL_MIB = 250;

type Result = {
  label: string;
  p50: number;
  p95: number;
  p99: number;
  requestsPerSecond: number;
  cpuMsPerRequest: number;
  kibPerPage: number;
  peakTotalMiB: number;
  peakLargestMiB: number;
  statuses: Map<number, number>;
};

function getter(server: RunningServer, cookie: string) {
  return pageGetter(server.url, cookie, CONNECTIONS);
}

/** `total` requests from CONNECTIONS concurrent clients; `nextPath(i)` varies the URL. */
async function load(
  server: RunningServer,
  get: ReturnType<typeof getter>["get"],
  label: string,
  nextPath: (i: number) => string,
  total: number,
): Promise<Result> {
  // Warm up: JIT, SQLite page cache, the connections themselves.
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => get(nextPath(i))));
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let bytes = 0;
  let issued = 0;
  const pid = server.process.pid!;
  const memory = sampleTreeMemory(pid, 50);
  const cpuBefore = cpuMs(pid);
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (issued < total) {
        const result = await get(nextPath(issued++));
        if (result.status !== 0) times.push(result.ms);
        bytes += result.bytes;
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = cpuMs(pid) - cpuBefore;
  const peak = memory.stop();
  return {
    label,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    requestsPerSecond: times.length / seconds,
    cpuMsPerRequest: cpu / times.length,
    kibPerPage: bytes / times.length / 1024,
    peakTotalMiB: peak.totalMiB,
    peakLargestMiB: peak.largestMiB,
    statuses,
  };
}

function printResult(result: Result): void {
  const ms = (value: number) => value.toFixed(1).padStart(7);
  const codes = [...result.statuses].map(([status, count]) => `${status}×${count}`).join(" ");
  console.log(
    `  ${result.label.padEnd(32)} p50 ${ms(result.p50)} ms  p95 ${ms(result.p95)} ms  p99 ${ms(result.p99)} ms  ${result.requestsPerSecond
      .toFixed(0)
      .padStart(
        5,
      )} req/s  CPU ${result.cpuMsPerRequest.toFixed(2).padStart(6)} ms/req  ${result.kibPerPage.toFixed(1)} KiB/page  peak RSS ${result.peakTotalMiB.toFixed(0)} MiB (largest process ${result.peakLargestMiB.toFixed(0)})  [${codes}]`,
  );
}

/** How many processes serve: what the server says ("workers: N", "N workers"), else its node processes. */
function workersOf(server: RunningServer): string {
  const said = /workers?\D{0,3}(\d+)|(\d+)\s+workers?/i.exec(server.output());
  const nodes = processTree(server.process.pid!).filter((id) => {
    try {
      return fs.readFileSync(`/proc/${id}/cmdline`, "utf8").split("\0")[0] === process.execPath;
    } catch {
      return false;
    }
  });
  const serving = nodes.length > 1 ? nodes.length - 1 : 1;
  return said
    ? `${said[1] ?? said[2]} (as the server says; ${nodes.length} node processes)`
    : `${serving} (counted: ${nodes.length} node processes)`;
}

function newProfiles(before: Set<string>): string[] {
  if (!PROFILE_DIR || !fs.existsSync(PROFILE_DIR)) return [];
  // Main threads only (…<pid>.0.<seq>.cpuprofile); tsx's loader thread does nothing after start.
  return fs
    .readdirSync(PROFILE_DIR)
    .filter((name) => !before.has(name) && /\.\d+\.0\.\d+\.cpuprofile$/.test(name))
    .map((name) => path.join(PROFILE_DIR, name));
}
const profilesNow = () => new Set(PROFILE_DIR && fs.existsSync(PROFILE_DIR) ? fs.readdirSync(PROFILE_DIR) : []);

let cookie = "";
const runs: Array<{ label: string; results: Result[]; floor: Result[] }> = [];
const profileSummaries: Array<{ label: string; files: string[]; requests: number }> = [];
console.log(`${CONNECTIONS} connections, ${REQUESTS} requests per page kind and run`);

/** The floor with as many processes as the run it is compared with (bench/floor-server.ts). */
async function measureFloor(label: string, env: Record<string, string>): Promise<Result[]> {
  console.log(
    `  floor (${label}) — the same pages rendered by the same build from loader data in memory (${FLOOR_URLS} URLs per kind, bare node:http)`,
  );
  const before = profilesNow();
  const floor = await startServer(root, PORT, { script: "bench/floor-server.ts", env });
  // The session made on the real server: its row is in the database the floor reads.
  const floorClient = getter(floor, cookie || (await signIn(floor.url, "/login", "viewer@bench.test")));
  const results: Result[] = [];
  for (const kind of PAGE_KINDS) {
    const floorPath = (i: number) => kind.path(i % FLOOR_URLS);
    // Each URL's loader data is captured by its first request, before anything is measured.
    for (let i = 0; i < FLOOR_URLS; i++) await floorClient.get(floorPath(i));
    const result = await load(floor, floorClient.get, kind.label, floorPath, REQUESTS);
    printResult(result);
    results.push(result);
  }
  floorClient.close();
  await floor.stop();
  profileSummaries.push({
    label: `floor (${label})`,
    files: newProfiles(before),
    requests: PAGE_KINDS.length * (REQUESTS + CONNECTIONS + FLOOR_URLS),
  });
  return results;
}

for (const workers of RUNS) {
  const label = workers === "default" ? "default workers" : `WORKERS=${workers}`;
  // WORKERS unset is the default (one worker per core once the server forks workers).
  const env: Record<string, string> = workers === "default" ? {} : { WORKERS: workers };
  const before = profilesNow();
  const server = await startServer(root, PORT, { env });
  cookie ||= await signIn(server.url, "/login", "viewer@bench.test");
  const client = getter(server, cookie);
  console.log(`${label} — workers: ${workersOf(server)}`);
  const results: Result[] = [];
  for (const kind of PAGE_KINDS) {
    const result = await load(server, client.get, kind.label, kind.path, REQUESTS);
    printResult(result);
    results.push(result);
  }
  const seriesPage = await timeSequentially(client.get, `/series/${longSeries.seriesId}`, SERIES_REQUESTS);
  console.log(
    formatSequential(
      `  /series/<id> (${SERIES_EPISODES} episodes, ${longSeries.watched} watched), one connection`,
      seriesPage,
      SERIES_REQUESTS,
    ),
  );
  if (seriesPage.failed > 0) process.exitCode = 1;
  client.close();
  await server.stop();
  profileSummaries.push({ label, files: newProfiles(before), requests: PAGE_KINDS.length * (REQUESTS + CONNECTIONS) });
  runs.push({ label, results, floor: await measureFloor(label, env) });
}

const mark = (ok: boolean) => (ok ? "met" : "NOT met");
/** Each goal of a page kind against a result: the server's, or the floor's (could the page as rendered meet it at all?). */
function goalParts(result: Result, goal: PageKind["goal"]): string[] {
  return [
    `p95 ${result.p95.toFixed(0)} ≤ ${goal.p95Ms} ms ${mark(result.p95 <= goal.p95Ms)}`,
    ...(goal.requestsPerSecond
      ? [
          `${result.requestsPerSecond.toFixed(0)} ≥ ${goal.requestsPerSecond} req/s ${mark(result.requestsPerSecond >= goal.requestsPerSecond)}`,
        ]
      : []),
    `CPU ${result.cpuMsPerRequest.toFixed(2)} ≤ ${CPU_GOAL_MS} ms ${mark(result.cpuMsPerRequest <= CPU_GOAL_MS)}`,
  ];
}

for (const run of runs) {
  console.log(`server (${run.label}) over its floor (as many processes):`);
  run.results.forEach((result, index) => {
    const bare = run.floor[index]!;
    console.log(
      `  ${result.label.padEnd(32)} CPU per request ×${(result.cpuMsPerRequest / bare.cpuMsPerRequest).toFixed(1)}  (${result.cpuMsPerRequest.toFixed(2)} vs ${bare.cpuMsPerRequest.toFixed(2)} ms)  p50 ×${(result.p50 / bare.p50).toFixed(1)}  req/s ×${(result.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}`,
    );
  });
}

const goalRun = runs.find((run) => run.label === "default workers") ?? runs.at(-1);
if (goalRun) {
  console.log(`goals (${goalRun.label}):`);
  goalRun.results.forEach((result, index) => {
    const goal = PAGE_KINDS[index]!.goal;
    const parts = [
      ...goalParts(result, goal),
      `largest process ${result.peakLargestMiB.toFixed(0)} ≤ ${MEMORY_GOAL_MIB} MiB ${mark(result.peakLargestMiB <= MEMORY_GOAL_MIB)}`,
    ];
    console.log(`  ${result.label.padEnd(32)} ${parts.join("; ")}`);
  });
  console.log(`the same goals for the floor (${goalRun.label}): what rendering the page alone reaches on this machine`);
  goalRun.floor.forEach((result, index) => {
    console.log(`  ${result.label.padEnd(32)} ${goalParts(result, PAGE_KINDS[index]!.goal).join("; ")}`);
  });
}

for (const summary of profileSummaries)
  for (const file of summary.files) {
    console.log(`\n${summary.label}:`);
    printProfileSummary(file, summary.requests, 12);
  }

if (!process.env.BENCH_KEEP_STORAGE) fs.rmSync(root, { recursive: true, force: true });
const failures = runs
  .flatMap((run) => [...run.results, ...run.floor])
  .flatMap((result) =>
    [...result.statuses]
      .filter(([status]) => status !== 200)
      .map(([status, count]) => `${result.label}: ${status}×${count}`),
  );
if (failures.length > 0) {
  console.error(`non-200 answers: ${failures.join(", ")}`);
  process.exitCode = 1;
}

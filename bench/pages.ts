/**
 * What a page weighs on a slow phone link, and how soon it shows and works:
 * the landing page (signed out), /movies, a demo title's /WatchMovie and the demo series' page
 * (signed in as the demo viewer), in Chromium at a 390-px-wide phone
 * viewport on a link throttled with the DevTools protocol
 * (`Network.emulateNetworkConditions`: 500 kbps down, 300 ms latency).
 * `npm run bench:pages` after `npm run build`.
 *
 * 1. Content: the demo (`seedDemo`: twelve titles with films, ladders and
 *    posters). Making the films takes about three minutes, so they are made
 *    once into BENCH_DEMO_DIR (default: kallo-bench-pages-demo in the temp
 *    folder) and each run copies that folder (films hard-linked), removes
 *    every poster and runs the seed again: the posters are always the ones
 *    the code under test makes.
 * 2. The built server (bench/lib.ts `startServer`) on that copy.
 * 3. For each page and BENCH_RUNS times: a new browser (empty cache); a
 *    first visit, then, once the page and its service worker are quiet, a
 *    second visit in a new tab of the same context (warm cache, the service
 *    worker installed). The service worker runs as it does for people.
 * 4. Per visit, from the page's CDP Network events: bytes on the wire
 *    (`encodedDataLength` of each finished request, headers included) by
 *    type (document, script, style, image, font, other), before the `load`
 *    event and in all (until the page has been quiet for 2 s), plus what the
 *    service worker fetched from the network (Playwright's service-worker
 *    request events: body and headers as received; not throttled, CDP
 *    throttles the page's target only): its precache, and once it controls
 *    the page (after its first activation, and on every second visit) the
 *    page's own requests it answers. Answers the page got from the service
 *    worker count 0 for the page: the worker's fetch is counted instead.
 *    Times from the page: first contentful paint, the `load` event, and
 *    "interactive": React's first commit, that is hydration finished
 *    (seen through the React DevTools hook the page exposes to DevTools,
 *    set by an init script), with the long tasks before it.
 *    Each finished answer without Content-Encoding is checked against its
 *    Content-Length (Chromium has served truncated repeated byte ranges from
 *    its cache under throttling); mismatches are printed.
 * 5. The median of the runs per page and visit, and the issue's goals next
 *    to them.
 *
 * Knobs: BENCH_RUNS (3), BENCH_PORT (3380), BENCH_DPR (1: device pixels per
 * CSS pixel), BENCH_KBPS (500), BENCH_LATENCY_MS (300), BENCH_DEMO_DIR,
 * CHROMIUM_PATH (else Debian's headless shell, else /usr/bin/chromium), BENCH_PAGES (only the pages whose label contains it), BENCH_HOST (another name of this
 * machine, such as its LAN address: plain http, so gzip and no service
 * worker), BENCH_VERBOSE=1 (every request of each
 * visit, with when it was asked for and when it finished, in seconds from the
 * document's request: a waterfall).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Request as PwRequest } from "@playwright/test";
import { TEST_CHROMIUM_ARGS, testChromiumPath } from "../tests/fixtures/browser";
import { migrateDatabase, openDatabase } from "../app/db/client.server";
import { DEMO_ACCOUNTS, DEMO_SERIES } from "../app/demo/demo-catalogue";
import { seedDemo } from "../app/demo/seed-demo.server";
import { startServer, type RunningServer } from "./lib";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3380);
const DPR = Number(process.env.BENCH_DPR ?? 1);
const KBPS = Number(process.env.BENCH_KBPS ?? 500);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const CHROMIUM = testChromiumPath() ?? "";
const VERBOSE = process.env.BENCH_VERBOSE === "1";
/** Another name of this machine (BENCH_HOST=192.0.2.2): a LAN visit over plain http, where Chromium asks for gzip, not Brotli, and runs no service worker. */
const HOST = process.env.BENCH_HOST;
const DEMO_DIR = path.resolve(process.env.BENCH_DEMO_DIR ?? path.join(os.tmpdir(), "kallo-bench-pages-demo"));
const VIEWPORT = { width: 390, height: 844 };
const QUIET_MS = 2000;
const KB = 1000;

const KINDS = ["document", "script", "style", "image", "font", "other"] as const;
type Kind = (typeof KINDS)[number];

type Visit = {
  beforeLoad: Record<Kind, number>;
  all: Record<Kind, number>;
  /** What the service worker fetched itself while this visit was open (and until it was quiet). */
  serviceWorker: number;
  requests: number;
  fcpMs: number | null;
  loadMs: number;
  interactiveMs: number | null;
  longTasksBeforeInteractiveMs: number;
  mismatches: string[];
};

type PageSpec = { label: string; path: string; signedIn: boolean };

// ---------------------------------------------------------------- content

function linkTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else fs.linkSync(source, target);
  }
}

/** A fresh storage folder with the demo content, posters made by the code under test. */
async function prepareDemoStorage(): Promise<string> {
  process.env.STORAGE_DIR = DEMO_DIR;
  const marker = path.join(DEMO_DIR, ".bench-seeded");
  if (!fs.existsSync(marker)) {
    console.log(`making the demo content once in ${DEMO_DIR} (films and ladders: a few minutes)…`);
    const db = openDatabase(path.join(DEMO_DIR, "data.db"));
    migrateDatabase(db);
    await seedDemo(db, { storageDir: DEMO_DIR, log: () => {} });
    db.$client.close();
    fs.writeFileSync(marker, new Date().toISOString());
  }
  // Closing the database folds its write-ahead log into the file that is copied.
  openDatabase(path.join(DEMO_DIR, "data.db")).$client.close();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-bench-pages-"));
  fs.copyFileSync(path.join(DEMO_DIR, "data.db"), path.join(root, "data.db"));
  for (const folder of ["media", "categories"]) linkTree(path.join(DEMO_DIR, folder), path.join(root, folder));
  // Every poster goes, so the seed below makes them all again with this tree's code.
  const media = path.join(root, "media");
  for (const movieId of fs.readdirSync(media)) {
    for (const file of fs.readdirSync(path.join(media, movieId)))
      if (file.startsWith("poster")) fs.rmSync(path.join(media, movieId, file), { recursive: true });
  }
  process.env.STORAGE_DIR = root;
  const db = openDatabase(path.join(root, "data.db"));
  migrateDatabase(db);
  const started = Date.now();
  const summary = await seedDemo(db, { storageDir: root, log: () => {} });
  console.log(`posters made again: ${summary.created.files} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  db.$client.close();
  return root;
}

function freeDemoTitle(root: string): string {
  const db = openDatabase(path.join(root, "data.db"));
  const row = db.$client
    .prepare(
      "SELECT id FROM movies WHERE status = 'ready' AND approved = 1 AND access = 'free' ORDER BY featured DESC, id LIMIT 1",
    )
    .get() as { id: string } | undefined;
  db.$client.close();
  if (!row) throw new Error("the demo has no published free title");
  return row.id;
}

async function signInDemoViewer(url: string): Promise<{ name: string; value: string }> {
  const viewer = DEMO_ACCOUNTS.find((account) => account.role === "viewer")!;
  const response = await fetch(`${url}/login`, {
    method: "POST",
    body: new URLSearchParams({ email: viewer.email, password: viewer.password }),
    redirect: "manual",
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("kallo_session="));
  if (!cookie) throw new Error(`the demo viewer's sign-in failed with ${response.status}`);
  const pair = cookie.split(";")[0]!;
  return { name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1) };
}

// ---------------------------------------------------------------- the browser side

/**
 * Runs in the page before its own scripts: React (production builds too)
 * reports each commit to a DevTools hook, so its first commit — hydration
 * done — is timed without touching the app. Long tasks are kept as well.
 */
const PAGE_PROBE = `
(() => {
  const marks = { hydratedAt: null, longTasks: [] };
  Object.defineProperty(window, "__benchMarks", { value: marks });
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject() { return 1; },
    onScheduleFiberRoot() {},
    onCommitFiberRoot() { if (marks.hydratedAt === null) marks.hydratedAt = performance.now(); },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch {}
})();
`;

function kindOf(type: string | undefined, mimeType: string | undefined): Kind {
  switch (type) {
    case "Document":
      return "document";
    case "Script":
      return "script";
    case "Stylesheet":
      return "style";
    case "Image":
      return "image";
    case "Font":
      return "font";
  }
  if (mimeType?.includes("javascript")) return "script";
  if (mimeType === "text/css") return "style";
  if (mimeType?.startsWith("image/")) return "image";
  return "other";
}

const zero = (): Record<Kind, number> => ({ document: 0, script: 0, style: 0, image: 0, font: 0, other: 0 });

type Tracked = {
  url: string;
  type?: string;
  mimeType?: string;
  status?: number;
  fromServiceWorker?: boolean;
  headers?: Record<string, string>;
  dataLength: number;
  encodedDataLength?: number;
  /** Monotonic seconds (CDP timestamps): asked for, and finished. */
  sentAt?: number;
  finishedAt?: number;
  failed?: boolean;
};

async function visit(context: BrowserContext, url: string, serviceWorkerBytes: () => number): Promise<Visit> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const requests = new Map<string, Tracked>();
  let inFlight = 0;
  let lastActivity = Date.now();
  let loadTimestamp = Number.POSITIVE_INFINITY;
  cdp.on("Network.requestWillBeSent", (event) => {
    // A redirect reuses the id: the earlier hop's bytes are in its redirectResponse, counted as part of this one.
    if (!requests.has(event.requestId)) inFlight++;
    requests.set(event.requestId, {
      url: event.request.url,
      type: event.type,
      dataLength: 0,
      sentAt: requests.get(event.requestId)?.sentAt ?? event.timestamp,
    });
    lastActivity = Date.now();
  });
  cdp.on("Network.responseReceived", (event) => {
    const tracked = requests.get(event.requestId);
    if (!tracked) return;
    tracked.type = event.type ?? tracked.type;
    tracked.mimeType = event.response.mimeType;
    tracked.status = event.response.status;
    tracked.fromServiceWorker = event.response.fromServiceWorker;
    tracked.headers = Object.fromEntries(
      Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
  });
  cdp.on("Network.dataReceived", (event) => {
    const tracked = requests.get(event.requestId);
    if (tracked) tracked.dataLength += event.dataLength;
    lastActivity = Date.now();
  });
  cdp.on("Network.loadingFinished", (event) => {
    const tracked = requests.get(event.requestId);
    if (!tracked) return;
    tracked.encodedDataLength = event.encodedDataLength;
    tracked.finishedAt = event.timestamp;
    inFlight--;
    lastActivity = Date.now();
  });
  cdp.on("Network.loadingFailed", (event) => {
    const tracked = requests.get(event.requestId);
    if (!tracked) return;
    tracked.failed = true;
    tracked.finishedAt = event.timestamp;
    inFlight--;
    lastActivity = Date.now();
  });
  cdp.on("Page.loadEventFired", (event) => {
    loadTimestamp = Math.min(loadTimestamp, event.timestamp);
  });
  await cdp.send("Network.enable");
  await cdp.send("Page.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: (KBPS * 1000) / 8,
    uploadThroughput: (KBPS * 1000) / 8,
  });

  const workerBytesAtStart = serviceWorkerBytes();
  await page.goto(url, { waitUntil: "load", timeout: 180_000 });
  // Quiet: nothing in flight and nothing new for QUIET_MS (lazy images, route chunks, the service worker's precache).
  let workerBytesSeen = serviceWorkerBytes();
  let workerQuietSince = Date.now();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await page.waitForTimeout(250);
    if (serviceWorkerBytes() !== workerBytesSeen) {
      workerBytesSeen = serviceWorkerBytes();
      workerQuietSince = Date.now();
    }
    if (inFlight <= 0 && Date.now() - lastActivity > QUIET_MS && Date.now() - workerQuietSince > QUIET_MS) break;
  }

  const timing = await page.evaluate(() => {
    const marks = (window as unknown as { __benchMarks: { hydratedAt: number | null; longTasks: [number, number][] } })
      .__benchMarks;
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    const hydratedAt = marks.hydratedAt;
    const longTasks = marks.longTasks
      .filter(([start]) => hydratedAt !== null && start < hydratedAt)
      .reduce((sum, [, duration]) => sum + duration, 0);
    return {
      fcpMs: fcp ? fcp.startTime : null,
      loadMs: navigation ? navigation.loadEventStart : -1,
      interactiveMs: hydratedAt,
      longTasks,
    };
  });

  const result: Visit = {
    beforeLoad: zero(),
    all: zero(),
    serviceWorker: serviceWorkerBytes() - workerBytesAtStart,
    requests: requests.size,
    fcpMs: timing.fcpMs,
    loadMs: timing.loadMs,
    interactiveMs: timing.interactiveMs,
    longTasksBeforeInteractiveMs: timing.longTasks,
    mismatches: [],
  };
  // The first request (the document) is the waterfall's zero.
  const startedAt = Math.min(...[...requests.values()].map((tracked) => tracked.sentAt ?? Number.POSITIVE_INFINITY));
  const at = (timestamp: number | undefined) =>
    timestamp === undefined ? "    -" : (timestamp - startedAt).toFixed(2).padStart(5);
  for (const tracked of requests.values()) {
    // What the service worker answered came from its cache or its own fetch (counted with the worker).
    const bytes = tracked.fromServiceWorker ? 0 : (tracked.encodedDataLength ?? 0);
    const kind = kindOf(tracked.type, tracked.mimeType);
    result.all[kind] += bytes;
    if (tracked.finishedAt !== undefined && tracked.finishedAt <= loadTimestamp) result.beforeLoad[kind] += bytes;
    const declared = Number(tracked.headers?.["content-length"]);
    if (
      !tracked.failed &&
      tracked.status !== undefined &&
      tracked.status >= 200 &&
      tracked.status < 300 &&
      !tracked.headers?.["content-encoding"] &&
      Number.isFinite(declared) &&
      tracked.dataLength !== declared
    )
      result.mismatches.push(`${tracked.url}: ${tracked.dataLength} bytes of ${declared}`);
    if (VERBOSE)
      console.log(
        `    ${at(tracked.sentAt)}→${at(tracked.finishedAt)} s ${String(tracked.status ?? "-").padStart(3)} ${kind.padEnd(8)} ${String(bytes).padStart(7)} B${tracked.fromServiceWorker ? " (sw)" : ""}${tracked.headers?.["content-encoding"] ? ` ${tracked.headers["content-encoding"]}` : ""}  ${tracked.url.replace(/^https?:\/\/[^/]+/, "")}`,
      );
  }
  await page.close();
  return result;
}

async function measurePage(server: RunningServer, spec: PageSpec, cookie: { name: string; value: string }) {
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM || undefined,
      args: TEST_CHROMIUM_ARGS,
    });
    const context = await browser.newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: DPR,
      isMobile: true,
      hasTouch: true,
      serviceWorkers: "allow",
    });
    if (spec.signedIn)
      await context.addCookies([{ ...cookie, url: siteUrl, httpOnly: true, sameSite: "Lax", secure: false }]);
    // tsx compiles this file with esbuild's keepNames: functions passed to page.evaluate call its __name helper.
    await context.addInitScript({ content: "globalThis.__name = (target) => target;" });
    await context.addInitScript({ content: PAGE_PROBE });
    let workerBytes = 0;
    const workerRequests: string[] = [];
    context.on("requestfinished", (request: PwRequest) => {
      if (!request.serviceWorker()) return;
      void request
        .sizes()
        .then((sizes) => {
          // From the HTTP cache: a body "size" of minus the headers, so the sum is 0.
          const bytes = sizes.responseBodySize + sizes.responseHeadersSize;
          workerBytes += bytes;
          workerRequests.push(`${String(bytes).padStart(7)} B  ${request.url().replace(/^https?:\/\/[^/]+/, "")}`);
        })
        .catch(() => {});
    });
    const url = `${siteUrl}${spec.path}`;
    if (VERBOSE) console.log(`  ${spec.label}, first visit`);
    const cold = await visit(context, url, () => workerBytes);
    if (VERBOSE) console.log(`  ${spec.label}, second visit`);
    const warm = await visit(context, url, () => workerBytes);
    if (VERBOSE) for (const line of workerRequests) console.log(`    service worker: ${line}`);
    return { cold, warm };
  } finally {
    await browser?.close();
  }
}

// ---------------------------------------------------------------- report

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function summarise(visits: Visit[]) {
  const pick = (read: (visit: Visit) => number | null) => {
    const values = visits.map(read).filter((value): value is number => value !== null);
    return values.length ? median(values) : null;
  };
  const sum = (record: Record<Kind, number>) => KINDS.reduce((total, kind) => total + record[kind], 0);
  return {
    beforeLoad: Object.fromEntries(KINDS.map((kind) => [kind, pick((visit) => visit.beforeLoad[kind])!])) as Record<
      Kind,
      number
    >,
    totalBeforeLoad: pick((visit) => sum(visit.beforeLoad))!,
    totalAll: pick((visit) => sum(visit.all) + visit.serviceWorker)!,
    jsCss: pick((visit) => visit.all.script + visit.all.style)!,
    serviceWorker: pick((visit) => visit.serviceWorker)!,
    requests: pick((visit) => visit.requests)!,
    fcpMs: pick((visit) => visit.fcpMs),
    loadMs: pick((visit) => visit.loadMs)!,
    interactiveMs: pick((visit) => visit.interactiveMs),
    longTasksMs: pick((visit) => visit.longTasksBeforeInteractiveMs)!,
  };
}

const kb = (bytes: number) => (bytes / KB).toFixed(1);
const seconds = (ms: number | null) => (ms === null ? "  -  " : (ms / 1000).toFixed(2));
const mark = (ok: boolean) => (ok ? "ok" : "MISSED");

// ---------------------------------------------------------------- run

const root = await prepareDemoStorage();
const watchId = freeDemoTitle(root);
const server = await startServer(root, PORT);
const siteUrl = HOST ? Object.assign(new URL(server.url), { hostname: HOST }).origin : server.url;
const pages: PageSpec[] = [
  { label: "landing (signed out)", path: "/", signedIn: false },
  { label: "/movies (viewer)", path: "/movies", signedIn: true },
  { label: "/WatchMovie (viewer)", path: `/WatchMovie?id=${watchId}`, signedIn: true },
  { label: "a series (viewer)", path: `/series/${DEMO_SERIES.id}`, signedIn: true },
  // BENCH_PAGES=WatchMovie measures only the pages whose label contains it.
].filter((page) => !process.env.BENCH_PAGES || page.label.includes(process.env.BENCH_PAGES));

try {
  const cookie = await signInDemoViewer(server.url);
  const compressed = spawnSync("curl", [
    "-s",
    "-o",
    "/dev/null",
    "-w",
    "%{size_download} %{content_type}",
    "-H",
    "Accept-Encoding: br, gzip",
    `${server.url}/`,
  ]).stdout?.toString();
  console.log(
    `Chromium ${CHROMIUM}, ${VIEWPORT.width}×${VIEWPORT.height} CSS px at ${DPR}× , ${KBPS} kbps with ${LATENCY_MS} ms latency (page target; the service worker's own fetches are not throttled), ${RUNS} run(s), medians. Landing page over curl with br/gzip: ${compressed ?? "?"}`,
  );
  const results: { spec: PageSpec; cold: ReturnType<typeof summarise>; warm: ReturnType<typeof summarise> }[] = [];
  for (const spec of pages) {
    const colds: Visit[] = [];
    const warms: Visit[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { cold, warm } = await measurePage(server, spec, cookie);
      colds.push(cold);
      warms.push(warm);
      for (const line of [...cold.mismatches, ...warm.mismatches]) console.log(`  size mismatch: ${line}`);
    }
    results.push({ spec, cold: summarise(colds), warm: summarise(warms) });
  }

  console.log(
    "\nkB on the wire (1 kB = 1000 bytes), by type before the load event; JS+CSS and 'in all' until quiet; 'sw': what the service worker fetched (its precache, and the page's requests once it controls the page); times in s",
  );
  console.log(
    [
      "page".padEnd(22),
      "visit".padEnd(6),
      ...KINDS.map((kind) => kind.slice(0, 8).padStart(8)),
      "≤load".padStart(7),
      "JS+CSS".padStart(7),
      "sw".padStart(6),
      "in all".padStart(7),
      "reqs".padStart(5),
      "FCP".padStart(6),
      "load".padStart(6),
      "inter.".padStart(6),
      "longtask".padStart(8),
    ].join(" "),
  );
  for (const { spec, cold, warm } of results) {
    for (const [label, row] of [
      ["first", cold],
      ["second", warm],
    ] as const) {
      console.log(
        [
          spec.label.padEnd(22),
          label.padEnd(6),
          ...KINDS.map((kind) => kb(row.beforeLoad[kind]).padStart(8)),
          kb(row.totalBeforeLoad).padStart(7),
          kb(row.jsCss).padStart(7),
          kb(row.serviceWorker).padStart(6),
          kb(row.totalAll).padStart(7),
          String(row.requests).padStart(5),
          seconds(row.fcpMs).padStart(6),
          seconds(row.loadMs).padStart(6),
          seconds(row.interactiveMs).padStart(6),
          String(Math.round(row.longTasksMs)).padStart(6) + "ms",
        ].join(" "),
      );
    }
  }

  // The goals of the pages measured (BENCH_PAGES may leave some out).
  const measured = (label: string) => results.find((result) => result.spec.label.startsWith(label));
  const landing = measured("landing");
  const moviesPage = measured("/movies");
  const watchPage = measured("/WatchMovie");
  console.log("\ngoals (issue 17; the watch page's from round 5)");
  const goals: [string, number, number, string][] = [];
  if (landing) {
    goals.push(["landing, first visit: JS + CSS ≤ 90 kB", landing.cold.jsCss, 90 * KB, "kB"]);
    goals.push(["landing, first visit: all before load ≤ 250 kB", landing.cold.totalBeforeLoad, 250 * KB, "kB"]);
  }
  if (moviesPage)
    goals.push(["/movies, first visit: all before load ≤ 200 kB", moviesPage.cold.totalBeforeLoad, 200 * KB, "kB"]);
  if (watchPage)
    goals.push(["/WatchMovie, first visit: all before play ≤ 160 kB", watchPage.cold.totalAll, 160 * KB, "kB"]);
  for (const { spec, warm } of results)
    goals.push([`${spec.label}, second visit: ≤ 10 kB in all`, warm.totalAll, 10 * KB, "kB"]);
  for (const { spec, cold } of results) {
    goals.push([`${spec.label}, first visit: FCP ≤ 1.5 s`, cold.fcpMs ?? Number.POSITIVE_INFINITY, 1500, "s"]);
    goals.push([
      `${spec.label}, first visit: interactive < 3 s`,
      cold.interactiveMs ?? Number.POSITIVE_INFINITY,
      3000,
      "s",
    ]);
  }
  for (const [label, value, limit, unit] of goals)
    console.log(
      `  ${label.padEnd(58)} ${(unit === "kB" ? kb(value) + " kB" : seconds(value) + " s").padStart(10)}  ${mark(value <= limit)}`,
    );
} finally {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
}

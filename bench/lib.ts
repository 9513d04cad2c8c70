/**
 * Shared pieces of the benchmarks: a throwaway storage folder with accounts,
 * the built server started on it, sign-in, and process memory readings.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type DB } from "../app/db/client.server";
import { accounts, categories } from "../app/db/schema";
import { hashPassword } from "../app/services/passwords.server";

export const PASSWORD = "bench-password-1";

export async function prepareStorage(label: string): Promise<{ root: string; db: DB }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `kallo-bench-${label}-`));
  const db = openDatabase(path.join(root, "data.db"));
  migrateDatabase(db);
  const passwordHash = await hashPassword(PASSWORD);
  db.insert(accounts)
    .values([
      {
        id: "benchviewer0001",
        name: "Bench Viewer",
        email: "viewer@bench.test",
        phoneNumber: "1",
        passwordHash,
        role: "viewer",
      },
      {
        id: "benchprovider01",
        name: "Bench Provider",
        email: "provider@bench.test",
        phoneNumber: "1",
        passwordHash,
        role: "provider",
        providerName: "Bench",
        providerStatus: "approved",
      },
    ])
    .run();
  db.insert(categories).values({ id: "benchcategory01", name: "Action", slug: "action" }).run();
  return { root, db };
}

export type RunningServer = {
  url: string;
  port: number;
  process: ChildProcess;
  /** What the server printed on its standard output so far. */
  output: () => string;
  /** What it printed on its standard error (also passed on to ours), the last 256 kB. */
  errors: () => string;
  stop: () => Promise<void>;
};

/** scripts/serve.ts as `npm run build` compiles it (scripts/build-server.ts). */
export const BUILT_SERVER = "build/server/serve.js";

/**
 * The V8 flags `npm start` gives the server (the heap ceiling, see
 * docs/decisions/033-cpu-per-page.md), read from package.json so a benchmark
 * measures the server as it is deployed.
 */
export function serverNodeFlags(): string[] {
  const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
  return (scripts.start ?? "").split(/\s+/).filter((part) => part.startsWith("--max-"));
}

/**
 * Start the built server on a storage folder. With BENCH_PROFILE_DIR set, the
 * server writes a V8 CPU profile there when it stops (open it in Chrome's
 * DevTools, Performance panel) to see where a benchmark's time went.
 * `options.env` adds settings (WORKERS, say); `options.script` serves with
 * another script than the compiled scripts/serve.ts (bench/floor-server.ts,
 * through tsx).
 */
export async function startServer(
  root: string,
  port: number,
  /** `cwd`: the checkout whose build serves (another one's, for a before/after); this one by default. */
  options: { env?: Record<string, string>; script?: string; profile?: boolean; cwd?: string } = {},
): Promise<RunningServer> {
  const cwd = options.cwd ?? process.cwd();
  if (!fs.existsSync(path.join(cwd, "build/index.js")) || !fs.existsSync(path.join(cwd, BUILT_SERVER)))
    throw new Error("Run `npm run build` first");
  const profile = (options.profile ?? true) && process.env.BENCH_PROFILE_DIR;
  const child = spawn(
    process.execPath,
    [
      ...serverNodeFlags(),
      ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
      // The server as deployed: compiled JavaScript (scripts/build-server.ts); another script runs through tsx.
      ...(options.script ? ["--import", "tsx", options.script] : [BUILT_SERVER]),
    ],
    {
      // The benchmarks and tests stand in for a proxy on this box: their X-Forwarded-For gives each simulated client its own address.
      env: {
        TRUST_PROXY: "loopback",
        // The database's room (DATABASE_ROOM_MB) kept small: each test server writes its own.
        DATABASE_ROOM_MB: "8",
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        STORAGE_DIR: root,
        SESSION_SECRET: "bench-secret-0123456789",
        LOG_LEVEL: "error",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      cwd,
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    // Keep the start of the log (what the server says about itself), not every request line.
    if (output.length < 64 * 1024) output += chunk.toString("utf8");
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    process.stderr.write(chunk);
    errors = (errors + chunk.toString("utf8")).slice(-256 * 1024);
  });
  const url = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once("exit", () => (exited = true));
  // If the benchmark itself fails, never leave its server behind.
  process.once("exit", () => child.kill("SIGTERM"));
  // Up to a minute and a half: several workers (WORKERS) start side by side, and a loaded machine starts them slowly.
  const giveUpAt = Date.now() + 90_000;
  for (;;) {
    if (exited) throw new Error(`the server on port ${port} exited at start (is the port taken?)`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > giveUpAt) throw new Error(`the server on port ${port} did not answer /healthz within 90 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    port,
    process: child,
    output: () => output,
    errors: () => errors,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Sign in at a door and return the session cookie. */
export async function signIn(url: string, door: "/login" | "/cp", email: string): Promise<string> {
  const response = await fetch(`${url}${door}`, {
    method: "POST",
    body: new URLSearchParams({ email, password: PASSWORD }),
    redirect: "manual",
    headers: { "X-Forwarded-For": `127.0.0.${Math.floor(Math.random() * 200) + 2}` },
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("kallo_session="));
  if (!cookie) throw new Error(`sign-in at ${door} failed with ${response.status}`);
  return cookie.split(";")[0];
}

/** Resident memory of a process in MiB, from /proc. */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** A process and all its descendants (cluster workers, media tools), from /proc. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and brackets: the fields start after its last ")".
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const visit = (id: number) => {
    tree.push(id);
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds (user + system) used so far by a process, its live
 * descendants and the descendants that have ended (the kernel adds those to
 * their parent when it reaps them).
 */
export function cpuMs(pid: number): number {
  let ticks = 0;
  for (const id of processTree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${id}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime are fields 14–17 of /proc/<pid>/stat (11–14 after the name).
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Sample the memory of a process and its descendants until stopped: the peak of their sum and of the largest one. */
export function sampleTreeMemory(pid: number, everyMs = 50) {
  let total = 0;
  let largest = 0;
  const sample = () => {
    let sum = 0;
    for (const id of processTree(pid)) {
      try {
        const rss = rssMiB(id);
        sum += rss;
        largest = Math.max(largest, rss);
      } catch {
        // gone meanwhile
      }
    }
    total = Math.max(total, sum);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return { stop: () => (clearInterval(timer), sample(), { totalMiB: total, largestMiB: largest }) };
}

/** Sample a process's memory until stopped; returns the peak. */
export function sampleMemory(pid: number, everyMs = 50) {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // process gone
    }
  }, everyMs);
  return { stop: () => (clearInterval(timer), peak) };
}

/** GET a URL and throw the body away; resolves with bytes, total time and time to first byte (ms). */
export function download(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ bytes: number; ms: number; ttfbMs: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get(url, { headers, agent: false }, (response) => {
      let first = 0;
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        if (bytes === 0) first = Number(process.hrtime.bigint() - started) / 1e6;
        bytes += chunk.length;
      });
      response.on("end", () =>
        resolve({
          bytes,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          ttfbMs: first,
          status: response.statusCode ?? 0,
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * GETs of one signed-in viewer's pages over keep-alive connections (at most
 * `maxSockets`), uncompressed: how long each took, its status and size. A
 * request the server drops (reset, closed) counts as status 0.
 */
export function pageGetter(baseUrl: string, cookie: string, maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const get = (urlPath: string): Promise<{ ms: number; status: number; bytes: number }> =>
    new Promise<{ ms: number; status: number; bytes: number }>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const request = http.get(
        `${baseUrl}${urlPath}`,
        { agent, headers: { Cookie: cookie, "Accept-Encoding": "identity" } },
        (response) => {
          let bytes = 0;
          response.on("data", (chunk: Buffer) => (bytes += chunk.length));
          response.on("end", () =>
            resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: response.statusCode ?? 0, bytes }),
          );
          response.on("error", reject);
        },
      );
      request.on("error", reject);
    }).catch(() => ({ ms: Number.NaN, status: 0, bytes: 0 }));
  return { get, close: () => agent.destroy() };
}

/**
 * Catalogue pages under load: 10,000 titles (plus ratings, comments and a
 * month of viewings), 50 concurrent keep-alive connections of a signed-in
 * viewer. Prints p50/p95/p99 response times (loopback, so they are server
 * time plus a fraction of a millisecond) and throughput for /movies,
 * /moviecategory?q= and /WatchMovie?id=.
 * Run with `npm run bench:catalogue` after `npm run build`.
 * BENCH_TITLES and BENCH_REQUESTS change the size of the run.
 */
import http from "node:http";
import { accounts } from "../app/db/schema";
import { seedBulkCatalogue } from "./catalogue-seed";
import { percentile, prepareStorage, rssMiB, sampleMemory, signIn, startServer } from "./lib";

const TITLES = Number(process.env.BENCH_TITLES ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3_000);
const CONNECTIONS = 50;

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
db.$client.close();

const server = await startServer(root, 3604);
const cookie = await signIn(server.url, "/login", "viewer@bench.test");
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function get(path: string): Promise<{ ms: number; status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get(
      `${server.url}${path}`,
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
  });
}

/** `total` requests from `CONNECTIONS` concurrent workers; `nextPath(i)` varies the URL. */
async function load(label: string, nextPath: (i: number) => string, total: number) {
  // Warm up: JIT, SQLite page cache, the connections themselves.
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => get(nextPath(i))));
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let bytes = 0;
  let issued = 0;
  const memory = sampleMemory(server.process.pid!, 50);
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (issued < total) {
        const result = await get(nextPath(issued++));
        times.push(result.ms);
        bytes += result.bytes;
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peak = memory.stop();
  const codes = [...statuses].map(([status, count]) => `${status}×${count}`).join(" ");
  console.log(
    `${label.padEnd(30)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms  p99 ${percentile(
      times,
      99,
    )
      .toFixed(1)
      .padStart(
        6,
      )} ms  ${(times.length / seconds).toFixed(0).padStart(5)} req/s  ${(bytes / times.length / 1024).toFixed(1)} KiB/page  [${codes}]  server RSS peak ${peak.toFixed(0)} MiB`,
  );
  return statuses;
}

const sorts = ["", "?sort=new", "?sort=old", "?filter=trending", "?filter=featured", "?page=3", "?page=40&sort=old"];
const words = catalogue.searchWords;
const ids = catalogue.movieIds;
console.log(
  `${CONNECTIONS} connections, ${REQUESTS} requests per page kind, server RSS at start ${rssMiB(server.process.pid!).toFixed(0)} MiB`,
);
const results = [
  await load("/movies (sorts, filters, pages)", (i) => `/movies${sorts[i % sorts.length]}`, REQUESTS),
  await load(
    "/moviecategory?q=",
    (i) => `/moviecategory?q=${encodeURIComponent(words[i % words.length]!)}${i % 3 === 0 ? "&page=2" : ""}`,
    REQUESTS,
  ),
  await load("/WatchMovie?id=", (i) => `/WatchMovie?id=${ids[(i * 7919) % ids.length]}`, REQUESTS),
];
agent.destroy();
await server.stop();
const failures = results.flatMap((statuses) => [...statuses].filter(([status]) => status !== 200));
if (failures.length > 0) {
  console.error(`non-200 answers: ${JSON.stringify(failures)}`);
  process.exitCode = 1;
}

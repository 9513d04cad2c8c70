/**
 * A burst of 50 sign-ins at once against a viewer seeking in a film: the
 * viewer's 1 MiB byte ranges, p50/p99, before and during the burst, and how
 * long the burst took — with password hashes bounded (the default, one less
 * than the cores) and, as the peer, unbounded (PASSWORD_HASH_CONCURRENCY=64).
 * Goal: range p99 ≤ 100 ms during the burst. Run with `npm run bench:signin` after `npm run build`.
 */
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { accounts, movies } from "../app/db/schema";
import { movieVideoPath } from "../app/media/storage.server";
import { download, percentile, PASSWORD, prepareStorage, signIn, startServer } from "./lib";

const BURST = Number(process.env.BENCH_BURST ?? 50);
const MiB = 1024 * 1024;
const movieId = "benchmovie00001";

async function run(label: string, concurrency: string | undefined) {
  const { root, db } = await prepareStorage("signin");
  const file = movieVideoPath(movieId, root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(64 * MiB, 9));
  db.insert(movies)
    .values({
      id: movieId,
      name: "Bench",
      categoryId: "benchcategory01",
      providerId: "benchprovider01",
      status: "ready",
      approved: true,
      videoFile: `${movieId}.mp4`,
      sizeBytes: 64 * MiB,
    })
    .run();
  // Fifty people, each signing in once (one account would meet its own sign-in limit).
  const viewer = db.select().from(accounts).where(eq(accounts.id, "benchviewer0001")).get()!;
  for (let i = 0; i < BURST; i++)
    db.insert(accounts)
      .values({ ...viewer, id: `burstviewer${String(i).padStart(4, "0")}`, email: `burst${i}@bench.test` })
      .run();
  db.$client.close();
  if (concurrency) process.env.PASSWORD_HASH_CONCURRENCY = concurrency;
  else delete process.env.PASSWORD_HASH_CONCURRENCY;
  const server = await startServer(root, 3607);
  const cookie = await signIn(server.url, "/login", "viewer@bench.test");

  const ranges = async (stop: () => boolean) => {
    const times: number[] = [];
    while (!stop()) {
      const start = Math.floor(Math.random() * 63) * MiB;
      const range = await download(`${server.url}/api/files/${movieId}.mp4`, {
        Cookie: cookie,
        Range: `bytes=${start}-${start + MiB - 1}`,
      });
      if (range.status !== 206 || range.bytes !== MiB)
        throw new Error(`range answered ${range.status} with ${range.bytes} bytes`);
      times.push(range.ms);
    }
    return times;
  };
  const quietUntil = Date.now() + 3000;
  const quiet = await ranges(() => Date.now() > quietUntil);

  let burstDone = false;
  const during = ranges(() => burstDone);
  const started = Date.now();
  const statuses = await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      fetch(`${server.url}/login`, {
        method: "POST",
        body: new URLSearchParams({ email: `burst${i}@bench.test`, password: PASSWORD }),
        redirect: "manual",
        headers: { "X-Forwarded-For": `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}` },
      }).then(async (response) => (await response.arrayBuffer(), response.status)),
    ),
  );
  const burstMs = Date.now() - started;
  burstDone = true;
  const busy = await during;
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
  const signedIn = statuses.filter((status) => status === 302 || status === 303 || status === 204).length;
  return { label, quiet, busy, burstMs, signedIn };
}

const bounded = await run(`bounded (PASSWORD_HASH_CONCURRENCY default)`, undefined);
const unbounded = await run("unbounded (PASSWORD_HASH_CONCURRENCY=64)", "64");
const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
console.log(`\n${BURST} sign-ins at once; a viewer's 1 MiB byte ranges meanwhile (ms)`);
for (const result of [bounded, unbounded]) {
  console.log(
    `  ${result.label}: quiet p50 ${ms(result.quiet, 50)} / p99 ${ms(result.quiet, 99)}; during the burst p50 ${ms(result.busy, 50)} / p99 ${ms(result.busy, 99)} (${result.busy.length} ranges); burst ${result.burstMs} ms, ${result.signedIn}/${BURST} signed in`,
  );
}
console.log(
  `  range p99 during the burst, unbounded ÷ bounded: ${(percentile(unbounded.busy, 99) / percentile(bounded.busy, 99)).toFixed(1)}× (goal: bounded ≤ 100 ms)`,
);

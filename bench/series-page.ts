/**
 * How long a long series' page takes to render: a series of 100 episodes in
 * four seasons, a viewer who watched 40 of them, the page asked for N times
 * by that signed-in viewer over one keep-alive connection (loopback, so the
 * times are the server's). Also an episode's watch page, which finds the next
 * episode across the series. Prints p50/p95/p99.
 * Run with `npm run bench:series` after `npm run build`.
 * BENCH_REQUESTS (500), BENCH_EPISODES (100) and BENCH_PORT (3610) change the run.
 */
import http from "node:http";
import { movies, seasons, series, watchEvents } from "../app/db/schema";
import { percentile, prepareStorage, rssMiB, signIn, startServer } from "./lib";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const EPISODES = Number(process.env.BENCH_EPISODES ?? 100);
const PORT = Number(process.env.BENCH_PORT ?? 3610);
const SEASONS = 4;
const WATCHED = Math.round(EPISODES * 0.4);

const { root, db } = await prepareStorage("series");
const seriesId = "benchseries0001";
const now = Date.now();
const episodeIds: string[] = [];
db.transaction((tx) => {
  tx.insert(series)
    .values({
      id: seriesId,
      name: "Bench Series",
      description: "A long drama, for measuring its page.",
      cast: "Bench Cast",
      categoryId: "benchcategory01",
      providerId: "benchprovider01",
      approved: true,
    })
    .run();
  const perSeason = Math.ceil(EPISODES / SEASONS);
  for (let season = 1; season <= SEASONS; season++) {
    const seasonId = `benchseason000${season}`;
    tx.insert(seasons).values({ id: seasonId, seriesId, number: season }).run();
    for (let episode = 1; episode <= perSeason && episodeIds.length < EPISODES; episode++) {
      const id = `benchepisode${String(episodeIds.length).padStart(4, "0")}`;
      episodeIds.push(id);
      tx.insert(movies)
        .values({
          id,
          name: `Episode ${episode} of season ${season}`,
          description: `What happens in episode ${episode}: a few sentences, as a provider writes them.`,
          categoryId: "benchcategory01",
          providerId: "benchprovider01",
          status: "ready",
          approved: true,
          seasonId,
          episodeNumber: episode,
          durationSeconds: 1500,
          posterFile: `${id}-card.jpg`,
          uploadedAt: new Date(now - (EPISODES - episodeIds.length) * 86_400_000),
        })
        .run();
    }
  }
  for (const [index, movieId] of episodeIds.slice(0, WATCHED).entries()) {
    const at = new Date(now - (WATCHED - index) * 3_600_000);
    tx.insert(watchEvents)
      .values({
        id: `benchwatch${String(index).padStart(5, "0")}`,
        accountId: "benchviewer0001",
        movieId,
        startedAt: at,
        updatedAt: at,
        positionSeconds: index === WATCHED - 1 ? 600 : 1500,
        viewCounted: true,
      })
      .run();
  }
});
db.$client.close();

const server = await startServer(root, PORT);
// On a busy machine the server may need longer than startServer waits.
for (let i = 0; i < 600; i++) {
  const healthy = await fetch(`${server.url}/healthz`).then(
    (response) => response.ok,
    () => false,
  );
  if (healthy) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const cookie = await signIn(server.url, "/login", "viewer@bench.test");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

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

async function measure(label: string, path: string): Promise<boolean> {
  for (let i = 0; i < 20; i++) await get(path); // warm up: JIT, SQLite's page cache
  const times: number[] = [];
  let bytes = 0;
  let failed = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const result = await get(path);
    times.push(result.ms);
    bytes = result.bytes;
    if (result.status !== 200) failed++;
  }
  console.log(
    `${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 95)
      .toFixed(1)
      .padStart(6)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms  ${(bytes / 1024).toFixed(0)} KiB  ${
      failed ? `${failed} non-200` : `${REQUESTS} × 200`
    }`,
  );
  return failed === 0;
}

console.log(
  `${EPISODES} episodes in ${SEASONS} seasons, ${WATCHED} watched by the viewer; ${REQUESTS} requests each, one connection; server RSS ${rssMiB(server.process.pid!).toFixed(0)} MiB`,
);
const ok = [
  await measure(`/series/<id> (${EPISODES} episodes)`, `/series/${seriesId}`),
  await measure("/WatchMovie?id=<episode> (next across seasons)", `/WatchMovie?id=${episodeIds[WATCHED - 1]}`),
];
agent.destroy();
await server.stop();
if (ok.includes(false)) process.exitCode = 1;

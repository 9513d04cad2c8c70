/**
 * How long a long series' page takes to render: a series of 100 episodes in
 * four seasons, a viewer who watched 40 of them, the page asked for N times
 * by that signed-in viewer over one keep-alive connection (loopback, so the
 * times are the server's). Also an episode's watch page, which finds the next
 * episode across the series. Prints p50/p95/p99.
 * Run with `npm run bench:series` after `npm run build`.
 * BENCH_REQUESTS (500), BENCH_EPISODES (100) and BENCH_PORT (3610) change the run.
 */
import { pageGetter, prepareStorage, rssMiB, signIn, startServer } from "./lib";
import { formatSequential, seedLongSeries, timeSequentially } from "./series-seed";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const EPISODES = Number(process.env.BENCH_EPISODES ?? 100);
const PORT = Number(process.env.BENCH_PORT ?? 3610);

const { root, db } = await prepareStorage("series");
const { seriesId, episodeIds, watched: WATCHED, seasons: SEASONS } = seedLongSeries(db, { episodes: EPISODES });
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
const { get, close } = pageGetter(server.url, cookie, 1);

async function measure(label: string, path: string): Promise<boolean> {
  const result = await timeSequentially(get, path, REQUESTS);
  console.log(formatSequential(label, result, REQUESTS));
  return result.failed === 0;
}

console.log(
  `${EPISODES} episodes in ${SEASONS} seasons, ${WATCHED} watched by the viewer; ${REQUESTS} requests each, one connection; server RSS ${rssMiB(server.process.pid!).toFixed(0)} MiB`,
);
const ok = [
  await measure(`/series/<id> (${EPISODES} episodes)`, `/series/${seriesId}`),
  await measure("/WatchMovie?id=<episode> (next across seasons)", `/WatchMovie?id=${episodeIds[WATCHED - 1]}`),
];
close();
await server.stop();
if (ok.includes(false)) process.exitCode = 1;

import type { DB } from "../app/db/client.server";
import { movies, seasons, series, watchEvents } from "../app/db/schema";
import { percentile } from "./lib";

/**
 * A long series for the benchmarks: `episodes` episodes in four seasons, a
 * fifth of a day apart, the first 40 % watched by the bench viewer (the last
 * of those stopped halfway). Uses prepareStorage's provider, category and
 * viewer.
 */
export function seedLongSeries(db: DB, options: { episodes: number; seriesId?: string }) {
  const seriesId = options.seriesId ?? "benchseries0001";
  const seasonCount = 4;
  const watched = Math.round(options.episodes * 0.4);
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
    const perSeason = Math.ceil(options.episodes / seasonCount);
    for (let season = 1; season <= seasonCount; season++) {
      const seasonId = `${seriesId}s${season}`;
      tx.insert(seasons).values({ id: seasonId, seriesId, number: season }).run();
      for (let episode = 1; episode <= perSeason && episodeIds.length < options.episodes; episode++) {
        const id = `${seriesId}e${String(episodeIds.length).padStart(4, "0")}`;
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
            uploadedAt: new Date(now - (options.episodes - episodeIds.length) * 86_400_000),
          })
          .run();
      }
    }
    for (const [index, movieId] of episodeIds.slice(0, watched).entries()) {
      const at = new Date(now - (watched - index) * 3_600_000);
      tx.insert(watchEvents)
        .values({
          id: `${seriesId}w${String(index).padStart(5, "0")}`,
          accountId: "benchviewer0001",
          movieId,
          startedAt: at,
          updatedAt: at,
          positionSeconds: index === watched - 1 ? 600 : 1500,
          viewCounted: true,
        })
        .run();
    }
  });
  return { seriesId, episodeIds, watched, seasons: seasonCount };
}

/** One page asked for `requests` times in a row (after 20 to warm up), one at a time: p50/p95/p99 and its size. */
export async function timeSequentially(
  get: (path: string) => Promise<{ ms: number; status: number; bytes: number }>,
  path: string,
  requests: number,
) {
  for (let i = 0; i < 20; i++) await get(path);
  const times: number[] = [];
  let bytes = 0;
  let failed = 0;
  for (let i = 0; i < requests; i++) {
    const result = await get(path);
    times.push(result.ms);
    bytes = result.bytes;
    if (result.status !== 200) failed++;
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), bytes, failed };
}

export function formatSequential(
  label: string,
  result: Awaited<ReturnType<typeof timeSequentially>>,
  requests: number,
) {
  return `${label.padEnd(48)} p50 ${result.p50.toFixed(1).padStart(6)} ms  p95 ${result.p95.toFixed(1).padStart(6)} ms  p99 ${result.p99
    .toFixed(1)
    .padStart(
      6,
    )} ms  ${(result.bytes / 1024).toFixed(0)} KiB  ${result.failed ? `${result.failed} non-200` : `${requests} × 200`}`;
}

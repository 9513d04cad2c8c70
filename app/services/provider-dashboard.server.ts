import { and, asc, desc, eq, gte, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, seasons, series, watchEvents } from "~/db/schema";
import { episodeCode, episodeContextColumns, titleDisplayName } from "./episode-names";
import { providerEarnings } from "./provider-stats.server";
import {
  dayOfSql,
  dayWindow,
  fillDays,
  retentionFromSteps,
  stopStepSql,
  watchedSecondsSql,
  type DailyValue,
  type RetentionPoint,
} from "./viewing-stats.server";
import { qualified } from "~/db/sql";

/**
 * The numbers behind a provider's charts (/provider/stats), over the last
 * `days` days, from the viewings of their own titles (viewing-stats.server.ts
 * says how watch time and stops are read from the progress reports). A few
 * grouped queries through movies_provider_idx and watch_events_movie_idx,
 * whatever the number of viewings.
 */
export const RETENTION_STEPS = 20;

export type TitleStats = {
  id: string;
  /** As it stands alone: an episode as "Series — S1E2 Title". */
  name: string;
  /** Its own name (an episode's without its series). */
  ownName: string;
  durationSeconds: number;
  /** Every view since the upload (movies.views). */
  totalViews: number;
  /** Viewings that began in the window, the hours they watched, and the average share of the film they watched (0–1). */
  viewings: number;
  hours: number;
  averageShare: number | null;
  seriesId: string | null;
  seriesName: string | null;
  code: string | null;
};

export type SeriesEpisodes = { id: string; name: string; episodes: TitleStats[] };

export type ProviderDashboard = {
  days: number;
  since: string;
  viewsPerDay: DailyValue[];
  hoursPerDay: DailyValue[];
  totals: { views: number; hours: number; averageShare: number | null; totalViews: number };
  titles: TitleStats[];
  series: SeriesEpisodes[];
  retention: {
    title: { id: string; name: string; durationSeconds: number };
    viewings: number;
    points: RetentionPoint[];
  } | null;
  earnings: {
    currency: string | null;
    amountMinor: number;
    sharePercent: number;
    watchShare: number;
    byTitle: Array<{ id: string; name: string; amountMinor: number; hours: number }>;
  };
};

const hours = (seconds: number) => Math.round((seconds / 3600) * 100) / 100;

export function providerDashboard(
  db: DB,
  providerId: string,
  options: { days: number; titleId?: string | null; now?: Date },
): ProviderDashboard {
  const now = options.now ?? new Date();
  const window = dayWindow(options.days, now);
  const inWindow = and(eq(movies.providerId, providerId), gte(watchEvents.startedAt, window.since));
  const day = dayOfSql(qualified(watchEvents.startedAt));

  const daily = db
    .select({
      day,
      views: sql<number>`sum(${watchEvents.viewCounted})`,
      seconds: sql<number>`sum(${watchedSecondsSql})`,
    })
    .from(movies)
    .innerJoin(watchEvents, eq(watchEvents.movieId, movies.id))
    .where(inWindow)
    .groupBy(day)
    .all();

  const perTitle = db
    .select({
      id: movies.id,
      viewings: sql<number>`count(*)`,
      seconds: sql<number>`sum(${watchedSecondsSql})`,
      share: sql<
        number | null
      >`avg(CASE WHEN ${movies.durationSeconds} > 0 THEN min(1.0, ${watchedSecondsSql} / ${movies.durationSeconds}) END)`,
    })
    .from(movies)
    .innerJoin(watchEvents, eq(watchEvents.movieId, movies.id))
    .where(inWindow)
    .groupBy(movies.id)
    .all();
  const byId = new Map(perTitle.map((row) => [row.id, row]));

  const titles: TitleStats[] = db
    .select({
      id: movies.id,
      name: movies.name,
      durationSeconds: movies.durationSeconds,
      totalViews: movies.views,
      ...episodeContextColumns,
    })
    .from(movies)
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(movies.providerId, providerId))
    .orderBy(desc(movies.views), asc(movies.name))
    .all()
    .map((row) => {
      const stats = byId.get(row.id);
      return {
        id: row.id,
        name: titleDisplayName(row),
        ownName: row.name,
        durationSeconds: row.durationSeconds,
        totalViews: row.totalViews,
        viewings: Number(stats?.viewings ?? 0),
        hours: hours(Number(stats?.seconds ?? 0)),
        averageShare: stats?.share === null || stats?.share === undefined ? null : Number(stats.share),
        seriesId: row.seriesId,
        seriesName: row.seriesName,
        code:
          row.seasonNumber !== null && row.episodeNumber !== null
            ? episodeCode(row.seasonNumber, row.episodeNumber)
            : null,
      };
    });

  // Episodes by series, in series order.
  const seriesById = new Map<string, SeriesEpisodes>();
  for (const title of titles) {
    if (!title.seriesId) continue;
    const entry = seriesById.get(title.seriesId) ?? { id: title.seriesId, name: title.seriesName ?? "", episodes: [] };
    entry.episodes.push(title);
    seriesById.set(title.seriesId, entry);
  }
  const episodeOrder = (code: string | null) => {
    const match = /^S(\d+)E(\d+)$/.exec(code ?? "");
    return match ? Number(match[1]) * 100_000 + Number(match[2]) : 0;
  };
  for (const entry of seriesById.values()) entry.episodes.sort((a, b) => episodeOrder(a.code) - episodeOrder(b.code));

  // The retention curve of the title asked for, else of the one most viewed in the window.
  const watched = titles.filter((title) => title.viewings > 0);
  const chosen =
    titles.find((title) => title.id === options.titleId) ??
    [...watched].sort((a, b) => b.viewings - a.viewings)[0] ??
    null;
  let retention: ProviderDashboard["retention"] = null;
  if (chosen) {
    const step = stopStepSql(RETENTION_STEPS);
    const stops = db
      .select({ step, viewings: sql<number>`count(*)` })
      .from(movies)
      .innerJoin(watchEvents, eq(watchEvents.movieId, movies.id))
      .where(and(eq(movies.id, chosen.id), gte(watchEvents.startedAt, window.since)))
      .groupBy(step)
      .all();
    retention = {
      title: { id: chosen.id, name: chosen.name, durationSeconds: chosen.durationSeconds },
      viewings: stops.reduce((total, row) => total + Number(row.viewings), 0),
      points: retentionFromSteps(stops, chosen.durationSeconds, RETENTION_STEPS),
    };
  }

  const totalSeconds = daily.reduce((total, row) => total + Number(row.seconds ?? 0), 0);
  const viewings = perTitle.reduce((total, row) => total + Number(row.viewings), 0);
  const shareSum = perTitle.reduce(
    (total, row) => total + (row.share === null ? 0 : Number(row.share) * Number(row.viewings)),
    0,
  );

  const money = providerEarnings(db, providerId, now, options.days);
  // One currency is the rule (the operator's); the first is shown when older payments used another.
  const main = money.earnings[0] ?? null;
  const providerSeconds = money.watchedSeconds;
  const earningsByTitle = main
    ? money.secondsByTitle
        .map((row) => ({
          id: row.movieId,
          name: titles.find((title) => title.id === row.movieId)?.name ?? row.movieId,
          hours: hours(row.seconds),
          amountMinor: providerSeconds > 0 ? Math.floor((main.amountMinor * row.seconds) / providerSeconds) : 0,
        }))
        .filter((row) => row.amountMinor > 0 || row.hours > 0)
        .sort((a, b) => b.amountMinor - a.amountMinor)
    : [];

  return {
    days: options.days,
    since: window.since.toISOString(),
    viewsPerDay: fillDays(
      window.days,
      daily.map((row) => ({ day: row.day, value: Number(row.views ?? 0) })),
    ),
    hoursPerDay: fillDays(
      window.days,
      daily.map((row) => ({ day: row.day, value: hours(Number(row.seconds ?? 0)) })),
    ),
    totals: {
      views: daily.reduce((total, row) => total + Number(row.views ?? 0), 0),
      hours: hours(totalSeconds),
      averageShare: viewings > 0 ? shareSum / viewings : null,
      totalViews: titles.reduce((total, title) => total + title.totalViews, 0),
    },
    titles,
    series: [...seriesById.values()],
    retention,
    earnings: {
      currency: main?.currency ?? null,
      amountMinor: main?.amountMinor ?? 0,
      sharePercent: money.sharePercent,
      watchShare: money.watchShare,
      byTitle: earningsByTitle,
    },
  };
}

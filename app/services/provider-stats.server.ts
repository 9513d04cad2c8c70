import { and, count, desc, eq, gte, sql, sum } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, payments, savedMovies, seasons, series, watchEvents, type SAVED_LISTS } from "~/db/schema";
import { episodeContextColumns, titleDisplayName } from "./episode-names";
import { watchedSecondsSql } from "./viewing-stats.server";

/**
 * What a provider sees about how their titles are watched. Every figure is
 * computed from the rows, per provider, through indexed joins. An episode is
 * named with its series ("Series — S1E2 Title"); a series' own totals are on
 * its studio page (series.server.ts getStudioSeries, listProviderSeries).
 */

type Named = {
  movieName: string;
  seriesId: string | null;
  seriesName: string | null;
  seasonNumber: number | null;
  episodeNumber: number | null;
};

/** A row's title as the provider reads it: an episode with its series. */
function named<T extends Named>({ seriesId: _seriesId, seriesName, seasonNumber, episodeNumber, ...row }: T) {
  return { ...row, movieName: titleDisplayName({ name: row.movieName, seriesName, seasonNumber, episodeNumber }) };
}

/** Recent plays of this provider's titles, newest first. Viewers are not named. */
export function listRecentPlays(db: DB, providerId: string, options: { limit: number; offset?: number }) {
  return db
    .select({
      movieId: movies.id,
      movieName: movies.name,
      startedAt: watchEvents.startedAt,
      positionSeconds: watchEvents.positionSeconds,
      durationSeconds: movies.durationSeconds,
      ...episodeContextColumns,
    })
    .from(watchEvents)
    .innerJoin(movies, eq(movies.id, watchEvents.movieId))
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(movies.providerId, providerId))
    .orderBy(desc(watchEvents.startedAt))
    .limit(options.limit)
    .offset(options.offset ?? 0)
    .all()
    .map(named);
}

/** How many viewers keep each title on a list (watch later or saved), most kept first. */
export function listKeptCounts(db: DB, providerId: string, list: (typeof SAVED_LISTS)[number]) {
  return db
    .select({
      movieId: movies.id,
      movieName: movies.name,
      viewers: count(savedMovies.accountId),
      lastAddedAt: sql<number>`max(${savedMovies.createdAt})`,
      ...episodeContextColumns,
    })
    .from(savedMovies)
    .innerJoin(movies, eq(movies.id, savedMovies.movieId))
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(and(eq(movies.providerId, providerId), eq(savedMovies.list, list)))
    .groupBy(movies.id)
    .orderBy(desc(count(savedMovies.accountId)), movies.name)
    .all()
    .map(named);
}

/** The share of pass revenue paid out to providers, pro rata to the time their titles are watched. */
export const PROVIDER_REVENUE_SHARE = 0.5;
const EARNINGS_WINDOW_DAYS = 30;

/**
 * Views and earnings for the provider's payment page and charts. Earnings
 * over the last `windowDays` days: providers' share of successful payments in
 * that window, split by each provider's part of all the watch time in it
 * (viewing-stats.server.ts: how far each viewing got, never more than it
 * lasted), and within a provider by title.
 */
export function providerEarnings(db: DB, providerId: string, now = new Date(), windowDays = EARNINGS_WINDOW_DAYS) {
  const since = new Date(now.getTime() - windowDays * 24 * 3600 * 1000);
  const titles = db
    .select({
      movieId: movies.id,
      movieName: movies.name,
      views: movies.views,
      status: movies.status,
      ...episodeContextColumns,
    })
    .from(movies)
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(movies.providerId, providerId))
    .orderBy(desc(movies.views))
    .all()
    .map(named);
  const secondsByTitle = db
    .select({ movieId: movies.id, seconds: sql<number>`sum(${watchedSecondsSql})` })
    .from(movies)
    .innerJoin(watchEvents, eq(watchEvents.movieId, movies.id))
    .where(and(eq(movies.providerId, providerId), gte(watchEvents.startedAt, since)))
    .groupBy(movies.id)
    .all()
    .map((row) => ({ movieId: row.movieId, seconds: Number(row.seconds ?? 0) }));
  const providerSeconds = secondsByTitle.reduce((total, row) => total + row.seconds, 0);
  const allSeconds = Number(
    db
      .select({ seconds: sql<number>`sum(${watchedSecondsSql})` })
      .from(watchEvents)
      .innerJoin(movies, eq(movies.id, watchEvents.movieId))
      .where(gte(watchEvents.startedAt, since))
      .get()?.seconds ?? 0,
  );
  const revenue = db
    .select({ currency: payments.currency, amount: sum(payments.amountMinor) })
    .from(payments)
    .where(and(eq(payments.status, "success"), gte(payments.paidAt, since)))
    .groupBy(payments.currency)
    .all();
  const share = allSeconds > 0 ? providerSeconds / allSeconds : 0;
  return {
    windowDays,
    sharePercent: PROVIDER_REVENUE_SHARE * 100,
    totalViews: titles.reduce((total, title) => total + title.views, 0),
    titles,
    watchedSeconds: providerSeconds,
    secondsByTitle,
    watchShare: share,
    earnings: revenue.map((row) => ({
      currency: row.currency,
      amountMinor: Math.floor(Number(row.amount ?? 0) * PROVIDER_REVENUE_SHARE * share),
    })),
  };
}

/** The watch-later / saved page's data for a provider, with dates ready for the page. */
export function keptCountsForPage(db: DB, providerId: string, list: (typeof SAVED_LISTS)[number]) {
  return listKeptCounts(db, providerId, list).map((row) => ({
    ...row,
    lastAddedAt: new Date(row.lastAddedAt).toISOString(),
  }));
}

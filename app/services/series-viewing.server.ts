import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Viewer } from "./profiles.server";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { accounts, categories, movies, savedMovies, seasons, series, watchEvents } from "~/db/schema";
import type { PosterOwner } from "~/media/poster-sizes";
import {
  isPublished,
  isChildSafeSeries,
  isSeriesPublished,
  seriesRatingSummaries,
  watchPageHref,
  type ShownDetails,
} from "./catalogue.server";
import { episodeCode } from "./episode-names";
import { addToSavedList, removeFromSavedList, type SavedList } from "./saved-lists.server";
import { isFinished } from "./watching.server";
import type { ContinueReason, EpisodeProgress, SeriesAccess } from "./series.server";
import { continueTarget, nextEpisodeAfter } from "./series.server";

/**
 * A series as its viewers meet it: its page (seasons, episodes, where each
 * viewer is), the episode a watch page belongs to and the one that follows,
 * Continue on the lists, and who may see its poster. The making of a series
 * and its rules: series.server.ts; the administrator's: series-review.server.ts.
 */

export type SeriesEpisode = {
  id: string;
  href: string;
  seasonNumber: number;
  episodeNumber: number;
  code: string;
  name: string;
  description: string;
  durationSeconds: number;
  access: SeriesAccess;
  poster: PosterOwner | null;
  /** The viewer's latest viewing of it: where, and whether they reached the end. */
  positionSeconds: number | null;
  finished: boolean;
};

/** A published series' published episodes, in series order (seasons_series_number_unique, movies_season_episode_unique). */
function publishedEpisodes(db: DB, seriesId: string) {
  return db
    .select({
      id: movies.id,
      seasonNumber: seasons.number,
      episodeNumber: movies.episodeNumber,
      name: movies.name,
      description: movies.description,
      durationSeconds: movies.durationSeconds,
      access: movies.access,
      posterFile: movies.posterFile,
      posterVersion: movies.posterVersion,
    })
    .from(seasons)
    .innerJoin(movies, eq(movies.seasonId, seasons.id))
    .where(and(eq(seasons.seriesId, seriesId), isPublished()))
    .orderBy(asc(seasons.number), asc(movies.episodeNumber))
    .all()
    .map((row) => ({ ...row, episodeNumber: row.episodeNumber ?? 0 }));
}

/** This profile's latest visible viewing of each of these titles (watch_events_profile_movie_idx). */
function progressOf(db: DB, profileId: string, movieIds: string[]): Map<string, EpisodeProgress> {
  const progress = new Map<string, EpisodeProgress>();
  if (movieIds.length === 0) return progress;
  const rows = db.all<{ movieId: string; lastWatched: number; position: number }>(
    sql`SELECT ${watchEvents.movieId} AS movieId, max(${watchEvents.updatedAt}) AS lastWatched, ${watchEvents.positionSeconds} AS position
        FROM ${watchEvents}
        WHERE ${watchEvents.profileId} = ${profileId} AND ${watchEvents.hiddenAt} IS NULL AND ${inArray(watchEvents.movieId, movieIds)}
        GROUP BY ${watchEvents.movieId}`,
  );
  for (const row of rows)
    progress.set(row.movieId, { positionSeconds: Number(row.position), lastWatchedAt: Number(row.lastWatched) });
  return progress;
}

export type SeriesPage = {
  series: ShownDetails & {
    access: SeriesAccess;
    /** The series' own poster, else its first episode's with one, else none. */
    poster: PosterOwner | null;
  };
  averageRating: number | null;
  ratingCount: number;
  seasons: { number: number; episodes: SeriesEpisode[] }[];
  episodeCount: number;
  continueWith: { episode: SeriesEpisode; positionSeconds: number; reason: ContinueReason } | null;
  lists: { watchLater: boolean; saved: boolean };
};

/** Everything /series/<id> shows, or null when there is no such published series. */
export function getSeriesPage(db: DB, seriesId: string, viewer: Viewer): SeriesPage | null {
  if (!seriesId) return null;
  const row = db
    .select({
      id: series.id,
      name: series.name,
      description: series.description,
      cast: series.cast,
      categoryName: categories.name,
      providerName: sql<string>`coalesce(${accounts.providerName}, ${accounts.name})`,
      access: series.access,
      posterFile: series.posterFile,
    })
    .from(series)
    .innerJoin(categories, eq(categories.id, series.categoryId))
    .innerJoin(accounts, eq(accounts.id, series.providerId))
    .where(and(eq(series.id, seriesId), isSeriesPublished(), ...(viewer.profile.children ? [isChildSafeSeries()] : [])))
    .get();
  if (!row) return null;
  const rows = publishedEpisodes(db, seriesId);
  const progress = progressOf(
    db,
    viewer.profile.id,
    rows.map((episode) => episode.id),
  );
  const episodes: SeriesEpisode[] = rows.map((episode) => {
    const seen = progress.get(episode.id);
    return {
      id: episode.id,
      href: watchPageHref(episode.id),
      seasonNumber: episode.seasonNumber,
      episodeNumber: episode.episodeNumber,
      code: episodeCode(episode.seasonNumber, episode.episodeNumber),
      name: episode.name,
      description: episode.description,
      durationSeconds: episode.durationSeconds,
      access: episode.access,
      poster: episode.posterFile ? { kind: "title", id: episode.id, version: episode.posterVersion } : null,
      positionSeconds: seen ? seen.positionSeconds : null,
      finished: seen ? isFinished(seen.positionSeconds, episode.durationSeconds) : false,
    };
  });
  const seasonsShown: SeriesPage["seasons"] = [];
  for (const episode of episodes) {
    const last = seasonsShown.at(-1);
    if (last && last.number === episode.seasonNumber) last.episodes.push(episode);
    else seasonsShown.push({ number: episode.seasonNumber, episodes: [episode] });
  }
  const summary = seriesRatingSummaries(db, [seriesId]).get(seriesId);
  const poster: PosterOwner | null = row.posterFile
    ? { kind: "series", id: row.id }
    : (episodes.find((episode) => episode.poster)?.poster ?? null);
  return {
    series: {
      id: row.id,
      name: row.name,
      description: row.description,
      cast: row.cast,
      categoryName: row.categoryName,
      providerName: row.providerName,
      access: row.access,
      poster,
    },
    averageRating: summary ? Math.round(summary.average * 10) / 10 : null,
    ratingCount: summary?.count ?? 0,
    seasons: seasonsShown,
    episodeCount: episodes.length,
    continueWith: continueTarget(episodes, progress),
    lists: listStateOf(
      db,
      viewer.profile.id,
      episodes.map((episode) => episode.id),
    ),
  };
}

/**
 * The season a series page shows: a long series is read one season at a time
 * (100 episodes would be 250 kB of page). `requested` (`?season=`) when the
 * series has it; otherwise the season of the episode Continue opens, so a
 * returning viewer lands where they are; else the first.
 */
export function chooseSeason(
  page: Pick<SeriesPage, "seasons" | "continueWith">,
  requested: number | null,
): SeriesPage["seasons"][number] | null {
  const find = (number: number | null | undefined) =>
    number == null ? undefined : page.seasons.find((season) => season.number === number);
  return find(requested) ?? find(page.continueWith?.episode.seasonNumber) ?? page.seasons[0] ?? null;
}

function listStateOf(db: DB, profileId: string, movieIds: string[]) {
  if (movieIds.length === 0) return { watchLater: false, saved: false };
  const lists = new Set(
    db
      .selectDistinct({ list: savedMovies.list })
      .from(savedMovies)
      .where(and(eq(savedMovies.profileId, profileId), inArray(savedMovies.movieId, movieIds)))
      .all()
      .map((row) => row.list),
  );
  return { watchLater: lists.has("watch_later"), saved: lists.has("saved") };
}

/**
 * "Watch later" (or Save) on a series page keeps the episode Continue would
 * open — what the viewer means to watch — so the list shows it as
 * "Series — S1E3 Title" and opens it where they stopped. False when the series
 * is not published.
 */
export function keepSeriesOnList(db: DB, viewer: Viewer, seriesId: string, list: SavedList): boolean {
  const page = getSeriesPage(db, seriesId, viewer);
  if (!page?.continueWith) return false;
  return addToSavedList(db, viewer, page.continueWith.episode.id, list);
}

/** Take every episode of the series off one of the viewer's lists. */
export function dropSeriesFromList(db: DB, viewer: Viewer, seriesId: string, list: SavedList): void {
  const ids = db
    .select({ id: movies.id })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .where(eq(seasons.seriesId, seriesId))
    .all();
  for (const { id } of ids) removeFromSavedList(db, viewer, id, list);
}

export type EpisodeContext = {
  seriesId: string;
  seriesName: string;
  seasonNumber: number;
  episodeNumber: number;
  code: string;
  next: { id: string; href: string; name: string; code: string } | null;
};

// Every watch page asks (a film's answer is no row): prepared once.
const episodePlace = preparedQuery((db) =>
  db
    .select({
      seriesId: series.id,
      seriesName: series.name,
      seasonNumber: seasons.number,
      episodeNumber: movies.episodeNumber,
    })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .innerJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(movies.id, sql.placeholder("movieId")))
    .prepare(),
);

/** For an episode's watch page: its series, season and number, and the next published episode (null for a film). */
export function getEpisodeContext(db: DB, movieId: string): EpisodeContext | null {
  const row = episodePlace(db).get({ movieId });
  if (!row) return null;
  const episodes = publishedEpisodes(db, row.seriesId);
  const next = nextEpisodeAfter(episodes, movieId);
  const episodeNumber = row.episodeNumber ?? 0;
  return {
    seriesId: row.seriesId,
    seriesName: row.seriesName,
    seasonNumber: row.seasonNumber,
    episodeNumber,
    code: episodeCode(row.seasonNumber, episodeNumber),
    next: next
      ? {
          id: next.id,
          href: watchPageHref(next.id),
          name: next.name,
          code: episodeCode(next.seasonNumber, next.episodeNumber),
        }
      : null,
  };
}

/** Whether this viewer lets the next episode start by itself while data saver is on. */
export function autoplayOnDataSaver(db: DB, accountId: string): boolean {
  return (
    db.select({ value: accounts.autoplayOnDataSaver }).from(accounts).where(eq(accounts.id, accountId)).get()?.value ??
    false
  );
}

export function setAutoplayOnDataSaver(db: DB, accountId: string, on: boolean): void {
  db.update(accounts).set({ autoplayOnDataSaver: on }).where(eq(accounts.id, accountId)).run();
}

/** Who may see a series' poster: like a title's (posterAccess in catalogue.server.ts). */
export function seriesPosterAccess(
  db: DB,
  seriesId: string,
  caller: { id: string; role: string } | null,
): "public" | "private" | "hidden" {
  const row = db
    .select({ providerId: series.providerId, published: sql<number>`${isSeriesPublished()}` })
    .from(series)
    .where(eq(series.id, seriesId))
    .get();
  if (!row) return "hidden";
  if (Number(row.published) === 1) return "public";
  if (caller && (caller.role === "admin" || caller.id === row.providerId)) return "private";
  return "hidden";
}

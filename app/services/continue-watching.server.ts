import { and, asc, eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedSql } from "~/db/prepared.server";
import { continueWatchingDismissals, movies, seasons, series, watchEvents } from "~/db/schema";
import type { PosterOwner } from "~/media/poster-sizes";
import { isChildSafeTitle, isPublished, watchPageHref } from "./catalogue.server";
import type { Viewer } from "./profiles.server";
import { episodeCode } from "./episode-names";
import { continueTarget, type EpisodeProgress } from "./series.server";
import { isFinished, resumePosition } from "./watching.server";

/**
 * The "Continue watching" row at the top of the home page and /movies: what
 * this viewer started and did not finish, newest first. A film once; a series
 * once, at the episode Continue opens (where they stopped, or the next one
 * after a finished episode, as the series page's Continue does). The viewer
 * may take an entry out of the row; watching it again brings it back.
 */

export const CONTINUE_WATCHING_MAX = 12;
/** How many of the latest viewings are read to fill the row (finished ones and a series' other episodes drop out). */
const VIEWINGS_READ = 60;

export type ContinueWatchingItem = {
  /** The title the entry opens: the film, or the episode to watch next. */
  movieId: string;
  href: string;
  /** A film's name; an episode's series and number, "Gidan Haya · S1E2". */
  title: string;
  /** An episode's own title; null for a film. */
  episodeName: string | null;
  poster: PosterOwner | null;
  positionSeconds: number;
  durationSeconds: number;
  /** The viewing the entry stands for: taking the entry out of the row names this title. */
  viewedMovieId: string;
};

type ViewingRow = {
  movieId: string;
  lastWatched: number;
  position: number;
  name: string;
  durationSeconds: number;
  posterFile: string | null;
  episodeNumber: number | null;
  seasonNumber: number | null;
  seriesId: string | null;
  seriesName: string | null;
  seriesPoster: string | null;
  dismissedAt: number | null;
};

/**
 * The viewer's latest visible viewing of each published title, newest first,
 * with what the row shows of it and when they last took it out of the row.
 * Reads watch_events_profile_idx backwards; titles, seasons and series by key.
 */
const latestViewings = preparedSql<ViewingRow>(
  () =>
    sql`SELECT latest.movie_id AS movieId, latest.last_watched AS lastWatched, latest.position AS position,
          ${movies.name} AS name, ${movies.durationSeconds} AS durationSeconds, ${movies.posterFile} AS posterFile,
          ${movies.episodeNumber} AS episodeNumber, ${seasons.number} AS seasonNumber,
          ${series.id} AS seriesId, ${series.name} AS seriesName, ${series.posterFile} AS seriesPoster,
          ${continueWatchingDismissals.dismissedAt} AS dismissedAt
        FROM (
          SELECT ${watchEvents.movieId} AS movie_id, max(${watchEvents.updatedAt}) AS last_watched,
                 ${watchEvents.positionSeconds} AS position
            FROM ${watchEvents}
           WHERE ${watchEvents.profileId} = ${sql.placeholder("profileId")} AND ${watchEvents.hiddenAt} IS NULL
           GROUP BY ${watchEvents.movieId}
           ORDER BY last_watched DESC
           LIMIT ${sql.placeholder("limit")}
        ) AS latest
        INNER JOIN ${movies} ON ${movies.id} = latest.movie_id
        LEFT JOIN ${seasons} ON ${seasons.id} = ${movies.seasonId}
        LEFT JOIN ${series} ON ${series.id} = ${seasons.seriesId}
        LEFT JOIN ${continueWatchingDismissals}
          ON ${continueWatchingDismissals.profileId} = ${sql.placeholder("profileId")}
         AND ${continueWatchingDismissals.movieId} = latest.movie_id
        WHERE ${isPublished()} AND (${sql.placeholder("children")} = 0 OR ${isChildSafeTitle()})
        ORDER BY latest.last_watched DESC, latest.movie_id DESC`,
);

/** A series' published episodes in order, with what the row needs of each. */
function publishedEpisodes(db: DB, seriesId: string) {
  return db
    .select({
      id: movies.id,
      name: movies.name,
      durationSeconds: movies.durationSeconds,
      posterFile: movies.posterFile,
      episodeNumber: movies.episodeNumber,
      seasonNumber: seasons.number,
    })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .where(and(eq(seasons.seriesId, seriesId), isPublished()))
    .orderBy(asc(seasons.number), asc(movies.episodeNumber))
    .all();
}

function posterOf(row: { movieId: string; posterFile: string | null }): PosterOwner | null {
  return row.posterFile ? { kind: "title", id: row.movieId } : null;
}

/** This viewer's row, at most `limit` entries; empty when there is nothing to continue. */
export function listContinueWatching(db: DB, viewer: Viewer, limit = CONTINUE_WATCHING_MAX): ContinueWatchingItem[] {
  const rows = latestViewings(db).all({
    profileId: viewer.profile.id,
    children: viewer.profile.children ? 1 : 0,
    limit: VIEWINGS_READ,
  });
  const items: ContinueWatchingItem[] = [];
  const seriesSeen = new Set<string>();
  for (const row of rows) {
    if (items.length >= limit) break;
    const dismissed = row.dismissedAt !== null && Number(row.dismissedAt) >= Number(row.lastWatched);
    const position = Number(row.position);
    if (!row.seriesId) {
      if (dismissed || position <= 0 || isFinished(position, row.durationSeconds)) continue;
      items.push({
        movieId: row.movieId,
        href: watchPageHref(row.movieId),
        title: row.name,
        episodeName: null,
        poster: posterOf(row),
        positionSeconds: resumePosition(position, row.durationSeconds),
        durationSeconds: row.durationSeconds,
        viewedMovieId: row.movieId,
      });
      continue;
    }
    // A series once, by its latest viewing (the rows come newest first).
    if (seriesSeen.has(row.seriesId)) continue;
    seriesSeen.add(row.seriesId);
    if (dismissed) continue;
    const episodes = publishedEpisodes(db, row.seriesId);
    const progress = new Map<string, EpisodeProgress>();
    for (const other of rows)
      if (other.seriesId === row.seriesId)
        progress.set(other.movieId, {
          positionSeconds: Number(other.position),
          lastWatchedAt: Number(other.lastWatched),
        });
    const target = continueTarget(episodes, progress);
    // Nothing to continue: the series is watched to its end (or has no episode left).
    if (!target || target.reason === "again" || target.reason === "start") continue;
    if (target.reason === "resume" && target.positionSeconds <= 0) continue;
    const episode = target.episode;
    items.push({
      movieId: episode.id,
      href: watchPageHref(episode.id),
      title: `${row.seriesName} · ${episodeCode(episode.seasonNumber, episode.episodeNumber ?? 0)}`,
      episodeName: episode.name,
      poster: episode.posterFile
        ? { kind: "title", id: episode.id }
        : row.seriesPoster
          ? { kind: "series", id: row.seriesId }
          : null,
      positionSeconds: target.positionSeconds,
      durationSeconds: episode.durationSeconds,
      viewedMovieId: row.movieId,
    });
  }
  return items;
}

/** Take a title out of this viewer's row (until they watch it again). False when they have no viewing of it. */
export function dismissFromContinueWatching(db: DB, viewer: Viewer, movieId: string, now: Date = new Date()): boolean {
  if (!movieId) return false;
  const viewed = db
    .select({ id: watchEvents.id })
    .from(watchEvents)
    .where(and(eq(watchEvents.profileId, viewer.profile.id), eq(watchEvents.movieId, movieId)))
    .limit(1)
    .get();
  if (!viewed) return false;
  db.insert(continueWatchingDismissals)
    .values({ accountId: viewer.id, profileId: viewer.profile.id, movieId, dismissedAt: now })
    .onConflictDoUpdate({
      target: [continueWatchingDismissals.profileId, continueWatchingDismissals.movieId],
      set: { dismissedAt: now },
    })
    .run();
  return true;
}

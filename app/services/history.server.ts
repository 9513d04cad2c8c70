import type { Viewer } from "./profiles.server";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, watchEvents } from "~/db/schema";
import { viewableBy, cardsOfRows, type CatalogueCard } from "./catalogue.server";
import { normaliseSearchText, toFtsQuery } from "./search.server";
import { isFinished } from "./watching.server";

/**
 * A viewer's own history and lists. History is built from their viewings
 * (watch_events): one line per title, at its latest viewing, newest first.
 * Removing a title or clearing the history hides the viewer's rows
 * (`hidden_at`) instead of deleting them, so the anonymous counts that
 * trending and the providers' statistics read stay true.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rolling windows ending now: Recent = 7 days, Month = 30 days, Year = 365 days. */
export const HISTORY_PERIODS = { recent: 7 * DAY_MS, month: 30 * DAY_MS, year: 365 * DAY_MS } as const;
export type HistoryPeriod = keyof typeof HISTORY_PERIODS;

export function parseHistoryPeriod(value: string | null): HistoryPeriod | null {
  return value && Object.hasOwn(HISTORY_PERIODS, value) ? (value as HistoryPeriod) : null;
}

/** `finished`: the viewer reached the end, so the player will start again from the beginning. */
export type HistoryItem = CatalogueCard & { lastWatchedAt: string; positionSeconds: number; finished: boolean };
export type HistoryPage = { items: HistoryItem[]; total: number; page: number; pageCount: number; pageSize: number };

/**
 * One page of this viewer's history: published titles only, each at its
 * latest visible viewing (SQLite returns the bare column `position_seconds`
 * from the row that holds the max), read through watch_events_profile_idx.
 * `q` narrows to titles whose title, description or cast match (the same
 * full-text index as /moviecategory).
 */
export function listHistory(
  db: DB,
  viewer: Viewer,
  options: { period?: HistoryPeriod | null; q?: string | null; page?: number; pageSize?: number } = {},
  now: Date = new Date(),
): HistoryPage {
  const pageSize = Math.min(100, Math.max(1, Math.floor(options.pageSize ?? 20)));
  const requestedPage = Math.max(1, Math.floor(Number.isFinite(options.page) ? options.page! : 1));
  const conditions: SQL[] = [
    eq(watchEvents.profileId, viewer.profile.id),
    isNull(watchEvents.hiddenAt),
    viewableBy(viewer),
  ];
  if (options.period)
    conditions.push(sql`${watchEvents.updatedAt} >= ${now.getTime() - HISTORY_PERIODS[options.period]}`);
  const text = normaliseSearchText(options.q);
  if (text) {
    const ftsQuery = toFtsQuery(text);
    if (!ftsQuery) return { items: [], total: 0, page: 1, pageCount: 1, pageSize };
    conditions.push(
      sql`${watchEvents.movieId} IN (SELECT movie_id FROM movies_fts WHERE movies_fts MATCH ${ftsQuery})`,
    );
  }
  const where = and(...conditions)!;
  const total = Number(
    db.get<{ total: number }>(
      sql`SELECT count(DISTINCT ${watchEvents.movieId}) AS total FROM ${watchEvents} INNER JOIN ${movies} ON ${movies.id} = ${watchEvents.movieId} WHERE ${where}`,
    )?.total ?? 0,
  );
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  if (total === 0) return { items: [], total, page, pageCount, pageSize };
  const rows = db.all<{ movieId: string; lastWatched: number; position: number }>(
    sql`SELECT ${watchEvents.movieId} AS movieId, max(${watchEvents.updatedAt}) AS lastWatched, ${watchEvents.positionSeconds} AS position
        FROM ${watchEvents} INNER JOIN ${movies} ON ${movies.id} = ${watchEvents.movieId}
        WHERE ${where}
        GROUP BY ${watchEvents.movieId}
        ORDER BY lastWatched DESC, movieId DESC
        LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
  );
  const cards = cardsOfRows(db, rows);
  const items = rows.flatMap((row) => {
    const card = cards.get(row.movieId);
    if (!card) return [];
    const positionSeconds = Number(row.position);
    return [
      {
        ...card,
        lastWatchedAt: new Date(Number(row.lastWatched)).toISOString(),
        positionSeconds,
        finished: isFinished(positionSeconds, card.durationSeconds),
      },
    ];
  });
  return { items, total, page, pageCount, pageSize };
}

/** Take one title out of this viewer's history. The number of viewings hidden (0 when there was nothing to remove). */
export function removeFromHistory(db: DB, viewer: Viewer, movieId: string, now: Date = new Date()): number {
  if (!movieId) return 0;
  return db
    .update(watchEvents)
    .set({ hiddenAt: now })
    .where(
      and(eq(watchEvents.profileId, viewer.profile.id), eq(watchEvents.movieId, movieId), isNull(watchEvents.hiddenAt)),
    )
    .run().changes;
}

/** Clear this viewer's whole history. */
export function clearHistory(db: DB, viewer: Viewer, now: Date = new Date()): number {
  return db
    .update(watchEvents)
    .set({ hiddenAt: now })
    .where(and(eq(watchEvents.profileId, viewer.profile.id), isNull(watchEvents.hiddenAt)))
    .run().changes;
}

import { and, eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, savedMovies, SAVED_LISTS } from "~/db/schema";
import { cardsOfRows, viewableBy, type CatalogueCard } from "./catalogue.server";
import type { Viewer } from "./profiles.server";

/** A viewer's saved and watch-later lists: what is on them (one page), and putting titles on and off. */

export type SavedList = (typeof SAVED_LISTS)[number];

export function isSavedList(value: unknown): value is SavedList {
  return typeof value === "string" && (SAVED_LISTS as readonly string[]).includes(value);
}

/** Put a published title on one of the viewer's lists (idempotent). False when there is no such published title. */
export function addToSavedList(db: DB, viewer: Viewer, movieId: string, list: SavedList): boolean {
  const movie = db
    .select({ id: movies.id })
    .from(movies)
    .where(and(eq(movies.id, movieId), viewableBy(viewer)))
    .get();
  if (!movie) return false;
  db.insert(savedMovies)
    .values({ accountId: viewer.id, profileId: viewer.profile.id, movieId, list })
    .onConflictDoNothing()
    .run();
  return true;
}

export function removeFromSavedList(db: DB, viewer: Viewer, movieId: string, list: SavedList): void {
  db.delete(savedMovies)
    .where(
      and(eq(savedMovies.profileId, viewer.profile.id), eq(savedMovies.movieId, movieId), eq(savedMovies.list, list)),
    )
    .run();
}

export type SavedListPage = {
  items: (CatalogueCard & { addedAt: string })[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
};

/** One page of a profile's watch-later or saved list, last added first (saved_movies_profile_idx); titles it may open only. */
export function listSavedMovies(
  db: DB,
  viewer: Viewer,
  list: SavedList,
  options: { page?: number; pageSize?: number } = {},
): SavedListPage {
  const pageSize = Math.min(100, Math.max(1, Math.floor(options.pageSize ?? 20)));
  const requestedPage = Math.max(1, Math.floor(Number.isFinite(options.page) ? options.page! : 1));
  const where = and(eq(savedMovies.profileId, viewer.profile.id), eq(savedMovies.list, list), viewableBy(viewer));
  const total = Number(
    db
      .select({ total: sql<number>`count(*)` })
      .from(savedMovies)
      .innerJoin(movies, eq(movies.id, savedMovies.movieId))
      .where(where)
      .get()?.total ?? 0,
  );
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  const rows = db
    .select({ movieId: savedMovies.movieId, createdAt: savedMovies.createdAt })
    .from(savedMovies)
    .innerJoin(movies, eq(movies.id, savedMovies.movieId))
    .where(where)
    .orderBy(sql`${savedMovies.createdAt} DESC`, sql`${savedMovies.movieId} DESC`)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  const cards = cardsOfRows(db, rows);
  const items = rows.flatMap((row) => {
    const card = cards.get(row.movieId);
    return card ? [{ ...card, addedAt: row.createdAt.toISOString() }] : [];
  });
  return { items, total, page, pageCount, pageSize };
}

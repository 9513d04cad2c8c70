import { and, eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, savedMovies, SAVED_LISTS } from "~/db/schema";
import { isPublished } from "./catalogue.server";

export type SavedList = (typeof SAVED_LISTS)[number];

export function isSavedList(value: unknown): value is SavedList {
  return typeof value === "string" && (SAVED_LISTS as readonly string[]).includes(value);
}

/** Put a published title on one of the viewer's lists (idempotent). False when there is no such published title. */
export function addToSavedList(db: DB, accountId: string, movieId: string, list: SavedList): boolean {
  const movie = db
    .select({ id: movies.id })
    .from(movies)
    .where(and(eq(movies.id, movieId), isPublished()))
    .get();
  if (!movie) return false;
  db.insert(savedMovies).values({ accountId, movieId, list }).onConflictDoNothing().run();
  return true;
}

export function removeFromSavedList(db: DB, accountId: string, movieId: string, list: SavedList): void {
  db.delete(savedMovies)
    .where(and(eq(savedMovies.accountId, accountId), eq(savedMovies.movieId, movieId), eq(savedMovies.list, list)))
    .run();
}

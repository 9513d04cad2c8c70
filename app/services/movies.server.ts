import { and, count, desc, eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { categories, movies, seasons, series, type Role } from "~/db/schema";
import { knownFailureReason } from "./movie-processing.server";
import { removeMovieFiles } from "~/media/storage.server";
import { recordAudit } from "./audit.server";
import { episodeContextColumns, titleDisplayName } from "./episode-names";

/** Titles as their provider (or an administrator) manages them: every status, newest change first; an episode named with its series. */
export function listProviderMovies(db: DB, providerId: string, options: { page: number; pageSize: number }) {
  const page = Math.max(1, Math.floor(options.page));
  const stored = db
    .select({
      id: movies.id,
      name: movies.name,
      description: movies.description,
      posterFile: movies.posterFile,
      categoryName: categories.name,
      status: movies.status,
      failureReason: movies.failureReason,
      approved: movies.approved,
      views: movies.views,
      sizeBytes: movies.sizeBytes,
      durationSeconds: movies.durationSeconds,
      updatedAt: movies.updatedAt,
      uploadedAt: movies.uploadedAt,
      ...episodeContextColumns,
    })
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(movies.providerId, providerId))
    .orderBy(desc(movies.updatedAt), desc(movies.id))
    .limit(options.pageSize)
    .offset((page - 1) * options.pageSize)
    .all();
  const rows = stored.map(({ seriesName, seasonNumber, episodeNumber, ...row }) => ({
    ...row,
    name: titleDisplayName({ name: row.name, seriesName, seasonNumber, episodeNumber }),
    failureReason: knownFailureReason(row.failureReason),
  }));
  const total = db.select({ value: count() }).from(movies).where(eq(movies.providerId, providerId)).get()?.value ?? 0;
  return { rows, total, page, pageCount: Math.max(1, Math.ceil(total / options.pageSize)) };
}

export type DeleteMovieOutcome = "deleted" | "notFound" | "forbidden";

/**
 * Delete a title: its row (comments, ratings, history and jobs go with it by
 * foreign key) and every file it owned. Its owner or an administrator only.
 */
export function deleteMovie(
  db: DB,
  movieId: string,
  actor: { id: string; role: Role },
  root?: string,
): DeleteMovieOutcome {
  const movie = db
    .select({ id: movies.id, providerId: movies.providerId })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get();
  if (!movie) return "notFound";
  if (actor.role !== "admin" && movie.providerId !== actor.id) return "forbidden";
  const deleted = db
    .delete(movies)
    .where(
      actor.role === "admin" ? eq(movies.id, movieId) : and(eq(movies.id, movieId), eq(movies.providerId, actor.id)),
    )
    .run();
  if (deleted.changes === 0) return "notFound";
  // Files after the row: a crash in between leaves an orphan folder, never a row without its files.
  removeMovieFiles(movieId, root);
  return "deleted";
}

/** deleteMovie, written to the audit log when it happened: what the provider's list, the admin's list and /api call. */
export function deleteMovieAudited(
  db: DB,
  movieId: string,
  actor: { id: string; role: Role },
  context: { ipAddress?: string | null } = {},
  root?: string,
): DeleteMovieOutcome {
  const outcome = deleteMovie(db, movieId, actor, root);
  if (outcome === "deleted") {
    recordAudit(db, {
      actorId: actor.id,
      action: "movie.delete",
      targetType: "movie",
      targetId: movieId,
      ipAddress: context.ipAddress,
    });
  }
  return outcome;
}

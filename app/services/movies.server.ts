import { count, desc, eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { categories, movies, seasons, series } from "~/db/schema";
import { knownFailureReason } from "./movie-processing.server";
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
      returnReason: movies.returnReason,
      returnNote: movies.returnNote,
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

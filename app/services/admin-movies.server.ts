import { and, count, desc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, movies, seasons, series } from "~/db/schema";
import { qualified } from "~/db/sql";
import { posterUrl } from "~/media/storage.server";
import { recordAudit } from "./audit.server";
import { episodeContextColumns, titleDisplayName } from "./episode-names";
import { getSetting, setSetting } from "./settings.server";

/**
 * The administrator's view of every title (all providers, all statuses) and
 * the changes only an administrator makes: approval, featuring, access, delete.
 */
export const ADMIN_MOVIE_FILTERS = [
  "processing",
  "ready",
  "failed",
  "waiting",
  "sentBack",
  "approved",
  "unrated",
] as const;
export type AdminMovieFilter = (typeof ADMIN_MOVIE_FILTERS)[number];

export function parseMovieFilter(value: string | null): AdminMovieFilter | undefined {
  return (ADMIN_MOVIE_FILTERS as readonly string[]).includes(value ?? "") ? (value as AdminMovieFilter) : undefined;
}

/** An episode's series' rating, for a statement over movies alone (the count). */
const unratedSeriesRating = sql`(SELECT ${series.ageRating} FROM ${seasons} INNER JOIN ${series} ON ${series.id} = ${seasons.seriesId} WHERE ${seasons.id} = ${qualified(movies.seasonId)})`;

export function listAllMovies(
  db: DB,
  query: { status?: AdminMovieFilter; providerId?: string; page?: number; pageSize?: number },
) {
  const pageSize = Math.min(Math.max(query.pageSize ?? 20, 1), 100);
  const page = Math.max(query.page ?? 1, 1);
  const conditions: SQL[] = [];
  if (query.status === "waiting")
    conditions.push(eq(movies.status, "ready"), eq(movies.approved, false), isNull(movies.returnedAt));
  else if (query.status === "sentBack") conditions.push(isNotNull(movies.returnedAt));
  else if (query.status === "approved") conditions.push(eq(movies.approved, true));
  // Still unrated: a film without a rating, an episode whose series has none (children's profiles never see them).
  else if (query.status === "unrated")
    conditions.push(sql`coalesce(${movies.ageRating}, ${unratedSeriesRating}) IS NULL`);
  else if (query.status) conditions.push(eq(movies.status, query.status));
  if (query.providerId) conditions.push(eq(movies.providerId, query.providerId));
  const where = conditions.length ? and(...conditions) : undefined;
  const total = db.select({ value: count() }).from(movies).where(where).get()?.value ?? 0;
  const ratedBySeries = sql<number>`${movies.seasonId} IS NOT NULL`;
  const rows = db
    .select({
      id: movies.id,
      name: movies.name,
      status: movies.status,
      approved: movies.approved,
      returnReason: movies.returnReason,
      returnNote: movies.returnNote,
      featured: movies.featured,
      access: movies.access,
      views: movies.views,
      posterFile: movies.posterFile,
      posterVersion: movies.posterVersion,
      providerId: movies.providerId,
      providerName: accounts.providerName,
      uploadedAt: movies.uploadedAt,
      accessOverride: movies.accessOverride,
      // An episode carries its series' rating.
      ageRating: sql<string | null>`coalesce(${movies.ageRating}, ${series.ageRating})`,
      ratedBySeries,
      ...episodeContextColumns,
    })
    .from(movies)
    .innerJoin(accounts, eq(accounts.id, movies.providerId))
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(where)
    .orderBy(desc(movies.uploadedAt), movies.id)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all()
    // An episode is shown with its series: "Series — S1E2 Title".
    .map(({ posterFile, posterVersion, ratedBySeries: bySeries, ...row }) => ({
      ...row,
      ratedBySeries: Boolean(bySeries),
      name: titleDisplayName(row),
      poster: posterFile ? posterUrl(row.id, "card", "jpg", posterVersion) : null,
    }));
  return { rows, total, page, pageSize };
}

/** Providers that have at least one title, for the filter. */
export function providersWithMovies(db: DB) {
  return db
    .selectDistinct({ id: accounts.id, name: accounts.providerName })
    .from(accounts)
    .innerJoin(movies, eq(movies.providerId, accounts.id))
    .orderBy(accounts.providerName)
    .all();
}

type Actor = { actorId: string; ipAddress?: string | null };

export function getAutoApprove(db: DB): boolean {
  return getSetting(db, "autoApproveMovies");
}

export function setAutoApprove(db: DB, value: boolean, actor: Actor): void {
  setSetting(db, "autoApproveMovies", value);
  recordAudit(db, {
    actorId: actor.actorId,
    action: "setting.update",
    details: { autoApproveMovies: value },
    ipAddress: actor.ipAddress,
  });
}

/**
 * The catalogue's lists as the pages ask for them: featured, new, a
 * category's, trending, suggested (the landing page), the /movies grid with
 * its sorts and filters, and every published title for the old clients. The
 * cards, the published rule and the entry queries they are made of:
 * catalogue.server.ts.
 */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { getDb, type DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { categories, movies, seasons, series, watchEvents } from "~/db/schema";
import { episodeContextColumns, titleDisplayName } from "./episode-names";

import type { CatalogueCard, CatalogueEntry, CatalogueMovie, EntryFilter, EntryOrder } from "./catalogue.server";
import {
  TRENDING_REFRESH_MS,
  TRENDING_WINDOW_MS,
  clampLimit,
  countEntries,
  isChildSafeTitle,
  isPublished,
  listCardsForEntries,
  listHeroesForEntries,
  queryEntries,
} from "./catalogue.server";

/** Cards of a slice of entries: two statements, the entries and their cards. */
function entryCards(
  db: DB,
  filter: EntryFilter,
  options: { order: EntryOrder; limit: number; offset?: number; now?: Date },
): CatalogueCard[] {
  return listCardsForEntries(db, queryEntries(db, filter, options));
}

/** Titles and series an administrator has featured, newest first (movies_featured_idx), with what the hero shows. */
export function listFeaturedMovies(limit = 10, db: DB = getDb(), children = false): CatalogueMovie[] {
  return listHeroesForEntries(
    db,
    queryEntries(db, { featuredOnly: true, childrenOnly: children }, { order: "new", limit: clampLimit(limit) }),
  );
}

/** The newest published films and series (movies_catalogue_idx). */
export function listNewMovies(limit = 10, db: DB = getDb(), children = false): CatalogueCard[] {
  return entryCards(db, { childrenOnly: children }, { order: "new", limit: clampLimit(limit) });
}

const categoryBySlug = preparedQuery((db) =>
  db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.slug, sql.placeholder("slug")))
    .prepare(),
);

/** The newest published films and series of one category, by its slug (categories_slug_unique, movies_category_idx). */
export function listMoviesInCategory(slug: string, limit = 10, db: DB = getDb(), children = false): CatalogueCard[] {
  const category = categoryBySlug(db).get({ slug });
  if (!category) return [];
  return entryCards(
    db,
    { categoryId: category.id, childrenOnly: children },
    { order: "new", limit: clampLimit(limit) },
  );
}

type TrendingEntry = CatalogueEntry & { uploadedAt: number };
const trendingCache = new WeakMap<DB, { at: number; ranking: TrendingEntry[] }>();

/**
 * Every published film and series played in the seven days before `now`,
 * most played first (then all-time views, newest upload, id); a series counts
 * the plays of all its episodes. Counting a week of plays is the one
 * catalogue query that grows with viewing rather than with a page, so the
 * ranking is kept for TRENDING_REFRESH_MS and shared by every trending list
 * asked for within that minute; entries only, the cards are fetched per page
 * (and re-checked as published there).
 */
export function trendingRanking(db: DB, now: Date = new Date()): TrendingEntry[] {
  const cached = trendingCache.get(db);
  const age = cached ? now.getTime() - cached.at : Infinity;
  if (cached && age >= 0 && age < TRENDING_REFRESH_MS) return cached.ranking;
  const since = now.getTime() - TRENDING_WINDOW_MS;
  const ranking = db
    .all<{ kind: "film" | "series"; id: string; uploadedAt: number }>(
      sql`SELECT CASE WHEN ${movies.seasonId} IS NULL THEN 'film' ELSE 'series' END AS kind,
          coalesce(${seasons.seriesId}, ${movies.id}) AS id,
          sum(recent.plays) AS plays, sum(${movies.views}) AS views, max(${movies.uploadedAt}) AS uploadedAt
        FROM (SELECT ${watchEvents.movieId} AS movie_id, count(*) AS plays FROM ${watchEvents} WHERE ${watchEvents.startedAt} >= ${since} GROUP BY ${watchEvents.movieId}) AS recent
        INNER JOIN ${movies} ON ${movies.id} = recent.movie_id
        LEFT JOIN ${seasons} ON ${seasons.id} = ${movies.seasonId}
        LEFT JOIN ${series} ON ${series.id} = ${seasons.seriesId}
        WHERE ${isPublished()} AND (${movies.seasonId} IS NULL OR ${series.approved} = 1)
        GROUP BY 1, 2
        ORDER BY plays DESC, views DESC, uploadedAt DESC, id DESC`,
    )
    .map((row) => ({ kind: row.kind, id: row.id, uploadedAt: Number(row.uploadedAt) }));
  trendingCache.set(db, { at: now.getTime(), ranking });
  return ranking;
}

/**
 * What people are watching now: the films and series with the most viewings
 * started in the last seven days (trendingRanking, kept for a minute), ties
 * broken by all-time views, then by the newest upload. When fewer than
 * `limit` were watched this week (always true on a new install), the rest of
 * the row is filled with the most viewed of all time, so the row is never
 * empty while titles exist.
 */
export function listTrendingMovies(
  limit = 10,
  db: DB = getDb(),
  now: Date = new Date(),
  children = false,
): CatalogueCard[] {
  const max = clampLimit(limit);
  // A children's row: the child-safe entries most played this week (the shared ranking is everyone's).
  if (children) return entryCards(db, { childrenOnly: true }, { order: "plays", limit: max, now });
  const trending = listCardsForEntries(db, trendingRanking(db, now).slice(0, max));
  if (trending.length >= max) return trending;

  const taken = new Set(trending.map((card) => `${card.kind === "series" ? "series" : "film"}:${card.id}`));
  const mostViewed = queryEntries(db, {}, { order: "views", limit: max + taken.size, now })
    .filter((entry) => !taken.has(`${entry.kind}:${entry.id}`))
    .slice(0, max - trending.length);
  return [...trending, ...listCardsForEntries(db, mostViewed)];
}

/**
 * Suggested for everyone (the landing page has no viewer to personalise for):
 * published films and series ranked by their Bayesian average rating
 *   (sum of stars + PRIOR_COUNT × PRIOR_STARS) / (count + PRIOR_COUNT),
 * then by all-time views, then newest first. Unrated titles score exactly the
 * prior, so well-rated titles come first, badly rated ones last, and among the
 * unrated the most watched lead. A series is scored on all its episodes' stars.
 */
export function listSuggestedMovies(limit = 10, db: DB = getDb(), children = false): CatalogueCard[] {
  return entryCards(db, { childrenOnly: children }, { order: "suggested", limit: clampLimit(limit) });
}

/**
 * Everything the landing page shows from the catalogue, in one call. A title
 * in several sections is one card object in all of them (the first made,
 * featured's when it is featured), so the page's data, which names an object
 * it has already sent by reference, carries each card once.
 */
export function loadLandingCatalogue(db: DB = getDb(), children = false) {
  const featured = listFeaturedMovies(8, db, children);
  const share = sharedCards(featured);
  return {
    featured,
    suggested: share(listSuggestedMovies(8, db, children)),
    // The Action row only where the install has that category (an operator may have none).
    action: categoryBySlug(db).get({ slug: "action" }) ? share(listMoviesInCategory("action", 8, db, children)) : null,
    trending: share(listTrendingMovies(12, db, new Date(), children)),
    newest: share(listNewMovies(12, db, children)),
  };
}

/** Each card of a list replaced by the first card seen of the same title or series (starting with `first`). */
function sharedCards(first: readonly CatalogueCard[]): (cards: CatalogueCard[]) => CatalogueCard[] {
  const key = (card: CatalogueCard) => `${card.kind === "series" ? "series" : "title"}:${card.id}`;
  const seen = new Map(first.map((card) => [key(card), card]));
  return (cards) =>
    cards.map((card) => {
      const earlier = seen.get(key(card));
      if (earlier) return earlier;
      seen.set(key(card), card);
      return card;
    });
}

export const CATALOGUE_SORTS = ["new", "old"] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
export const CATALOGUE_FILTERS = ["featured", "new", "trending"] as const;
export type CatalogueFilter = (typeof CATALOGUE_FILTERS)[number];
/** "New" titles in the New Movies menu: uploaded within this window. */
export const NEW_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export function parseCatalogueSort(value: string | null): CatalogueSort | null {
  return (CATALOGUE_SORTS as readonly string[]).includes(value ?? "") ? (value as CatalogueSort) : null;
}
export function parseCatalogueFilter(value: string | null): CatalogueFilter | null {
  return (CATALOGUE_FILTERS as readonly string[]).includes(value ?? "") ? (value as CatalogueFilter) : null;
}

export type CataloguePage = {
  movies: CatalogueCard[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
};

/**
 * One page of the /movies grid: films and series. `sort` orders by upload
 * date (new: newest first, old: oldest first; a series by its newest
 * episode); `filter` narrows to featured entries, entries uploaded in the
 * last 30 days, or entries played in the last seven days (which, unless a
 * sort is asked for, come most played first). Three statements, each
 * prepared once per filter and sort: the count, the page's entries (bounded
 * by LIMIT/OFFSET over movies_catalogue_idx / movies_featured_idx) and their
 * cards; a trending page is a slice of the kept trendingRanking and its cards.
 */
export function listCatalogue(
  options: {
    sort?: CatalogueSort | null;
    filter?: CatalogueFilter | null;
    page?: number;
    pageSize?: number;
    /** A children's profile: G and PG only (its trending page: the child-safe entries most played this week). */
    children?: boolean;
  },
  db: DB = getDb(),
  now: Date = new Date(),
): CataloguePage {
  const pageSize = clampLimit(options.pageSize ?? 24);
  const requestedPage = Math.max(1, Math.floor(Number.isFinite(options.page) ? options.page! : 1));

  if (options.filter === "trending" && !options.children) {
    let ranking = trendingRanking(db, now);
    if (options.sort) {
      const direction = options.sort === "old" ? 1 : -1;
      ranking = [...ranking].sort(
        (x, y) => direction * (x.uploadedAt - y.uploadedAt || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)),
      );
    }
    const total = ranking.length;
    const pageCount = Math.max(1, Math.ceil(total / pageSize));
    const page = Math.min(requestedPage, pageCount);
    const slice = ranking.slice((page - 1) * pageSize, page * pageSize);
    return { movies: listCardsForEntries(db, slice), total, page, pageCount, pageSize };
  }

  const filter: EntryFilter = {
    featuredOnly: options.filter === "featured",
    since: options.filter === "new" ? new Date(now.getTime() - NEW_WINDOW_MS) : null,
    childrenOnly: options.children,
  };
  const total = countEntries(db, filter);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  const movies = entryCards(db, filter, {
    order: options.sort === "old" ? "old" : options.filter === "trending" && !options.sort ? "plays" : "new",
    limit: pageSize,
    offset: (page - 1) * pageSize,
    now,
  });
  return { movies, total, page, pageCount, pageSize };
}

export type PublishedTitle = {
  id: string;
  /** An episode's name with its series: "Series — S1E2 Title". */
  name: string;
  description: string;
  posterFile: string | null;
  views: number;
  sizeBytes: number;
  uploadedAt: Date;
};

/**
 * One page of every playable title, episodes included (the old apps know no
 * series: an episode is a title named "Series — S1E2 Title"), newest first
 * (movies_published_idx), with the fields the old clients' list reads.
 */
export function listPublishedTitles(
  db: DB,
  options: { page: number; pageSize: number; children?: boolean },
): { rows: PublishedTitle[]; total: number } {
  const shown = options.children ? (and(isPublished(), isChildSafeTitle()) as SQL) : isPublished();
  const pageSize = clampLimit(options.pageSize);
  const page = Math.max(1, Math.floor(options.page) || 1);
  const rows = db
    .select({
      id: movies.id,
      name: movies.name,
      description: movies.description,
      posterFile: movies.posterFile,
      views: movies.views,
      sizeBytes: movies.sizeBytes,
      uploadedAt: movies.uploadedAt,
      ...episodeContextColumns,
    })
    .from(movies)
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(shown)
    .orderBy(desc(movies.uploadedAt), desc(movies.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all()
    .map(({ seriesId: _seriesId, seriesName, seasonNumber, episodeNumber, ...row }) => ({
      ...row,
      name: titleDisplayName({ name: row.name, seriesName, seasonNumber, episodeNumber }),
    }));
  const total =
    db
      .select({ value: sql<number>`count(*)` })
      .from(movies)
      .where(shown)
      .get()?.value ?? 0;
  return { rows, total: Number(total) };
}

import { and, asc, desc, eq, gte, notInArray, sql, type SQL } from "drizzle-orm";
import { getDb, type DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { categories, movies, ratings, watchEvents } from "~/db/schema";
import { posterUrl } from "~/media/storage.server";

/**
 * The public catalogue: the lists the landing page, /movies and the API show.
 * Only published titles appear anywhere here — processed ("ready") AND approved
 * by an administrator. Every query is bounded by a LIMIT and uses an index of
 * schema.ts. A page of cards is one query: each card's stars are counted in it
 * through the ratings primary key. The queries a catalogue page runs on every
 * request are prepared once (db/prepared.server.ts).
 */

/** What a title's card shows (grids, rows, side lists, the viewer's lists). */
export type CatalogueCard = {
  id: string;
  name: string;
  categoryName: string;
  /** 300×200 card poster (jpg) and its webp twin; null when the title has no poster. */
  posterCard: string | null;
  posterCardWebp: string | null;
  /** Mean of the viewers' 1–5 stars, one decimal; null when nobody has rated it. */
  averageRating: number | null;
  ratingCount: number;
  durationSeconds: number;
  access: "free" | "premium";
};

/** A featured title as the landing page's hero shows it: its card, its description and the large poster. */
export type CatalogueMovie = CatalogueCard & {
  description: string;
  /** 1280×720 hero poster (jpg) and its webp twin. */
  posterHero: string | null;
  posterHeroWebp: string | null;
};

export const TRENDING_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a computed trending ranking is reused before the week's plays are counted again. */
export const TRENDING_REFRESH_MS = 60 * 1000;
const MAX_LIMIT = 100;

/** What "published" means (ready and approved): the one home of the rule, for every list, page, player and download. */
export function isPublished(): SQL {
  return and(eq(movies.status, "ready"), eq(movies.approved, true)) as SQL;
}

/** The same rule for a row already fetched (see listCatalogueByIds). */
export function isPublishedRow(row: { status: string; approved: boolean }): boolean {
  return row.status === "ready" && row.approved;
}

export type PosterAccess = "public" | "private" | "hidden";

/**
 * Who may see a title's poster: everyone once the title is published (cached
 * by anyone for a year); before that only its provider and administrators
 * (never stored by a shared cache); nobody else learns it exists.
 */
export function posterAccess(db: DB, movieId: string, caller: { id: string; role: string } | null): PosterAccess {
  const row = db
    .select({ status: movies.status, approved: movies.approved, providerId: movies.providerId })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get();
  if (!row) return "hidden";
  if (isPublishedRow(row)) return "public";
  if (caller && (caller.role === "admin" || caller.id === row.providerId)) return "private";
  return "hidden";
}

/**
 * The columns of a card, for a query over `movies` joined to `categories`.
 * The stars are two correlated subqueries on the ratings primary key
 * (movie_id, account_id): SQLite evaluates them for the rows returned only.
 * (Raw SQL, so the correlation names `movies` whatever Drizzle would print.)
 */
export const cardColumns = {
  id: movies.id,
  name: movies.name,
  categoryName: categories.name,
  posterFile: movies.posterFile,
  durationSeconds: movies.durationSeconds,
  access: movies.access,
  averageStars: sql<number | null>`(SELECT avg(r.stars) FROM ratings AS r WHERE r.movie_id = "movies"."id")`,
  ratingCount: sql<number>`(SELECT count(*) FROM ratings AS r WHERE r.movie_id = "movies"."id")`,
};

export type CardRow = {
  id: string;
  name: string;
  categoryName: string;
  posterFile: string | null;
  durationSeconds: number;
  access: "free" | "premium";
  averageStars: number | null;
  ratingCount: number;
};

function clampLimit(limit: number): number {
  if (!Number.isFinite(limit)) return 12;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

/** A card from a row of `cardColumns`. */
export function toCard(row: CardRow): CatalogueCard {
  const hasPoster = Boolean(row.posterFile);
  const count = Number(row.ratingCount);
  return {
    id: row.id,
    name: row.name,
    categoryName: row.categoryName,
    posterCard: hasPoster ? posterUrl(row.id, "card", "jpg") : null,
    posterCardWebp: hasPoster ? posterUrl(row.id, "card", "webp") : null,
    averageRating: count > 0 && row.averageStars !== null ? Math.round(Number(row.averageStars) * 10) / 10 : null,
    ratingCount: count,
    durationSeconds: row.durationSeconds,
    access: row.access,
  };
}

/** Titles an administrator has featured, newest first (movies_featured_idx), with what the hero shows. */
export function listFeaturedMovies(limit = 10, db: DB = getDb()): CatalogueMovie[] {
  const rows = db
    .select({ ...cardColumns, description: movies.description })
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    .where(and(eq(movies.featured, true), isPublished()))
    .orderBy(desc(movies.uploadedAt), desc(movies.id))
    .limit(clampLimit(limit))
    .all();
  return rows.map((row) => {
    const hasPoster = Boolean(row.posterFile);
    return {
      ...toCard(row),
      description: row.description,
      posterHero: hasPoster ? posterUrl(row.id, "hero", "jpg") : null,
      posterHeroWebp: hasPoster ? posterUrl(row.id, "hero", "webp") : null,
    };
  });
}

/** The newest published titles (movies_published_idx). */
export function listNewMovies(limit = 10, db: DB = getDb()): CatalogueCard[] {
  return db
    .select(cardColumns)
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    .where(isPublished())
    .orderBy(desc(movies.uploadedAt), desc(movies.id))
    .limit(clampLimit(limit))
    .all()
    .map(toCard);
}

/** The newest published titles of one category, by its slug (categories_slug_unique, movies_category_idx). */
export function listMoviesInCategory(slug: string, limit = 10, db: DB = getDb()): CatalogueCard[] {
  return db
    .select(cardColumns)
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    .where(and(eq(categories.slug, slug), isPublished()))
    .orderBy(desc(movies.uploadedAt), desc(movies.id))
    .limit(clampLimit(limit))
    .all()
    .map(toCard);
}

type TrendingEntry = { id: string; uploadedAt: number };
const trendingCache = new WeakMap<DB, { at: number; ranking: TrendingEntry[] }>();

/**
 * Every published title played in the seven days before `now`, most played
 * first (then all-time views, newest upload, id). Counting a week of plays is
 * the one catalogue query that grows with viewing rather than with a page, so
 * the ranking is kept for TRENDING_REFRESH_MS and shared by every trending list
 * asked for within that minute; ids only, the cards are fetched per page (and
 * re-checked as published there).
 */
export function trendingRanking(db: DB, now: Date = new Date()): TrendingEntry[] {
  const cached = trendingCache.get(db);
  const age = cached ? now.getTime() - cached.at : Infinity;
  if (cached && age >= 0 && age < TRENDING_REFRESH_MS) return cached.ranking;
  const recent = db
    .select({ movieId: watchEvents.movieId, plays: sql<number>`count(*)`.as("plays") })
    .from(watchEvents)
    .where(gte(watchEvents.startedAt, new Date(now.getTime() - TRENDING_WINDOW_MS)))
    .groupBy(watchEvents.movieId)
    .as("recent");
  const ranking = db
    .select({ id: movies.id, uploadedAt: movies.uploadedAt })
    .from(recent)
    .innerJoin(movies, eq(movies.id, recent.movieId))
    .where(isPublished())
    .orderBy(desc(recent.plays), desc(movies.views), desc(movies.uploadedAt), desc(movies.id))
    .all()
    .map((row) => ({ id: row.id, uploadedAt: row.uploadedAt.getTime() }));
  trendingCache.set(db, { at: now.getTime(), ranking });
  return ranking;
}

/**
 * What people are watching now: the titles with the most viewings started in the
 * last seven days (trendingRanking, kept for a minute), ties broken by all-time views, then
 * by the newest upload. When fewer than `limit` titles were watched this week
 * (always true on a new install), the rest of the row is filled with the most
 * viewed titles of all time, so the row is never empty while titles exist.
 */
export function listTrendingMovies(limit = 10, db: DB = getDb(), now: Date = new Date()): CatalogueCard[] {
  const max = clampLimit(limit);
  const trending = listCatalogueByIds(
    db,
    trendingRanking(db, now)
      .slice(0, max)
      .map((entry) => entry.id),
  );
  if (trending.length >= max) return trending;

  const taken = trending.map((movie) => movie.id);
  const mostViewed = db
    .select(cardColumns)
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    .where(taken.length > 0 ? and(isPublished(), notInArray(movies.id, taken)) : isPublished())
    .orderBy(desc(movies.views), desc(movies.uploadedAt), desc(movies.id))
    .limit(max - trending.length)
    .all();
  return [...trending, ...mostViewed.map(toCard)];
}

/**
 * The weight of the prior in the suggested ranking: every title is treated as if
 * it also had this many ratings of PRIOR_STARS, so a single 5-star vote does not
 * outrank a title that fifty viewers rate 4.6 (a Bayesian average).
 */
export const SUGGESTION_PRIOR_COUNT = 3;
export const SUGGESTION_PRIOR_STARS = 3;

/**
 * Suggested for everyone (the landing page has no viewer to personalise for):
 * published titles ranked by their Bayesian average rating
 *   (sum of stars + PRIOR_COUNT × PRIOR_STARS) / (count + PRIOR_COUNT),
 * then by all-time views, then newest first. Unrated titles score exactly the
 * prior, so well-rated titles come first, badly rated ones last, and among the
 * unrated the most watched lead.
 */
export function listSuggestedMovies(limit = 10, db: DB = getDb()): CatalogueCard[] {
  const rated = db
    .select({
      movieId: ratings.movieId,
      total: sql<number>`sum(${ratings.stars})`.as("total"),
      votes: sql<number>`count(*)`.as("votes"),
    })
    .from(ratings)
    .groupBy(ratings.movieId)
    .as("rated");
  const score = sql`(coalesce(${rated.total}, 0) + ${SUGGESTION_PRIOR_COUNT * SUGGESTION_PRIOR_STARS}) * 1.0 / (coalesce(${rated.votes}, 0) + ${SUGGESTION_PRIOR_COUNT})`;
  return db
    .select(cardColumns)
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    .leftJoin(rated, eq(rated.movieId, movies.id))
    .where(isPublished())
    .orderBy(desc(score), desc(movies.views), desc(movies.uploadedAt), desc(movies.id))
    .limit(clampLimit(limit))
    .all()
    .map(toCard);
}

/** Everything the landing page shows from the catalogue, in one call. */
export function loadLandingCatalogue(db: DB = getDb()) {
  return {
    featured: listFeaturedMovies(8, db),
    suggested: listSuggestedMovies(8, db),
    action: listMoviesInCategory("action", 8, db),
    trending: listTrendingMovies(12, db),
    newest: listNewMovies(12, db),
  };
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

type GridFilter = "featured" | "new" | "all";

/** The grid's rows: published, and for "new" uploaded since the `since` placeholder. */
function gridWhere(filter: GridFilter): SQL {
  const conditions: SQL[] = [isPublished()];
  if (filter === "featured") conditions.push(eq(movies.featured, true));
  if (filter === "new") conditions.push(gte(movies.uploadedAt, sql.placeholder("since")));
  return and(...conditions)!;
}

const gridCount = (filter: GridFilter) =>
  preparedQuery((db) =>
    db
      .select({ count: sql<number>`count(*)` })
      .from(movies)
      .where(gridWhere(filter))
      .prepare(),
  );

const gridPage = (filter: GridFilter, sort: CatalogueSort) =>
  preparedQuery((db) =>
    db
      .select(cardColumns)
      .from(movies)
      .innerJoin(categories, eq(categories.id, movies.categoryId))
      .where(gridWhere(filter))
      .orderBy(
        ...(sort === "old" ? [asc(movies.uploadedAt), asc(movies.id)] : [desc(movies.uploadedAt), desc(movies.id)]),
      )
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(),
  );

/** /movies asks the same few shapes over and over: each filter's count and page, prepared once. */
const GRID_QUERIES = {
  all: { count: gridCount("all"), new: gridPage("all", "new"), old: gridPage("all", "old") },
  featured: { count: gridCount("featured"), new: gridPage("featured", "new"), old: gridPage("featured", "old") },
  new: { count: gridCount("new"), new: gridPage("new", "new"), old: gridPage("new", "old") },
};

/**
 * One page of the /movies grid. `sort` orders by upload date (new: newest
 * first, old: oldest first); `filter` narrows to featured titles, titles
 * uploaded in the last 30 days, or titles played in the last seven days
 * (which, unless a sort is asked for, come most played first). Two queries:
 * the count and the page of cards, by LIMIT/OFFSET over movies_published_idx /
 * movies_featured_idx; trending pages are slices of the kept trendingRanking.
 */
export function listCatalogue(
  options: { sort?: CatalogueSort | null; filter?: CatalogueFilter | null; page?: number; pageSize?: number },
  db: DB = getDb(),
  now: Date = new Date(),
): CataloguePage {
  const pageSize = clampLimit(options.pageSize ?? 24);
  const requestedPage = Math.max(1, Math.floor(Number.isFinite(options.page) ? options.page! : 1));

  if (options.filter === "trending") {
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
    const ids = ranking.slice((page - 1) * pageSize, page * pageSize).map((entry) => entry.id);
    return { movies: listCatalogueByIds(db, ids), total, page, pageCount, pageSize };
  }

  const queries = GRID_QUERIES[options.filter ?? "all"];
  // Placeholders take the stored value: milliseconds, as uploaded_at holds them.
  const since = now.getTime() - NEW_WINDOW_MS;
  const total = Number(queries.count(db).get({ since })?.count ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  const rows = queries[options.sort === "old" ? "old" : "new"](db).all({
    since,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return { movies: rows.map(toCard), total, page, pageCount, pageSize };
}

const cardsByIds = preparedQuery((db) =>
  db
    .select({ ...cardColumns, status: movies.status, approved: movies.approved })
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    // One statement for any number of ids: they come as a JSON array.
    .where(sql`${movies.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`)
    .prepare(),
);

/**
 * Cards for these titles (published only), in the order given, in one query.
 * The lookup is by primary key alone and the published rule is applied to the
 * fetched rows: with the status terms in the WHERE clause SQLite prefers
 * movies_published_idx and walks every published title instead of fetching a
 * page of ids.
 */
export function listCatalogueByIds(db: DB, ids: string[]): CatalogueCard[] {
  if (ids.length === 0) return [];
  const rows = cardsByIds(db)
    .all({ ids: JSON.stringify(ids.slice(0, MAX_LIMIT)) })
    .filter(isPublishedRow);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toCard(row)] : [];
  });
}

export type PublishedTitle = {
  id: string;
  name: string;
  description: string;
  posterFile: string | null;
  views: number;
  sizeBytes: number;
  uploadedAt: Date;
};

/** One page of published titles, newest first (movies_published_idx), with the fields the old clients' list reads. */
export function listPublishedTitles(
  db: DB,
  options: { page: number; pageSize: number },
): { rows: PublishedTitle[]; total: number } {
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
    })
    .from(movies)
    .where(isPublished())
    .orderBy(desc(movies.uploadedAt), desc(movies.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  const total =
    db
      .select({ value: sql<number>`count(*)` })
      .from(movies)
      .where(isPublished())
      .get()?.value ?? 0;
  return { rows, total: Number(total) };
}

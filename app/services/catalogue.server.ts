import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { type DB } from "~/db/client.server";
import { plainRows, preparedQuery, preparedSql } from "~/db/prepared.server";
import { catalogueVersion, categories, movies, ratings, seasons, series, watchEvents } from "~/db/schema";
import { qualified } from "~/db/sql";
import type { PosterOwner } from "~/media/poster-sizes";
import { episodeContextColumns, titleDisplayName } from "./episode-names";
import { CHILDREN_RATINGS } from "~/db/age-ratings";

/**
 * The public catalogue: the lists the landing page, /movies and the API show.
 * Only published titles appear anywhere here — processed ("ready") AND approved
 * by an administrator. Every query is bounded by a LIMIT and uses an index of
 * schema.ts.
 *
 * A series is one card in every list (its episodes never are): the lists are
 * "entries", films and series together, one UNION ALL whose arms are each read
 * in order (films off movies_catalogue_idx), merged, and cut by LIMIT/OFFSET.
 * A series sorts by its newest published episode, counts its episodes' views
 * and plays, and shows their ratings together.
 *
 * A list is two statements whatever it shows: its entries, then the cards of
 * all of them, films and series together, each card's stars counted in it.
 * Both are prepared once per shape (db/prepared.server.ts; decision 033).
 */

/** What a card opens: a film or an episode (the watch page) or a series (its page). */
export type CardKind = "film" | "episode" | "series";

/** What a card shows (grids, rows, side lists, the viewer's lists). */
export type CatalogueCard = {
  id: string;
  kind: CardKind;
  /** The card's link: /WatchMovie?id=… or /series/…. */
  href: string;
  /** A film's name; an episode's "Series — S1E2 Title"; a series' name. */
  name: string;
  categoryName: string;
  /**
   * Whose poster files the card shows (media/poster-sizes.ts: every size in
   * AVIF and JPEG, and the fixed JPEGs): the title's, the series' own, or a
   * series' first episode's; null when there is no poster.
   */
  poster: PosterOwner | null;
  /** Mean of the viewers' 1–5 stars, one decimal; null when nobody has rated it. */
  averageRating: number | null;
  ratingCount: number;
  durationSeconds: number;
  access: "free" | "premium";
  /** A series' published episodes (0 for a film or an episode). */
  episodeCount: number;
};

/** A featured title or series as the landing page's hero shows it: its card, its description and the large poster. */
export type CatalogueMovie = CatalogueCard & { description: string };

/** A place in a list: a film (a movies row without a season) or a series. */
export type CatalogueEntry = { kind: "film" | "series"; id: string };

export function watchPageHref(movieId: string): string {
  return `/WatchMovie?id=${encodeURIComponent(movieId)}`;
}
export function seriesPageHref(seriesId: string): string {
  return `/series/${encodeURIComponent(seriesId)}`;
}

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

/**
 * What "published" means for a series: an administrator approved it and at
 * least one of its episodes is published. Its page and its card need both.
 */
export function isSeriesPublished(): SQL {
  return sql`(${series.approved} = 1 AND EXISTS (SELECT 1 FROM ${seasons} CROSS JOIN ${movies} ON ${movies.seasonId} = ${seasons.id} WHERE ${seasons.seriesId} = ${qualified(series.id)} AND ${isPublished()}))`;
}

/** The children's ratings as an SQL list, for an `IN (…)`. */
export const CHILDREN_LIST = sql.raw(CHILDREN_RATINGS.map((rating) => `'${rating}'`).join(", "));

/**
 * What a children's profile may see (G or PG, never unrated): a film by its
 * own rating, an episode by its series'. The one home of the rule for every
 * list, page, stream and download (with `viewableBy`).
 */
export function isChildSafeTitle(): SQL {
  return sql`(CASE WHEN ${qualified(movies.seasonId)} IS NULL THEN ${qualified(movies.ageRating)} ELSE (SELECT ${series.ageRating} FROM ${seasons} INNER JOIN ${series} ON ${series.id} = ${seasons.seriesId} WHERE ${seasons.id} = ${qualified(movies.seasonId)}) END) IN (${CHILDREN_LIST})`;
}

export function isChildSafeSeries(): SQL {
  return sql`${qualified(series.ageRating)} IN (${CHILDREN_LIST})`;
}

/** Who is looking, as far as the catalogue cares: a children's profile sees only child-safe titles. */
export type CatalogueViewer = { profile: { children: boolean } } | null;

export function forChildren(viewer: CatalogueViewer | undefined): boolean {
  return Boolean(viewer?.profile.children);
}

/** Published, and for a children's profile child-safe: what a viewer may open. */
export function viewableBy(viewer: CatalogueViewer | undefined): SQL {
  return forChildren(viewer) ? (and(isPublished(), isChildSafeTitle()) as SQL) : isPublished();
}

/** Only films (titles outside any season) are cards of their own; an episode is reached through its series. */
export function isFilm(): SQL {
  return isNull(movies.seasonId);
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

export function clampLimit(limit: number): number {
  if (!Number.isFinite(limit)) return 12;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

type RatingSummary = { average: number; count: number };

/** A series' rating: every star given to any of its published episodes, together (one grouped query). */
export function seriesRatingSummaries(db: DB, seriesIds: string[]): Map<string, RatingSummary> {
  const summaries = new Map<string, RatingSummary>();
  if (seriesIds.length === 0) return summaries;
  const rows = db
    .select({
      seriesId: seasons.seriesId,
      average: sql<number>`avg(${ratings.stars})`,
      count: sql<number>`count(*)`,
    })
    .from(seasons)
    // CROSS JOIN keeps this order: the series' seasons, their published episodes, their ratings.
    // Left to choose, SQLite walked every published title (4 ms for 10,000 titles; this way 0.02 ms).
    .crossJoin(movies)
    .crossJoin(ratings)
    .where(
      and(
        inArray(seasons.seriesId, seriesIds),
        eq(movies.seasonId, seasons.id),
        isPublished(),
        eq(ratings.movieId, movies.id),
      ),
    )
    .groupBy(seasons.seriesId)
    .all();
  for (const row of rows) summaries.set(row.seriesId, { average: Number(row.average), count: Number(row.count) });
  return summaries;
}

/**
 * SQL over one series' published episodes (`what` is the aggregate), for the
 * series row in scope. CROSS JOIN keeps the series' seasons first
 * (seasons_series_number_unique), then their published episodes
 * (movies_catalogue_idx): otherwise SQLite may walk every published title and
 * look up each one's season.
 */
function overPublishedEpisodes(what: SQL, extra?: SQL): SQL {
  return sql`(SELECT ${what} FROM ${seasons} CROSS JOIN ${movies} ON ${movies.seasonId} = ${seasons.id}${extra ?? sql``} WHERE ${seasons.seriesId} = ${qualified(series.id)} AND ${isPublished()})`;
}

/**
 * A title's stars, for a query over `movies`: two correlated subqueries on the
 * ratings primary key (movie_id, account_id), which SQLite evaluates for the
 * rows returned only. The outer title is named with its table (`qualified`):
 * in the fields of a query over one table Drizzle would print the column bare,
 * and a bare `id` inside the subquery is the inner table's.
 */
export const titleStars = {
  averageStars: sql<number | null>`(SELECT avg(r.stars) FROM ratings AS r WHERE r.movie_id = ${qualified(movies.id)})`,
  ratingCount: sql<number>`(SELECT count(*) FROM ratings AS r WHERE r.movie_id = ${qualified(movies.id)})`,
};

/** A series' stars: every star given to any of its published episodes, together (as seriesRatingSummaries). */
const seriesStars = {
  averageStars: sql<
    number | null
  >`${overPublishedEpisodes(sql`avg(r.stars)`, sql` INNER JOIN ratings AS r ON r.movie_id = ${movies.id}`)}`,
  ratingCount: sql<number>`${overPublishedEpisodes(sql`count(*)`, sql` INNER JOIN ratings AS r ON r.movie_id = ${movies.id}`)}`,
};

/** One decimal; null when nobody has rated. */
export function roundedStars(averageStars: number | null, ratingCount: number): number | null {
  return ratingCount > 0 && averageStars !== null ? Math.round(Number(averageStars) * 10) / 10 : null;
}

/** The ids a card statement takes: one JSON array for any number of them (json_each). */
const idsIn = (name: string) => sql`(SELECT value FROM json_each(${sql.placeholder(name)}))`;

/** What a title's card reads (the card statement's fields, in its order). */
const titleCardFields = (hero: boolean) => ({
  arm: sql<"title" | "series">`'title'`,
  id: movies.id,
  name: movies.name,
  description: hero ? sql<string>`${movies.description}` : sql<string>`''`,
  categoryName: categories.name,
  posterFile: movies.posterFile,
  posterVersion: movies.posterVersion,
  firstEpisodeId: sql<string | null>`NULL`,
  durationSeconds: sql<number>`${movies.durationSeconds}`,
  access: movies.access,
  episodeCount: sql<number>`0`,
  published: sql<number>`(${movies.status} = 'ready' AND ${movies.approved} = 1)`,
  ...episodeContextColumns,
  ...titleStars,
});

/**
 * Cards of titles (films and episodes) by id: the title, its category, an
 * episode's series, season and number (its display name), and its stars. By
 * primary key alone: the published rule is applied to the fetched rows, since
 * with the status terms in the WHERE clause SQLite prefers movies_published_idx
 * and walks every published title instead of fetching a page of ids.
 */
function titleCards(db: DB, hero: boolean) {
  return db
    .select(titleCardFields(hero))
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(sql`${movies.id} IN ${idsIn("titles")}`);
}

/** Cards of series by id: the series' own poster, else its first episode's; its published episodes and their stars. */
function seriesCards(db: DB, hero: boolean) {
  return db
    .select({
      arm: sql<"title" | "series">`'series'`,
      id: series.id,
      name: series.name,
      description: hero ? sql<string>`${series.description}` : sql<string>`''`,
      categoryName: categories.name,
      posterFile: series.posterFile,
      posterVersion: sql<number>`0`,
      firstEpisodeId: sql<
        string | null
      >`(SELECT ${movies.id} FROM ${seasons} CROSS JOIN ${movies} ON ${movies.seasonId} = ${seasons.id} WHERE ${seasons.seriesId} = ${qualified(series.id)} AND ${isPublished()} AND ${movies.posterFile} IS NOT NULL ORDER BY ${seasons.number}, ${movies.episodeNumber} LIMIT 1)`,
      durationSeconds: sql<number>`0`,
      access: series.access,
      episodeCount: sql<number>`${overPublishedEpisodes(sql`count(*)`)}`,
      // Approved here; published once it also has a published episode (episodeCount).
      published: sql<number>`${series.approved}`,
      seriesId: sql<string | null>`NULL`,
      seriesName: sql<string | null>`NULL`,
      seasonNumber: sql<number | null>`NULL`,
      episodeNumber: sql<number | null>`NULL`,
      ...seriesStars,
    })
    .from(series)
    .innerJoin(categories, eq(categories.id, series.categoryId))
    .where(sql`${series.id} IN ${idsIn("series")}`);
}

/**
 * The cards of any mix of titles and series in one statement (for the
 * landing page's hero, `hero` adds the description), prepared once.
 */
const cardStatement = (hero: boolean) =>
  preparedQuery((db) =>
    plainRows(titleCards(db, hero).unionAll(seriesCards(db, hero)).prepare(), titleCardFields(hero)),
  );
const CARD_STATEMENTS = { card: cardStatement(false), hero: cardStatement(true) };

type CardRow = ReturnType<ReturnType<(typeof CARD_STATEMENTS)["card"]>["all"]>[number];

/** A card from a row of the card statement. */
function toCard(row: CardRow): CatalogueCard {
  const ratingCount = Number(row.ratingCount);
  const averageRating = roundedStars(row.averageStars, ratingCount);
  if (row.arm === "series") {
    return {
      id: row.id,
      kind: "series",
      href: seriesPageHref(row.id),
      name: row.name,
      categoryName: row.categoryName,
      poster: seriesPoster(row),
      averageRating,
      ratingCount,
      durationSeconds: 0,
      access: row.access,
      episodeCount: Number(row.episodeCount),
    };
  }
  return {
    id: row.id,
    kind: row.seriesId ? "episode" : "film",
    href: watchPageHref(row.id),
    name: titleDisplayName(row),
    categoryName: row.categoryName,
    poster: row.posterFile ? { kind: "title", id: row.id, version: Number(row.posterVersion) } : null,
    averageRating,
    ratingCount,
    durationSeconds: Number(row.durationSeconds),
    access: row.access,
    episodeCount: 0,
  };
}

/** A series' poster: its own, else its first episode's with a poster, else none. */
function seriesPoster(row: CardRow): PosterOwner | null {
  if (row.posterFile) return { kind: "series", id: row.id };
  return row.firstEpisodeId ? { kind: "title", id: row.firstEpisodeId } : null;
}

function isPublishedCard(row: CardRow): boolean {
  return Boolean(row.published) && (row.arm === "title" || Number(row.episodeCount) > 0);
}

/** The published ones of these entries' card rows, in the order given: one statement. */
function cardRows(db: DB, entries: readonly CatalogueEntry[], hero: boolean): CardRow[] {
  if (entries.length === 0) return [];
  const titles = entries.filter((entry) => entry.kind === "film").map((entry) => entry.id);
  const shows = entries.filter((entry) => entry.kind === "series").map((entry) => entry.id);
  const rows = CARD_STATEMENTS[hero ? "hero" : "card"](db)
    .all({ titles: JSON.stringify(titles.slice(0, MAX_LIMIT)), series: JSON.stringify(shows.slice(0, MAX_LIMIT)) })
    .filter(isPublishedCard);
  const byEntry = new Map(rows.map((row) => [`${row.arm === "series" ? "series" : "film"}:${row.id}`, row]));
  return entries.flatMap((entry) => {
    const row = byEntry.get(`${entry.kind}:${entry.id}`);
    return row ? [row] : [];
  });
}

/** Cards for a list of entries (films and series), in the order given; anything no longer published is left out. One statement. */
export function listCardsForEntries(db: DB, entries: readonly CatalogueEntry[]): CatalogueCard[] {
  return cardRows(db, entries, false).map(toCard);
}

/** The same with what the landing page's hero shows: the description and the large poster. */
export function listHeroesForEntries(db: DB, entries: readonly CatalogueEntry[]): CatalogueMovie[] {
  return cardRows(db, entries, true).map((row) => ({ ...toCard(row), description: row.description }));
}

/**
 * Cards for these titles (published only), in the order given; an episode is
 * named with its series ("Series — S1E2 Title") and opens its watch page. One
 * statement for any number of ids.
 */
export function listCatalogueByIds(db: DB, ids: string[]): CatalogueCard[] {
  return listCardsForEntries(
    db,
    ids.map((id) => ({ kind: "film", id })),
  );
}

/** The cards of a viewer's list rows (history, watch later, saved), by each row's movieId: a title no longer published has none. */
export function cardsOfRows(db: DB, rows: readonly { movieId: string }[]): Map<string, CatalogueCard> {
  return new Map(
    listCatalogueByIds(
      db,
      rows.map((row) => row.movieId),
    ).map((card) => [card.id, card]),
  );
}

/**
 * The weight of the prior in the suggested ranking: every title is treated as if
 * it also had this many ratings of PRIOR_STARS, so a single 5-star vote does not
 * outrank a title that fifty viewers rate 4.6 (a Bayesian average).
 */
export const SUGGESTION_PRIOR_COUNT = 3;
export const SUGGESTION_PRIOR_STARS = 3;

export type EntryFilter = {
  featuredOnly?: boolean;
  categoryId?: string | null;
  providerId?: string | null;
  /** Films uploaded, series with an episode uploaded, at or after this moment. */
  since?: Date | null;
  /** A safe FTS5 query (search.server.ts toFtsQuery): films by movies_fts, series by series_fts. */
  ftsQuery?: string | null;
  /** A children's profile: G and PG films and series only. */
  childrenOnly?: boolean;
};

/**
 * How a list of entries is ordered: by upload date (a series by its newest
 * episode), featured first, best search match, plays since `playsSince`
 * (a series: all its episodes' plays), all-time views, or the Bayesian
 * suggested score.
 */
export type EntryOrder = "new" | "old" | "featured" | "rank" | "plays" | "views" | "suggested";

const ENTRY_ORDER: Record<EntryOrder, string> = {
  new: "sort_at DESC, id DESC",
  old: "sort_at ASC, id ASC",
  featured: "featured DESC, rank ASC, sort_at DESC, id DESC",
  rank: "rank ASC, sort_at DESC, id DESC",
  plays: "plays DESC, views DESC, sort_at DESC, id DESC",
  views: "views DESC, sort_at DESC, id DESC",
  suggested: "score DESC, views DESC, sort_at DESC, id DESC",
};

/** bm25 column weights, in each search table's column order: id (not searched), name, description, cast. */
const FILM_RANK = sql.raw("bm25(movies_fts, 0.0, 10.0, 2.0, 4.0)");
const SERIES_RANK = sql.raw("bm25(series_fts, 0.0, 10.0, 2.0, 4.0)");

/** Which parts of an EntryFilter are in use: an entry statement is prepared once per shape and order. */
type EntryShape = {
  featuredOnly: boolean;
  category: boolean;
  provider: boolean;
  since: boolean;
  search: boolean;
  children: boolean;
};

function shapeOf(filter: EntryFilter): EntryShape {
  return {
    featuredOnly: Boolean(filter.featuredOnly),
    category: Boolean(filter.categoryId),
    provider: Boolean(filter.providerId),
    since: Boolean(filter.since),
    search: Boolean(filter.ftsQuery),
    children: Boolean(filter.childrenOnly),
  };
}

/** The values of a filter's placeholders (those a shape does not use are ignored). */
function entryValues(filter: EntryFilter, playsSince: number) {
  return {
    categoryId: filter.categoryId ?? "",
    providerId: filter.providerId ?? "",
    since: filter.since?.getTime() ?? 0,
    match: filter.ftsQuery ?? "",
    playsSince,
  };
}

/**
 * The two arms of an entry list: published films, and published series, each
 * with the same columns (kind, id, sort_at, views, featured, rank, plays,
 * score). Columns an order does not need are constant 0, so no join is made
 * for them. Values are placeholders (entryValues): categoryId, providerId,
 * since and playsSince (milliseconds, as the tables hold them), match.
 *
 * A search's matches drive the films' arm: CROSS JOIN keeps them first
 * (otherwise SQLite may walk every published title and ask the index about
 * each), and each match finds its title by its search row (movies.search_rowid,
 * drizzle/0012) through movies_search_idx, which also answers the published
 * rule, instead of reading the match's stored movie_id.
 */
function entryArms(shape: EntryShape, order: EntryOrder | null): { films: SQL; shows: SQL } {
  const film: SQL[] = [isPublished(), isFilm()];
  const show: SQL[] = [sql`${series.approved} = 1`];
  if (shape.featuredOnly) {
    film.push(eq(movies.featured, true));
    show.push(sql`${series.featured} = 1`);
  }
  if (shape.category) {
    film.push(sql`${movies.categoryId} = ${sql.placeholder("categoryId")}`);
    show.push(sql`${series.categoryId} = ${sql.placeholder("categoryId")}`);
  }
  if (shape.provider) {
    film.push(sql`${movies.providerId} = ${sql.placeholder("providerId")}`);
    show.push(sql`${series.providerId} = ${sql.placeholder("providerId")}`);
  }
  if (shape.since) film.push(sql`${movies.uploadedAt} >= ${sql.placeholder("since")}`);
  if (shape.children) {
    film.push(sql`${movies.ageRating} IN (${CHILDREN_LIST})`);
    show.push(sql`${series.ageRating} IN (${CHILDREN_LIST})`);
  }
  if (shape.search) {
    film.push(sql`movies_fts MATCH ${sql.placeholder("match")}`);
    show.push(sql`series_fts MATCH ${sql.placeholder("match")}`);
  }
  const wantsRank = shape.search && (order === "rank" || order === "featured");
  const prior = sql.raw(String(SUGGESTION_PRIOR_COUNT));
  const priorStars = sql.raw(String(SUGGESTION_PRIOR_COUNT * SUGGESTION_PRIOR_STARS));
  const since = sql.placeholder("playsSince");

  let filmJoins = sql``;
  if (order === "plays")
    filmJoins = sql`${filmJoins} LEFT JOIN (SELECT ${watchEvents.movieId} AS movie_id, count(*) AS plays FROM ${watchEvents} WHERE ${watchEvents.startedAt} >= ${since} GROUP BY ${watchEvents.movieId}) AS recent ON recent.movie_id = ${movies.id}`;
  if (order === "suggested")
    filmJoins = sql`${filmJoins} LEFT JOIN (SELECT ${ratings.movieId} AS movie_id, sum(${ratings.stars}) AS total, count(*) AS votes FROM ${ratings} GROUP BY ${ratings.movieId}) AS rated ON rated.movie_id = ${movies.id}`;
  const filmFrom = shape.search
    ? sql`movies_fts CROSS JOIN ${movies} ON ${movies.searchRowid} = movies_fts.rowid`
    : sql`${movies}`;
  const films = sql`SELECT 'film' AS kind, ${movies.id} AS id, ${movies.uploadedAt} AS sort_at, ${movies.views} AS views, ${movies.featured} AS featured,
      ${wantsRank ? FILM_RANK : sql`0`} AS rank,
      ${order === "plays" ? sql`coalesce(recent.plays, 0)` : sql`0`} AS plays,
      ${order === "suggested" ? sql`(coalesce(rated.total, 0) + ${priorStars}) * 1.0 / (coalesce(rated.votes, 0) + ${prior})` : sql`0`} AS score
    FROM ${filmFrom}${filmJoins} WHERE ${sql.join(film, sql` AND `)}`;

  const seriesFrom = shape.search
    ? sql`series_fts INNER JOIN ${series} ON ${series.id} = series_fts.series_id`
    : sql`${series}`;
  const plays =
    order === "plays"
      ? overPublishedEpisodes(
          sql`count(*)`,
          sql` INNER JOIN ${watchEvents} ON ${watchEvents.movieId} = ${movies.id} AND ${watchEvents.startedAt} >= ${since}`,
        )
      : sql`0`;
  const score =
    order === "suggested"
      ? sql`(coalesce(${overPublishedEpisodes(sql`sum(${ratings.stars})`, sql` INNER JOIN ${ratings} ON ${ratings.movieId} = ${movies.id}`)}, 0) + ${priorStars}) * 1.0 / (coalesce(${overPublishedEpisodes(sql`count(*)`, sql` INNER JOIN ${ratings} ON ${ratings.movieId} = ${movies.id}`)}, 0) + ${prior})`
      : sql`0`;
  const shows = sql`SELECT kind, id, sort_at, views, featured, rank, plays, score FROM (
      SELECT 'series' AS kind, ${series.id} AS id, ${overPublishedEpisodes(sql`max(${movies.uploadedAt})`)} AS sort_at,
        ${order === "views" || order === "plays" || order === "suggested" ? sql`coalesce(${overPublishedEpisodes(sql`sum(${movies.views})`)}, 0)` : sql`0`} AS views, ${series.featured} AS featured,
        ${wantsRank ? SERIES_RANK : sql`0`} AS rank, ${plays} AS plays, ${score} AS score
      FROM ${seriesFrom} WHERE ${sql.join(show, sql` AND `)}
    ) WHERE sort_at IS NOT NULL${shape.since ? sql` AND sort_at >= ${sql.placeholder("since")}` : sql``}`;
  return { films, shows };
}

function shapeKey(shape: EntryShape, order: EntryOrder | "count"): string {
  return `${order}:${Object.entries(shape)
    .filter(([, used]) => used)
    .map(([name]) => name)
    .join(",")}`;
}

/**
 * One slice of the entries of a shape in an order (limit, offset and the
 * filter's values as placeholders). The compound itself is ordered and cut,
 * so each arm is read in its order and the two are merged, stopping at the
 * LIMIT (an outer SELECT around it would sort every row of both first).
 */
function entrySliceStatement(shape: EntryShape, order: EntryOrder) {
  return preparedSql<CatalogueEntry>(() => {
    const { films, shows } = entryArms(shape, order);
    return sql`${films} UNION ALL ${shows} ORDER BY ${sql.raw(ENTRY_ORDER[order])} LIMIT ${sql.placeholder("limit")} OFFSET ${sql.placeholder("offset")}`;
  });
}

/** How many entries of a shape there are: each arm counted on its own (a count over the UNION would first copy every row of both). */
function entryCountStatement(shape: EntryShape) {
  return preparedSql<{ total: number }>(() => {
    const { films, shows } = entryArms(shape, null);
    return sql`SELECT (SELECT count(*) FROM (${films})) + (SELECT count(*) FROM (${shows})) AS total`;
  });
}

/** Few shapes are ever asked for (a handful of pages, each with a few filters and orders): each prepared once. */
const entrySlices = new Map<string, ReturnType<typeof entrySliceStatement>>();
const entryCounts = new Map<string, ReturnType<typeof entryCountStatement>>();

/**
 * The catalogue's version (drizzle/0014): triggers raise it whenever a list's
 * members, or their order by date or by match, may change.
 */
const catalogueVersionNow = preparedSql<{ version: number }>(
  () => sql`SELECT ${catalogueVersion.version} AS version FROM ${catalogueVersion} WHERE ${catalogueVersion.id} = 1`,
);

/** Lists that depend only on what raises the catalogue's version: not orders by views, plays or stars, nor "since" (it moves with the clock). */
const KEPT_ORDERS: ReadonlySet<EntryOrder | "count"> = new Set(["new", "old", "featured", "rank", "count"]);
const KEPT_LISTS = 500;
const keptLists = new WeakMap<DB, { version: number; lists: Map<string, unknown> }>();

/**
 * A list of entries (or their count) as `read` gives it, kept by this process
 * while the catalogue's version stays the same (one small read per call), at
 * most KEPT_LISTS of them, oldest out first; read afresh for an order or a
 * filter that moves without the version (KEPT_ORDERS, "since"). Popular
 * searches and the first pages of /movies are asked for again and again
 * between changes; a search's bm25 ranking costs milliseconds, the version a
 * few microseconds. Every process reads the version from the database, so a
 * change made by any worker is seen by all at their next request. Cards
 * (stars, views) are never kept.
 */
function keptUntilCatalogueChanges<T>(
  db: DB,
  list: { shape: EntryShape; order: EntryOrder | "count"; values: Record<string, unknown> },
  read: () => T,
): T {
  if (!KEPT_ORDERS.has(list.order) || list.shape.since) return read();
  const { playsSince: _moving, ...lasting } = list.values;
  const key = `${shapeKey(list.shape, list.order)}|${JSON.stringify(lasting)}`;
  const version = catalogueVersionNow(db).get()?.version ?? -1;
  let kept = keptLists.get(db);
  if (!kept || kept.version !== version) {
    kept = { version, lists: new Map() };
    keptLists.set(db, kept);
  }
  if (kept.lists.has(key)) return kept.lists.get(key) as T;
  const value = read();
  if (kept.lists.size >= KEPT_LISTS) kept.lists.delete(kept.lists.keys().next().value!);
  kept.lists.set(key, value);
  return value;
}

/** One slice of the entries (films and series) that pass `filter`, in `order`: one prepared statement (or none, when kept). */
export function queryEntries(
  db: DB,
  filter: EntryFilter,
  options: { order: EntryOrder; limit: number; offset?: number; now?: Date },
): readonly CatalogueEntry[] {
  const now = options.now ?? new Date();
  const shape = shapeOf(filter);
  const key = shapeKey(shape, options.order);
  let statement = entrySlices.get(key);
  if (!statement) {
    statement = entrySliceStatement(shape, options.order);
    entrySlices.set(key, statement);
  }
  const values = {
    ...entryValues(filter, now.getTime() - TRENDING_WINDOW_MS),
    limit: options.limit,
    offset: options.offset ?? 0,
  };
  return keptUntilCatalogueChanges(db, { shape, order: options.order, values }, () =>
    Object.freeze(
      statement(db)
        .all(values)
        .map((row) => Object.freeze({ kind: row.kind, id: row.id })),
    ),
  );
}

/** How many entries pass `filter`: one prepared statement (or none, when kept). */
export function countEntries(db: DB, filter: EntryFilter): number {
  const shape = shapeOf(filter);
  const key = shapeKey(shape, "count");
  let statement = entryCounts.get(key);
  if (!statement) {
    statement = entryCountStatement(shape);
    entryCounts.set(key, statement);
  }
  const values = entryValues(filter, 0);
  return keptUntilCatalogueChanges(db, { shape, order: "count", values }, () =>
    Number(statement(db).get(values)?.total ?? 0),
  );
}

/** What a title's or a series' page says about it at the top. */
export type ShownDetails = {
  id: string;
  name: string;
  description: string;
  cast: string;
  categoryName: string;
  providerName: string;
};

/** A title's own details, as its pages and its editors read them. */
export const titleDetailColumns = {
  id: movies.id,
  name: movies.name,
  description: movies.description,
  cast: movies.cast,
  categoryId: movies.categoryId,
  providerId: movies.providerId,
};

/**
 * Whether a title a children's profile could not open is published all the
 * same (so the refusal says "not for children's profiles", not "not found").
 */
export function isPublishedForGrownUps(db: DB, target: { movieId: string } | { seriesId: string }): boolean {
  if ("movieId" in target)
    return Boolean(
      db
        .select({ id: movies.id })
        .from(movies)
        .where(and(eq(movies.id, target.movieId), isPublished()))
        .get(),
    );
  return Boolean(
    db
      .select({ id: series.id })
      .from(series)
      .where(and(eq(series.id, target.seriesId), isSeriesPublished()))
      .get(),
  );
}

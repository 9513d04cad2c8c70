import fs from "node:fs";
import path from "node:path";
import { asc, eq, sql, type SQL } from "drizzle-orm";
import { getDb, type DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { categories, movies, watchEvents } from "~/db/schema";
import { storagePaths } from "~/media/storage.server";
import { isPublished, listCatalogueByIds, TRENDING_WINDOW_MS, type CatalogueCard } from "./catalogue.server";

/**
 * /moviecategory: category tiles, browsing by category and sort, and the
 * full-text search over published titles. Words are matched in the title,
 * the description and the cast through the `movies_fts` FTS5 table
 * (unicode61 with diacritics removed: "cafe" finds "Café", "KANO" finds
 * "Kano"), which triggers keep in step with `movies` (drizzle/0003). Hausa's
 * hooked letters are folded on both sides (drizzle/0005 and foldHausaLetters):
 * "dan kauye" finds "Ɗan ƙauye", and so does "ɗan ƙauye".
 */

export const BROWSE_SORTS = ["featured", "new", "trending"] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];

/** bm25 column weights, in the table's column order: movie_id (not searched), name, description, cast. */
const RANK = sql.raw("bm25(movies_fts, 0.0, 10.0, 2.0, 4.0)");
const MAX_TOKENS = 8;
const MAX_TOKEN_LENGTH = 40;
export const SEARCH_MAX_LENGTH = 200;

export function parseBrowseSort(value: string | null): BrowseSort | null {
  return (BROWSE_SORTS as readonly string[]).includes(value ?? "") ? (value as BrowseSort) : null;
}

/** What a person typed, trimmed and bounded; empty when there is nothing to search for. */
export function normaliseSearchText(value: string | null | undefined): string {
  return (value ?? "").replace(/\s+/g, " ").trim().slice(0, SEARCH_MAX_LENGTH);
}

const HAUSA_LETTERS: Record<string, string> = { ɗ: "d", Ɗ: "D", ƙ: "k", Ƙ: "K", ɓ: "b", Ɓ: "B", ƴ: "y", Ƴ: "Y" };
const HOOKED_LETTER = new RegExp(`[${Object.keys(HAUSA_LETTERS).join("")}]`, "g");

/**
 * ɗ ƙ ɓ ƴ as d k b y. unicode61 treats the hooked letters as letters of their
 * own, not accented ones, and many phone keyboards lack them; the search index
 * holds its text folded the same way (the triggers of drizzle/0005).
 */
export function foldHausaLetters(text: string): string {
  return text.replace(HOOKED_LETTER, (letter) => HAUSA_LETTERS[letter] ?? letter);
}

/**
 * Turn free text into a safe FTS5 query: only runs of letters, digits and
 * marks survive, each is quoted (so `AND`, `NEAR`, `*`, `"` and brackets are
 * just words or nothing), all must match, and the last word of two letters or
 * more also matches as a prefix ("kan" finds "Kano"). Null when no word is left.
 */
export function toFtsQuery(input: string | null | undefined): string | null {
  const words = foldHausaLetters((input ?? "").normalize("NFC"))
    .match(/[\p{L}\p{N}\p{M}]+/gu)
    ?.map((word) => word.slice(0, MAX_TOKEN_LENGTH))
    .slice(0, MAX_TOKENS);
  if (!words || words.length === 0) return null;
  return words
    .map((word, index) => {
      const quoted = `"${word}"`;
      return index === words.length - 1 && [...word].length >= 2 ? `${quoted}*` : quoted;
    })
    .join(" ");
}

export type CategoryTile = { id: string; name: string; slug: string; imageUrl: string | null };

/**
 * Every category (an administrator keeps a handful), in the administrator's
 * order, with its image URL. The URL carries the file's modification time, so
 * the image route can be cached as immutable and a new image gets a new URL.
 */
export function listCategoryTiles(db: DB = getDb(), root?: string): CategoryTile[] {
  const folder = storagePaths(root).categories;
  return db
    .select({ id: categories.id, name: categories.name, slug: categories.slug, imageFile: categories.imageFile })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.name))
    .all()
    .map(({ imageFile, ...category }) => {
      let imageUrl: string | null = null;
      if (imageFile) {
        try {
          const version = Math.floor(fs.statSync(path.join(folder, path.basename(imageFile))).mtimeMs);
          imageUrl = `${categoryImageUrl(category.id)}?v=${version}`;
        } catch {
          imageUrl = null; // recorded but missing on disk: the tile shows its fallback
        }
      }
      return { ...category, imageUrl };
    });
}

export function categoryImageUrl(categoryId: string): string {
  return `/category-image/${categoryId}.jpg`;
}

/** Map a public category image name back to its file, or null: nothing outside categories/ can be named. */
export function resolveCategoryImage(name: string, root?: string): string | null {
  const match = /^([a-z0-9]{8,32})\.jpg$/.exec(name);
  if (!match) return null;
  return path.join(storagePaths(root).categories, `${match[1]}.jpg`);
}

type BrowseQueries = {
  count: ReturnType<typeof browseCount>;
  page: ReturnType<typeof browsePage>;
};
const browseShapes = new Map<string, BrowseQueries>();

/**
 * The count and page queries of one shape of browse page (with or without
 * words, a category, each sort), built and prepared once (db/prepared.server.ts).
 * Values are placeholders: match, categoryId, since (trending), limit, offset.
 */
function browseQueries(
  shape: string,
  options: { search: boolean; category: boolean; sort?: BrowseSort | null },
): BrowseQueries {
  let queries = browseShapes.get(shape);
  if (!queries) {
    queries = { count: browseCount(options), page: browsePage(options) };
    browseShapes.set(shape, queries);
  }
  return queries;
}

/**
 * Where a browse page's titles come from: with words, the search index's
 * matches drive the join (CROSS JOIN keeps them first: otherwise SQLite may
 * walk every published title and ask the index about each), and each match
 * finds its title through movies_search_idx by its search row (drizzle/0014),
 * which also answers the published rule without reading the title's row.
 */
function browseSource(search: boolean): SQL {
  return search ? sql`movies_fts CROSS JOIN ${movies} ON ${movies.searchRowid} = movies_fts.rowid` : sql`${movies}`;
}

function browseWhere(options: { search: boolean; category: boolean }): SQL {
  const conditions: SQL[] = [isPublished()];
  if (options.category) conditions.push(sql`${movies.categoryId} = ${sql.placeholder("categoryId")}`);
  if (options.search) conditions.push(sql`movies_fts MATCH ${sql.placeholder("match")}`);
  return sql.join(conditions, sql` AND `);
}

function browseCount(options: { search: boolean; category: boolean }) {
  return preparedQuery((db) =>
    db
      .select({ total: sql<number>`count(*)` })
      .from(browseSource(options.search))
      .where(browseWhere(options))
      .prepare(),
  );
}

function browsePage(options: { search: boolean; category: boolean; sort?: BrowseSort | null }) {
  const newest = sql`${movies.uploadedAt} DESC, ${movies.id} DESC`;
  let source = browseSource(options.search);
  let order: SQL;
  if (options.sort === "trending") {
    source = sql`${source} LEFT JOIN (SELECT ${watchEvents.movieId} AS movie_id, count(*) AS plays FROM ${watchEvents} WHERE ${watchEvents.startedAt} >= ${sql.placeholder("since")} GROUP BY ${watchEvents.movieId}) AS recent ON recent.movie_id = ${movies.id}`;
    order = sql`coalesce(recent.plays, 0) DESC, ${movies.views} DESC, ${newest}`;
  } else if (options.sort === "featured") {
    order = options.search ? sql`${movies.featured} DESC, ${RANK}, ${newest}` : sql`${movies.featured} DESC, ${newest}`;
  } else if (options.sort === "new" || !options.search) {
    order = newest;
  } else {
    order = sql`${RANK}, ${newest}`;
  }
  return preparedQuery((db) =>
    db
      .select({ id: sql<string>`${movies.id}` })
      .from(source)
      .where(browseWhere(options))
      .orderBy(order)
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(),
  );
}

export type BrowseResult = {
  movies: CatalogueCard[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
  category: { id: string; name: string; slug: string } | null;
  /** The search was asked for but nothing searchable was left of it (only punctuation). */
  emptyQuery: boolean;
};

/**
 * One page of published titles: optionally one category (by slug), optionally
 * matching a search, in the chosen order. With a search and no sort, the best
 * matches come first (bm25: a word in the title weighs five times one in the
 * description). Featured puts featured titles first, New the newest first,
 * Trending the most played in the last seven days first. The search is driven
 * by the FTS index; without one, movies_published_idx / movies_category_idx.
 */
export function browseCatalogue(
  options: {
    q?: string | null;
    categorySlug?: string | null;
    sort?: BrowseSort | null;
    page?: number;
    pageSize?: number;
  },
  db: DB = getDb(),
  now: Date = new Date(),
): BrowseResult {
  const pageSize = Math.min(100, Math.max(1, Math.floor(options.pageSize ?? 24)));
  const requestedPage = Math.max(1, Math.floor(Number.isFinite(options.page) ? options.page! : 1));
  const text = normaliseSearchText(options.q);
  const ftsQuery = text ? toFtsQuery(text) : null;
  const category = options.categorySlug
    ? (db
        .select({ id: categories.id, name: categories.name, slug: categories.slug })
        .from(categories)
        .where(eq(categories.slug, options.categorySlug))
        .get() ?? null)
    : null;
  const empty = (emptyQuery: boolean): BrowseResult => ({
    movies: [],
    total: 0,
    page: 1,
    pageCount: 1,
    pageSize,
    category,
    emptyQuery,
  });
  if (text && !ftsQuery) return empty(true);
  if (options.categorySlug && !category) return empty(false);

  const shape = `${ftsQuery ? "search" : "all"}:${category ? "category" : "any"}:${options.sort ?? "default"}`;
  const queries = browseQueries(shape, { search: Boolean(ftsQuery), category: Boolean(category), sort: options.sort });
  const values = {
    match: ftsQuery ?? "",
    categoryId: category?.id ?? "",
    since: now.getTime() - TRENDING_WINDOW_MS,
  };
  const total = Number(queries.count(db).get(values)?.total ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  if (total === 0) return { ...empty(false), page, pageCount };

  const ids = queries
    .page(db)
    .all({ ...values, limit: pageSize, offset: (page - 1) * pageSize })
    .map((row) => row.id);
  return { movies: listCatalogueByIds(db, ids), total, page, pageCount, pageSize, category, emptyQuery: false };
}

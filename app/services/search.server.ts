import fs from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { getDb, type DB } from "~/db/client.server";
import { preparedQuery, preparedSql } from "~/db/prepared.server";
import { categories, movies, seasons, series } from "~/db/schema";
import { storagePaths } from "~/media/storage.server";
import { SEARCH_MAX_LENGTH } from "~/utils/form-limits";
import { episodeCode } from "./episode-names";
import {
  CHILDREN_LIST,
  countEntries,
  isPublished,
  listCardsForEntries,
  queryEntries,
  type CatalogueCard,
  type EntryFilter,
  type EntryOrder,
} from "./catalogue.server";

/**
 * /moviecategory: category tiles, browsing by category and sort, and the
 * full-text search over published titles. Words are matched in the title,
 * the description and the cast through the `movies_fts` FTS5 table
 * (unicode61 with diacritics removed: "cafe" finds "Café", "KANO" finds
 * "Kano"), which triggers keep in step with `movies` (drizzle/0003). Hausa's
 * hooked letters are folded on both sides (drizzle/0005 and foldHausaLetters):
 * "dan kauye" finds "Ɗan ƙauye", and so does "ɗan ƙauye". A search joins its
 * matches to their titles by their search rows (movies.search_rowid,
 * drizzle/0012; catalogue.server.ts entryArms). A series is found by its own
 * title, description and cast (`series_fts`, the same folding) and shows as
 * one card; its episodes are not cards of their own, but a search also lists
 * the episodes whose own title, description or cast match (`searchEpisodes`),
 * and the suggestions offered while typing name them too.
 */

export const BROWSE_SORTS = ["featured", "new", "trending"] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];

const MAX_TOKENS = 8;
const MAX_TOKEN_LENGTH = 40;

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
const categoryTiles = preparedQuery((db) =>
  db
    .select({ id: categories.id, name: categories.name, slug: categories.slug, imageFile: categories.imageFile })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.name))
    .prepare(),
);

export function listCategoryTiles(db: DB = getDb(), root?: string): CategoryTile[] {
  const folder = storagePaths(root).categories;
  return categoryTiles(db)
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

const categoryBySlug = preparedQuery((db) =>
  db
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .where(eq(categories.slug, sql.placeholder("slug")))
    .prepare(),
);

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
 * One page of published films and series: optionally one category (by slug), optionally
 * matching a search, in the chosen order. With a search and no sort, the best
 * matches come first (bm25: a word in the title weighs five times one in the
 * description). Featured puts featured titles first, New the newest first,
 * Trending the most played in the last seven days first. The search is driven
 * by the FTS indexes; without one, movies_catalogue_idx / movies_category_idx.
 */
export function browseCatalogue(
  options: {
    q?: string | null;
    categorySlug?: string | null;
    sort?: BrowseSort | null;
    page?: number;
    pageSize?: number;
    /** A children's profile: G and PG only. */
    children?: boolean;
  },
  db: DB = getDb(),
  now: Date = new Date(),
): BrowseResult {
  const pageSize = Math.min(100, Math.max(1, Math.floor(options.pageSize ?? 24)));
  const requestedPage = Math.max(1, Math.floor(Number.isFinite(options.page) ? options.page! : 1));
  const text = normaliseSearchText(options.q);
  const ftsQuery = text ? toFtsQuery(text) : null;
  const category = options.categorySlug ? (categoryBySlug(db).get({ slug: options.categorySlug }) ?? null) : null;
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

  const filter: EntryFilter = { categoryId: category?.id ?? null, ftsQuery, childrenOnly: options.children };
  const total = countEntries(db, filter);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  if (total === 0) return { ...empty(false), page, pageCount };

  let order: EntryOrder;
  if (options.sort === "trending") order = "plays";
  else if (options.sort === "featured") order = "featured";
  else if (options.sort === "new" || !ftsQuery) order = "new";
  else order = "rank";
  const entries = queryEntries(db, filter, { order, limit: pageSize, offset: (page - 1) * pageSize, now });
  return { movies: listCardsForEntries(db, entries), total, page, pageCount, pageSize, category, emptyQuery: false };
}

/** An episode a search found: its own title, and where it stands ("Gidan Haya · S1E2"). */
export type EpisodeMatch = {
  id: string;
  name: string;
  seriesId: string;
  seriesName: string;
  /** "S1E2". */
  code: string;
  href: string;
};

const EPISODE_RANK = sql.raw("bm25(movies_fts, 0.0, 10.0, 2.0, 4.0)");

/**
 * Published episodes whose title, description or cast match, best first. The
 * matches drive the statement (movies_fts, then each title by its search row
 * through movies_search_idx), as for films.
 */
const episodeMatches = preparedSql<{
  id: string;
  name: string;
  episodeNumber: number | null;
  seasonNumber: number;
  seriesId: string;
  seriesName: string;
}>(
  () =>
    sql`SELECT ${movies.id} AS id, ${movies.name} AS name, ${movies.episodeNumber} AS episodeNumber,
          ${seasons.number} AS seasonNumber, ${series.id} AS seriesId, ${series.name} AS seriesName
        FROM movies_fts CROSS JOIN ${movies} ON ${movies.searchRowid} = movies_fts.rowid
        INNER JOIN ${seasons} ON ${seasons.id} = ${movies.seasonId}
        INNER JOIN ${series} ON ${series.id} = ${seasons.seriesId}
        WHERE movies_fts MATCH ${sql.placeholder("match")} AND ${isPublished()}
          AND (${sql.placeholder("children")} = 0 OR ${series.ageRating} IN (${CHILDREN_LIST}))
        ORDER BY ${EPISODE_RANK}, ${movies.id}
        LIMIT ${sql.placeholder("limit")}`,
);

/** Episodes matching a search (a safe FTS5 query from toFtsQuery), best first. */
export function searchEpisodes(db: DB, ftsQuery: string | null, limit = 12, children = false): EpisodeMatch[] {
  if (!ftsQuery) return [];
  return episodeMatches(db)
    .all({ match: ftsQuery, limit: Math.min(50, Math.max(1, Math.floor(limit))), children: children ? 1 : 0 })
    .map((row) => ({
      id: row.id,
      name: row.name,
      seriesId: row.seriesId,
      seriesName: row.seriesName,
      code: episodeCode(row.seasonNumber, row.episodeNumber ?? 0),
      href: `/WatchMovie?id=${encodeURIComponent(row.id)}`,
    }));
}

/** What the search box offers while a person types: a film, a series, or an episode of one. */
export type SearchSuggestion = {
  kind: "film" | "series" | "episode";
  id: string;
  name: string;
  /** An episode's series and number ("Gidan Haya · S1E2"); a film's or series' category. */
  detail: string;
  href: string;
};

export const SUGGESTIONS_MAX = 8;

/**
 * Suggestions for what has been typed so far (the last word counts as the
 * start of a word, so "kudin ha" finds "Kuɗin Haya"): the best matching films
 * and series, then matching episodes, at most SUGGESTIONS_MAX. Nothing for
 * fewer than two letters. Three statements at most, all driven by the indexes.
 */
export function suggestTitles(
  text: string | null | undefined,
  db: DB = getDb(),
  now: Date = new Date(),
  children = false,
): SearchSuggestion[] {
  const typed = normaliseSearchText(text);
  if ([...typed.replace(/[^\p{L}\p{N}]/gu, "")].length < 2) return [];
  const ftsQuery = toFtsQuery(typed);
  if (!ftsQuery) return [];
  // Up to three episodes, and as many films and series as leave room.
  const episodes: SearchSuggestion[] = searchEpisodes(db, ftsQuery, 3, children).map((episode) => ({
    kind: "episode",
    id: episode.id,
    name: episode.name,
    detail: `${episode.seriesName} · ${episode.code}`,
    href: episode.href,
  }));
  const entries = queryEntries(
    db,
    { ftsQuery, childrenOnly: children },
    { order: "rank", limit: SUGGESTIONS_MAX - episodes.length, offset: 0, now },
  );
  const titles: SearchSuggestion[] = listCardsForEntries(db, entries).map((card) => ({
    kind: card.kind === "series" ? "series" : "film",
    id: card.id,
    name: card.name,
    detail: card.categoryName,
    href: card.href,
  }));
  return [...titles, ...episodes].slice(0, SUGGESTIONS_MAX);
}

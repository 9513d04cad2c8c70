import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "~/db/client.server";
import {
  accounts,
  categories,
  comments,
  movies,
  ratings,
  savedMovies,
  seasons,
  series,
  watchEvents,
} from "~/db/schema";
import { countStatements } from "./helpers/count-statements";

/**
 * How many SQL statements each catalogue page runs, with its root loader, as
 * Remix runs them (together, each with its own copy of the request). The
 * number is fixed whatever the page shows: 2 cards or 24, films or series or
 * both, no comments or many. A query per card, per series or per comment (an
 * N+1) fails here.
 */
type Loader = (args: LoaderFunctionArgs) => Promise<unknown>;
let storageDir: string;
let db: DB;
let counter: ReturnType<typeof countStatements>;
let rootLoader: Loader;
let loaders: Record<"movies" | "search" | "watch", Loader>;
let cookie: string;

const DAY = 24 * 3600 * 1000;
const now = Date.now();

function addTitles(prefix: string, count: number, values: Partial<typeof movies.$inferInsert> = {}) {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(12 - prefix.length, "0")}`);
  db.insert(movies)
    .values(
      ids.map((id, i) => ({
        id,
        name: `${prefix} title ${i}`,
        description: `A ${prefix} story`,
        categoryId: "catdramaaaaa",
        providerId: "provider0001",
        status: "ready" as const,
        approved: true,
        posterFile: "poster.jpg",
        durationSeconds: 3600 + i,
        uploadedAt: new Date(now - i * DAY),
        ...values,
      })),
    )
    .run();
  return ids;
}

beforeAll(async () => {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-page-queries-"));
  vi.stubEnv("STORAGE_DIR", storageDir);
  vi.stubEnv("SESSION_SECRET", "page-queries-secret-0123456789");
  vi.resetModules();
  const client = await import("~/db/client.server");
  db = client.getDb();
  client.migrateDatabase(db);
  db.insert(accounts)
    .values([
      { id: "viewer000001", name: "Amina", email: "v@t.test", phoneNumber: "1", passwordHash: "x", role: "viewer" },
      { id: "viewer000002", name: "Bello", email: "w@t.test", phoneNumber: "1", passwordHash: "x", role: "viewer" },
      { id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" },
    ])
    .run();
  db.insert(categories)
    .values([
      { id: "catdramaaaaa", name: "Drama", slug: "drama" },
      { id: "catcomedyaaa", name: "Comedy", slug: "comedy" },
    ])
    .run();
  // "many": 30 titles, every one rated, commented, listed and watched; "lone": one title alone in its category and with its provider.
  const many = addTitles("many", 30);
  for (const movieId of many) {
    db.insert(ratings)
      .values([
        { movieId, accountId: "viewer000001", stars: 4 },
        { movieId, accountId: "viewer000002", stars: 5 },
      ])
      .run();
    db.insert(comments)
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          id: `${movieId}c${i}`,
          movieId,
          accountId: i % 2 ? "viewer000001" : "viewer000002",
          body: `Comment ${i}`,
        })),
      )
      .run();
    db.insert(savedMovies)
      .values({ accountId: "viewer000001", profileId: "viewer000001", movieId, list: "watch_later" })
      .run();
    db.insert(watchEvents)
      .values({
        id: `${movieId}w`,
        accountId: "viewer000001",
        movieId,
        startedAt: new Date(now - DAY),
        updatedAt: new Date(now - DAY),
        positionSeconds: 60,
      })
      .run();
  }
  // Three series of three episodes each (the newest entries: the first page of /movies and the side lists
  // show them), every episode rated and the first one watched; their names match the "many" search too.
  for (let s = 0; s < 3; s++) {
    const seriesId = `series${String(s).padStart(6, "0")}`;
    db.insert(series)
      .values({
        id: seriesId,
        name: `many stories ${s}`,
        categoryId: "catdramaaaaa",
        providerId: "provider0001",
        approved: true,
      })
      .run();
    db.insert(seasons)
      .values({ id: `${seriesId}s1`, seriesId, number: 1 })
      .run();
    const episodes = addTitles(`ep${s}`, 3, { uploadedAt: new Date(now + (s + 1) * 60_000) }).map((id, i) => {
      db.update(movies)
        .set({ seasonId: `${seriesId}s1`, episodeNumber: i + 1 })
        .where(eq(movies.id, id))
        .run();
      db.insert(ratings).values({ movieId: id, accountId: "viewer000002", stars: 3 }).run();
      return id;
    });
    db.insert(watchEvents)
      .values({
        id: `${episodes[0]}w`,
        accountId: "viewer000001",
        movieId: episodes[0]!,
        startedAt: new Date(now - DAY),
        updatedAt: new Date(now - DAY),
        positionSeconds: 60,
      })
      .run();
  }
  db.insert(accounts)
    .values({ id: "provider0002", name: "Q", email: "q@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" })
    .run();
  addTitles("lone", 1, { categoryId: "catcomedyaaa", providerId: "provider0002", name: "Lonely harmattan" });

  // Count from here: every statement the pages prepare is prepared after this.
  counter = countStatements(db);
  const { startSession } = await import("~/auth/session.server");
  cookie = (await startSession("viewer000001")).split(";")[0]!;
  rootLoader = (await import("~/root")).loader as Loader;
  loaders = {
    movies: (await import("~/routes/movies")).loader as Loader,
    search: (await import("~/routes/moviecategory")).loader as Loader,
    watch: (await import("~/routes/WatchMovie")).loader as Loader,
  };
});

afterAll(async () => {
  (await import("~/db/client.server")).closeDb();
  vi.unstubAllEnvs();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

/** The statements the root loader and a page's loader run for one document request. */
async function statementsFor(loader: Loader, urlPath: string): Promise<string[]> {
  const copy = () => new Request(`http://localhost${urlPath}`, { headers: { Cookie: cookie } });
  // Once to prepare what is prepared once (and fill the trending minute), then counted.
  await Promise.all([
    rootLoader({ request: copy(), params: {}, context: {} }),
    loader({ request: copy(), params: {}, context: {} }),
  ]);
  counter.take();
  await Promise.all([
    rootLoader({ request: copy(), params: {}, context: {} }),
    loader({ request: copy(), params: {}, context: {} }),
  ]);
  return counter.take();
}

/** What a page's loader gives, to see that the pages counted do show series. */
async function loaded<T>(loader: Loader, urlPath: string): Promise<T> {
  return (await loader({
    request: new Request(`http://localhost${urlPath}`, { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  })) as T;
}
const seriesCards = (cards: { kind: string }[]) => cards.filter((card) => card.kind === "series").length;

describe("the SQL statements a catalogue page runs", () => {
  // Every page: the session, the account and the bell's count (root and page loaders share the first two).
  it("/movies: the same few whether the grid shows 24 cards, films and series, or a few films", async () => {
    const full = await statementsFor(loaders.movies, "/movies");
    expect(seriesCards((await loaded<{ movies: { kind: string }[] }>(loaders.movies, "/movies")).movies)).toBe(3);
    const lastPage = await statementsFor(loaders.movies, "/movies?page=2");
    // The count, the page's entries (films and series), and their cards with their stars; the first page
    // also the viewer's Continue watching row (their latest viewings, one statement when it holds no series).
    expect(full).toHaveLength(3 + 3 + 1);
    expect(lastPage).toHaveLength(full.length - 1);
    // Trending: the cards of the kept ranking's slice.
    expect(await statementsFor(loaders.movies, "/movies?filter=trending")).toHaveLength(3 + 1);
  });

  it("search: the same few for 30 matches and three series or 1", async () => {
    const many = await statementsFor(loaders.search, "/moviecategory?q=many");
    // The series match by name only: they rank after the films, on the second page.
    const found = await loaded<{ movies: { kind: string }[]; total: number }>(
      loaders.search,
      "/moviecategory?q=many&page=2",
    );
    expect([found.total, seriesCards(found.movies)]).toEqual([33, 3]);
    // The episodes that match are listed on the first page only.
    expect(await statementsFor(loaders.search, "/moviecategory?q=many&page=2")).toHaveLength(many.length - 1);
    const one = await statementsFor(loaders.search, "/moviecategory?q=harmattan");
    // The count, the page's entries in rank order, their cards, the category tiles, the matching episodes.
    expect(many).toHaveLength(3 + 4 + 1);
    expect(one).toHaveLength(many.length);
  });

  it("/WatchMovie: the same few with many comments and full side lists or none", async () => {
    const busy = await statementsFor(loaders.watch, "/WatchMovie?id=many00000003");
    const page = await loaded<{ related: { kind: string }[] }>(loaders.watch, "/WatchMovie?id=many00000003");
    expect([page.related.length, seriesCards(page.related)]).toEqual([8, 3]);
    const quiet = await statementsFor(loaders.watch, "/WatchMovie?id=lone00000000");
    // The title with the viewer's stars, lists and resume point; comments; the two side lists (films and
    // series: each its entries, then their cards); what the plan allows (access, passes, screens, qualities,
    // downloads); the subtitles; whether it is an episode.
    expect(busy).toHaveLength(3 + 6 + 9 + 2);
    // Alone with its provider and in its category: two empty side lists, whose cards need no statement.
    expect(quiet).toHaveLength(busy.length - 2);
    // An episode also reads its series' published episodes (the next one) and the viewer's autoplay choice.
    expect(await statementsFor(loaders.watch, "/WatchMovie?id=ep1000000001")).toHaveLength(busy.length + 2);
  });
});

/** SQLite's plan for a statement as it was run (its values bound), one step a line. */
function planOf({ source, args }: { source: string; args: unknown[] }): string {
  return (db.$client.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...args) as { detail: string }[])
    .map((step) => step.detail)
    .join("\n");
}

describe("how SQLite runs the heaviest statements", () => {
  it("a search counts its films from the index alone and never reads every title", async () => {
    await statementsFor(loaders.search, "/moviecategory?q=many");
    // Another word: the lists of one already asked for are kept until the catalogue changes.
    await loaded(loaders.search, "/moviecategory?q=story");
    const plans = counter.takeWithValues().map(planOf);
    const count = plans.find((plan) => plan.includes("movies_fts") && !plan.includes("ORDER BY"));
    expect(count).toMatch(
      /SEARCH movies USING COVERING INDEX movies_search_idx \(search_rowid=\? AND status=\? AND approved=\? AND season_id=\?\)/,
    );
    for (const plan of plans) expect(plan).not.toMatch(/SCAN movies\b/);
  });

  it("a series' stars are read from its seasons, not by walking every published title", async () => {
    const { seriesRatingSummaries } = await import("~/services/catalogue.server");
    counter.take();
    const summaries = seriesRatingSummaries(db, ["series000000", "series000001"]);
    expect(summaries.get("series000000")).toEqual({ average: 3, count: 3 });
    const [plan] = counter.takeWithValues().map(planOf);
    expect(plan?.split("\n")[0]).toMatch(/SEARCH seasons USING (COVERING )?INDEX seasons_series_number_unique/);
    expect(plan).not.toMatch(/SCAN/);
  });
});

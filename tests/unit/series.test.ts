import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, categories, movies, notifications, seasons, series, watchEvents } from "~/db/schema";
import { listCatalogue, listPublishedTitles, listTrendingMovies } from "~/services/catalogue-lists.server";
import { deleteCategory } from "~/services/categories.server";
import { listSavedMovies } from "~/services/saved-lists.server";
import { notifyNewTitle } from "~/services/notifications.server";
import { browseCatalogue } from "~/services/search.server";
import {
  addSeason,
  checkEpisodeOrder,
  continueTarget,
  createSeries,
  deleteEpisode,
  listProviderSeries,
  nextEpisodeAfter,
  placeEpisode,
  reorderEpisodes,
  startsNextByItself,
  type EpisodeProgress,
} from "~/services/series.server";
import { changeSeries } from "~/services/series-review.server";
import { chooseSeason, getEpisodeContext, getSeriesPage, keepSeriesOnList } from "~/services/series-viewing.server";
import { createTestDatabase, firstProfileOf } from "./helpers/test-db";

/**
 * Series: "next episode" and "continue" across seasons (pure rules), and the
 * series' place in the catalogue, its page, its lists and its notifications
 * against a real database.
 */

const episodes = [
  { id: "s1e1", durationSeconds: 600 },
  { id: "s1e2", durationSeconds: 600 },
  { id: "s2e1", durationSeconds: 600 },
  { id: "s2e2", durationSeconds: 600 },
];
const seen = (entries: Record<string, [position: number, at: number]>) =>
  new Map<string, EpisodeProgress>(
    Object.entries(entries).map(([id, [positionSeconds, lastWatchedAt]]) => [id, { positionSeconds, lastWatchedAt }]),
  );

describe("next episode", () => {
  it("follows the season, then crosses into the next season, and ends after the last", () => {
    expect(nextEpisodeAfter(episodes, "s1e1")?.id).toBe("s1e2");
    expect(nextEpisodeAfter(episodes, "s1e2")?.id).toBe("s2e1");
    expect(nextEpisodeAfter(episodes, "s2e2")).toBeNull();
    expect(nextEpisodeAfter(episodes, "unknown")).toBeNull();
  });

  it("starts by itself unless data saver is on and the viewer did not allow it", () => {
    expect(startsNextByItself(false, false)).toBe(true);
    expect(startsNextByItself(true, false)).toBe(false);
    expect(startsNextByItself(true, true)).toBe(true);
  });
});

describe("continue", () => {
  it("opens S1E1 from the start when nothing was watched", () => {
    expect(continueTarget(episodes, seen({}))).toMatchObject({
      episode: { id: "s1e1" },
      positionSeconds: 0,
      reason: "start",
    });
    expect(continueTarget([], seen({}))).toBeNull();
  });

  it("resumes the most recently watched episode where it stopped, even an earlier one", () => {
    const progress = seen({ s2e1: [590, 1000], s1e1: [125, 2000] });
    expect(continueTarget(episodes, progress)).toMatchObject({
      episode: { id: "s1e1" },
      positionSeconds: 125,
      reason: "resume",
    });
  });

  it("moves to the next episode across seasons once the latest was finished", () => {
    expect(continueTarget(episodes, seen({ s1e1: [600, 1000], s1e2: [595, 2000] }))).toMatchObject({
      episode: { id: "s2e1" },
      positionSeconds: 0,
      reason: "next",
    });
    // The next one was started before: there, where it stopped.
    expect(continueTarget(episodes, seen({ s2e1: [42, 1000], s1e2: [600, 2000] }))).toMatchObject({
      episode: { id: "s2e1" },
      positionSeconds: 42,
      reason: "next",
    });
  });

  it("starts again from S1E1 after the last episode was finished", () => {
    expect(continueTarget(episodes, seen({ s2e2: [600, 5000] }))).toMatchObject({
      episode: { id: "s1e1" },
      positionSeconds: 0,
      reason: "again",
    });
  });
});

describe("new episode numbers for a season", () => {
  it("needs every episode once with distinct numbers from 1", () => {
    const ids = ["a", "b", "c"];
    expect(
      checkEpisodeOrder(
        ids,
        new Map([
          ["a", 2],
          ["b", 1],
          ["c", 3],
        ]),
      ),
    ).toEqual({ ok: true });
    expect(checkEpisodeOrder(ids, new Map([["a", 1]]))).toMatchObject({ ok: false });
    expect(
      checkEpisodeOrder(
        ids,
        new Map([
          ["a", 1],
          ["b", 1],
          ["c", 2],
        ]),
      ),
    ).toEqual({ ok: false, error: "series:errors.episodeNumberRepeated" });
    expect(
      checkEpisodeOrder(
        ids,
        new Map([
          ["a", 0],
          ["b", 1],
          ["c", 2],
        ]),
      ),
    ).toEqual({ ok: false, error: "series:errors.episodeNumberInvalid" });
  });
});

describe("series in the database", () => {
  let db: DB;
  let close: () => void;
  let root: string;
  const provider = { id: "provider0001", role: "provider" as const };
  const other = { id: "provider0002", role: "provider" as const };
  const viewer = firstProfileOf("viewer000001");
  const now = new Date("2026-11-20T12:00:00Z");
  const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3600 * 1000);

  beforeEach(() => {
    ({ db, close, dir: root } = createTestDatabase());
    db.insert(accounts)
      .values([
        { id: provider.id, name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" },
        { id: other.id, name: "O", email: "o@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" },
        { id: viewer.id, name: "V", email: "v@t.test", phoneNumber: "1", passwordHash: "x" },
        { id: "viewer000002", name: "W", email: "w@t.test", phoneNumber: "1", passwordHash: "x" },
        { id: "admin0000001", name: "A", email: "a@t.test", phoneNumber: "1", passwordHash: "x", role: "admin" },
      ])
      .run();
    db.insert(categories).values({ id: "catdramaaaaa", name: "Drama", slug: "drama" }).run();
  });
  afterEach(() => close());

  async function makeSeries(name = "Gidan Haya") {
    const made = await createSeries(db, provider, { name, Category: "catdramaaaaa", Description: "A house" }, { root });
    if (!made.ok) throw new Error("series refused");
    const first = addSeason(db, provider, made.seriesId);
    const second = addSeason(db, provider, made.seriesId);
    if (!first.ok || !second.ok) throw new Error("season refused");
    return { seriesId: made.seriesId, season1: first.seasonId, season2: second.seasonId };
  }

  /** An episode row as processing leaves it (ready), placed by the same rule uploads use. */
  function addEpisode(seasonId: string, id: string, options: { number?: number; hoursAgo?: number } = {}) {
    const placed = placeEpisode(db, provider.id, { seasonId, episodeNumber: options.number ?? null });
    if ("key" in placed) throw new Error(placed.key);
    db.insert(movies)
      .values({
        id,
        name: `Episode ${id}`,
        categoryId: placed.categoryId,
        providerId: provider.id,
        status: "ready",
        approved: placed.approved,
        access: placed.access,
        seasonId: placed.seasonId,
        episodeNumber: placed.episodeNumber,
        durationSeconds: 600,
        uploadedAt: hoursAgo(options.hoursAgo ?? 10),
      })
      .run();
    return placed.episodeNumber;
  }

  function addFilm(id: string, uploadedHoursAgo: number) {
    db.insert(movies)
      .values({
        id,
        name: `Film ${id}`,
        categoryId: "catdramaaaaa",
        providerId: provider.id,
        status: "ready",
        approved: true,
        uploadedAt: hoursAgo(uploadedHoursAgo),
      })
      .run();
  }

  it("numbers seasons and episodes, and keeps other providers out of a season", async () => {
    const { seriesId, season1 } = await makeSeries();
    expect(addEpisode(season1, "episode00001")).toBe(1);
    expect(addEpisode(season1, "episode00002")).toBe(2);
    expect(placeEpisode(db, provider.id, { seasonId: season1, episodeNumber: 2 })).toMatchObject({
      status: 400,
      field: "episodeNumber",
    });
    expect(
      placeEpisode(db, provider.id, { seasonId: season1, episodeNumber: 2 }, { takeNextIfTaken: true }),
    ).toMatchObject({ episodeNumber: 3 });
    expect(placeEpisode(db, other.id, { seasonId: season1, episodeNumber: 5 })).toMatchObject({ status: 403 });
    expect(placeEpisode(db, provider.id, { seasonId: "nosuchseason", episodeNumber: 5 })).toMatchObject({
      status: 400,
    });
    expect(addSeason(db, other, seriesId)).toEqual({ ok: false, outcome: "forbidden" });
  });

  it("lists the provider's own series with their seasons, episodes and views counted", async () => {
    const { seriesId, season1, season2 } = await makeSeries();
    const empty = await createSeries(
      db,
      provider,
      { name: "Empty", Category: "catdramaaaaa", Description: "" },
      { root },
    );
    addEpisode(season1, "episode00001");
    addEpisode(season1, "episode00002");
    addEpisode(season2, "episode00003");
    db.update(movies).set({ views: 7 }).where(eq(movies.id, "episode00001")).run();
    db.update(movies).set({ views: 5 }).where(eq(movies.id, "episode00003")).run();
    const rows = listProviderSeries(db, provider.id);
    expect(rows.find((row) => row.id === seriesId)).toMatchObject({ seasons: 2, episodes: 3, views: 12 });
    expect(rows.find((row) => empty.ok && row.id === empty.seriesId)).toMatchObject({
      seasons: 0,
      episodes: 0,
      views: 0,
    });
    expect(listProviderSeries(db, other.id)).toEqual([]);
  });

  it("reorders a season's episodes in one go, only for the series' provider", async () => {
    const { season1 } = await makeSeries();
    addEpisode(season1, "episode00001");
    addEpisode(season1, "episode00002");
    const swap = new Map([
      ["episode00001", 2],
      ["episode00002", 1],
    ]);
    expect(reorderEpisodes(db, other, season1, swap)).toMatchObject({ ok: false, status: 403 });
    expect(reorderEpisodes(db, provider, season1, swap)).toEqual({ ok: true });
    const numbers = db
      .select({ id: movies.id, number: movies.episodeNumber })
      .from(movies)
      .where(eq(movies.seasonId, season1))
      .all();
    expect(Object.fromEntries(numbers.map((row) => [row.id, row.number]))).toEqual({
      episode00001: 2,
      episode00002: 1,
    });
  });

  it("is one card in the catalogue and in search, published once approved, sorted by its newest episode", async () => {
    const { seriesId, season1, season2 } = await makeSeries("Gidan Haya");
    addEpisode(season1, "episode00001", { hoursAgo: 50 });
    addEpisode(season2, "episode00002", { hoursAgo: 5 });
    addFilm("film00000001", 20);
    addFilm("film00000002", 1);
    // Not approved yet: neither the series nor its episodes show.
    expect(listCatalogue({}, db, now).movies.map((card) => card.id)).toEqual(["film00000002", "film00000001"]);
    expect(changeSeries(db, seriesId, { approved: true }, { actorId: "admin0000001" })).toBe(true);
    const page = listCatalogue({}, db, now);
    expect(page.movies.map((card) => [card.kind, card.id])).toEqual([
      ["film", "film00000002"],
      ["series", seriesId],
      ["film", "film00000001"],
    ]);
    expect(page.total).toBe(3);
    expect(page.movies[1]).toMatchObject({ href: `/series/${seriesId}`, name: "Gidan Haya", episodeCount: 2 });
    expect(listCatalogue({ sort: "old" }, db, now).movies.map((card) => card.id)).toEqual([
      "film00000001",
      seriesId,
      "film00000002",
    ]);
    const found = browseCatalogue({ q: "gidan" }, db, now);
    expect(found.movies.map((card) => card.id)).toEqual([seriesId]);
    // The old apps know no series: every playable episode is a title named with its series.
    const names = listPublishedTitles(db, { page: 1, pageSize: 10 }).rows.map((row) => row.name);
    expect(names).toContain("Gidan Haya — S2E1 Episode episode00002");
    expect(names).toContain("Gidan Haya — S1E1 Episode episode00001");
  });

  it("counts its episodes' plays together in Trending", async () => {
    const { seriesId, season1 } = await makeSeries();
    addEpisode(season1, "episode00001");
    addEpisode(season1, "episode00002");
    changeSeries(db, seriesId, { approved: true }, { actorId: "admin0000001" });
    addFilm("film00000001", 20);
    const play = (id: string, movieId: string) =>
      db
        .insert(watchEvents)
        .values({ id, accountId: viewer.id, movieId, startedAt: hoursAgo(2), updatedAt: hoursAgo(2) })
        .run();
    play("we1aaaaaaaaa", "film00000001");
    play("we2aaaaaaaaa", "film00000001");
    play("we3aaaaaaaaa", "episode00001");
    play("we4aaaaaaaaa", "episode00002");
    play("we5aaaaaaaaa", "episode00002");
    expect(listTrendingMovies(5, db, now).map((card) => card.id)).toEqual([seriesId, "film00000001"]);
  });

  it("passes approval and access to its episodes, except an episode priced on its own", async () => {
    const { seriesId, season1 } = await makeSeries();
    addEpisode(season1, "episode00001");
    addEpisode(season1, "episode00002");
    db.update(movies).set({ accessOverride: true }).where(eq(movies.id, "episode00002")).run();
    changeSeries(db, seriesId, { approved: true }, { actorId: "admin0000001" });
    changeSeries(db, seriesId, { access: "premium" }, { actorId: "admin0000001" });
    const rows = db.select({ id: movies.id, approved: movies.approved, access: movies.access }).from(movies).all();
    expect(rows).toEqual([
      { id: "episode00001", approved: true, access: "premium" },
      { id: "episode00002", approved: true, access: "free" },
    ]);
    // A new episode of an approved series is published as soon as it is ready, at the series' price.
    expect(placeEpisode(db, provider.id, { seasonId: season1, episodeNumber: null })).toMatchObject({
      approved: true,
      access: "premium",
    });
  });

  it("shows seasons, progress and Continue on its page, and names the next episode on a watch page", async () => {
    const { seriesId, season1, season2 } = await makeSeries();
    addEpisode(season1, "episode00001");
    addEpisode(season1, "episode00002");
    addEpisode(season2, "episode00003");
    changeSeries(db, seriesId, { approved: true }, { actorId: "admin0000001" });
    db.insert(watchEvents)
      .values([
        {
          id: "we1aaaaaaaaa",
          accountId: viewer.id,
          movieId: "episode00001",
          startedAt: hoursAgo(3),
          updatedAt: hoursAgo(3),
          positionSeconds: 600,
        },
        {
          id: "we2aaaaaaaaa",
          accountId: viewer.id,
          movieId: "episode00002",
          startedAt: hoursAgo(2),
          updatedAt: hoursAgo(2),
          positionSeconds: 240,
        },
      ])
      .run();
    const page = getSeriesPage(db, seriesId, viewer)!;
    expect(page.seasons.map((season) => [season.number, season.episodes.map((episode) => episode.code)])).toEqual([
      [1, ["S1E1", "S1E2"]],
      [2, ["S2E1"]],
    ]);
    expect(page.seasons[0].episodes.map((episode) => [episode.positionSeconds, episode.finished])).toEqual([
      [600, true],
      [240, false],
    ]);
    expect(page.continueWith).toMatchObject({
      episode: { id: "episode00002" },
      positionSeconds: 240,
      reason: "resume",
    });
    // The page shows one season: the one asked for, else the one Continue opens, else the first.
    expect(chooseSeason(page, 2)?.episodes.map((episode) => episode.code)).toEqual(["S2E1"]);
    expect(chooseSeason(page, null)?.number).toBe(1);
    expect(chooseSeason(page, 9)?.number).toBe(1);
    const inSeasonTwo = { ...page, continueWith: { ...page.continueWith!, episode: page.seasons[1].episodes[0] } };
    expect(chooseSeason(inSeasonTwo, null)?.number).toBe(2);
    expect(chooseSeason(inSeasonTwo, 1)?.number).toBe(1);
    expect(chooseSeason({ seasons: [], continueWith: null }, 1)).toBeNull();
    expect(getSeriesPage(db, seriesId, firstProfileOf("viewer000002"))!.continueWith).toMatchObject({
      episode: { id: "episode00001" },
      reason: "start",
    });
    expect(getEpisodeContext(db, "episode00002")).toMatchObject({
      seriesId,
      code: "S1E2",
      next: { id: "episode00003", code: "S2E1" },
    });
    expect(getEpisodeContext(db, "episode00003")!.next).toBeNull();
    expect(getEpisodeContext(db, "nosuchtitle1")).toBeNull();

    // Watch later from the series page keeps the episode Continue opens, named with its series.
    expect(keepSeriesOnList(db, viewer, seriesId, "watch_later")).toBe(true);
    expect(listSavedMovies(db, viewer, "watch_later").items.map((item) => [item.id, item.name])).toEqual([
      ["episode00002", expect.stringMatching(/ — S1E2 Episode episode00002$/)],
    ]);
    expect(getSeriesPage(db, seriesId, viewer)!.lists).toEqual({ watchLater: true, saved: false });
  });

  it("tells the series' own viewers of a new episode, never the whole category", async () => {
    const { seriesId, season1 } = await makeSeries();
    addEpisode(season1, "episode00001");
    changeSeries(db, seriesId, { approved: true }, { actorId: "admin0000001" });
    addFilm("film00000001", 5);
    db.insert(watchEvents)
      .values([
        { id: "we1aaaaaaaaa", accountId: viewer.id, movieId: "episode00001", startedAt: now, updatedAt: now },
        { id: "we2aaaaaaaaa", accountId: "viewer000002", movieId: "film00000001", startedAt: now, updatedAt: now },
      ])
      .run();
    addEpisode(season1, "episode00002");
    expect(notifyNewTitle(db, "episode00002", now)).toBe(1);
    expect(notifyNewTitle(db, "episode00002", now)).toBe(0);
    // (The provider's own notice of the approval is theirs, not a viewer's.)
    const rows = db.select().from(notifications).where(eq(notifications.kind, "new_episode")).all();
    expect(rows).toMatchObject([
      {
        accountId: viewer.id,
        kind: "new_episode",
        movieId: "episode00002",
        link: "/WatchMovie?id=episode00002",
        messageValues: { series: "Gidan Haya", code: "S1E2", title: "Episode episode00002" },
      },
    ]);
  });

  it("keeps a category that holds a series (even without episodes) until it is moved with it", async () => {
    const { seriesId } = await makeSeries();
    db.insert(categories).values({ id: "catcomedyaaa", name: "Comedy", slug: "comedy" }).run();
    const actor = { actorId: "admin0000001" };
    expect(deleteCategory(db, "catdramaaaaa", actor, { root })).toMatchObject({ ok: false, count: 1 });
    expect(deleteCategory(db, "catdramaaaaa", actor, { moveTo: "catcomedyaaa", root })).toEqual({
      ok: true,
      value: null,
    });
    expect(db.select({ categoryId: series.categoryId }).from(series).where(eq(series.id, seriesId)).get()).toEqual({
      categoryId: "catcomedyaaa",
    });
  });

  it("lets only the series' provider or an administrator delete an episode", async () => {
    const { seriesId, season1 } = await makeSeries();
    addEpisode(season1, "episode00001");
    expect(deleteEpisode(db, other, seriesId, "episode00001", { root })).toBe("forbidden");
    expect(deleteEpisode(db, provider, "otherseries1", "episode00001", { root })).toBe("notFound");
    expect(deleteEpisode(db, provider, seriesId, "episode00001", { root })).toBe("deleted");
    expect(
      db
        .select()
        .from(movies)
        .where(and(eq(movies.seasonId, season1)))
        .all(),
    ).toEqual([]);
    expect(db.select().from(seasons).all()).toHaveLength(2);
  });
});

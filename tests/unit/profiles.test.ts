import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { categories, notifications, profiles, seasons, series } from "~/db/schema";
import type { AgeRating } from "~/db/age-ratings";
import { hashPassword } from "~/services/passwords.server";
import { listCatalogue, listPublishedTitles, loadLandingCatalogue } from "~/services/catalogue-lists.server";
import { listContinueWatching } from "~/services/continue-watching.server";
import { listHistory } from "~/services/history.server";
import { decideMoviePlayback } from "~/services/playback.server";
import { browseCatalogue, suggestTitles } from "~/services/search.server";
import { addToSavedList, listSavedMovies } from "~/services/saved-lists.server";
import { getSeriesPage } from "~/services/series-viewing.server";
import { getWatchPage, recordProgress } from "~/services/watching.server";
import { rateSeries, rateTitle } from "~/services/age-ratings.server";
import { countUnreadNotifications, listNotifications, notifyNewTitle } from "~/services/notifications.server";
import {
  accountAndProfile,
  afterSignInPath,
  checkPin,
  createProfile,
  deleteProfile,
  listProfiles,
  PIN_TRIES,
  PROFILES_MAX,
  setPin,
  setPinWithPassword,
  switchNeedsPin,
  type ProfileInput,
} from "~/services/profiles.server";
import { createTestDatabase, insertAccounts, insertTitle } from "./helpers/test-db";

/**
 * Profiles on one account: each its own history, Continue watching and lists;
 * a children's profile that sees only G and PG titles (never unrated ones)
 * in every list, page and stream; the PIN that guards leaving it.
 */
let db: DB;
let close: () => void;
const now = new Date("2026-11-20T12:00:00Z");
const RATINGS: (AgeRating | null)[] = ["G", "PG", "12", "12A", "15", "18", "RE", null];
const film = (rating: AgeRating | null) => `film${(rating ?? "none").toLowerCase().padEnd(8, "x")}`;
const grownUp = { id: "viewer000001", role: "viewer" as const, profile: { id: "viewer000001", children: false } };
let child: typeof grownUp;

const profileInput = (values: Partial<ProfileInput> = {}): ProfileInput => ({
  name: "Yara",
  avatar: "lion",
  language: "ha",
  dataSaver: true,
  children: false,
  locked: false,
  ...values,
});

beforeEach(async () => {
  ({ db, close } = createTestDatabase());
  insertAccounts(db, [
    { id: "provider0001", name: "P", role: "provider" },
    { id: "viewer000001", name: "Hauwa", passwordHash: await hashPassword("family-password") },
  ]);
  db.insert(categories).values({ id: "catdramaaaaa", name: "Drama", slug: "drama", sortOrder: 1 }).run();
  // One film of each rating, and one unrated; words in each name for the search.
  RATINGS.forEach((rating, index) =>
    insertTitle(
      db,
      film(rating),
      { categoryId: "catdramaaaaa", durationSeconds: 600, uploadedAt: new Date(now.getTime() - index * 60_000) },
      { name: `Labari ${rating ?? "unrated"}`, ageRating: rating },
    ),
  );
  // A series rated PG (its episode with it) and one not rated yet.
  for (const [id, rating] of [
    ["seriespg0001", "PG"],
    ["seriesnone01", null],
  ] as const) {
    db.insert(series)
      .values({
        id,
        name: `Labari ${id}`,
        categoryId: "catdramaaaaa",
        providerId: "provider0001",
        approved: true,
        ageRating: rating,
      })
      .run();
    db.insert(seasons)
      .values({ id: `${id}s1`, seriesId: id, number: 1 })
      .run();
    insertTitle(
      db,
      `${id}e1`,
      { categoryId: "catdramaaaaa", durationSeconds: 600 },
      { seasonId: `${id}s1`, episodeNumber: 1, name: `Labari episode ${id}` },
    );
  }
  await setPin(db, "viewer000001", "4321");
  const made = createProfile(db, "viewer000001", profileInput({ children: true }));
  if (!made.ok) throw new Error(made.reason);
  child = { ...grownUp, profile: { id: made.profile.id, children: true } };
});
afterEach(() => close());

const ids = (cards: readonly { id: string }[]) => cards.map((card) => card.id).sort();
const CHILD_SAFE = [film("G"), film("PG"), "seriespg0001"].sort();

describe("profiles of an account", () => {
  it("every account has its first profile, with the account's id, and keeps at most five", () => {
    expect(listProfiles(db, "viewer000001").map((profile) => [profile.id, profile.name, profile.children])).toEqual([
      ["viewer000001", "Hauwa", false],
      [child.profile.id, "Yara", true],
    ]);
    for (let made = 2; made < PROFILES_MAX; made++)
      expect(createProfile(db, "viewer000001", profileInput()).ok).toBe(true);
    expect(createProfile(db, "viewer000001", profileInput())).toEqual({ ok: false, reason: "tooMany" });
    expect(listProfiles(db, "viewer000001")).toHaveLength(PROFILES_MAX);
  });

  it("never deletes the last profile, nor another account's", () => {
    insertAccounts(db, [{ id: "viewer000002", name: "Other" }]);
    expect(deleteProfile(db, "viewer000002", child.profile.id)).toEqual({ ok: false, reason: "notFound" });
    expect(deleteProfile(db, "viewer000001", child.profile.id)).toEqual({ ok: true });
    expect(deleteProfile(db, "viewer000001", "viewer000001")).toEqual({ ok: false, reason: "last" });
  });

  it("a children's or locked profile needs a PIN first", () => {
    insertAccounts(db, [{ id: "viewer000002", name: "Other" }]);
    expect(createProfile(db, "viewer000002", profileInput({ children: true }))).toEqual({
      ok: false,
      reason: "pinNeeded",
    });
    expect(createProfile(db, "viewer000002", profileInput({ locked: true }))).toEqual({
      ok: false,
      reason: "pinNeeded",
    });
    expect(createProfile(db, "viewer000002", profileInput()).ok).toBe(true);
  });

  it("a device's chosen profile, or the first when it is gone; a fresh sign-in asks who is watching", () => {
    expect(accountAndProfile(db, "viewer000001", child.profile.id)?.profile.id).toBe(child.profile.id);
    expect(accountAndProfile(db, "viewer000001", null)?.profile.id).toBe("viewer000001");
    // Another account's profile is never this account's.
    expect(accountAndProfile(db, "provider0001", child.profile.id)?.profile.id).toBe("provider0001");
    deleteProfile(db, "viewer000001", child.profile.id);
    expect(accountAndProfile(db, "viewer000001", child.profile.id)?.profile.id).toBe("viewer000001");
    expect(afterSignInPath(db, { id: "viewer000001", role: "viewer" }, "/movies")).toBe("/movies");
    createProfile(db, "viewer000001", profileInput());
    expect(afterSignInPath(db, { id: "viewer000001", role: "viewer" }, "/movies")).toBe(
      "/profiles?who=1&redirectTo=%2Fmovies",
    );
  });

  it("each profile has its own history, Continue watching and lists", () => {
    recordProgress(
      db,
      { accountId: grownUp.id, profileId: grownUp.profile.id, movieId: film("15"), positionSeconds: 60 },
      now,
    );
    recordProgress(
      db,
      { accountId: child.id, profileId: child.profile.id, movieId: film("G"), positionSeconds: 30 },
      now,
    );
    addToSavedList(db, grownUp, film("18"), "watch_later");
    expect(ids(listHistory(db, grownUp, {}, now).items)).toEqual([film("15")]);
    expect(ids(listHistory(db, child, {}, now).items)).toEqual([film("G")]);
    expect(listContinueWatching(db, grownUp).map((item) => item.movieId)).toEqual([film("15")]);
    expect(listContinueWatching(db, child).map((item) => item.movieId)).toEqual([film("G")]);
    expect(ids(listSavedMovies(db, grownUp, "watch_later").items)).toEqual([film("18")]);
    expect(listSavedMovies(db, child, "watch_later").total).toBe(0);
    expect(getWatchPage(db, film("15"), grownUp)?.resumeSeconds).toBe(60);
  });
});

describe("a children's profile", () => {
  it("lists only G and PG titles and series, never unrated ones, in every list and search", () => {
    // Before (a grown-up's catalogue): every rating and the unrated; after: G and PG only.
    expect(listCatalogue({ pageSize: 50 }, db, now).total).toBe(RATINGS.length + 2);
    expect(ids(listCatalogue({ pageSize: 50, children: true }, db, now).movies)).toEqual(CHILD_SAFE);
    // Its trending page: the child-safe titles, most played this week first.
    expect(ids(listCatalogue({ filter: "trending", pageSize: 50, children: true }, db, now).movies)).toEqual(
      CHILD_SAFE,
    );
    expect(ids(browseCatalogue({ q: "labari", children: true }, db, now).movies)).toEqual(CHILD_SAFE);
    expect(
      suggestTitles("labari", db, now, true)
        .map((suggestion) => suggestion.id)
        .sort(),
    ).toEqual([...CHILD_SAFE.slice(0, 2), "seriespg0001", "seriespg0001e1"].sort());
    const landing = loadLandingCatalogue(db, true);
    for (const row of [landing.newest, landing.suggested, landing.trending])
      expect(ids(row).every((id) => CHILD_SAFE.includes(id))).toBe(true);
    expect(ids(landing.newest)).toEqual(CHILD_SAFE);
    // The old clients' list, with a children's profile's token.
    expect(
      listPublishedTitles(db, { page: 1, pageSize: 50, children: true })
        .rows.map((row) => row.id)
        .sort(),
    ).toEqual([film("G"), film("PG"), "seriespg0001e1"].sort());
  });

  it("is told only of titles it may open: the bell leaves out a 15-rated film's and an unrated series' news", () => {
    // The account watched in Drama and both series; new titles arrive: a G film, a 15 film, an unrated series' episode.
    for (const watched of [film("PG"), "seriesnone01e1", "seriespg0001e1"])
      recordProgress(
        db,
        { accountId: grownUp.id, profileId: grownUp.profile.id, movieId: watched, positionSeconds: 30 },
        now,
      );
    for (const [id, rating] of [
      ["newfilmg0001", "G"],
      ["newfilm15001", "15"],
    ] as const)
      insertTitle(db, id, { categoryId: "catdramaaaaa", durationSeconds: 600 }, { name: id, ageRating: rating });
    insertTitle(
      db,
      "seriesnone01e2",
      { categoryId: "catdramaaaaa", durationSeconds: 600 },
      { seasonId: "seriesnone01s1", episodeNumber: 2, name: "Labari episode two" },
    );
    for (const id of ["newfilmg0001", "newfilm15001", "seriesnone01e2"]) notifyNewTitle(db, id, now);
    // A notice of no title (a pass, say) is everyone's.
    db.insert(notifications)
      .values({ id: "passnotice01", accountId: "viewer000001", kind: "pass", messageKey: "billing:x", movieId: null })
      .run();
    const titles = (children: boolean) =>
      listNotifications(db, "viewer000001", { children })
        .map((notice) => notice.link?.split("=")[1] ?? "none")
        .sort();
    // Before (the grown-up's bell): all four; after (the children's profile): the G film and the title-less one.
    expect(titles(false)).toEqual(["newfilm15001", "newfilmg0001", "none", "seriesnone01e2"]);
    expect(countUnreadNotifications(db, "viewer000001")).toBe(4);
    expect(titles(true)).toEqual(["newfilmg0001", "none"]);
    expect(countUnreadNotifications(db, "viewer000001", { children: true })).toBe(2);
    // Rated PG, the series' episode joins the children's bell at once.
    rateSeries(db, "seriesnone01", "PG", { actorId: "viewer000001" });
    expect(titles(true)).toEqual(["newfilmg0001", "none", "seriesnone01e2"]);
  });

  it("opens and streams only child-safe titles: a direct link to an 18 title is refused", () => {
    expect(getWatchPage(db, film("18"), child)).toBeNull();
    expect(getWatchPage(db, film(null), child)).toBeNull();
    expect(getWatchPage(db, film("PG"), child)?.movie.id).toBe(film("PG"));
    expect(getWatchPage(db, film("18"), grownUp)?.movie.id).toBe(film("18"));
    expect(decideMoviePlayback(db, film("18"), child, now)).toMatchObject({
      allowed: false,
      status: 403,
      reason: "children",
    });
    expect(decideMoviePlayback(db, "seriesnone01e1", child, now)).toMatchObject({ allowed: false, reason: "children" });
    expect(decideMoviePlayback(db, "seriespg0001e1", child, now)).toMatchObject({ allowed: true });
    expect(decideMoviePlayback(db, film("18"), grownUp, now)).toMatchObject({ allowed: true });
    expect(getSeriesPage(db, "seriesnone01", child)).toBeNull();
    expect(getSeriesPage(db, "seriespg0001", child)?.episodeCount).toBe(1);
    // Its own Continue watching and lists keep to the rule, even for a title rated higher since.
    recordProgress(
      db,
      { accountId: child.id, profileId: child.profile.id, movieId: film("PG"), positionSeconds: 30, children: true },
      now,
    );
    expect(
      recordProgress(
        db,
        { accountId: child.id, profileId: child.profile.id, movieId: film("18"), positionSeconds: 5, children: true },
        now,
      ),
    ).toEqual({ ok: false, notFound: true });
    expect(addToSavedList(db, child, film("18"), "saved")).toBe(false);
    rateTitle(db, film("PG"), "15", { actorId: "viewer000001" });
    expect(listContinueWatching(db, child)).toEqual([]);
    expect(getWatchPage(db, film("PG"), child)).toBeNull();
    // A series rated G by the administrator opens at once.
    rateSeries(db, "seriesnone01", "G", { actorId: "viewer000001" });
    expect(getSeriesPage(db, "seriesnone01", child)?.episodeCount).toBe(1);
    expect(ids(listCatalogue({ pageSize: 50, children: true }, db, now).movies)).toContain("seriesnone01");
  });

  it("is left only with the PIN; wrong PINs are counted, then held", async () => {
    const grownUpProfile = { id: "viewer000001", locked: false, children: false };
    expect(switchNeedsPin(child.profile, grownUpProfile)).toBe(true);
    expect(switchNeedsPin(grownUpProfile, { id: child.profile.id, locked: false })).toBe(false);
    expect(switchNeedsPin(grownUpProfile, { id: "x", locked: true })).toBe(true);
    expect(await checkPin(db, "viewer000001", "4321", now)).toEqual({ ok: true });
    for (let tried = 1; tried < PIN_TRIES; tried++)
      expect(await checkPin(db, "viewer000001", "0000", now)).toEqual({
        ok: false,
        reason: "wrong",
        triesLeft: PIN_TRIES - tried,
      });
    expect(await checkPin(db, "viewer000001", "0000", now)).toMatchObject({ ok: false, reason: "held" });
    // Held: even the right PIN waits, until the owner sets a new one with the password.
    expect(await checkPin(db, "viewer000001", "4321", now)).toMatchObject({ ok: false, reason: "held" });
    expect(await setPinWithPassword(db, "viewer000001", { pin: "1111", password: "wrong" })).toMatchObject({
      ok: false,
      field: "password",
    });
    expect(await setPinWithPassword(db, "viewer000001", { pin: "12", password: "family-password" })).toMatchObject({
      ok: false,
      field: "pin",
    });
    expect(await setPinWithPassword(db, "viewer000001", { pin: "1111", password: "family-password" })).toEqual({
      ok: true,
    });
    expect(await checkPin(db, "viewer000001", "1111", now)).toEqual({ ok: true });
    // The provider's account has its first profile too: three in all, none lost to the tries.
    expect(db.select().from(profiles).all()).toHaveLength(3);
  });
});

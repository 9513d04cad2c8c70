import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { comments, movies, ratings, savedMovies, seasons, series, watchEvents } from "../../app/db/schema";
import { createAdmin, createApprovedProvider, createViewer, signInThroughForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { describeBothWays, expect, test } from "./fixtures/test";
import { createCategory, createTitle, expectAdaptiveStream, pressPlay } from "./fixtures/titles";

/**
 * A viewer browses /movies, opens a title, comments, rates, keeps it for
 * later and comes back to where they stopped — with and without JavaScript
 * where a person could do it either way.
 */

const published = () => and(eq(movies.status, "ready"), eq(movies.approved, true));
/** Published films (titles outside any season), oldest or newest first. */
const publishedIds = (order: "old" | "new", featuredOnly = false) =>
  e2eDb()
    .select({ id: movies.id })
    .from(movies)
    .where(and(published(), isNull(movies.seasonId), featuredOnly ? eq(movies.featured, true) : undefined))
    .orderBy(
      ...(order === "old" ? [asc(movies.uploadedAt), asc(movies.id)] : [desc(movies.uploadedAt), desc(movies.id)]),
    )
    .all()
    .map((row) => row.id);
/**
 * The cards /movies shows, in order: published films, and each approved series with a published
 * episode as one card, dated by its newest episode.
 */
const cardIdsInOrder = (order: "old" | "new", featuredOnly = false) => {
  const films = e2eDb()
    .select({ id: movies.id, at: movies.uploadedAt })
    .from(movies)
    .where(and(published(), isNull(movies.seasonId), featuredOnly ? eq(movies.featured, true) : undefined))
    .all()
    .map((row) => ({ id: row.id, at: row.at.getTime() }));
  const shows = e2eDb()
    .select({ id: series.id, at: sql<number>`max(${movies.uploadedAt})` })
    .from(series)
    .innerJoin(seasons, eq(seasons.seriesId, series.id))
    .innerJoin(movies, eq(movies.seasonId, seasons.id))
    .where(and(published(), eq(series.approved, true), featuredOnly ? eq(series.featured, true) : undefined))
    .groupBy(series.id)
    .all()
    .map((row) => ({ id: row.id, at: Number(row.at) }));
  const direction = order === "old" ? 1 : -1;
  return [...films, ...shows]
    .sort((x, y) => direction * (x.at - y.at || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)))
    .map((entry) => entry.id);
};
const cardIds = (page: Page) =>
  page
    .locator("[data-testid=movie-grid] > li")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-movie-id")));

/** The grid shows exactly these titles (polled: the page may still be arriving after a navigation). */
/**
 * The grid shows these cards. Other test files publish titles while this one runs: when the page
 * and the database disagree, the page is loaded again (it was rendered before the newest title).
 */
async function expectCards(page: Page, expected: () => string[]) {
  await page.waitForLoadState();
  await expect
    .poll(async () => {
      const shown = await cardIds(page);
      const wanted = expected();
      if (JSON.stringify(shown) === JSON.stringify(wanted)) return "same";
      await page.reload();
      return JSON.stringify({ shown, wanted });
    })
    .toBe("same");
}

/** A published title for this test, spread so parallel tests rarely share one. */
function pickTitle(offset: number) {
  const ids = publishedIds("old");
  return ids[offset % ids.length];
}

/** A published Free title (a viewer without a pass can play it). */
function pickFreeTitle(offset: number) {
  const ids = e2eDb()
    .select({ id: movies.id })
    .from(movies)
    .where(and(published(), isNull(movies.seasonId), eq(movies.access, "free")))
    .orderBy(asc(movies.uploadedAt), asc(movies.id))
    .all()
    .map((row) => row.id);
  return ids[offset % ids.length];
}

async function signIn(page: Page, viewer: TestAccount) {
  await signInThroughForm(page, "/login", viewer.email, viewer.password);
  await expect(page).not.toHaveURL(/\/login/);
}

const PAGE_SIZE = 24;

// /movies must have a second page to go to: top the catalogue up to more than
// a page with playable titles older than every other, so tests that pick the
// newest titles are not disturbed.
test.beforeAll(async () => {
  const missing = PAGE_SIZE + 1 - cardIdsInOrder("new").length;
  if (missing <= 0) return;
  const provider = await createApprovedProvider("pager");
  const category = createCategory("Archive");
  const oldest = e2eDb()
    .select({ uploadedAt: movies.uploadedAt })
    .from(movies)
    .where(published())
    .orderBy(asc(movies.uploadedAt))
    .limit(1)
    .get();
  const before = (oldest?.uploadedAt ?? new Date()).getTime() - 24 * 3600 * 1000;
  for (let i = 0; i < missing; i++) {
    createTitle({
      name: `Archive reel ${i + 1}`,
      categoryId: category.id,
      providerId: provider.id,
      uploadedAt: new Date(before - i * 60_000),
      withMedia: true,
    });
  }
});

describeBothWays("watching", ({ javaScriptEnabled, mode }) => {
  test(`a viewer browses /movies, sorts by Old Upload and filters Featured — ${mode}`, async ({ page }) => {
    const viewer = await createViewer("browse");
    await signIn(page, viewer);
    await page.goto("/movies");
    await expectCards(page, () => cardIdsInOrder("new").slice(0, PAGE_SIZE));
    const all = cardIdsInOrder("new");
    await expect(page.getByText(`${all.length} titles`)).toBeVisible();

    await page.getByRole("navigation", { name: "Release Date" }).getByRole("link", { name: "Old Upload" }).click();
    await expect(page).toHaveURL(/\/movies\?sort=old$/);
    await expectCards(page, () => cardIdsInOrder("old").slice(0, PAGE_SIZE));

    await page.getByRole("navigation", { name: "New Movies" }).getByRole("link", { name: "Featured" }).click();
    await expect(page).toHaveURL(/sort=old&filter=featured/);
    const featured = cardIdsInOrder("old", true);
    expect(featured.length).toBeGreaterThan(0);
    await expectCards(page, () => cardIdsInOrder("old", true).slice(0, PAGE_SIZE));

    // Paging: the next page continues where the first stopped; the last has no next.
    expect(all.length).toBeGreaterThan(PAGE_SIZE);
    await page.goto("/movies");
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expectCards(page, () => cardIdsInOrder("new").slice(PAGE_SIZE, 2 * PAGE_SIZE));
    await page.goto(`/movies?page=${Math.ceil(cardIdsInOrder("new").length / PAGE_SIZE)}`);
    await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Previous page" })).toBeVisible();
  });

  test(`a viewer opens a title from a card, posts a comment and deletes it — ${mode}`, async ({ page }) => {
    const viewer = await createViewer("comment");
    await signIn(page, viewer);
    await page.goto("/movies");
    const first = page.locator("[data-testid=movie-grid] > li").first();
    const movieId = (await first.getAttribute("data-movie-id"))!;
    const name = e2eDb().select({ name: movies.name }).from(movies).where(eq(movies.id, movieId)).get()!.name;
    await first.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${movieId}`));
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const video = page.locator("video");
    // The adaptive stream: chosen by the player with JavaScript, the first <source> without.
    await expectAdaptiveStream(video, movieId, javaScriptEnabled);
    // The player's own controls with JavaScript (a thumb's ▶), the browser's own without.
    if (javaScriptEnabled) {
      await expect(page.getByTestId("player-play")).toHaveAccessibleName("Play");
      await expect(video).not.toHaveAttribute("controls", /.*/);
    } else await expect(video).toHaveAttribute("controls", "");
    expect(await video.getAttribute("loop")).toBeNull();

    // An empty comment is refused beside the field.
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.locator("[data-field-error=body]")).toContainText("Write a comment first.");

    const text = `<script>alert(1)</script> Madalla ${Date.now()}`;
    await page.getByLabel("Your comment").fill(text);
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(/#comments$/);
    const comment = page.locator("[data-comment-id]").filter({ hasText: text });
    await expect(comment).toContainText(viewer.name);
    await comment.getByRole("button", { name: `Delete the comment by ${viewer.name}` }).click();
    await expect(page.locator("[data-comment-id]").filter({ hasText: text })).toHaveCount(0);
  });

  test(`a viewer rates a title 4 and adds it to watch later — ${mode}`, async ({ page }) => {
    const viewer = await createViewer("rate");
    const movieId = pickTitle(javaScriptEnabled ? 3 : 7);
    await signIn(page, viewer);
    await page.goto(`/WatchMovie?id=${movieId}`);
    await page.getByLabel("4 stars").check();
    await page.getByRole("button", { name: "Rate", exact: true }).click();
    await expect(page).toHaveURL(/#rating$/);
    await expect(page.getByText("Your rating: 4 of 5")).toBeVisible();
    const row = e2eDb()
      .select({ stars: ratings.stars })
      .from(ratings)
      .where(and(eq(ratings.movieId, movieId), eq(ratings.accountId, viewer.id)))
      .get();
    expect(row?.stars).toBe(4);
    const summary = e2eDb()
      .select({ average: sql<number>`avg(${ratings.stars})`, count: sql<number>`count(*)` })
      .from(ratings)
      .where(eq(ratings.movieId, movieId))
      .get()!;
    const shown = (Math.round(Number(summary.average) * 10) / 10).toFixed(1);
    await expect(page.locator("header").getByText(`Rated ${shown} out of 5 by ${summary.count} viewer`)).toBeAttached();

    await page.getByRole("button", { name: "Add to watch later" }).click();
    await expect(page.getByRole("button", { name: "Remove from watch later" })).toBeVisible();
    const saved = e2eDb()
      .select()
      .from(savedMovies)
      .where(
        and(
          eq(savedMovies.accountId, viewer.id),
          eq(savedMovies.movieId, movieId),
          eq(savedMovies.list, "watch_later"),
        ),
      )
      .all();
    expect(saved).toHaveLength(1);
  });
});

test("an unknown or unpublished title is a 404", async ({ page }) => {
  const viewer = await createViewer("missing");
  const provider = await createApprovedProvider("unapproved");
  const template = e2eDb()
    .select({ categoryId: movies.categoryId })
    .from(movies)
    .where(eq(movies.id, pickTitle(0)))
    .get()!;
  const hiddenId = `hidden${Date.now().toString(36)}`;
  e2eDb()
    .insert(movies)
    .values({
      id: hiddenId,
      name: "Not approved yet",
      categoryId: template.categoryId,
      providerId: provider.id,
      status: "ready",
      approved: false,
    })
    .run();
  await signIn(page, viewer);
  expect((await page.goto(`/WatchMovie?id=${hiddenId}`))?.status()).toBe(404);
  expect((await page.goto("/WatchMovie?id=nosuchtitle0001"))?.status()).toBe(404);
  expect((await page.goto("/WatchMovie"))?.status()).toBe(404);
});

test("a provider is refused the viewer pages", async ({ page }) => {
  const provider = await createApprovedProvider("watching");
  await signInThroughForm(page, "/cp", provider.email, provider.password);
  await expect(page).not.toHaveURL(/\/cp/);
  expect((await page.goto("/movies"))?.status()).toBe(403);
  expect((await page.goto(`/WatchMovie?id=${pickTitle(0)}`))?.status()).toBe(403);
  const beacon = await page.request.post("/watch-progress", {
    multipart: { movieId: pickTitle(0), positionSeconds: "3" },
  });
  expect(beacon.status()).toBe(403);
});

test("a signed-out visitor is sent to sign in and back", async ({ page, request }) => {
  await page.goto("/movies?sort=old");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmovies%3Fsort%3Dold$/);
  const movieId = pickTitle(1);
  await page.goto(`/WatchMovie?id=${movieId}`);
  expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(`/WatchMovie?id=${movieId}`);
  const beacon = await request.post("/watch-progress", { multipart: { movieId, positionSeconds: "3" } });
  expect(beacon.status()).toBe(401);
});

test("a viewer plays a title, leaves, and comes back to the same place — with JavaScript", async ({ page }) => {
  const viewer = await createViewer("resume");
  const movieId = pickFreeTitle(5);
  await signIn(page, viewer);
  const viewsBefore = e2eDb().select({ views: movies.views }).from(movies).where(eq(movies.id, movieId)).get()!.views;

  // The player shows the poster and fetches no film until play is pressed; then it starts where the viewer left.
  const startsAt = async (seconds: number) => {
    const video = page.locator("video");
    await pressPlay(video, movieId);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThan(Math.max(seconds - 2, 1));
    expect(await video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeLessThan(seconds + 4);
  };

  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.locator("video");
  await pressPlay(video, movieId);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(3);
  const stoppedAt = await video.evaluate((element: HTMLVideoElement) => {
    element.pause();
    return element.currentTime;
  });
  // The pause beacon records this viewing and counts one view.
  await expect
    .poll(() =>
      e2eDb()
        .select()
        .from(watchEvents)
        .where(and(eq(watchEvents.accountId, viewer.id), eq(watchEvents.movieId, movieId)))
        .all(),
    )
    .toHaveLength(1);
  await page.goto("/movies");
  await page.goto(`/WatchMovie?id=${movieId}`);
  await expect(page.locator("video")).toHaveAttribute("data-resume-seconds", String(Math.floor(stoppedAt)));
  await startsAt(Math.floor(stoppedAt));
  expect(e2eDb().select({ views: movies.views }).from(movies).where(eq(movies.id, movieId)).get()!.views).toBe(
    viewsBefore + 1,
  );
  // Pause again, and let that pause's beacon land before the position below is reported.
  const pausedAt = await page.locator("video").evaluate((element: HTMLVideoElement) => {
    element.pause();
    return Math.floor(element.currentTime);
  });
  await expect
    .poll(
      () =>
        e2eDb()
          .select({ positionSeconds: watchEvents.positionSeconds })
          .from(watchEvents)
          .where(and(eq(watchEvents.accountId, viewer.id), eq(watchEvents.movieId, movieId)))
          .orderBy(desc(watchEvents.updatedAt))
          .get()?.positionSeconds,
    )
    .toBe(pausedAt);

  // A position reported by the player's endpoint is where the next visit starts.
  const reported = await page.request.post("/watch-progress", { multipart: { movieId, positionSeconds: "4" } });
  expect(reported.status()).toBe(200);
  await page.goto("/movies");
  await page.goto(`/WatchMovie?id=${movieId}`);
  await expect(page.locator("video")).toHaveAttribute("data-resume-seconds", "4");
  await startsAt(4);

  const bad = await page.request.post("/watch-progress", { multipart: { movieId, positionSeconds: "soon" } });
  expect(bad.status()).toBe(400);
});

test("an administrator deletes another viewer's comment — without JavaScript", async ({ browser }) => {
  const viewer = await createViewer("commenter");
  const admin = await createAdmin("moderator");
  const movieId = pickTitle(2);
  const text = `Spam from a viewer ${Date.now()}`;

  const viewerContext = await browser.newContext({ javaScriptEnabled: false });
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewer);
  await viewerPage.goto(`/WatchMovie?id=${movieId}`);
  await viewerPage.getByLabel("Your comment").fill(text);
  await viewerPage.getByRole("button", { name: "Send" }).click();
  await expect(viewerPage.locator("[data-comment-id]").filter({ hasText: text })).toBeVisible();
  await viewerContext.close();

  const adminContext = await browser.newContext({ javaScriptEnabled: false });
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin);
  await adminPage.goto(`/WatchMovie?id=${movieId}`);
  const comment = adminPage.locator("[data-comment-id]").filter({ hasText: text });
  await comment.getByRole("button", { name: `Delete the comment by ${viewer.name}` }).click();
  await expect(adminPage.locator("[data-comment-id]").filter({ hasText: text })).toHaveCount(0);
  expect(e2eDb().select().from(comments).where(eq(comments.body, text)).all()).toHaveLength(0);
  await adminContext.close();
});

test("another viewer cannot delete someone else's comment", async ({ page }) => {
  const author = await createViewer("author");
  const other = await createViewer("other");
  const movieId = pickTitle(4);
  const commentId = `e2ecomment${Date.now().toString(36)}`.slice(0, 16);
  e2eDb().insert(comments).values({ id: commentId, movieId, accountId: author.id, body: "Keep me" }).run();
  await signIn(page, other);
  await page.goto(`/WatchMovie?id=${movieId}`);
  await expect(page.locator(`[data-comment-id="${commentId}"]`).getByRole("button")).toHaveCount(0);
  const response = await page.request.post(`/WatchMovie?id=${movieId}`, {
    form: { intent: "deleteComment", commentId },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  expect(e2eDb().select().from(comments).where(eq(comments.id, commentId)).all()).toHaveLength(1);
});

import { expectNoSeriousAccessibilityProblems } from "./fixtures/accessibility";
import { and, eq } from "drizzle-orm";
import { NEW_TITLE_KIND } from "../../app/services/notifications.server";
import type { Browser, Page } from "@playwright/test";
import { movies, notifications, savedMovies, watchEvents } from "../../app/db/schema";
import { recordProgress } from "../../app/services/watching.server";
import { createAdmin, createApprovedProvider, createViewer, signInThroughForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { describeBothWays, expect, test } from "./fixtures/test";
import { createCategory, createTitle, pressPlay, setCategoryTile, uniqueWord } from "./fixtures/titles";

/**
 * The viewer's library: browsing and searching /moviecategory, the history
 * with its filters, the watch-later and saved lists, and the bell telling of
 * new titles — with and without JavaScript.
 */

async function signIn(page: Page, viewer: TestAccount) {
  await signInThroughForm(page, "/login", viewer.email, viewer.password);
  await expect(page).not.toHaveURL(/\/login/);
}

const gridIds = (page: Page) =>
  page
    .locator("[data-testid=movie-grid] > li")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-movie-id")));
const listIds = (page: Page, testId: string) =>
  page
    .locator(`[data-testid=${testId}] > li`)
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-movie-id")));

async function expectGrid(page: Page, expected: string[]) {
  await page.waitForLoadState();
  await expect.poll(() => gridIds(page)).toEqual(expected);
}

describeBothWays("the viewer's library", ({ javaScriptEnabled, mode }) => {
  test(`a viewer searches /moviecategory by a word of a description, picks a category and a sort — ${mode}`, async ({
    page,
  }) => {
    const viewer = await createViewer("search");
    const provider = await createApprovedProvider("search");
    const category = createCategory("Shelf");
    await setCategoryTile(category.id, provider.id);
    const bare = createCategory("Bare");
    const word = uniqueWord("harmattan");
    const older = createTitle({
      name: `Old Kasuwa ${word.slice(-4)}`,
      description: `An old market story. ${word} winds blow through Kano.`,
      categoryId: category.id,
      providerId: provider.id,
      featured: true,
      // Older than every demo title, so the landing page's hero (newest featured first) never changes.
      uploadedAt: new Date(Date.now() - 800 * 24 * 3600 * 1000),
    });
    const newer = createTitle({
      name: `Sabon Gari ${word.slice(-4)}`,
      description: "A new street.",
      cast: "Ali Nuhu",
      categoryId: category.id,
      providerId: provider.id,
    });
    const hidden = createTitle({
      name: `Hidden ${word}`,
      description: `${word} but not approved`,
      categoryId: category.id,
      providerId: provider.id,
      approved: false,
    });

    await signIn(page, viewer);
    await page.goto("/moviecategory");
    // Tiles: the category with an image shows it, one without shows the fallback.
    const tile = page.locator(`[data-testid=category-tiles] a[data-category="${category.slug}"]`);
    await expect(tile).toHaveAccessibleName(`Show ${category.name}`);
    const src = await tile.locator("img").getAttribute("src");
    expect(src).toMatch(new RegExp(`^/category-image/${category.id}\\.jpg\\?v=\\d+$`));
    const image = await page.request.get(src!);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/jpeg");
    expect(image.headers()["cache-control"]).toContain("immutable");
    await expect(page.locator(`[data-testid=category-tiles] a[data-category="${bare.slug}"] img`)).toHaveCount(0);

    // Search by a word of the description, in capitals: only the published match.
    await page.getByLabel("Search titles").fill(word.toUpperCase());
    await page.getByRole("main").getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`/moviecategory\\?q=${word.toUpperCase()}$`));
    await expectGrid(page, [older]);
    await expect(page.getByRole("heading", { name: `Results for “${word.toUpperCase()}”` })).toBeVisible();
    expect(await gridIds(page)).not.toContain(hidden);

    // A category link keeps the search; clearing the search shows the category's titles, newest first.
    await page
      .getByRole("navigation", { name: "Movie Category" })
      .getByRole("link", { name: category.name, exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`q=${word.toUpperCase()}&category=${category.slug}$`));
    await expectGrid(page, [older]);
    await page.goto(`/moviecategory?category=${category.slug}`);
    await expectGrid(page, [newer, older]);

    // Sort by Featured puts the featured title first; New puts the newest first again.
    await page.getByRole("navigation", { name: "Sort by" }).getByRole("link", { name: "Featured" }).click();
    await expect(page).toHaveURL(new RegExp(`category=${category.slug}&sort=featured$`));
    await expectGrid(page, [older, newer]);
    await page.getByRole("navigation", { name: "Sort by" }).getByRole("link", { name: "New" }).click();
    await expect(page).toHaveURL(new RegExp(`category=${category.slug}&sort=new$`));
    await expectGrid(page, [newer, older]);

    // Cast words are found too, and the search box keeps the category and sort.
    await page.getByLabel("Search titles").fill("nuhu");
    await page.getByRole("main").getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=nuhu&category=${category.slug}&sort=new$`));
    await expectGrid(page, [newer]);

    // Nothing found: an empty state with a way back.
    await page.getByLabel("Search titles").fill(`${word}zzz nothing`);
    await page.getByRole("main").getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("empty-results")).toContainText("No titles match your search.");
    await page.getByRole("link", { name: "Back to all categories" }).click();
    await expect(page).toHaveURL(/\/moviecategory$/);
    await expect(page.getByTestId("category-tiles")).toBeVisible();

    // Garbage is just an empty search, never an error.
    for (const garbage of ['"', "*", "AND(", "NEAR"]) {
      const response = await page.goto(`/moviecategory?q=${encodeURIComponent(garbage)}`);
      expect(response?.status(), garbage).toBe(200);
    }
    // Other tests count the featured titles: this one was only needed here.
    e2eDb().update(movies).set({ featured: false }).where(eq(movies.id, older)).run();
  });

  test(`a viewer filters, searches, removes from and clears the history — ${mode}`, async ({ page }) => {
    const viewer = await createViewer("history");
    const provider = await createApprovedProvider("history");
    const category = createCategory("Tarihi");
    const word = uniqueWord("dawakin");
    const recent = createTitle({
      name: `Recent ${word}`,
      categoryId: category.id,
      providerId: provider.id,
      withMedia: true,
    });
    const older = createTitle({
      name: `Older film ${word.slice(0, 10)}`,
      description: "Seen long ago",
      categoryId: category.id,
      providerId: provider.id,
      withMedia: true,
    });
    const now = Date.now();
    recordProgress(
      e2eDb(),
      { accountId: viewer.id, profileId: viewer.id, movieId: older, positionSeconds: 1 },
      new Date(now - 400 * 24 * 3600 * 1000),
    );
    recordProgress(
      e2eDb(),
      { accountId: viewer.id, profileId: viewer.id, movieId: recent, positionSeconds: 3 },
      new Date(now - 60_000),
    );

    await signIn(page, viewer);
    // Reached from the avatar menu.
    await page.getByLabel("Account menu").click();
    await page.getByRole("link", { name: "History", exact: true }).click();
    await expect(page).toHaveURL(/\/history$/);
    await expect.poll(() => listIds(page, "history-list")).toEqual([recent, older]);
    const row = page.locator(`[data-testid=history-list] > li[data-movie-id="${recent}"]`);
    await expect(row.getByRole("progressbar")).toHaveAttribute("aria-valuenow", /\d+/);
    await expect(row.getByRole("link", { name: `Continue watching Recent ${word}` })).toHaveAttribute(
      "href",
      `/WatchMovie?id=${recent}`,
    );

    await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Month" }).click();
    await expect(page).toHaveURL(/\/history\?period=month$/);
    await expect.poll(() => listIds(page, "history-list")).toEqual([recent]);
    await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Recent" }).click();
    await expect(page).toHaveURL(/\/history\?period=recent$/);
    await expect.poll(() => listIds(page, "history-list")).toEqual([recent]);
    await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Year" }).click();
    await expect(page).toHaveURL(/\/history\?period=year$/);
    await expect.poll(() => listIds(page, "history-list")).toEqual([recent]);
    await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "All" }).click();
    await expect(page).toHaveURL(/\/history$/);
    await expect.poll(() => listIds(page, "history-list")).toEqual([recent, older]);

    await page.getByLabel("Search your history").fill("long ago");
    await page.getByRole("main").getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/history\?q=long\+ago$/);
    await expect.poll(() => listIds(page, "history-list")).toEqual([older]);
    await page.goto("/history?period=month&q=long");
    await expect(page.getByTestId("empty-history")).toContainText("Nothing in your history matches this choice.");

    await page.goto("/history");
    await page.getByRole("button", { name: `Remove Recent ${word} from your history` }).click();
    await expect.poll(() => listIds(page, "history-list")).toEqual([older]);
    if (javaScriptEnabled)
      await expect(page.getByRole("status").filter({ hasText: "Removed from your history" })).toBeVisible();

    // Clearing asks first; Cancel keeps everything.
    await page.getByRole("link", { name: "Clear history" }).click();
    await expect(page).toHaveURL(/\/history\?confirm=clear$/);
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/history$/);
    await expect.poll(() => listIds(page, "history-list")).toEqual([older]);
    await page.getByRole("link", { name: "Clear history" }).click();
    await page.getByRole("button", { name: "Yes, clear my history" }).click();
    await expect(page.getByTestId("empty-history")).toContainText("You have not watched anything yet.");
    const visible = e2eDb()
      .select()
      .from(watchEvents)
      .where(eq(watchEvents.accountId, viewer.id))
      .all()
      .filter((event) => event.hiddenAt === null);
    expect(visible).toHaveLength(0);
  });

  test(`a viewer sees, and empties, the watch-later and saved lists — ${mode}`, async ({ page }) => {
    const viewer = await createViewer("lists");
    const provider = await createApprovedProvider("lists");
    const category = createCategory("Jeri");
    const later = createTitle({
      name: `Later ${uniqueWord("x")}`,
      categoryId: category.id,
      providerId: provider.id,
      withMedia: true,
    });
    const kept = createTitle({
      name: `Kept ${uniqueWord("y")}`,
      categoryId: category.id,
      providerId: provider.id,
      withMedia: true,
    });
    await signIn(page, viewer);

    await page.goto(`/WatchMovie?id=${later}`);
    await page.getByRole("button", { name: "Add to watch later" }).click();
    await expect(page.getByRole("button", { name: "Remove from watch later" })).toBeVisible();
    await page.goto(`/WatchMovie?id=${kept}`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("button", { name: "Remove from saved" })).toBeVisible();

    await page.getByLabel("Account menu").click();
    await page.getByRole("link", { name: "Watch later", exact: true }).click();
    await expect(page).toHaveURL(/\/watch-later$/);
    await expect.poll(() => listIds(page, "saved-list")).toEqual([later]);
    await page.getByRole("navigation", { name: "Your titles" }).getByRole("link", { name: "Saved" }).click();
    await expect(page).toHaveURL(/\/saved$/);
    await expect.poll(() => listIds(page, "saved-list")).toEqual([kept]);
    await page.getByRole("button", { name: /^Remove Kept .* from this list$/ }).click();
    await expect(page.getByTestId("empty-list")).toBeVisible();

    await page.goto("/watch-later");
    await page.getByRole("button", { name: /^Remove Later .* from this list$/ }).click();
    await expect(page).toHaveURL(/\/watch-later$/);
    await expect(page.getByTestId("empty-list")).toBeVisible();
    expect(e2eDb().select().from(savedMovies).where(eq(savedMovies.accountId, viewer.id)).all()).toHaveLength(0);
  });

  test(`the bell tells a viewer of a new title in a category they watch, and is read once seen — ${mode}`, async ({
    page,
    browser,
  }) => {
    const viewer = await createViewer("bell");
    const bystander = await createViewer("bystander");
    const provider = await createApprovedProvider("bell");
    const category = createCategory("Sanarwa");
    const other = createCategory("Wani");
    const watched = createTitle({
      name: `Watched ${uniqueWord("w")}`,
      categoryId: category.id,
      providerId: provider.id,
    });
    const elsewhere = createTitle({
      name: `Elsewhere ${uniqueWord("e")}`,
      categoryId: other.id,
      providerId: provider.id,
    });
    recordProgress(e2eDb(), { accountId: viewer.id, profileId: viewer.id, movieId: watched, positionSeconds: 2 });
    recordProgress(e2eDb(), {
      accountId: bystander.id,
      profileId: bystander.id,
      movieId: elsewhere,
      positionSeconds: 2,
    });
    const name = `Brand new ${uniqueWord("n")}`;
    const fresh = createTitle({ name, categoryId: category.id, providerId: provider.id, approved: false });

    await approveAsAdmin(browser, fresh, name);
    // Its viewers are told of the new title (its provider, of the approval: a notice of its own kind).
    const mine = e2eDb()
      .select()
      .from(notifications)
      .where(and(eq(notifications.movieId, fresh), eq(notifications.kind, NEW_TITLE_KIND)))
      .all();
    expect(mine.map((n) => n.accountId)).toEqual([viewer.id]);

    await signIn(page, viewer);
    const bell = page.getByRole("banner").getByRole("link", { name: "Notifications, 1 unread" });
    await expect(bell).toBeVisible();
    await bell.click();
    await expect(page).toHaveURL(/\/notifications$/);
    const item = page.locator(`[data-notification-id="${mine[0].id}"]`);
    await expect(item).toContainText(`New in ${category.name}: ${name}`);
    if (!javaScriptEnabled) {
      // Without JavaScript the viewer marks them read with the button.
      await page.getByRole("button", { name: "Mark all as read" }).click();
    }
    await expect(item).toHaveAttribute("data-read", "true");
    await expect(page.getByRole("banner").getByRole("link", { name: "Notifications", exact: true })).toBeVisible();
    expect(e2eDb().select().from(notifications).where(eq(notifications.id, mine[0].id)).get()?.readAt).not.toBeNull();
    // Opening it goes to the title.
    await item.getByRole("button", { name: "Open" }).click();
    await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${fresh}$`));
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  });
});

async function approveAsAdmin(browser: Browser, movieId: string, name: string) {
  const admin = await createAdmin("bell-approver");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await signIn(page, admin);
    await page.goto("/admin/movies?status=waiting");
    await page
      .locator(`tr[data-movie-id="${movieId}"]`)
      .getByRole("button", { name: `Approve ${name}` })
      .click();
    await expect(page.locator(`tr[data-movie-id="${movieId}"]`)).toHaveCount(0);
  } finally {
    await context.close();
  }
}

test("a viewer plays a title with JavaScript; /history shows it and the Month filter keeps it", async ({ page }) => {
  const viewer = await createViewer("played");
  const provider = await createApprovedProvider("played");
  const category = createCategory("Kallo");
  const name = `Played ${uniqueWord("p")}`;
  const movieId = createTitle({ name, categoryId: category.id, providerId: provider.id, withMedia: true });
  await signIn(page, viewer);
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.locator("video");
  await pressPlay(video, movieId);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(2);
  const stoppedAt = await video.evaluate((element: HTMLVideoElement) => {
    element.pause();
    return element.currentTime;
  });
  // The pause beacon records where the viewer stopped.
  const position = () =>
    e2eDb()
      .select({ position: watchEvents.positionSeconds })
      .from(watchEvents)
      .where(eq(watchEvents.accountId, viewer.id))
      .all();
  await expect.poll(() => position().map((row) => row.position)).toEqual([Math.floor(stoppedAt)]);
  const recorded = position()[0].position;

  await page.goto("/history?period=month");
  const row = page.locator(`[data-testid=history-list] > li[data-movie-id="${movieId}"]`);
  await expect(row).toContainText(name);
  await expect(row).toContainText(`${Math.floor(recorded / 60)}:${String(recorded % 60).padStart(2, "0")} of`);
  await row.getByRole("link", { name: `Continue watching ${name}` }).click();
  // The player starts where the viewer stopped once play is pressed (no film is fetched before).
  await expect(page.locator("video")).toHaveAttribute("data-resume-seconds", String(recorded));
  await pressPlay(page.locator("video"), movieId);
  expect(
    await page.locator("video").evaluate((element: HTMLVideoElement) => element.currentTime),
  ).toBeGreaterThanOrEqual(recorded - 1);
});

test("a provider is refused the library pages; a signed-out visitor is sent to sign in", async ({ page, browser }) => {
  const provider = await createApprovedProvider("library");
  await signInThroughForm(page, "/cp", provider.email, provider.password);
  await expect(page).not.toHaveURL(/\/cp/);
  for (const path of ["/moviecategory", "/history", "/watch-later", "/saved"]) {
    expect((await page.goto(path))?.status(), path).toBe(403);
  }
  for (const [path, form] of [
    ["/history", { intent: "delete" }],
    ["/saved", { intent: "remove", movieId: "x" }],
  ] as const) {
    expect((await page.request.post(path, { form, maxRedirects: 0 })).status(), path).toBe(403);
  }

  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  for (const path of ["/moviecategory?q=kano", "/history?period=month", "/watch-later", "/saved"]) {
    await visitor.goto(path);
    expect(new URL(visitor.url()).pathname, path).toBe("/login");
    expect(new URL(visitor.url()).searchParams.get("redirectTo"), path).toBe(path);
  }
  await anonymous.close();
});

test("removing from someone else's history changes nothing", async ({ page }) => {
  const owner = await createViewer("owner");
  const other = await createViewer("intruder");
  const provider = await createApprovedProvider("owner");
  const category = createCategory("Mallaka");
  const movieId = createTitle({ name: `Owned ${uniqueWord("o")}`, categoryId: category.id, providerId: provider.id });
  recordProgress(e2eDb(), { accountId: owner.id, profileId: owner.id, movieId, positionSeconds: 2 });
  await signIn(page, other);
  const response = await page.request.post("/history", { form: { intent: "remove", movieId }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
  const ownerEvents = e2eDb().select().from(watchEvents).where(eq(watchEvents.accountId, owner.id)).all();
  expect(ownerEvents.map((event) => event.hiddenAt)).toEqual([null]);
  expect((await page.request.post("/history", { form: { intent: "bogus" }, maxRedirects: 0 })).status()).toBe(400);
});

test("the landing page's New carousel shows the newest published title, never an unpublished one", async ({ page }) => {
  const provider = await createApprovedProvider("newest");
  const category = createCategory("Sabo");
  const name = `Newest ${uniqueWord("n")}`;
  const hiddenName = `Unapproved ${uniqueWord("u")}`;
  createTitle({ name, categoryId: category.id, providerId: provider.id, withMedia: true });
  createTitle({
    name: hiddenName,
    categoryId: category.id,
    providerId: provider.id,
    approved: false,
    uploadedAt: new Date(Date.now() + 60_000),
  });
  await page.goto("/");
  const section = page.locator('[data-section="new"]');
  await expect(section.getByRole("heading", { name: "New", exact: true })).toBeVisible();
  await expect(section.getByText(name, { exact: true }).first()).toBeAttached();
  await expect(section.getByText(hiddenName)).toHaveCount(0);
});

test("the library pages have no serious accessibility problems", async ({ page }) => {
  const viewer = await createViewer("axe");
  const provider = await createApprovedProvider("axe");
  const category = createCategory("Axe");
  const movieId = createTitle({
    name: `Checked ${uniqueWord("a")}`,
    categoryId: category.id,
    providerId: provider.id,
    withMedia: true,
  });
  recordProgress(e2eDb(), { accountId: viewer.id, profileId: viewer.id, movieId, positionSeconds: 2 });
  await signIn(page, viewer);
  for (const path of [
    "/moviecategory",
    "/moviecategory?q=zzzznothing",
    "/history",
    "/history?confirm=clear",
    "/watch-later",
  ]) {
    await expectNoSeriousAccessibilityProblems(page, path);
  }
});

import { eq } from "drizzle-orm";
import { movies, watchEvents } from "../../app/db/schema";
import { createApprovedProvider, createViewer, signedInContext } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, uniqueWord } from "./fixtures/titles";

/**
 * A creator watches their own titles: from the studio's title page, in any
 * state (waiting for approval here), without a pass, and never counted as a
 * view; the viewers' watch page sends them to the same preview; another
 * provider's title is not theirs to see, and viewers and visitors are refused.
 */

test("a provider watches their own title while it waits for approval, without a pass and without a view counted", async ({
  browser,
}) => {
  const provider = await createApprovedProvider("preview");
  const category = createCategory("Preview");
  const name = `Preview ${uniqueWord("p")}`;
  const movieId = createTitle({
    name,
    categoryId: category.id,
    providerId: provider.id,
    approved: false,
    withMedia: true,
  });
  const { context, page } = await signedInContext(browser, provider, {
    viewport: { width: 360, height: 740 },
    hasTouch: true,
    isMobile: true,
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  await page.goto(`/provider/movie/${movieId}`);
  await expect(page.getByText("Waiting for an administrator's approval")).toBeVisible();
  await page.getByRole("link", { name: "Watch page" }).click();
  await expect(page).toHaveURL(new RegExp(`/provider/movie/${movieId}/watch$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Watching “${name}”`);

  const video = page.getByTestId("player");
  await page.getByTestId("player-play").click();
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 1), {
      timeout: 20_000,
    })
    .toBe(true);
  await video.evaluate((element: HTMLVideoElement) => element.pause());
  // Never a viewing: no progress row, no view.
  await page.waitForTimeout(500);
  expect(e2eDb().select().from(watchEvents).where(eq(watchEvents.accountId, provider.id)).all()).toEqual([]);
  expect(e2eDb().select({ views: movies.views }).from(movies).where(eq(movies.id, movieId)).get()?.views).toBe(0);

  // The viewers' watch page (the landing page's Watch Now, an old link) sends them to the same preview.
  await page.goto(`/WatchMovie?id=${movieId}`);
  await expect(page).toHaveURL(new RegExp(`/provider/movie/${movieId}/watch$`));

  // Another provider's title is not found here.
  const other = await createApprovedProvider("preview-other");
  const theirs = createTitle({ name: `Theirs ${uniqueWord("t")}`, categoryId: category.id, providerId: other.id });
  const refused = await page.goto(`/provider/movie/${theirs}/watch`);
  expect(refused?.status()).toBe(404);
  expect(errors).toEqual([]);
  await context.close();

  // A viewer, and a visitor, are refused the studio's preview on the server.
  const viewer = await createViewer("preview-viewer");
  const watching = await signedInContext(browser, viewer);
  expect((await watching.page.request.get(`/provider/movie/${movieId}/watch`)).status()).toBe(403);
  await watching.context.close();
  const visitor = await browser.newContext();
  const anonymous = await visitor.request.get(`/provider/movie/${movieId}/watch`, { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  expect(anonymous.headers().location).toContain("/cp?redirectTo=");
  await visitor.close();
});

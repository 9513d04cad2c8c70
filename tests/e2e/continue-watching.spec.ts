import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { movies, seasons, series, watchEvents } from "../../app/db/schema";
import { createId } from "../../app/utils/ids.server";
import { createApprovedProvider, createViewer, signInThroughForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { describeBothWays, expect, test } from "./fixtures/test";
import { createCategory, createTitle, pressPlay, uniqueWord } from "./fixtures/titles";

/**
 * "Continue watching", first on the home page and /movies for a signed-in
 * viewer: where they stopped, an episode named "Series · S1E2", and a Remove
 * that takes an entry out of the row (not out of the history) — with and
 * without JavaScript.
 */

function viewing(viewer: TestAccount, movieId: string, positionSeconds: number, secondsAgo: number) {
  const at = new Date(Date.now() - secondsAgo * 1000);
  e2eDb()
    .insert(watchEvents)
    .values({ id: createId(), accountId: viewer.id, movieId, startedAt: at, updatedAt: at, positionSeconds })
    .run();
}

async function rowOf(page: Page) {
  return page
    .getByTestId("continue-watching")
    .locator("li")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-movie-id")));
}

describeBothWays("Continue watching", ({ mode }) => {
  test(`a viewer picks up a film and an episode where they stopped, and takes one out of the row — ${mode}`, async ({
    page,
  }) => {
    test.slow();
    const provider = await createApprovedProvider("continue");
    const category = createCategory("Continue");
    const film = createTitle({
      name: uniqueWord("Tafiya "),
      categoryId: category.id,
      providerId: provider.id,
      withMedia: true,
    });
    const seriesId = createId();
    const seriesName = uniqueWord("Gidan ");
    e2eDb()
      .insert(series)
      .values({ id: seriesId, name: seriesName, categoryId: category.id, providerId: provider.id, approved: true })
      .run();
    const seasonId = createId();
    e2eDb().insert(seasons).values({ id: seasonId, seriesId, number: 1 }).run();
    const episodes = [1, 2].map((number) => {
      const id = createTitle({
        name: number === 1 ? "Sabon Mai Gida" : "Ranar Kuɗin Haya",
        categoryId: category.id,
        providerId: provider.id,
        withMedia: true,
      });
      e2eDb().update(movies).set({ seasonId, episodeNumber: number }).where(eq(movies.id, id)).run();
      return id;
    });
    const duration = e2eDb().select({ seconds: movies.durationSeconds }).from(movies).where(eq(movies.id, film)).get()!
      .seconds;
    expect(duration, "a demo film of a few seconds").toBeGreaterThan(4);

    const viewer = await createViewer("continue");
    viewing(viewer, film, 3, 120);
    viewing(viewer, episodes[1], 2, 60);

    await signInThroughForm(page, "/login", viewer.email, viewer.password);
    await expect(page).toHaveURL(/\/movies$/);

    // First on /movies and on the home page, newest first.
    for (const path of ["/movies", "/"]) {
      await page.goto(path);
      const row = page.getByRole("region", { name: "Continue watching" });
      await expect(row).toBeVisible();
      expect(
        await page.evaluate(() => document.querySelector("main")!.querySelector("section, [data-section]")?.id),
        "the row comes first",
      ).toBe("continue-watching");
      expect(await rowOf(page)).toEqual([episodes[1], film]);
      const episode = row.locator(`li[data-movie-id="${episodes[1]}"]`);
      await expect(episode).toContainText(`${seriesName} · S1E2`);
      await expect(episode).toContainText("Ranar Kuɗin Haya");
      await expect(episode).toContainText("Resume from 0:02");
      await expect(row.locator(`li[data-movie-id="${film}"]`)).toContainText("Resume from 0:03");
      await expect(episode.getByRole("progressbar")).toHaveAttribute("aria-valuenow", /^[1-9]\d?$/);
    }

    // An entry opens the title's page.
    await page
      .getByTestId("continue-watching")
      .locator(`li[data-movie-id="${film}"]`)
      .getByRole("link")
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${film}$`));

    // Remove takes it out of the row, with a toast; the history keeps it.
    await page.goto("/");
    const filmEntry = page.getByTestId("continue-watching").locator(`li[data-movie-id="${film}"]`);
    await filmEntry.getByRole("button", { name: /^Remove .* from Continue watching$/ }).click();
    await expect(page.getByText("Removed from Continue watching. It stays in your history.")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect.poll(() => rowOf(page)).toEqual([episodes[1]]);
    await page.goto("/movies");
    expect(await rowOf(page)).toEqual([episodes[1]]);
    await page.goto("/history");
    await expect(page.locator(`[data-movie-id="${film}"]`).first()).toBeVisible();

    // Watching it again (after the removal) brings it back.
    viewing(viewer, film, 4, 0);
    await page.goto("/movies");
    expect(await rowOf(page)).toEqual([film, episodes[1]]);

    // A series has one entry, at its latest viewing.
    viewing(viewer, episodes[0], 1, 0);
    await page.goto("/movies");
    expect(await rowOf(page)).toEqual([episodes[0], film]);
    await expect(page.getByTestId("continue-watching")).toContainText(`${seriesName} · S1E1`);
  });

  test(`a viewer with nothing started sees no row — ${mode}`, async ({ page }) => {
    const viewer = await createViewer("continue-none");
    await signInThroughForm(page, "/login", viewer.email, viewer.password);
    await expect(page).toHaveURL(/\/movies$/);
    await expect(page.getByRole("region", { name: "Continue watching" })).toHaveCount(0);
    await page.goto("/");
    await expect(page.getByRole("region", { name: "Continue watching" })).toHaveCount(0);
  });
});

test("a signed-out visitor who posts a removal is sent to sign in", async ({ request }) => {
  const answer = await request.post("/continue-watching", {
    form: { movieId: "demomovie01", redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
  expect(answer.headers()["location"]).toMatch(/^\/login\?redirectTo=/);
});

test("a film left while playing is in Continue watching at once, where it was left — with JavaScript", async ({
  page,
}) => {
  const provider = await createApprovedProvider("continue-leave");
  const film = createTitle({
    name: uniqueWord("Hanya "),
    categoryId: createCategory("Leaving").id,
    providerId: provider.id,
    withMedia: true,
  });
  const viewer = await createViewer("continue-leave");
  await signInThroughForm(page, "/login", viewer.email, viewer.password);
  await expect(page).toHaveURL(/\/movies$/);
  await page.goto(`/WatchMovie?id=${film}`);
  const video = page.locator("video");
  await pressPlay(video, film);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(2);
  // Playing, with the last report at 0:00 (the next is due 10 s later): the home page, through the app's own link.
  await page.getByRole("banner").getByRole("link", { name: "Kallo", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  const entry = page.getByTestId("continue-watching").locator(`li[data-movie-id="${film}"]`);
  await expect(entry).toContainText(/Resume from 0:0[2-9]/, { timeout: 1_000 });
});

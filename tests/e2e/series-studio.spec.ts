import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import type { Browser, Page } from "@playwright/test";
import { accounts, movies, seasons, series, subtitles } from "../../app/db/schema";
import { saveSubtitle } from "../../app/services/subtitles.server";
import { makeVideoFixture } from "../fixtures/media";
import { createAdmin, createApprovedProvider, createViewer, signedInContext } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, openPlaybackSettings, uniqueWord } from "./fixtures/titles";

/**
 * The series forms as people use them, with and without JavaScript: a
 * provider makes a series, adds a season, uploads an episode into it from the
 * upload page, edits its details, renumbers the season's episodes and deletes
 * them and then the series; an administrator approves, features and prices
 * the series on /admin/series and removes an episode's subtitles; a viewer on
 * data saver chooses whether next episodes start by themselves.
 */

const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-e2e-series-"));
let film: string;
let categoryName: string;
let categoryId: string;

test.beforeAll(async () => {
  film = await makeVideoFixture(fixtures, "mp4-moov-at-end", 2);
  ({ name: categoryName, id: categoryId } = createCategory("Series studio"));
});

async function signedIn(browser: Browser, account: TestAccount, javaScriptEnabled: boolean): Promise<Page> {
  return (await signedInContext(browser, account, { baseURL: process.env.E2E_BASE_URL, javaScriptEnabled })).page;
}

const episodesOf = (seasonId: string) =>
  e2eDb()
    .select({ id: movies.id, name: movies.name, number: movies.episodeNumber })
    .from(movies)
    .where(eq(movies.seasonId, seasonId))
    .orderBy(asc(movies.episodeNumber))
    .all();

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`a provider makes a series, a season and its episodes; an administrator publishes it — ${mode}`, async ({
    browser,
  }) => {
    test.slow();
    const provider = await createApprovedProvider(`series-studio-${javaScriptEnabled ? "js" : "nojs"}`);
    const page = await signedIn(browser, provider, javaScriptEnabled);
    const name = uniqueWord("Zaman Gida ");

    // The series.
    await page.goto("/provider/series");
    await page.getByLabel("Series title").fill(name);
    await page.getByLabel("Description").fill("A family drama in a Zaria compound.");
    await page.getByLabel("Category").selectOption({ label: categoryName });
    await page.getByLabel("Cast").fill("Ali Nuhu, Hadiza Gabon");
    await page.getByRole("button", { name: "Create series" }).click();
    await expect(page).toHaveURL(/\/provider\/series\/[a-z0-9]+$/);
    await expect(page.getByText("Series created. Add its first season and upload episodes into it.")).toBeVisible();
    const made = e2eDb().select().from(series).where(eq(series.name, name)).get()!;
    expect(made).toMatchObject({ providerId: provider.id, categoryId, approved: false });
    await page.getByLabel("Cast").fill("Ali Nuhu, Hadiza Gabon, Sani Danja");
    await page.getByRole("button", { name: "Save details" }).click();
    await expect(page.getByText("Series details saved")).toBeVisible();
    expect(e2eDb().select().from(series).where(eq(series.id, made.id)).get()?.cast).toBe(
      "Ali Nuhu, Hadiza Gabon, Sani Danja",
    );

    // A season.
    await page.getByRole("button", { name: "Add season 1" }).click();
    await expect(page.getByText("Season 1 added")).toBeVisible();
    const season = e2eDb().select().from(seasons).where(eq(seasons.seriesId, made.id)).get()!;
    expect(season.number).toBe(1);

    // An episode, uploaded into the season from the upload page.
    await page.getByRole("link", { name: "Upload an episode into season 1" }).click();
    await expect(page).toHaveURL(new RegExp(`/provider/Movieupload\\?season=${season.id}$`));
    await expect(page.getByLabel("Series and season")).toHaveValue(season.id);
    await page.getByLabel("Episode title").fill("Farko");
    await page.getByLabel("Description").fill("The first episode.");
    await page.getByLabel("Movie", { exact: true }).setInputFiles(film);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page).toHaveURL(/\/provider\/movielist$/);
    await expect(page.getByText("Movie uploaded successfully")).toBeVisible();
    expect(episodesOf(season.id)).toEqual([{ id: expect.any(String), name: "Farko", number: 1 }]);

    // A second episode (made directly: one upload per test is enough), then the two renumbered.
    const second = createTitle({ name: "Na Biyu", categoryId, providerId: provider.id });
    e2eDb().update(movies).set({ seasonId: season.id, episodeNumber: 2 }).where(eq(movies.id, second)).run();
    await page.goto(`/provider/series/${made.id}`);
    await page.getByLabel("Episode number of Farko").fill("2");
    await page.getByLabel("Episode number of Na Biyu").fill("1");
    await page.getByRole("button", { name: "Save episode numbers" }).click();
    await expect(page.getByText("Episode numbers saved")).toBeVisible();
    expect(episodesOf(season.id).map((episode) => [episode.name, episode.number])).toEqual([
      ["Na Biyu", 1],
      ["Farko", 2],
    ]);

    // Delete one, after confirming.
    await page.getByRole("link", { name: "Delete the episode Na Biyu" }).click();
    await page.getByRole("button", { name: "Delete the episode" }).click();
    await expect(page.getByText("Episode deleted")).toBeVisible();
    expect(episodesOf(season.id).map((episode) => episode.name)).toEqual(["Farko"]);

    // The administrator approves, features and prices it.
    const admin = await createAdmin(`series-admin-${javaScriptEnabled ? "js" : "nojs"}`);
    const adminPage = await signedIn(browser, admin, javaScriptEnabled);
    await adminPage.goto("/admin/series");
    const row = adminPage.locator(`tr[data-series-id="${made.id}"]`);
    await expect(row).toHaveAttribute("data-approved", "false");
    await row.getByRole("button", { name: `Approve ${name}` }).click();
    await expect(row).toHaveAttribute("data-approved", "true");
    await row.getByRole("button", { name: `Feature ${name}` }).click();
    await expect(row).toHaveAttribute("data-featured", "true");
    await row.getByRole("button", { name: `Make ${name} Premium` }).click();
    await expect(row).toHaveAttribute("data-access", "premium");
    expect(e2eDb().select().from(series).where(eq(series.id, made.id)).get()).toMatchObject({
      approved: true,
      featured: true,
      access: "premium",
    });
    // Its episode follows the series.
    expect(e2eDb().select().from(movies).where(eq(movies.seasonId, season.id)).get()).toMatchObject({
      approved: true,
      access: "premium",
    });

    // The administrator removes an episode's subtitles.
    const farko = episodesOf(season.id)[0]!;
    const saved = saveSubtitle(
      e2eDb(),
      {
        movieId: farko.id,
        language: "en",
        bytes: new TextEncoder().encode("WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nHello\n"),
      },
      process.env.E2E_STORAGE_DIR!,
    );
    expect(saved.ok).toBe(true);
    await adminPage.goto(`/admin/subtitles?id=${farko.id}`);
    await adminPage.getByRole("button", { name: "Delete the English subtitles" }).click();
    await expect(adminPage.getByText("Subtitles deleted")).toBeVisible();
    expect(e2eDb().select().from(subtitles).where(eq(subtitles.movieId, farko.id)).all()).toEqual([]);
    await adminPage.context().close();

    // With its last episode gone, the provider deletes the series.
    await page.goto(`/provider/series/${made.id}`);
    await page.getByRole("link", { name: "Delete the episode Farko" }).click();
    await page.getByRole("button", { name: "Delete the episode" }).click();
    await expect(page.getByText("Episode deleted")).toBeVisible();
    await page.getByRole("button", { name: "Delete this series" }).click();
    await expect(page).toHaveURL(/\/provider\/series$/);
    await expect(page.getByText("Series deleted")).toBeVisible();
    expect(e2eDb().select().from(series).where(eq(series.id, made.id)).get()).toBeUndefined();
    await page.context().close();
  });
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`a viewer on data saver chooses whether next episodes start by themselves — ${mode}`, async ({ browser }) => {
    const viewer = await createViewer(`autoplay-${javaScriptEnabled ? "js" : "nojs"}`);
    const page = await signedIn(browser, viewer, javaScriptEnabled);
    const choice = () =>
      e2eDb().select({ on: accounts.autoplayOnDataSaver }).from(accounts).where(eq(accounts.id, viewer.id)).get()?.on;
    await page.goto("/WatchMovie?id=demoepisode01");
    await openPlaybackSettings(page);
    await page.getByTestId("data-saver-toggle").click();
    await expect(page.getByText("With data saver on, next episodes wait for you.")).toBeVisible();
    await page.getByRole("button", { name: "Start them by themselves" }).click();
    await expect(page.getByText("Next episodes now start by themselves on data saver")).toBeVisible();
    await expect(page).toHaveURL(/\/WatchMovie\?id=demoepisode01$/);
    expect(choice()).toBe(true);
    await page.getByRole("button", { name: "Let them wait" }).click();
    await expect(page.getByText("Next episodes now wait for you on data saver")).toBeVisible();
    expect(choice()).toBe(false);
    await page.context().close();
  });
}

import { and, desc, eq } from "drizzle-orm";
import type { Locator, Page } from "@playwright/test";
import { watchEvents } from "../../app/db/schema";
import { createViewer, signInThroughForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { describeBothWays, expect, test } from "./fixtures/test";
import { expectAdaptiveStream, openPlaybackSettings, pressPlay } from "./fixtures/titles";

/**
 * A viewer finds the demo series, opens its page, plays the first episode
 * with Hausa subtitles, goes on to the second from the end card (the countdown with JavaScript, the
 * link without), and "Continue" on the series page brings them back to where
 * they stopped — with and without JavaScript. The old apps' list names the
 * episodes with their series.
 */

const SERIES_ID = "demoseries01";
const FIRST = "demoepisode01";
const SECOND = "demoepisode02";
/** The demo's Hausa subtitles on the first episode begin with this line (0.5 s to 2.5 s). */
const FIRST_HAUSA_CUE = "Ina ka je tun safe?";

/** The cues of the video's track in `language` that are on screen now. */
function activeCues(video: Locator, language: string) {
  return video.evaluate((element: HTMLVideoElement, wanted) => {
    const track = Array.from(element.textTracks).find((candidate) => candidate.language === wanted);
    return track?.activeCues ? Array.from(track.activeCues).map((cue) => (cue as VTTCue).text) : [];
  }, language);
}

async function signIn(page: Page, viewer: TestAccount) {
  await signInThroughForm(page, "/login", viewer.email, viewer.password);
  await expect(page).not.toHaveURL(/\/login/);
}

/** Where this viewer's latest viewing of a title stopped, as the server recorded it. */
const recordedPosition = (viewer: TestAccount, movieId: string) =>
  e2eDb()
    .select({ position: watchEvents.positionSeconds })
    .from(watchEvents)
    .where(and(eq(watchEvents.accountId, viewer.id), eq(watchEvents.movieId, movieId)))
    .orderBy(desc(watchEvents.updatedAt))
    .get()?.position;

describeBothWays("a series", ({ javaScriptEnabled, mode }) => {
  test(`a viewer opens the series, plays episode 1 with Hausa subtitles, goes on to episode 2 from its end, and Continue resumes it — ${mode}`, async ({
    page,
  }) => {
    const viewer = await createViewer(javaScriptEnabled ? "series-js" : "series-nojs");
    await signIn(page, viewer);

    // The series is one card in search, never its episodes.
    await page.goto("/moviecategory?q=Gidan%20Haya");
    const grid = page.getByTestId("movie-grid");
    await expect(grid.locator(`li[data-movie-id="${SERIES_ID}"]`)).toHaveCount(1);
    await expect(grid.locator(`li[data-movie-id="${FIRST}"]`)).toHaveCount(0);
    await grid.getByRole("link", { name: "Gidan Haya" }).click();

    await expect(page).toHaveURL(new RegExp(`/series/${SERIES_ID}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Gidan Haya" })).toBeVisible();
    // One season at a time: the one Continue opens; the other is a tab (a link) away.
    await expect(page.getByTestId("season-1").locator("li")).toHaveCount(2);
    await expect(page.getByTestId("season-2")).toHaveCount(0);
    const seasons = page.getByRole("navigation", { name: "Seasons" });
    await seasons.getByRole("link", { name: "Season 2" }).click();
    await expect(page).toHaveURL(new RegExp(`/series/${SERIES_ID}\\?season=2#episodes$`));
    await expect(page.getByTestId("season-2").locator("li")).toHaveCount(1);
    await expect(page.getByTestId("season-1")).toHaveCount(0);
    await expect(seasons.getByRole("link", { name: "Season 2" })).toHaveAttribute("aria-current", "page");
    await seasons.getByRole("link", { name: "Season 1" }).click();
    await expect(page.getByTestId("season-1").locator("li")).toHaveCount(2);
    const start = page.getByTestId("continue");
    await expect(start).toHaveText("Play S1E1");
    await start.click();

    await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${FIRST}$`));
    await expect(page.getByTestId("episode-of")).toHaveText("Gidan Haya · Season 1 · Episode 1");
    await expect(page.getByTestId("episode-of").getByRole("link", { name: "Gidan Haya" })).toHaveAttribute(
      "href",
      `/series/${SERIES_ID}`,
    );
    const video = page.locator("video");

    if (javaScriptEnabled) {
      // Hausa subtitles from the menu: the first cue is in the rendered track while it is on screen.
      await openPlaybackSettings(page);
      await page.getByLabel("Subtitles", { exact: true }).selectOption({ label: "Hausa" });
      await pressPlay(video, FIRST);
      await video.evaluate((element: HTMLVideoElement) => {
        element.pause();
        element.currentTime = 1;
      });
      await expect.poll(() => activeCues(video, "ha"), { timeout: 15_000 }).toEqual([FIRST_HAUSA_CUE]);
      // Played to its end: the card counts down and starts episode 2 by itself.
      await video.evaluate((element: HTMLVideoElement) => {
        element.currentTime = Math.max(0, element.duration - 0.4);
        void element.play();
      });
      const card = page.getByTestId("next-episode-card");
      await expect(card).toBeVisible({ timeout: 15_000 });
      await expect(card).toContainText("S1E2 · Ranar Kuɗin Haya");
      await expect(page.getByTestId("next-episode-countdown")).toHaveText(/Starts in \d+ seconds?/);
      await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${SECOND}&autoplay=1$`), { timeout: 20_000 });
      await expect(page.getByTestId("episode-of")).toHaveText("Gidan Haya · Season 1 · Episode 2");
      const next = page.locator("video");
      await expectAdaptiveStream(next, SECOND, true);
      await expect
        .poll(() => next.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
        .toBeGreaterThan(0.5);
      // The first episode was recorded as watched to its end.
      expect(recordedPosition(viewer, FIRST)).toBeGreaterThanOrEqual(5);
      // Stop a few seconds in: the pause tells the server where.
      await next.evaluate((element: HTMLVideoElement) => {
        element.currentTime = 3.2;
        element.pause();
      });
      await expect.poll(() => recordedPosition(viewer, SECOND), { timeout: 10_000 }).toBe(3);
    } else {
      // Hausa subtitles chosen with the menu's form: the page comes back with the Hausa track as the default.
      await openPlaybackSettings(page);
      await page.getByLabel("Subtitles", { exact: true }).selectOption("ha");
      await page.getByTestId("subtitle-choices").getByRole("button", { name: "Apply" }).click();
      const track = video.locator('track[kind="subtitles"][srclang="ha"]');
      await expect(track).toHaveAttribute("default", "");
      const file = await page.request.get((await track.getAttribute("src"))!);
      expect(await file.text()).toContain(FIRST_HAUSA_CUE);
      // Without JavaScript the end card is a link under the player.
      await expectAdaptiveStream(video, FIRST, false);
      await page.getByTestId("next-episode-link").click();
      await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${SECOND}$`));
      await expect(page.getByTestId("episode-of")).toHaveText("Gidan Haya · Season 1 · Episode 2");
      // The browser's own player reports where the viewer stopped, as the page's player would.
      const report = await page.request.post("/watch-progress", {
        multipart: { movieId: SECOND, positionSeconds: "3", event: "stop" },
      });
      expect(report.status()).toBe(200);
      expect(recordedPosition(viewer, SECOND)).toBe(3);
    }

    // Continue on the series page opens episode 2 where it stopped.
    await page.goto(`/series/${SERIES_ID}`);
    const resume = page.getByTestId("continue");
    await expect(resume).toHaveText("Continue S1E2");
    await expect(resume).toHaveAttribute("data-position", "3");
    await expect(page.locator(`li[data-episode-id="${SECOND}"]`)).toContainText("Stopped at 0:03");
    await resume.click();
    await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${SECOND}$`));
    await expect(page.locator("video")).toHaveAttribute("data-resume-seconds", "3");
  });
});

test("the old apps' list has every episode, named with its series", async ({ request }) => {
  const names: string[] = [];
  for (let page = 1; page <= 20; page++) {
    const response = await request.get(`/api/movies/all?page=${page}`);
    expect(response.status()).toBe(200);
    const titles = (await response.json()) as Array<{ _id: string; MovieName: string; filename: string }>;
    names.push(...titles.map((title) => title.MovieName));
    if (titles.length < 100) break;
  }
  expect(names).toEqual(
    expect.arrayContaining([
      "Gidan Haya — S1E1 Sabon Mai Gida",
      "Gidan Haya — S1E2 Ranar Kuɗin Haya",
      "Gidan Haya — S2E1 Sabuwar Shekara",
    ]),
  );
});

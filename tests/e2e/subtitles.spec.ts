import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { subtitles } from "../../app/db/schema";
import { createApprovedProvider, createViewer, signInThroughForm, openUploadForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, openPlaybackSettings, startPlaying, uniqueWord } from "./fixtures/titles";

/**
 * Subtitles as people meet them: a provider attaches a Hausa file to a title
 * in the studio, a viewer picks Hausa on the watch page and reads the cue in
 * the player (the player attached), the choice is remembered, a download takes
 * the subtitles along and the offline player shows them; and the same forms
 * and tracks without JavaScript. Each test has its own title (a copy of a
 * demo film with its ladder; the film is at least six seconds long). Each
 * test is a two-person flow (a studio and a viewer), so each has the slow
 * tests' time.
 */
const HAUSA_SRT = [
  "1",
  "00:00:01,000 --> 00:00:03,000",
  '<font color="yellow">Ina ka je tun safe?</font>',
  "",
  "2",
  "00:00:03,500 --> 00:00:05,500",
  "{\\an8}Na je <i>kasuwa</i>.",
  "",
].join("\r\n");
const FIRST_CUE = "Ina ka je tun safe?";

let provider: TestAccount;
let categoryId: string;

test.beforeAll(async () => {
  provider = await createApprovedProvider("subtitles-provider");
  categoryId = createCategory("Subtitles").id;
});

function newTitle(): { id: string; name: string } {
  const name = uniqueWord("Fassara ");
  return { id: createTitle({ name, categoryId, providerId: provider.id, withMedia: true }), name };
}

function randomAddress(): string {
  return `10.77.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
}

async function newPerson(
  browser: Browser,
  javaScriptEnabled: boolean,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    javaScriptEnabled,
    extraHTTPHeaders: { "X-Forwarded-For": randomAddress() },
  });
  return { context, page: await context.newPage() };
}

/** The provider's studio: from the title list to the title's subtitles page, then the form. */
async function attachHausa(page: Page, title: { id: string; name: string }, file = HAUSA_SRT) {
  await page.goto("/provider/movielist");
  await page.getByRole("link", { name: `Subtitles of ${title.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/provider/subtitles\\?id=${title.id}$`));
  await expect(page.getByRole("heading", { name: `Subtitles of “${title.name}”` })).toBeVisible();
  await page.getByLabel("Language", { exact: true }).selectOption("ha");
  await page.getByLabel("Subtitle file (.vtt or .srt)").setInputFiles({
    name: "jarumi.ha.srt",
    mimeType: "application/x-subrip",
    buffer: Buffer.from(file, "utf8"),
  });
  await page.getByRole("button", { name: "Upload subtitles" }).click();
}

const hausaRow = (page: Page) => page.locator('tr[data-subtitle-language="ha"]');

/** The text of the cues of the player's track in `language` (loaded once the track is shown). */
function cueTexts(video: Locator, language: string) {
  return video.evaluate((element: HTMLVideoElement, wanted) => {
    const track = Array.from(element.textTracks).find((candidate) => candidate.language === wanted);
    return track?.cues ? Array.from(track.cues).map((cue) => (cue as VTTCue).text) : [];
  }, language);
}

/** Which tracks are shown. */
function showingTracks(video: Locator) {
  return video.evaluate((element: HTMLVideoElement) =>
    Array.from(element.textTracks)
      .filter((track) => track.mode === "showing")
      .map((track) => track.language),
  );
}

/** The title's provider signs in at their door and lands in the studio. */
/** A slow test's start: a new title of the studio's provider, who signs in on `page`. */
async function providerOnNewTitle(page: Page): Promise<{ id: string; name: string }> {
  test.slow();
  const title = newTitle();
  await signInAsProvider(page);
  return title;
}

async function signInAsProvider(page: Page) {
  await signInThroughForm(page, "/cp", provider.email, provider.password);
  await openUploadForm(page);
}

test.describe("with JavaScript", () => {
  test("a provider attaches Hausa subtitles; a viewer picks Hausa and the cue shows in the adaptive player; the choice is remembered", async ({
    page,
    browser,
  }) => {
    const title = await providerOnNewTitle(page);
    await attachHausa(page, title);
    await expect(page.getByText("Subtitles saved: 2 cues")).toBeVisible();
    await expect(hausaRow(page)).toContainText("Hausa");
    const stored = e2eDb()
      .select()
      .from(subtitles)
      .where(and(eq(subtitles.movieId, title.id), eq(subtitles.language, "ha")))
      .get();
    expect(stored?.label).toBe("Hausa");

    const viewer = await createViewer("subtitles-viewer");
    const { context, page: viewerPage } = await newPerson(browser, true);
    await signInThroughForm(viewerPage, "/login", viewer.email, viewer.password);
    await expect(viewerPage).toHaveURL(/\/movies$/);
    await viewerPage.goto(`/WatchMovie?id=${title.id}`);
    const video = viewerPage.getByTestId("player");
    // the player is attached to the <video> (fetched when the pointer reaches the player), and the side-loaded track is still there.
    await expect(video).toHaveAttribute("data-player-mode", "mse", { timeout: 15_000 });
    await viewerPage.getByTestId("player-frame").hover();
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.src.startsWith("blob:"))).toBe(true);
    await expect(video.locator('track[srclang="ha"]')).toHaveCount(1);
    // None is shown until the viewer chooses.
    expect(await showingTracks(video)).toEqual([]);

    await openPlaybackSettings(viewerPage);
    const menu = viewerPage.getByLabel("Subtitles", { exact: true });
    await expect(menu).toHaveValue("off");
    await menu.selectOption({ label: "Hausa" });
    await expect.poll(() => showingTracks(video)).toEqual(["ha"]);
    await expect.poll(() => cueTexts(video, "ha"), { timeout: 10_000 }).toEqual([FIRST_CUE, "Na je <i>kasuwa</i>."]);

    // Played and moved to the first cue: it is the active one, in the rendered track.
    await startPlaying(video);
    await video.evaluate((element: HTMLVideoElement) => {
      element.pause();
      element.currentTime = 1.5;
    });
    await expect
      .poll(
        () =>
          video.evaluate((element: HTMLVideoElement) => {
            const track = Array.from(element.textTracks).find((candidate) => candidate.language === "ha");
            return track?.activeCues ? Array.from(track.activeCues).map((cue) => (cue as VTTCue).text) : [];
          }),
        { timeout: 15_000 },
      )
      .toEqual([FIRST_CUE]);

    // Remembered: the next visit shows Hausa from the start (the track is the default one).
    await expect
      .poll(async () => (await context.cookies()).find((cookie) => cookie.name === "kallo_subtitles")?.value)
      .toBeTruthy();
    await viewerPage.reload();
    await expect(viewerPage.getByLabel("Subtitles", { exact: true })).toHaveValue("ha");
    await expect(video.locator('track[srclang="ha"]')).toHaveAttribute("default", "");
    await expect.poll(() => showingTracks(video)).toEqual(["ha"]);
    await expect.poll(() => cueTexts(video, "ha"), { timeout: 10_000 }).toContain(FIRST_CUE);

    // Off again.
    await openPlaybackSettings(viewerPage);
    await viewerPage.getByLabel("Subtitles", { exact: true }).selectOption("off");
    await expect.poll(() => showingTracks(video)).toEqual([]);
    await context.close();
  });

  test("a download takes the chosen subtitles along and the offline player shows them with no network", async ({
    browser,
  }) => {
    test.slow();
    const title = newTitle();
    const { context: studio, page: studioPage } = await newPerson(browser, true);
    await signInThroughForm(studioPage, "/cp", provider.email, provider.password);
    await openUploadForm(studioPage);
    await attachHausa(studioPage, title);
    await expect(hausaRow(studioPage)).toBeVisible();
    await studio.close();

    const viewer = await createViewer("subtitles-offline");
    const { context, page } = await newPerson(browser, true);
    await signInThroughForm(page, "/login", viewer.email, viewer.password);
    await expect(page).toHaveURL(/\/movies$/);
    await page.goto(`/WatchMovie?id=${title.id}`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await openPlaybackSettings(page);
    await page.getByLabel("Subtitles", { exact: true }).selectOption({ label: "Hausa" });
    const panel = page.getByRole("region", { name: "Download to watch offline" });
    await panel.getByRole("button", { name: "Download", exact: true }).click();
    await panel.getByRole("button", { name: "Start download" }).click();
    await expect(panel.getByText("Downloaded")).toBeVisible({ timeout: 30_000 });

    await context.setOffline(true);
    await page.goto("/downloads");
    const item = page.locator(`[data-download-id="${title.id}"]`);
    await item.getByRole("button", { name: "Play" }).click();
    const video = page.getByTestId("offline-player").locator("video");
    await expect(page.getByTestId("offline-subtitles")).toHaveValue("ha");
    await expect.poll(() => showingTracks(video)).toEqual(["ha"]);
    await expect.poll(() => cueTexts(video, "ha"), { timeout: 10_000 }).toContain(FIRST_CUE);
    // The worker serves the stored file; nothing came from the network.
    const offlineAnswer = await page.evaluate(async (movieId) => {
      const response = await fetch(`/offline-media/${movieId}/subtitles/ha.vtt`);
      return { status: response.status, text: await response.text() };
    }, title.id);
    expect(offlineAnswer.status).toBe(200);
    expect(offlineAnswer.text).toContain(FIRST_CUE);
    await context.close();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the upload form works, refuses a bad file with a message, and the viewer's page has the tracks and the file", async ({
    page,
    browser,
  }) => {
    const title = await providerOnNewTitle(page);

    // A bad file: the page says why, and nothing is stored.
    await attachHausa(page, title, "1\n00:00:01,000 --> 00:00:0x,000\nbad\n");
    await expect(page.getByText("Line 2: the times are not valid.")).toBeVisible();
    await expect(hausaRow(page)).toHaveCount(0);

    await attachHausa(page, title);
    await expect(page).toHaveURL(new RegExp(`/provider/subtitles\\?id=${title.id}$`));
    await expect(page.getByText("Subtitles saved: 2 cues")).toBeVisible();
    await expect(hausaRow(page)).toContainText("Hausa");

    const viewer = await createViewer("subtitles-nojs");
    const { context, page: viewerPage } = await newPerson(browser, false);
    await signInThroughForm(viewerPage, "/login", viewer.email, viewer.password);
    await expect(viewerPage).toHaveURL(/\/movies$/);
    await viewerPage.goto(`/WatchMovie?id=${title.id}`);
    const track = viewerPage.getByTestId("player").locator('track[kind="subtitles"][srclang="ha"]');
    await expect(track).toHaveAttribute("label", "Hausa");
    await expect(track).not.toHaveAttribute("default");

    // The menu is a form: choose Hausa, apply, and the page comes back with Hausa as the default track.
    await openPlaybackSettings(viewerPage);
    await viewerPage.getByLabel("Subtitles", { exact: true }).selectOption("ha");
    await viewerPage.getByTestId("subtitle-choices").getByRole("button", { name: "Apply" }).click();
    await expect(viewerPage).toHaveURL(new RegExp(`/WatchMovie\\?id=${title.id}$`));
    await expect(viewerPage.getByText("Subtitles: Hausa")).toBeVisible();
    await expect(track).toHaveAttribute("default", "");

    const source = await track.getAttribute("src");
    expect(source).toMatch(new RegExp(`^/subtitles/${title.id}/ha\\.vtt\\?v=`));
    const file = await viewerPage.request.get(source!);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("text/vtt; charset=utf-8");
    expect(await file.text()).toBe(
      `WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n${FIRST_CUE}\n\n00:00:03.500 --> 00:00:05.500\nNa je <i>kasuwa</i>.\n`,
    );
    // A stranger gets nothing.
    const { context: stranger } = await newPerson(browser, false);
    expect((await stranger.request.get(source!)).status()).toBe(401);
    await stranger.close();
    await context.close();
  });
});

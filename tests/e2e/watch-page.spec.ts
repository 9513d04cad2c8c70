import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { and, desc, eq } from "drizzle-orm";
import { watchEvents } from "../../app/db/schema";
import { createApprovedProvider, createViewer } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, openPlaybackSettings, pressPlay } from "./fixtures/titles";

/**
 * The watch page as a phone viewer meets it: wherever they go from a playing
 * film — a link in the page, back, closing the tab, the screen going off —
 * the next visit starts where they were; and on a 360-px phone the title and
 * the player come first, with the settings folded under them, in English and
 * in Hausa, with and without JavaScript.
 *
 * Each test has its own viewer and its own title (the demo's files), so no
 * resume position or screen is shared.
 */

function randomAddress(): string {
  return `10.89.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
}

async function postSignIn(request: APIRequestContext, account: TestAccount) {
  const response = await request.post("/login", {
    form: { email: account.email, password: account.password },
    maxRedirects: 0,
  });
  expect(response.status(), `sign-in of ${account.email}`).toBe(303);
}

async function newTitle(label: string): Promise<string> {
  const provider = await createApprovedProvider(`${label}-studio`);
  const category = createCategory(`Leaving ${label}`);
  return createTitle({ name: `Leaving ${label}`, categoryId: category.id, providerId: provider.id, withMedia: true });
}

/** Where the server last recorded this viewer in this title (null: never). */
function recordedPosition(viewer: TestAccount, movieId: string): number | null {
  return (
    e2eDb()
      .select({ positionSeconds: watchEvents.positionSeconds })
      .from(watchEvents)
      .where(and(eq(watchEvents.accountId, viewer.id), eq(watchEvents.movieId, movieId)))
      .orderBy(desc(watchEvents.updatedAt))
      .get()?.positionSeconds ?? null
  );
}

const currentTime = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);

/** Play until the film is past `seconds` (and a second past anything the server has heard) and still playing. */
async function playPast(page: Page, viewer: TestAccount, movieId: string, seconds: number): Promise<Locator> {
  const video = page.getByTestId("player");
  await pressPlay(video, movieId);
  // The demo films last seconds: played slowly, the film is still playing (not at its end) when the page
  // is left, however slow this machine is. Half speed: past `seconds` well within the 10 s before the first
  // progress report, even when a busy machine holds the picture a second or two.
  await video.evaluate((element: HTMLVideoElement) => (element.playbackRate = 0.5));
  await expect.poll(() => currentTime(video), { timeout: 20_000 }).toBeGreaterThan(seconds);
  // Progress reports come every 10 s: usually only the "play" report (at 0) has reached the server yet. On a
  // machine busy enough to hold the picture that long, one more has: the film then plays on past it, so
  // that what leaving saves is told apart from it.
  const heard = recordedPosition(viewer, movieId) ?? 0;
  if (heard >= 1) await expect.poll(() => currentTime(video), { timeout: 20_000 }).toBeGreaterThan(heard + 1.2);
  heardBeforeLeaving.set(movieId, heard);
  const paused = await video.evaluate((element: HTMLVideoElement) => {
    element.playbackRate = 0.1;
    return element.paused;
  });
  expect(paused).toBe(false);
  return video;
}

/** Per title, the position the server had heard when the test left the film playing (0: only the start). */
const heardBeforeLeaving = new Map<string, number>();

/** The position saved, then the watch page again: it resumes there. */
async function expectResumesWhereLeft(page: Page, viewer: TestAccount, movieId: string, playedTo: number) {
  // Past what the server had heard before: saved by the leaving itself.
  const heard = heardBeforeLeaving.get(movieId) ?? 0;
  await expect
    .poll(() => recordedPosition(viewer, movieId), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(Math.max(2, heard + 1));
  const saved = recordedPosition(viewer, movieId)!;
  expect(saved).toBeLessThanOrEqual(Math.ceil(playedTo) + 1);
  await page.goto(`/WatchMovie?id=${movieId}`);
  await expect(page.getByTestId("player")).toHaveAttribute("data-resume-seconds", String(saved));
}

/** Mark the document: a client-side navigation keeps the mark, a page load loses it. */
const markDocument = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test.describe("progress is saved on every way of leaving a playing film", () => {
  test("a link in the page (the header's Movies)", async ({ page }) => {
    const viewer = await createViewer("leave-link");
    const movieId = await newTitle("link");
    await postSignIn(page.request, viewer);
    await page.goto(`/WatchMovie?id=${movieId}`);
    await markDocument(page);
    const video = await playPast(page, viewer, movieId, 2.2);
    const playedTo = await currentTime(video);
    await page.locator('header a[href="/movies"]').first().click();
    await expect(page).toHaveURL(/\/movies$/);
    expect(await sameDocument(page)).toBe(true);
    await expectResumesWhereLeft(page, viewer, movieId, playedTo + 1);
  });

  test("the back button", async ({ page }) => {
    const viewer = await createViewer("leave-back");
    const movieId = await newTitle("back");
    await postSignIn(page.request, viewer);
    await page.goto("/movies");
    await markDocument(page);
    await page.locator(`a[href="/WatchMovie?id=${movieId}"]`).first().click();
    await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${movieId}$`));
    const video = await playPast(page, viewer, movieId, 2.2);
    const playedTo = await currentTime(video);
    await page.goBack();
    await expect(page).toHaveURL(/\/movies$/);
    expect(await sameDocument(page)).toBe(true);
    await expectResumesWhereLeft(page, viewer, movieId, playedTo + 1);
  });

  test("closing the tab", async ({ browser, baseURL }) => {
    const viewer = await createViewer("leave-close");
    const movieId = await newTitle("close");
    const context = await browser.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": randomAddress() } });
    try {
      await postSignIn(context.request, viewer);
      const page = await context.newPage();
      await page.goto(`/WatchMovie?id=${movieId}`);
      const video = await playPast(page, viewer, movieId, 2.2);
      const playedTo = await currentTime(video);
      await page.close({ runBeforeUnload: true });
      const again = await context.newPage();
      await expectResumesWhereLeft(again, viewer, movieId, playedTo + 1);
    } finally {
      await context.close();
    }
  });

  test("the screen going off (the page hidden, the film still playing)", async ({ page }) => {
    const viewer = await createViewer("leave-hidden");
    const movieId = await newTitle("hidden");
    await postSignIn(page.request, viewer);
    await page.goto(`/WatchMovie?id=${movieId}`);
    const video = await playPast(page, viewer, movieId, 2.2);
    const playedTo = await currentTime(video);
    // What a phone does when its screen goes off: the page is hidden (and may be ended without another word).
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    // Past what the server had heard before: saved by the leaving itself.
    const heard = heardBeforeLeaving.get(movieId) ?? 0;
    await expect
      .poll(() => recordedPosition(viewer, movieId), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(Math.max(2, heard + 1));
    expect(recordedPosition(viewer, movieId)!).toBeLessThanOrEqual(Math.ceil(playedTo) + 2);
    // Nothing was paused or left: the position came from the page going out of sight.
    expect(await video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
    await expectResumesWhereLeft(page, viewer, movieId, playedTo + 2);
  });
});

const PHONE = { width: 360, height: 740 };
const LANGUAGES = {
  en: { locale: "en-US", header: "en-US,en;q=0.9", settings: "Quality, data saver, subtitles, download" },
  ha: { locale: "ha-NG", header: "ha-NG,ha;q=0.9", settings: "Inganci, tanadin data, rubutun fassara, saukewa" },
} as const;

async function phoneContext(
  browser: Browser,
  baseURL: string,
  language: keyof typeof LANGUAGES,
  javaScriptEnabled: boolean,
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    viewport: PHONE,
    javaScriptEnabled,
    locale: LANGUAGES[language].locale,
    extraHTTPHeaders: { "Accept-Language": LANGUAGES[language].header, "X-Forwarded-For": randomAddress() },
  });
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";
  for (const language of ["en", "ha"] as const) {
    test(`on a 360-px phone the title and play come first and the settings are folded — ${language}, ${mode}`, async ({
      browser,
      baseURL,
    }) => {
      const viewer = await createViewer(`phone-${language}-${javaScriptEnabled ? "js" : "nojs"}`);
      const provider = await createApprovedProvider(`phone-${language}`);
      const category = createCategory("Phone");
      // A long title in long words, as Hausa titles often are.
      const name = "Ƙaunar Zuciya: Labarin Soyayya da Haƙuri a Ƙauyen Dutsen Kura";
      const movieId = createTitle({ name, categoryId: category.id, providerId: provider.id, withMedia: true });
      const context = await phoneContext(browser, baseURL!, language, javaScriptEnabled);
      try {
        await postSignIn(context.request, viewer);
        const page = await context.newPage();
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
        page.on("console", (message) => {
          if (message.type() === "error" || /hydrat|did not match/i.test(message.text()))
            problems.push(`console ${message.type()}: ${message.text()}`);
        });
        await page.goto(`/WatchMovie?id=${movieId}`);
        await expect(page.locator("html")).toHaveAttribute("lang", language);
        const video = page.getByTestId("player");
        // Hydrated: the player has chosen how it plays.
        if (javaScriptEnabled) await expect(video).toHaveAttribute("data-player-mode", /^(mse|native)$/);

        const heading = page.getByRole("heading", { level: 1, name });
        const settings = page.getByTestId("playback-settings");
        const summary = settings.locator("summary");
        await expect(summary).toContainText(LANGUAGES[language].settings);
        const [player, title, fold] = await Promise.all([
          video.boundingBox(),
          heading.boundingBox(),
          summary.boundingBox(),
        ]);
        // The player, then the title, in the first screen; the folded settings below the title.
        expect(player!.y + player!.height).toBeLessThanOrEqual(PHONE.height);
        expect(title!.y).toBeGreaterThanOrEqual(player!.y + player!.height);
        expect(title!.y + title!.height).toBeLessThanOrEqual(PHONE.height);
        expect(fold!.y).toBeGreaterThan(title!.y);
        // What the film costs is in sight before play; the menus are not.
        await expect(page.getByTestId("data-cost")).toBeVisible();
        await expect(page.locator("select[name=quality]")).toBeHidden();
        await expect(page.getByTestId("data-saver-toggle")).toBeHidden();
        // Nothing of the watch page itself (the header is the site's) reaches past the screen's right edge.
        const pastTheEdge = () =>
          page.evaluate(() =>
            Array.from(document.querySelectorAll("article, article *"))
              .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
              .map((element) => `${element.tagName} "${(element.textContent ?? "").trim().slice(0, 40)}"`),
          );
        expect(await pastTheEdge()).toEqual([]);

        // One tap opens them (a <details>: no script needed).
        await openPlaybackSettings(page);
        await expect(page.locator("select[name=quality]")).toBeVisible();
        await expect(page.getByTestId("data-saver-toggle")).toBeVisible();
        expect(await pastTheEdge()).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
}

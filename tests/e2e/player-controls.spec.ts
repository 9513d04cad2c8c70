import type { Browser, BrowserContextOptions, CDPSession, Locator, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { watchEvents } from "../../app/db/schema";
import { createViewer, signedInContext } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { openPlaybackSettings } from "./fixtures/titles";

/**
 * The player as a thumb meets it on a 360-px phone with touch: one tap on ▶
 * plays, whatever its length, on a fresh page (the player not yet attached, or not
 * yet fetched under data saver); ±10 s by button and by double tap; "Resume
 * from" or "Start over" before the first play; the keyboard and labels for a
 * screen reader; and the browser's own controls when the page has no
 * JavaScript.
 */

/** The longest free demo film (10 s): time to see it play and to seek in it. */
const TAPPED = "demomovie09";
/** A free demo film of 8 s for the resume choice. */
const RESUMED = "demomovie05";

const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true } as const;

async function phone(browser: Browser, viewer: TestAccount, options: BrowserContextOptions = {}) {
  return signedInContext(browser, viewer, { ...PHONE, ...options });
}

/** A touch held `holdMs` on the middle of `target`, sent as a phone's finger through the DevTools protocol. */
async function tap(session: CDPSession, target: Locator, holdMs: number): Promise<void> {
  const box = (await target.boundingBox())!;
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await session.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  await session.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

const playing = (video: Locator) =>
  video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0.5);
const currentTime = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);

/** A fresh watch page, hydrated: the player's own controls are up and the browser's are gone. */
async function openWatchPage(page: Page, movieId: string): Promise<{ video: Locator; play: Locator }> {
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.getByTestId("player");
  const play = page.getByTestId("player-play");
  await expect(play).toBeVisible();
  await expect(video).not.toHaveAttribute("controls", /.*/);
  return { video, play };
}

test.describe("one tap plays", () => {
  for (const holdMs of [30, 60, 90]) {
    test(`a tap held ${holdMs} ms on ▶ of a fresh page starts the film`, async ({ browser }) => {
      const viewer = await createViewer(`tap${holdMs}`);
      const { context, page } = await phone(browser, viewer);
      const session = await context.newCDPSession(page);
      // The first visit and a later one: each a fresh page, the first tap the only one.
      for (const visit of ["first", "again"]) {
        const { video, play } = await openWatchPage(page, TAPPED);
        await tap(session, play, holdMs);
        await expect.poll(() => playing(video), { timeout: 20_000, message: `${visit} visit` }).toBe(true);
        await expect(play).toHaveAccessibleName("Pause");
      }
      await context.close();
    });
  }

  test("with data saver on (the player's few kilobytes fetched at the touch, as without it), a 30 ms tap starts the film", async ({
    browser,
  }) => {
    const viewer = await createViewer("tapsaver");
    const { context, page } = await phone(browser, viewer);
    await page.goto(`/WatchMovie?id=${TAPPED}`);
    await openPlaybackSettings(page);
    await page.getByTestId("data-saver-toggle").click();
    await expect(page.getByTestId("data-saver-toggle")).toHaveText("Turn data saver off");
    const session = await context.newCDPSession(page);
    const { video, play } = await openWatchPage(page, TAPPED);
    await expect(video).toHaveAttribute("data-player-fetch", "on-intent");
    await tap(session, play, 30);
    await expect.poll(() => playing(video), { timeout: 20_000 }).toBe(true);
    await context.close();
  });
});

test("a thumb seeks: ±10 s buttons and a double tap on either half; the keyboard and a screen reader find every control", async ({
  browser,
}) => {
  const viewer = await createViewer("thumbseek");
  const { context, page } = await phone(browser, viewer);
  const session = await context.newCDPSession(page);
  const { video, play } = await openWatchPage(page, TAPPED);
  await tap(session, play, 60);
  await expect.poll(() => playing(video), { timeout: 20_000 }).toBe(true);
  await video.evaluate((element: HTMLVideoElement) => element.pause());
  await expect(play).toHaveAccessibleName("Play");

  // The controls by their names, as a screen reader reads them.
  const back = page.getByRole("button", { name: "Back 10 seconds" });
  const forward = page.getByRole("button", { name: "Forward 10 seconds" });
  const slider = page.getByRole("slider", { name: "Position in the film" });
  await expect(page.getByRole("button", { name: "Full screen" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Mute" })).toBeVisible();
  await expect(slider).toHaveAttribute("aria-valuetext", /^0:0\d of 0:10$/);

  await tap(session, forward, 60);
  await expect.poll(() => currentTime(video)).toBeGreaterThanOrEqual(9.5);
  await tap(session, back, 60);
  await expect.poll(() => currentTime(video)).toBeLessThan(1);

  // Two quick taps on the right half: 10 s on; on the left half: 10 s back.
  const surface = page.getByTestId("player-surface");
  const box = (await surface.boundingBox())!;
  const at = (x: number) => ({ x: box.x + x, y: box.y + box.height / 4 });
  for (const [x, check] of [
    [box.width - 30, (time: number) => time >= 9.5],
    [30, (time: number) => time < 1],
  ] as const) {
    for (let i = 0; i < 2; i++) {
      await session.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [at(x)] });
      await session.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      await page.waitForTimeout(80);
    }
    await expect.poll(async () => check(await currentTime(video))).toBe(true);
  }

  // The keyboard: Tab reaches ▶, Space plays, the arrows seek, K pauses.
  await play.focus();
  await page.keyboard.press("k");
  await expect.poll(() => playing(video), { timeout: 15_000 }).toBe(true);
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => currentTime(video)).toBeGreaterThanOrEqual(9.5);
  await context.close();
});

test.describe("a title watched before", () => {
  function watchedTo(viewer: TestAccount, seconds: number) {
    const now = new Date();
    e2eDb()
      .insert(watchEvents)
      .values({
        id: randomUUID(),
        accountId: viewer.id,
        movieId: RESUMED,
        startedAt: now,
        updatedAt: now,
        positionSeconds: seconds,
      })
      .run();
  }

  test("offers Resume from 0:03 (the clock reads it before play) and resumes there", async ({ browser }) => {
    const viewer = await createViewer("resumeat");
    watchedTo(viewer, 3);
    const { context, page } = await phone(browser, viewer);
    const session = await context.newCDPSession(page);
    const { video, play } = await openWatchPage(page, RESUMED);
    await expect(play).toHaveAccessibleName("Resume from 0:03");
    await expect(page.getByTestId("player-time")).toHaveText("0:03 / 0:06");
    await tap(session, play, 60);
    await expect.poll(() => currentTime(video), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    await context.close();
  });

  test("Start over plays from the beginning, in Hausa", async ({ browser }) => {
    const viewer = await createViewer("startover");
    watchedTo(viewer, 3);
    const { context, page } = await phone(browser, viewer, {
      locale: "ha-NG",
      extraHTTPHeaders: { "Accept-Language": "ha" },
    });
    const session = await context.newCDPSession(page);
    const { video, play } = await openWatchPage(page, RESUMED);
    await expect(play).toHaveAccessibleName("Ci gaba daga 0:03");
    await tap(session, page.getByRole("button", { name: "Fara daga farko" }), 60);
    await expect.poll(() => playing(video), { timeout: 20_000 }).toBe(true);
    const [start] = await video.evaluate((element: HTMLVideoElement) => [element.played.start(0)]);
    expect(start).toBeLessThan(1);
    await context.close();
  });
});

test("without JavaScript the browser's own controls play the film", async ({ browser }) => {
  const viewer = await createViewer("thumbnojs");
  const { context, page } = await phone(browser, viewer, { javaScriptEnabled: false });
  await page.goto(`/WatchMovie?id=${TAPPED}`);
  const video = page.getByTestId("player");
  await expect(video).toHaveAttribute("controls", "");
  await expect(page.getByTestId("player-controls")).toHaveCount(0);
  await context.close();
});

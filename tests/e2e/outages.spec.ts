import type { Locator, Page } from "@playwright/test";
import { createViewer } from "./fixtures/accounts";
import { expect, test } from "./fixtures/test";
import { startPlaying } from "./fixtures/titles";

/**
 * A film playing when the phone's network goes away (a bus, a lift) goes on by
 * itself, from where it stood, once the network is back: no reload, no second
 * press; meanwhile the page says plainly what is happening. The MSE player (Chromium's
 * way here); the network cut by failing every request while `navigator.onLine`
 * stays true, as on a Wi-Fi or a mast without internet.
 * Longer cuts (60 s, 5 minutes) and a stopped bucket: `npm run bench:outage`.
 */

const TITLE = "demomovie09"; // 10 s, the longest demo film

// The app's service worker fetches some files itself, and a route cannot cut what a service worker fetches.
test.use({ serviceWorkers: "block" });
const MEDIA_FILE = /\/stream\/[a-z0-9]+\/(\d+)p(?:-av1)?\.mp4$/;

const currentTime = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);

async function signIn(page: Page) {
  const viewer = await createViewer("outage");
  const response = await page.request.post("/login", {
    form: { email: viewer.email, password: viewer.password },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
}

test("the network goes away for 10 s mid-film: the page says so, and the film goes on by itself when it is back", async ({
  page,
  context,
}) => {
  test.slow();
  await signIn(page);
  await page.goto(`/WatchMovie?id=${TITLE}`);
  const video = page.getByTestId("player");
  await expect(video).toHaveAttribute("data-player-mode", "mse", { timeout: 15_000 });

  // Every request fails while the network is away, as without a route to the internet; navigator.onLine stays
  // true (a phone on a Wi-Fi or a mast without internet says "online"), so nothing may wait for it to change.
  let away = false;
  await context.route("**/*", (route) => (away ? route.abort("internetdisconnected") : route.continue()));
  const network = async (offline: boolean) => {
    away = offline;
  };
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: (1200 * 1000) / 8,
    uploadThroughput: (1200 * 1000) / 8,
  });
  // The network goes the moment the first fragment of film has arrived: the rest of the film must come after.
  let cutAt: number | null = null;
  page.on("requestfinished", (request) => {
    const from = Number(/^bytes=(\d+)-/.exec(request.headers()["range"] ?? "")?.[1] ?? 0);
    if (cutAt !== null || !MEDIA_FILE.test(new URL(request.url()).pathname) || from === 0) return;
    cutAt = Date.now();
    void network(true);
  });
  await startPlaying(video);
  await expect.poll(() => cutAt, { timeout: 20_000 }).not.toBeNull();

  // The buffer plays out, the film stands still, and the page says why (not "could not be loaded").
  await expect(page.getByTestId("player-reconnecting")).toBeVisible({ timeout: 15_000 });
  await expect(video).toHaveAttribute("data-reconnecting", "1");
  let stoodAt = await currentTime(video);
  await expect
    .poll(
      async () => {
        const now = await currentTime(video);
        const still = now === stoodAt;
        stoodAt = now;
        return still;
      },
      { timeout: 15_000, intervals: [1000] },
    )
    .toBe(true);
  expect(stoodAt).toBeLessThan(9);
  await expect(page.getByTestId("player-error")).toHaveCount(0);

  // 10 s without a network in all.
  await page.waitForTimeout(Math.max(0, cutAt! + 10_000 - Date.now()));
  const backAt = Date.now();
  await network(false);
  // Without a touch: the film goes on from where it stood, within seconds.
  await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(stoodAt + 0.5);
  const resumedAfter = (Date.now() - backAt) / 1000;
  expect(resumedAfter).toBeLessThan(10);
  await expect(page.getByTestId("player-reconnecting")).toHaveCount(0);
  await expect(video).not.toHaveAttribute("data-reconnecting", "1");
  await expect.poll(() => currentTime(video), { timeout: 20_000 }).toBeGreaterThan(9);
  await expect(page.getByTestId("player-error")).toHaveCount(0);
});

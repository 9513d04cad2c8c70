import type {
  APIRequestContext,
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Locator,
  Page,
  Request,
} from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { movieRenditions } from "../../app/db/schema";
import { createAdmin, createApprovedProvider, createViewer, signInThroughForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { openPlaybackSettings, readyH264Rungs, startPlaying } from "./fixtures/titles";
import { refuseAv1 } from "./fixtures/av1";

/**
 * The adaptive ladder as a viewer meets it on the watch page: the player wherever
 * MSE plays H.264 (Chromium, so by default here), native HLS where it does not
 * (an iPhone; MSE hidden here), the quality menu and data saver with what they
 * cost, a slower link giving a smaller picture, the page without JavaScript
 * (Chromium then plays the HLS source natively), the old /api/files MP4, and
 * who the stream routes refuse.
 *
 * Free demo titles only (a FREE viewer plays them up to 360p, the top of the
 * demo ladder), and a fresh viewer per test, so screens, leases and data
 * saver never collide with other files' tests.
 */

const HLS_TYPE = "application/vnd.apple.mpegurl";

// The H.264 rungs, as every browser without AV1 plays them (av1-playback.spec.ts plays the AV1 family).
test.beforeEach(async ({ context }) => {
  await context.addInitScript(refuseAv1);
});
const PREMIUM = "demomovie02";
/** One free demo title per test, so parallel runs rarely share a title. */
const TITLE = {
  native: "demomovie01",
  mse: "demomovie03",
  quality: "demomovie04",
  slowLink: "demomovie09", // 10 s, the longest: the most fragments to adapt on
  dataSaver: "demomovie11",
  noScript: "demomovie12",
  oldClient: "demomovie05",
  earlyPlay: "demomovie07",
  beforeScripts: "demomovie09", // 10 s: time to play natively, then on with the player
  refusals: "demomovie06",
} as const;

const MEDIA_FILE = /\/stream\/[a-z0-9]+\/(\d+)p\.mp4$/;

function randomAddress(): string {
  return `10.88.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
}

/** Sign in through the door's form, the way a person does (the no-JavaScript test). */
async function signIn(page: Page, account: TestAccount) {
  await signInThroughForm(page, "/login", account.email, account.password);
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
}

/**
 * Sign in by posting the door's form fields straight away (the sign-in pages
 * have their own tests): the session cookie lands in the browser context the
 * request belongs to, without rendering two pages first.
 */
async function postSignIn(request: APIRequestContext, account: TestAccount) {
  const response = await request.post(account.role === "provider" ? "/cp" : "/login", {
    form: { email: account.email, password: account.password },
    maxRedirects: 0,
  });
  expect(response.status(), `sign-in of ${account.email}`).toBe(303);
}

/** A browser of its own for one account (other request headers). */
async function signedInContext(
  browser: Browser,
  baseURL: string,
  account: TestAccount,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...options,
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": randomAddress(), ...options.extraHTTPHeaders },
  });
  await context.addInitScript(refuseAv1);
  await postSignIn(context.request, account);
  return context;
}

/**
 * For an init script: a browser without MSE for H.264 (as on an iPhone), so
 * the player plays HLS natively; Chromium has both, and the player prefers the player.
 */
function withoutMse() {
  window.MediaSource.isTypeSupported = () => false;
}

/** For an init script: every value the player's `data-rung` takes, in order (a poll could miss a short-lived one). */
function recordRungs() {
  const rungs: number[] = [];
  (window as unknown as { rungHistory: number[] }).rungHistory = rungs;
  new MutationObserver((records) => {
    for (const record of records) {
      const value = (record.target as Element).getAttribute("data-rung");
      if (value) rungs.push(Number(value));
    }
  }).observe(document, { attributes: true, attributeFilter: ["data-rung"], subtree: true });
}

const rungHistory = (page: Page) => page.evaluate(() => (window as unknown as { rungHistory: number[] }).rungHistory);

/** the player has arrived and attached: the player says so, and the video's source is the player's MediaSource. */
async function hlsJsAttached(video: Locator) {
  await expect(video).toHaveAttribute("data-player-mode", "mse", { timeout: 15_000 });
  await expect(video).toHaveAttribute("data-player-attached", "1", { timeout: 15_000 });
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.src.startsWith("blob:"))).toBe(true);
}

/** The page has hydrated and chose the player, which it fetches only when the viewer reaches for the player. */
async function hlsJsWaiting(video: Locator) {
  await expect(video).toHaveAttribute("data-player-mode", "mse", { timeout: 15_000 });
  await expect(video).toHaveAttribute("data-player-loads", "on-intent");
  await expect(video).not.toHaveAttribute("data-player-attached", "1");
}

/** The page's scripts from /build/, and which of them is the the player chunk. */
function buildScripts(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/build/")) seen.push(path);
  });
  return seen;
}
/** The player's own chunk (stream-player.client): what the watch page fetches to play through MSE. */
const isHlsChunk = (path: string) => /stream-player/i.test(path);

const currentTime = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);
const videoHeight = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.videoHeight);

/** The stream requests a page makes for one title. */
function streamRequests(page: Page, movieId: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith(`/stream/${movieId}/`)) seen.push(request);
  });
  return seen;
}

const pathOf = (request: Request) => new URL(request.url()).pathname;

/** The rungs (short side) a master playlist lists. */
function rungsOfMaster(text: string): number[] {
  return [...text.matchAll(/RESOLUTION=(\d+)x(\d+)/g)].map((match) => Math.min(Number(match[1]), Number(match[2])));
}

test("a viewer plays a film through native HLS where the browser has no MSE, and nothing of the film is fetched before play", async ({
  page,
  context,
}) => {
  const movieId = TITLE.native;
  await context.addInitScript(withoutMse);
  await postSignIn(page.request, await createViewer("hlsnative"));
  const scripts = buildScripts(page);
  const requests = streamRequests(page, movieId);
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.getByTestId("player");
  await expect(video).toHaveAttribute("data-player-mode", "native");
  await page.waitForLoadState("networkidle");
  // preload="none": before play, no film bytes (at most playlists); and no the player either.
  expect(requests.map(pathOf).filter((path) => !path.endsWith(".m3u8"))).toEqual([]);
  expect(scripts.filter(isHlsChunk)).toEqual([]);

  await startPlaying(video);
  await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(1);
  expect(requests.map(pathOf)).toContain(`/stream/${movieId}/master.m3u8`);
  const media = requests.filter((request) => MEDIA_FILE.test(pathOf(request)));
  expect(media.length).toBeGreaterThan(0);
  for (const request of media) {
    // Chromium's own HLS asks for open-ended ranges ("bytes=0-") of the rung's file.
    expect(request.headers()["range"]).toMatch(/^bytes=\d+-\d*$/);
    const response = await request.response();
    if (response) expect(response.status()).toBe(206);
  }
  await expect(video).toHaveAttribute("data-rung", /^(144|240|360)$/);
  expect(scripts.filter(isHlsChunk)).toEqual([]);
});

test("a viewer plays a film through the player (MSE), Chromium's way: the player comes and attaches only when the viewer reaches for play; no page loads it before", async ({
  page,
}) => {
  const movieId = TITLE.mse;
  await postSignIn(page.request, await createViewer("hlsmse"));
  const scripts = buildScripts(page);
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter(isHlsChunk)).toEqual([]);

  const requests = streamRequests(page, movieId);
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.getByTestId("player");
  await hlsJsWaiting(video);
  await expect(video).toHaveAttribute("data-player-fetch", "on-intent");
  // Before play nothing of the player (a visitor who never presses play pays nothing for it) and nothing of
  // the film: not even a playlist, which would also take one of the account's screens.
  await page.waitForLoadState("networkidle");
  expect(scripts.filter(isHlsChunk)).toEqual([]);
  await expect(video).not.toHaveAttribute("data-player-attached", "1");
  expect(requests.map(pathOf)).toEqual([]);

  await startPlaying(video);
  await hlsJsAttached(video);
  expect(scripts.filter(isHlsChunk).length).toBeGreaterThan(0);
  expect(requests.map(pathOf)).toContain(`/stream/${movieId}/master.m3u8`);
  await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(1);
  await expect(video).toHaveAttribute("data-rung", /^(144|240|360)$/);
  // the player asks for each fragment's own byte range of the rung's file.
  const media = requests.filter((request) => MEDIA_FILE.test(pathOf(request)));
  expect(media.length).toBeGreaterThan(0);
  for (const request of media) expect(request.headers()["range"]).toMatch(/^bytes=\d+-\d+$/);
});

test.describe("on a slow link", () => {
  // The app's service worker fetches /build/ files itself once it is in
  // control, and page.route cannot hold what a service worker fetches.
  test.use({ serviceWorkers: "block" });

  test("a viewer presses play before the player has arrived: nothing plays natively meanwhile, and the player plays the film once it is there", async ({
    page,
  }) => {
    const movieId = TITLE.earlyPlay;
    await postSignIn(page.request, await createViewer("earlyplay"));
    // The the player chunk is held until the viewer has pressed play.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/build\/.*stream-player.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const requests = streamRequests(page, movieId);
    // The page asks for the player once it is idle (or at play, whichever comes first); it is held here.
    const chunkAsked = page.waitForRequest(/\/build\/.*stream-player.*\.js$/);
    await page.goto(`/WatchMovie?id=${movieId}`);
    const video = page.getByTestId("player");
    // Hydrated (the quality menu's Apply button is only for pages without JavaScript), the player not there yet.
    await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);
    await hlsJsWaiting(video);
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      element.play().catch(() => undefined);
    });
    await expect(page.getByTestId("player-loading")).toBeVisible();
    await chunkAsked;
    // A second for anything that would start on its own to start.
    await page.waitForTimeout(1000);
    try {
      expect(requests.map(pathOf)).toEqual([]);
      expect(await currentTime(video)).toBe(0);
    } finally {
      release();
    }
    await hlsJsAttached(video);
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(1);
  });
});

test.describe("before the page's scripts run", () => {
  test.use({ serviceWorkers: "block" });

  /** Hold every script of the page (a phone still fetching them); the returned function lets them through. */
  async function holdScripts(page: Page): Promise<() => void> {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/build\/.*\.js$/, async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    return release;
  }

  /** Press play on the rendered player (module scripts hold DOMContentLoaded: the answer is enough). */
  async function pressPlayEarly(page: Page, movieId: string): Promise<Locator> {
    await page.goto(`/WatchMovie?id=${movieId}`, { waitUntil: "commit" });
    const video = page.getByTestId("player");
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      element.play().catch(() => undefined);
    });
    return video;
  }

  test("a viewer presses play before the page is hydrated: nothing of the film comes meanwhile, and the player plays it once the page runs", async ({
    page,
  }) => {
    const movieId = TITLE.beforeScripts;
    await postSignIn(page.request, await createViewer("beforescripts"));
    const release = await holdScripts(page);
    const films: Request[] = [];
    page.on("request", (request) => {
      if (MEDIA_FILE.test(new URL(request.url()).pathname) || /\.(mp4|m4s)$/.test(new URL(request.url()).pathname))
        films.push(request);
    });
    const video = await pressPlayEarly(page, movieId);
    await expect(video).toHaveAttribute("data-play-held", "1");
    // Two seconds in which the browser's own HLS would have fetched and played.
    await page.waitForTimeout(2000);
    try {
      expect(films.map((request) => request.url())).toEqual([]);
      expect(await currentTime(video)).toBe(0);
      await expect(video).toHaveAttribute("data-player-mode", "none");
    } finally {
      release();
    }
    // Once the page runs, the player plays the film without a second press.
    await hlsJsAttached(video);
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(1);
    expect(await video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
  });

  test("the page's scripts never come: the held play starts in the browser's own player after a while", async ({
    page,
  }) => {
    const movieId = TITLE.beforeScripts;
    await postSignIn(page.request, await createViewer("noscripts"));
    await page.route(/\/build\/.*\.js$/, (route) => route.abort());
    const video = await pressPlayEarly(page, movieId);
    await expect(video).toHaveAttribute("data-play-held", "1");
    expect(await currentTime(video)).toBe(0);
    // HOLD_MS (12 s) on, the browser plays the rendered sources itself.
    await expect.poll(() => currentTime(video), { timeout: 30_000 }).toBeGreaterThan(0.5);
    await expect(video).toHaveAttribute("data-player-mode", "none");
  });
});

test("the quality menu switches the picture in place and shows what each quality costs", async ({ page }) => {
  const movieId = TITLE.quality;
  await postSignIn(page.request, await createViewer("quality"));
  const requests = streamRequests(page, movieId);
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.getByTestId("player");
  await hlsJsWaiting(video);
  await page.waitForLoadState("networkidle");
  // Nothing of the film before play.
  expect(requests.map(pathOf)).toEqual([]);

  // The cost is in sight before play; the menu is folded under the title.
  const cost = page.getByTestId("data-cost");
  await expect(cost).toBeVisible();
  await openPlaybackSettings(page);
  const menu = page.locator("select[name=quality]");
  const options = menu.locator("option");
  await expect(options).toHaveCount(4);
  expect(await options.evaluateAll((items) => items.map((item) => (item as HTMLOptionElement).value))).toEqual([
    "auto",
    "144",
    "240",
    "360",
  ]);
  const labels = await options.allTextContents();
  expect(labels[0]).toMatch(/^Auto \(up to 360p, \d+ MB per hour\)$/);
  const perHour = labels.slice(1).map((label) => Number(/^\d+p · (\d+) MB per hour$/.exec(label)?.[1]));
  expect(perHour.every((value) => value > 0)).toBe(true);
  expect([...perHour].sort((a, b) => a - b)).toEqual(perHour);
  expect(perHour[0]).toBeLessThan(perHour[2]);
  // Auto: the likely cost on this link (headless Chromium reports one), per film and per hour.
  await expect(cost).toHaveText(
    /^About \d+(\.\d)?(–\d+(\.\d)?)? MB for this film \(\d+ s\) at \d+p(–\d+p)?, what your connection carries now: \d+(–\d+)? MB an hour\.$/,
  );
  await expect(cost).toHaveAttribute("data-basis", "link");

  await startPlaying(video, { loop: true });
  await hlsJsAttached(video);
  await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(0.5);
  // 360p first, so that 144p is a change whatever rung Auto started on.
  await menu.selectOption("360");
  await expect.poll(() => videoHeight(video), { timeout: 15_000 }).toBe(360);
  await menu.selectOption("144");
  await expect(page).toHaveURL(new RegExp(`[?&]quality=144(&|$)`));
  expect(new URL(page.url()).searchParams.get("id")).toBe(movieId);
  await expect.poll(() => videoHeight(video), { timeout: 15_000 }).toBe(144);
  await expect(video).toHaveAttribute("data-rung", "144");
  await expect(page.getByTestId("playing-rung")).toHaveText("Playing at 144p");
  await expect(cost).toHaveText(/^\d+(\.\d)? MB for this film \(\d+ s\) at 144p: \d+ MB an hour\.$/);
  const size144 = e2eDb()
    .select({ sizeBytes: movieRenditions.sizeBytes })
    .from(movieRenditions)
    .where(and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.codec, "h264"), eq(movieRenditions.rung, 144)))
    .get()!.sizeBytes;
  await expect(cost).toHaveAttribute("data-megabytes", String(Math.round(size144 / 100_000) / 10));
  // It keeps playing after the switch.
  const at = await currentTime(video);
  await expect.poll(() => currentTime(video), { timeout: 10_000 }).not.toBe(at);
  // What this viewing spent, as the player counted it: at least what the film's requests carried.
  const spent = page.getByTestId("data-spent");
  await expect(spent).toHaveText(/^This viewing has used \d+(\.\d)? MB so far\.$/);
  const counted = Number(await video.getAttribute("data-spent-bytes"));
  expect(counted).toBeGreaterThan(size144 / 10);
});

test("the picture gets worse when the link gets slower (the player)", async ({ page, context }) => {
  const movieId = TITLE.slowLink;
  await context.addInitScript(recordRungs);
  await postSignIn(page.request, await createViewer("slowlink"));
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.getByTestId("player");
  await hlsJsWaiting(video);

  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const linkAt = (kbps: number, latency: number) =>
    cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency,
      downloadThroughput: (kbps * 1000) / 8,
      uploadThroughput: (kbps * 1000) / 8,
    });
  // The demo films are 6–10 s and the player buffers up to 30 s ahead: on an
  // unthrottled localhost link the whole film is in the buffer within
  // milliseconds and there is nothing left to adapt. So the film starts on a
  // good link (1.2 Mbps: enough for 360p) and the link falls to 200 kbps
  // (below 240p's bandwidth, above 144p's) the moment the first fragment of
  // film at 240p or more has arrived: the player must fetch the rest at 144p.
  await linkAt(1200, 20);
  let slowed = false;
  page.on("requestfinished", (request) => {
    const rung = Number(MEDIA_FILE.exec(new URL(request.url()).pathname)?.[1] ?? 0);
    const from = Number(/^bytes=(\d+)-/.exec(request.headers()["range"] ?? "")?.[1] ?? 0);
    // from > 0: a fragment of film, not the init section at the start of the file.
    if (slowed || rung < 240 || from === 0) return;
    slowed = true;
    void linkAt(200, 300);
  });
  // Not looping: a second pass would replay the 360p fragment still in the buffer.
  await startPlaying(video);
  await expect.poll(async () => (await rungHistory(page)).at(-1), { timeout: 20_000 }).toBe(144);
  expect(slowed).toBe(true);
  const history = await rungHistory(page);
  // A rung of 240p or more was on screen before 144p.
  expect(history.findIndex((rung) => rung >= 240)).toBeGreaterThanOrEqual(0);
  expect(history.findIndex((rung) => rung >= 240)).toBeLessThan(history.lastIndexOf(144));
  await expect(page.getByTestId("playing-rung")).toHaveText("Playing at 144p");
});

test("data saver caps playback at 240p and says what it costs", async ({ page, browser, baseURL }) => {
  // Two browsers, a switch, playback and a page without JavaScript.
  test.slow();
  const movieId = TITLE.dataSaver;
  await postSignIn(page.request, await createViewer("saver"));
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.getByTestId("player");
  await hlsJsWaiting(video);
  await openPlaybackSettings(page);
  const options = page.locator("select[name=quality] option");
  await expect(options).toHaveCount(4);
  const toggle = page.getByTestId("data-saver-toggle");
  await expect(toggle).toHaveText("Turn data saver on");

  // The player plays the capped master playlist.
  const capped = page.waitForRequest(
    (request) =>
      pathOf(request) === `/stream/${movieId}/master.m3u8` && new URL(request.url()).searchParams.get("max") === "240",
  );
  await expect(page.getByTestId("data-saver-cost")).toHaveText(
    /^Data saver is off\. With it: 240p, about \d+ MB an hour\.$/,
  );
  await toggle.click();
  await expect(toggle).toHaveText("Turn data saver off");
  // What an hour costs under it, from the 240p file.
  const saverCost = page.getByTestId("data-saver-cost");
  await expect(saverCost).toHaveText(/^Data saver is on: 240p \(144p on a slow link\), about \d+ MB an hour\.$/);
  const perHour240 = e2eDb()
    .select({ sizeBytes: movieRenditions.sizeBytes, durationSeconds: movieRenditions.durationSeconds })
    .from(movieRenditions)
    .where(and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.codec, "h264"), eq(movieRenditions.rung, 240)))
    .get()!;
  await expect(saverCost).toHaveAttribute(
    "data-megabytes-per-hour",
    String(Math.round((perHour240.sizeBytes / perHour240.durationSeconds) * 0.0036)),
  );
  await expect(options).toHaveCount(3);
  expect(await options.evaluateAll((items) => items.map((item) => (item as HTMLOptionElement).value))).toEqual([
    "auto",
    "144",
    "240",
  ]);
  await expect(page.getByTestId("data-cost")).toHaveText(/ at (144p|240p|144p–240p), /);
  // The server caps the playlist itself, whatever the page asks for.
  const master = await page.request.get(`/stream/${movieId}/master.m3u8`);
  expect(master.status()).toBe(200);
  const listed = rungsOfMaster(await master.text());
  expect(listed.length).toBeGreaterThan(0);
  expect(Math.max(...listed)).toBeLessThanOrEqual(240);

  // Nothing above 240p is even asked for.
  const requests = streamRequests(page, movieId);
  await startPlaying(video, { loop: true });
  await capped;
  await hlsJsAttached(video);
  await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(1);
  const height = await videoHeight(video);
  expect(height).toBeGreaterThan(0);
  expect(height).toBeLessThanOrEqual(240);
  expect(requests.length).toBeGreaterThan(0);
  expect(requests.map(pathOf).filter((path) => Number(/\/(\d+)p\.(m3u8|mp4)$/.exec(path)?.[1] ?? 0) > 240)).toEqual([]);

  // A phone in its own data-saving mode (Save-Data: on) starts with data saver on.
  // (The server renders the switch: this page needs no JavaScript, nor its download.)
  const saving = await signedInContext(browser, baseURL!, await createViewer("savedata"), {
    javaScriptEnabled: false,
    extraHTTPHeaders: { "Save-Data": "on" },
  });
  try {
    const phone = await saving.newPage();
    await phone.goto(`/WatchMovie?id=${movieId}`);
    await expect(phone.getByTestId("data-saver-toggle")).toHaveText("Turn data saver off");
    await expect(phone.locator("select[name=quality] option")).toHaveCount(3);
    expect(
      Math.max(...rungsOfMaster(await (await phone.request.get(`/stream/${movieId}/master.m3u8`)).text())),
    ).toBeLessThanOrEqual(240);
  } finally {
    await saving.close();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the watch page still plays the film, and its quality and data saver forms work", async ({ page }) => {
    // Five page loads and playback by the browser's own controls.
    test.slow();
    const movieId = TITLE.noScript;
    await signIn(page, await createViewer("noscript"));
    // The progressive fallback is for slow links: the highest rung whose average fits 300 kbps.
    const ready = readyH264Rungs(movieId);
    const fallbackRung = ready.filter((row) => row.averageBandwidth <= 300_000).at(-1)?.rung ?? ready[0].rung;
    expect(fallbackRung).toBeLessThanOrEqual(240);
    await page.goto(`/WatchMovie?id=${movieId}`);
    const video = page.getByTestId("player");
    await expect(video).toHaveAttribute("preload", "none");
    await expect(video).toHaveAttribute("controls", "");
    await expect(video).toHaveAttribute("data-player-mode", "none");
    const sources = () =>
      video
        .locator("source")
        .evaluateAll((items) =>
          items.map((item) => ({ src: item.getAttribute("src"), type: item.getAttribute("type") })),
        );
    await expect.poll(sources).toEqual([
      { src: `/stream/${movieId}/master.m3u8?max=360`, type: HLS_TYPE },
      { src: `/stream/${movieId}/${fallbackRung}p.mp4`, type: "video/mp4" },
    ]);

    // Each source answers with the viewer's cookie.
    const master = await page.request.get(`/stream/${movieId}/master.m3u8?max=360`);
    expect(master.status()).toBe(200);
    expect(master.headers()["content-type"]).toBe(HLS_TYPE);
    expect(await master.text()).toMatch(/^#EXTM3U\n/);
    const fallback = await page.request.get(`/stream/${movieId}/${fallbackRung}p.mp4`, {
      headers: { Range: "bytes=0-99" },
    });
    expect(fallback.status()).toBe(206);
    expect(fallback.headers()["content-type"]).toBe("video/mp4");
    expect((await fallback.body()).length).toBe(100);

    // The browser's own controls play it (Space on the focused player; no
    // page script runs): Chromium takes the HLS source natively.
    await video.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => currentTime(video), { timeout: 15_000 }).toBeGreaterThan(1);
    expect(await video.evaluate((element: HTMLVideoElement) => element.currentSrc)).toContain(
      `/stream/${movieId}/master.m3u8`,
    );

    // The settings are folded under the title (a <details>, which opens without JavaScript); the
    // quality menu is a GET form with an Apply button.
    await expect(page.locator("select[name=quality]")).toBeHidden();
    await openPlaybackSettings(page);
    await page.locator("select[name=quality]").selectOption("240");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${movieId}&quality=240$`));
    await expect.poll(sources).toEqual([
      { src: `/stream/${movieId}/master.m3u8?max=360&rung=240`, type: HLS_TYPE },
      { src: `/stream/${movieId}/240p.mp4`, type: "video/mp4" },
    ]);
    await expect(page.getByTestId("data-cost")).toHaveText(/ at 240p: \d+ MB an hour\.$/);

    // Data saver is a POST form that comes back to the same page.
    await openPlaybackSettings(page);
    await page.getByTestId("data-saver-toggle").click();
    await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${movieId}&quality=240$`));
    await expect(page.getByTestId("data-saver-toggle")).toHaveText("Turn data saver off");
    await expect(page.locator("select[name=quality] option")).toHaveCount(3);
    await expect.poll(sources).toEqual([
      { src: `/stream/${movieId}/master.m3u8?max=240&rung=240`, type: HLS_TYPE },
      { src: `/stream/${movieId}/240p.mp4`, type: "video/mp4" },
    ]);
  });
});

test("old clients still play an MP4 from /api/files", async ({ page }) => {
  const movieId = TITLE.oldClient;
  await postSignIn(page.request, await createViewer("oldclient"));
  const response = await page.request.get(`/api/files/${movieId}.mp4`, { headers: { Range: "bytes=0-99" } });
  expect(response.status()).toBe(206);
  expect(response.headers()["content-type"]).toBe("video/mp4");
  const body = await response.body();
  expect(body.length).toBe(100);
  expect(body.subarray(4, 8).toString("latin1")).toBe("ftyp");
});

test("the stream routes refuse the signed-out, a Premium title without a pass and another studio's provider; an administrator may check any", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const movieId = TITLE.refusals;
  const signedOut = await request.get(`/stream/${movieId}/master.m3u8`);
  expect(signedOut.status()).toBe(401);
  expect(await signedOut.json()).toMatchObject({ success: false });
  expect((await request.get(`/stream/${movieId}/144p.mp4`, { headers: { Range: "bytes=0-99" } })).status()).toBe(401);

  await postSignIn(page.request, await createViewer("nopass"));
  for (const file of ["master.m3u8", "144p.m3u8", "144p.mp4"]) {
    const refused = await page.request.get(`/stream/${PREMIUM}/${file}`);
    expect(refused.status(), file).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, reason: "pass_required" });
  }

  const provider = await signedInContext(browser, baseURL!, await createApprovedProvider("otherstudio"));
  try {
    const refused = await provider.request.get(`/stream/${movieId}/master.m3u8`);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false });
  } finally {
    await provider.close();
  }

  const admin = await signedInContext(browser, baseURL!, await createAdmin("streamcheck"));
  try {
    const allowed = await admin.request.get(`/stream/${PREMIUM}/master.m3u8`);
    expect(allowed.status()).toBe(200);
    expect(allowed.headers()["content-type"]).toBe(HLS_TYPE);
    const rungs = rungsOfMaster(await allowed.text());
    const ready = readyH264Rungs(PREMIUM).map((row) => row.rung);
    expect([...rungs].sort((a, b) => a - b)).toEqual(ready);
  } finally {
    await admin.close();
  }
});

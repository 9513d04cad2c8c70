import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { movies } from "../../app/db/schema";
import { makeVideoFixture } from "../fixtures/media";
import { linkConditions, scramble, scrambleMedia, SegmentMap } from "../fixtures/media-faults";
import { createApprovedProvider, createViewer } from "./fixtures/accounts";
import { refuseAv1 } from "./fixtures/av1";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { readyH264Rungs, startPlaying } from "./fixtures/titles";

/**
 * The player under what a Nigerian network does to a film, in the watch page
 * against the real server, the faults injected through DevTools (Fetch
 * interception and network conditions): a damaged segment, a request that
 * hangs, a segment the browser cannot decode, a dip in the link and its
 * return, and what the page says of a thin link and of a lost one. hls.js beside it under the same faults, and the faults these tests
 * leave out: `npm run bench:player-faults`.
 */

test.use({ serviceWorkers: "block" });
test.beforeEach(async ({ context }) => {
  // The H.264 rungs (this Chromium would choose AV1, whose encodes the e2e server makes late).
  await context.addInitScript(refuseAv1);
});

/** Film time 4–6 s, the segment each fault strikes (the demo films last 6–10 s). */
const STRUCK_SECONDS = 4;

type Fault = (time: number | null, url: string) => "pass" | "damage" | "scramble-media" | "hang";

/** Every request for the film goes through `fault`; returns the film times of the segment requests, in order, with when each was asked. */
async function strike(context: BrowserContext, fault: Fault) {
  const segments = new SegmentMap();
  const asked: Array<{ time: number; at: number; rung: string }> = [];
  await context.route(/\/stream\//, async (route) => {
    const request = route.request();
    const url = request.url();
    try {
      if (await segments.learnFrom(route)) return;
      const time = segments.timeOf(url, request.headers()["range"]);
      if (time !== null)
        asked.push({ time, at: Date.now(), rung: /\/(\d+)p(?:-av1)?\.mp4/.exec(new URL(url).pathname)?.[1] ?? "" });
      const what = fault(time, url);
      if (what === "hang") await new Promise((resolve) => setTimeout(resolve, 25_000));
      if (what === "damage" || what === "scramble-media") {
        const response = await route.fetch();
        const body = await response.body();
        return await route.fulfill({ response, body: what === "damage" ? scramble(body) : scrambleMedia(body) });
      }
      await route.continue();
    } catch {
      // The player gave the request up meanwhile.
    }
  });
  return asked;
}

async function openTitle(page: Page, movieId: string): Promise<Locator> {
  const viewer = await createViewer("faults");
  const response = await page.request.post("/login", {
    form: { email: viewer.email, password: viewer.password },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.getByTestId("player");
  await expect(video).toHaveAttribute("data-player-mode", "mse", { timeout: 15_000 });
  return video;
}

const position = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);
const ended = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.ended);

/** The film plays past the struck segment to its end, by itself, and the page never says it failed. */
async function expectPlayedThrough(page: Page, video: Locator, timeoutMs: number) {
  await expect.poll(() => ended(video), { timeout: timeoutMs, intervals: [250] }).toBe(true);
  expect(await position(video)).toBeGreaterThan(STRUCK_SECONDS + 2);
  await expect(page.getByTestId("player-error")).toHaveCount(0);
}

test("a segment that comes damaged every time is asked again once, then skipped: the film plays on to its end", async ({
  page,
  context,
}) => {
  const asked = await strike(context, (time) => (time === STRUCK_SECONDS ? "damage" : "pass"));
  const video = await openTitle(page, "demomovie04");
  await startPlaying(video);
  await expectPlayedThrough(page, video, 30_000);
  // Asked twice (at one rung, or at two if Auto moved meanwhile), and not again once skipped.
  const struck = asked.filter((each) => each.time === STRUCK_SECONDS);
  expect(struck.length).toBeGreaterThanOrEqual(2);
  expect(struck.length).toBeLessThanOrEqual(4);
});

test("a request that hangs is given up within seconds when little film is ahead, and asked again: the picture does not wait for it", async ({
  page,
  context,
}) => {
  let hung = false;
  const asked = await strike(context, (time) => {
    if (time !== STRUCK_SECONDS || hung) return "pass";
    hung = true;
    return "hang";
  });
  const video = await openTitle(page, "demomovie01");
  const started = Date.now();
  await startPlaying(video);
  // An 8 s film: to its end in well under the 25 s the hung request would take.
  await expectPlayedThrough(page, video, 20_000);
  const struck = asked.filter((each) => each.time === STRUCK_SECONDS);
  expect(struck.length).toBeGreaterThanOrEqual(2);
  // Asked again after about twice the round trip plus a segment's time (the old player waited 10 s).
  expect(struck[1]!.at - struck[0]!.at).toBeLessThan(5_000);
  expect(Date.now() - started).toBeLessThan(18_000);
});

test("a segment the browser cannot decode: the player builds a fresh MediaSource where the film stood and plays on", async ({
  page,
  context,
}) => {
  let struck = false;
  await strike(context, (time) => {
    if (time !== STRUCK_SECONDS || struck) return "pass";
    struck = true;
    return "scramble-media";
  });
  await context.addInitScript(() => {
    // Each MediaSource the player opens on the element (a rebuild opens a second).
    const sources: string[] = [];
    (window as unknown as { mediaSources: string[] }).mediaSources = sources;
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (object: Blob | MediaSource) => {
      const url = create(object);
      if (object instanceof MediaSource) sources.push(url);
      return url;
    };
  });
  const video = await openTitle(page, "demomovie12");
  await startPlaying(video);
  await expectPlayedThrough(page, video, 30_000);
  expect(struck).toBe(true);
  const opened = await page.evaluate(() => (window as unknown as { mediaSources: string[] }).mediaSources.length);
  expect(opened).toBeGreaterThanOrEqual(2);
});

test.describe("a dip in the link", () => {
  let movieId: string;
  let fixtures: string;

  // A 48-s film (the demo's last seconds, too short for a dip), through the real upload and ladder.
  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-dip-"));
    const film = await makeVideoFixture(fixtures, "mp4-faststart", 48, "480x270");
    const provider = await createApprovedProvider("dip");
    const login = await request.post("/api/cp/login", { data: { email: provider.email, password: provider.password } });
    const { token } = (await login.json()) as { token: string };
    const upload = await request.post("/api/upload/movies", {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        name: "A film for a dip",
        Category: e2eDb().select({ id: movies.categoryId }).from(movies).limit(1).get()!.id,
        Description: "Long enough for a dip",
        file: { name: "dip.mp4", mimeType: "video/mp4", buffer: fs.readFileSync(film) },
      },
    });
    expect(upload.status()).toBeLessThan(300);
    const row = () => e2eDb().select().from(movies).where(eq(movies.name, "A film for a dip")).get() ?? null;
    await expect.poll(() => row()?.status ?? null, { timeout: 100_000, intervals: [500] }).toBe("ready");
    movieId = row()!.id;
    await expect.poll(() => readyH264Rungs(movieId).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    e2eDb().update(movies).set({ approved: true, access: "free" }).where(eq(movies.id, movieId)).run();
  });
  test.afterAll(() => fs.rmSync(fixtures, { recursive: true, force: true }));

  test("1,500 → 150 → 1,500 kbps: the picture falls to the lowest rung in the dip and climbs back within 20 s of the link's return", async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const asked = await strike(context, () => "pass");
    const video = await openTitle(page, movieId);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const link = (kbps: number) => cdp.send("Network.emulateNetworkConditions", linkConditions(kbps, 100));
    await link(1500);
    await startPlaying(video);
    // The top rung Auto reaches on the good link.
    await expect.poll(() => video.getAttribute("data-rung"), { timeout: 20_000 }).not.toBe("144");
    const top = Number(await video.getAttribute("data-rung"));
    await link(150);
    // In the dip the player fetches the lowest rung (once the read-ahead bought on the good link runs low enough).
    await expect.poll(() => asked.at(-1)?.rung, { timeout: 40_000 }).toBe("144");
    await page.waitForTimeout(8_000);
    await link(1500);
    const back = Date.now();
    await expect
      .poll(() => asked.filter((each) => each.at > back && Number(each.rung) >= top).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    // …and the picture on screen is back at that rung within 20 s of the link's return.
    await expect
      .poll(async () => Number(await video.getAttribute("data-rung")), {
        timeout: Math.max(1, back + 20_000 - Date.now()),
      })
      .toBeGreaterThanOrEqual(top);
    await expect(page.getByTestId("player-error")).toHaveCount(0);
  });

  test.describe("in Hausa", () => {
    test.use({ locale: "ha-NG", extraHTTPHeaders: { "Accept-Language": "ha" } });

    test("a thin link is said to be slow, never lost; a link that answers nothing is lost; the film goes on when it is back", async ({
      page,
      context,
    }) => {
      test.setTimeout(90_000);
      const video = await openTitle(page, movieId);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      const link = (conditions: ReturnType<typeof linkConditions>) =>
        cdp.send("Network.emulateNetworkConditions", conditions);
      const slow = page.getByTestId("player-slow");
      const lost = page.getByTestId("player-reconnecting");
      // Whether "connection lost" ever showed, however briefly.
      const lostShown = () => page.evaluate(() => (window as unknown as { lostShown?: boolean }).lostShown === true);
      await page.evaluate(() => {
        const seen = () => document.querySelector('[data-testid="player-reconnecting"]') !== null;
        new MutationObserver(() => {
          if (seen()) (window as unknown as { lostShown: boolean }).lostShown = true;
        }).observe(document.body, { childList: true, subtree: true });
      });
      // Thinner than the lowest rung: the film waits while its bytes still come, for a while.
      await link(linkConditions(24, 300));
      await startPlaying(video);
      await expect(slow).toContainText("Ana lodawa a hankali", { timeout: 20_000 });
      await page.waitForTimeout(8_000);
      expect(await lostShown()).toBe(false);
      // Nothing answers at all.
      await link({ ...linkConditions(24, 300), offline: true });
      await expect(lost).toContainText("Haɗin intanet ya katse", { timeout: 20_000 });
      await expect(slow).toHaveCount(0);
      // Back: the notice goes and the film plays on by itself.
      await link(linkConditions(1500, 100));
      await expect(lost).toHaveCount(0, { timeout: 20_000 });
      const from = await position(video);
      await expect.poll(() => position(video), { timeout: 20_000 }).toBeGreaterThan(from + 2);
      await expect(page.getByTestId("player-error")).toHaveCount(0);
    });
  });
});

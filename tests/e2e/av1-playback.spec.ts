import type { Page, Request } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { movieRenditions } from "../../app/db/schema";
import { createApprovedProvider, createViewer } from "./fixtures/accounts";
import { refuseAv1 } from "./fixtures/av1";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, openPlaybackSettings, startPlaying } from "./fixtures/titles";

/**
 * The AV1 + Opus rungs as a viewer meets them: Chromium here decodes AV1
 * (MediaSource and mediaCapabilities say so), so the player asks for the AV1
 * family and plays it, and the cost before play is the AV1 rungs' own; a
 * browser that says it cannot decode AV1 smoothly plays H.264 as before, and
 * never fetches an AV1 byte. Each test plays its own copy of a demo title
 * (the demo is made with both families).
 */

function streamRequests(page: Page, movieId: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.includes(`/stream/${movieId}/`)) seen.push(request);
  });
  return seen;
}
const pathOf = (request: Request) => new URL(request.url()).pathname;

/** A title of its own with a demo title's files, both families of rungs ready. */
async function av1Title(label: string): Promise<string> {
  const provider = await createApprovedProvider(`av1${label}`);
  const category = createCategory("AV1");
  const id = createTitle({ name: `AV1 ${label}`, categoryId: category.id, providerId: provider.id, withMedia: true });
  const av1 = e2eDb()
    .select({ rung: movieRenditions.rung })
    .from(movieRenditions)
    .where(and(eq(movieRenditions.movieId, id), eq(movieRenditions.codec, "av1"), eq(movieRenditions.status, "ready")))
    .all();
  expect(av1.map((row) => row.rung).sort((a, b) => a - b)).toEqual([144, 240, 360]);
  return id;
}

test("a browser that decodes AV1 plays the AV1 + Opus rungs, and the cost before play is theirs", async ({ page }) => {
  const movieId = await av1Title("plays");
  const viewer = await createViewer("av1plays");
  await page.request.post("/login", { form: { email: viewer.email, password: viewer.password }, maxRedirects: 0 });
  const requests = streamRequests(page, movieId);
  await page.goto(`/WatchMovie?id=${movieId}`);
  // The cost line says the AV1 picture is played, with its own figures (about half H.264's).
  const note = page.getByTestId("data-cost-av1");
  await expect(note).toBeVisible();
  const cost = page.getByTestId("data-cost");
  const perHour = Number(await cost.getAttribute("data-megabytes-per-hour-high"));
  const h264 = e2eDb()
    .select()
    .from(movieRenditions)
    .where(and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.status, "ready")))
    .all();
  const mbPerHour = (codec: string, rung: number) => {
    const row = h264.find((candidate) => candidate.codec === codec && candidate.rung === rung)!;
    return Math.round(((row.sizeBytes / row.durationSeconds) * 3600) / 1e6);
  };
  expect([144, 240, 360].map((rung) => mbPerHour("av1", rung))).toContain(perHour);
  expect(perHour).toBeLessThan(mbPerHour("h264", 360));

  const video = page.getByTestId("player");
  await startPlaying(video);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(1.5);
  await expect(video).toHaveAttribute("data-av1", "1");
  const frames = await video.evaluate(
    (element: HTMLVideoElement) => element.getVideoPlaybackQuality().totalVideoFrames,
  );
  expect(frames).toBeGreaterThan(10);
  const paths = requests.map(pathOf);
  expect(paths.some((path) => path.endsWith("/master.m3u8"))).toBe(true);
  expect(requests.find((request) => pathOf(request).endsWith("/master.m3u8"))!.url()).toContain("av1=1");
  const media = paths.filter((path) => path.endsWith(".mp4"));
  expect(media.length).toBeGreaterThan(0);
  // Only AV1 bytes: the player stays in the family it started in.
  for (const path of media) expect(path).toMatch(/\/\d+p-av1\.mp4$/);
  for (const request of requests.filter((candidate) => pathOf(candidate).endsWith(".mp4"))) {
    const response = await request.response();
    if (response) expect(response.status()).toBe(206);
  }
  await expect(video).toHaveAttribute("data-rung", /^(144|240|360)$/);
  // "Used so far" counts the AV1 bytes as they came.
  await expect(page.getByTestId("data-spent")).toBeVisible();

  // The quality menu offers each rung at the AV1 rung's cost.
  await openPlaybackSettings(page);
  const option = page.getByTestId("playback-choices").locator('option[value="240"]');
  await expect(option).toContainText(String(mbPerHour("av1", 240)));
});

test("a browser that cannot decode AV1 smoothly plays H.264 and fetches no AV1 byte", async ({ page, context }) => {
  const movieId = await av1Title("refused");
  await context.addInitScript(refuseAv1);
  const viewer = await createViewer("av1refused");
  await page.request.post("/login", { form: { email: viewer.email, password: viewer.password }, maxRedirects: 0 });
  const requests = streamRequests(page, movieId);
  await page.goto(`/WatchMovie?id=${movieId}`);
  const video = page.getByTestId("player");
  await expect(video).toHaveAttribute("data-player-mode", "mse", { timeout: 15_000 });
  await startPlaying(video);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(1.5);
  await expect(video).toHaveAttribute("data-av1", "0");
  await expect(page.getByTestId("data-cost-av1")).toHaveCount(0);
  const master = requests.find((request) => pathOf(request).endsWith("/master.m3u8"))!;
  expect(master.url()).not.toContain("av1=1");
  const masterText = await (await master.response())!.text();
  expect(masterText).not.toContain("av01");
  const media = requests.map(pathOf).filter((path) => path.endsWith(".mp4"));
  expect(media.length).toBeGreaterThan(0);
  for (const path of media) expect(path).toMatch(/\/\d+p\.mp4$/);
});

test("the AV1 family's master lists both families with their exact CODECS; without the player's word, H.264 alone", async ({
  page,
}) => {
  const movieId = await av1Title("master");
  const viewer = await createViewer("av1master");
  await page.request.post("/login", { form: { email: viewer.email, password: viewer.password }, maxRedirects: 0 });
  const plain = await (await page.request.get(`/stream/${movieId}/master.m3u8?bw=400`)).text();
  expect(plain).toContain('CODECS="avc1.');
  expect(plain).not.toContain("av01");
  const both = await (await page.request.get(`/stream/${movieId}/master.m3u8?bw=400&av1=1`)).text();
  const codecs = [...both.matchAll(/CODECS="([^"]+)"/g)].map((match) => match[1]);
  const uris = both.split("\n").filter((line) => line && !line.startsWith("#"));
  // AV1 first (the start rung first), then H.264.
  expect(uris.slice(0, 3).every((uri) => uri.endsWith("-av1.m3u8"))).toBe(true);
  expect(uris.slice(3).every((uri) => /\d+p\.m3u8$/.test(uri))).toBe(true);
  for (const value of codecs.slice(0, 3)) expect(value).toMatch(/^av01\.0\.\d\dM\.08,opus$/);
  for (const value of codecs.slice(3)) expect(value).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
  // The AV1 rung's playlist and bytes come through the same checks.
  const playlist = await page.request.get(`/stream/${movieId}/${uris[0]}`);
  expect(playlist.status()).toBe(200);
  const range = await page.request.get(`/stream/${movieId}/${uris[0]!.replace(".m3u8", ".mp4")}`, {
    headers: { Range: "bytes=0-99" },
  });
  expect(range.status()).toBe(206);
  expect((await range.body()).length).toBe(100);
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { movies } from "../../app/db/schema";
import { movieDir } from "../../app/media/storage.server";
import { makeVideoFixture } from "../fixtures/media";
import type { Page } from "@playwright/test";
import { createApprovedProvider, createViewer, signInThroughForm, openUploadForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { describeBothWays, expect, test } from "./fixtures/test";

const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-e2e-fixtures-"));
let mp4: string;
let avi: string;

test.beforeAll(async () => {
  mp4 = await makeVideoFixture(fixtures, "mp4-moov-at-end", 3);
  avi = await makeVideoFixture(fixtures, "avi", 3);
});

const movieByName = (name: string) => e2eDb().select().from(movies).where(eq(movies.name, name)).get();
const storageRoot = () => process.env.E2E_STORAGE_DIR!;

async function openStudio(page: Page, provider: TestAccount) {
  await signInThroughForm(page, "/cp", provider.email, provider.password);
  await openUploadForm(page);
}

async function fillUpload(page: Page, details: { title: string; file: string; category?: string }) {
  await page.getByLabel("Movie Title").fill(details.title);
  await page.getByLabel("Description").fill(`${details.title} — a film uploaded by the end-to-end tests.`);
  await page.getByLabel("Category").selectOption({ label: details.category ?? "Action" });
  await page.getByLabel("Cast").fill("Ali Nuhu, Rahama Sadau");
  await page.getByLabel("Movie", { exact: true }).setInputFiles(details.file);
}

/** Wait until the list shows the title as Ready (the list refreshes itself with JavaScript; without, reload). */
async function waitUntilReady(page: Page, title: string) {
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(async () => {
    await page.goto("/provider/movielist");
    await expect(row.locator("[data-status]")).toHaveAttribute("data-status", "ready", { timeout: 1000 });
  }).toPass({ timeout: 120_000, intervals: [500, 1000, 2000] });
}

/** Play the title in a browser as its owner: the element must decode frames and advance. */
async function expectPlays(page: Page, movieId: string) {
  await page.goto("/provider/movielist");
  const playing = await page.evaluate(async (src) => {
    const video = document.createElement("video");
    video.muted = true;
    video.src = src;
    document.body.append(video);
    await video.play();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    return { readyState: video.readyState, currentTime: video.currentTime };
  }, `/api/files/${movieId}.mp4`);
  expect(playing.readyState).toBeGreaterThanOrEqual(2);
  expect(playing.currentTime).toBeGreaterThan(0.2);
}

describeBothWays("the provider studio", ({ javaScriptEnabled, mode }) => {
  test(`a provider uploads an .mp4 and an .avi; both become Ready and play — ${mode}`, async ({ page, browser }) => {
    // Two films made playable (the .avi transcoded) while other tests load the machine.
    test.setTimeout(180_000);
    const provider = await createApprovedProvider(`studio${javaScriptEnabled ? "js" : "nojs"}`);
    await openStudio(page, provider);

    for (const [title, file] of [
      [`Hasken Rana ${mode}`, mp4],
      [`Tsohon Kaset ${mode}`, avi],
    ] as const) {
      await page.goto("/provider/Movieupload");
      await fillUpload(page, { title, file });
      if (javaScriptEnabled) {
        // A slow uplink, as on a mobile network, so the progress bar has time to show.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          latency: 50,
          downloadThroughput: -1,
          uploadThroughput: 64 * 1024,
        });
        await page.getByRole("button", { name: "Upload" }).click();
        const progress = page.getByRole("progressbar", { name: "Upload progress" });
        await expect(progress).toBeVisible();
        await expect(page.getByText(/Sending… \d+ %|Saving the files/).first()).toBeVisible();
        await expect(page.getByRole("button", { name: "Uploading…" })).toBeDisabled();
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput: -1,
        });
      } else {
        await page.getByRole("button", { name: "Upload" }).click();
      }
      await expect(page).toHaveURL(/\/provider\/movielist$/);
      await expect(page.getByText("Movie uploaded successfully")).toBeVisible();
      await expect(page.getByRole("row").filter({ hasText: title })).toBeVisible();
      await waitUntilReady(page, title);
    }

    const mp4Row = movieByName(`Hasken Rana ${mode}`)!;
    const aviRow = movieByName(`Tsohon Kaset ${mode}`)!;
    expect(mp4Row.providerId).toBe(provider.id);
    expect(aviRow.durationSeconds).toBeGreaterThanOrEqual(3);

    // Playback needs JavaScript in the page; a second, script-enabled context of the same provider checks it.
    const context = await browser.newContext({
      javaScriptEnabled: true,
      storageState: await page.context().storageState(),
    });
    const player = await context.newPage();
    await expectPlays(player, mp4Row.id);
    await expectPlays(player, aviRow.id);
    await context.close();
  });

  test(`a wrong extension, a renamed executable and a missing title are refused with messages — ${mode}`, async ({
    page,
  }) => {
    const provider = await createApprovedProvider(`refuse${javaScriptEnabled ? "js" : "nojs"}`);
    await openStudio(page, provider);
    const before = e2eDb().select().from(movies).where(eq(movies.providerId, provider.id)).all().length;

    const wrongExtension = path.join(fixtures, "film.flv");
    fs.copyFileSync(mp4, wrongExtension);
    await page.goto("/provider/Movieupload");
    await fillUpload(page, { title: "Wrong kind", file: wrongExtension });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByText("This type of file is not accepted").first()).toBeVisible();

    const executable = path.join(fixtures, "setup.mp4");
    fs.writeFileSync(executable, Buffer.concat([Buffer.from("MZ\x90\x00\x03"), Buffer.alloc(8192, 0x41)]));
    await page.goto("/provider/Movieupload");
    await fillUpload(page, { title: "Not a film", file: executable });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByText("This file's content does not match its name").first()).toBeVisible();

    await page.goto("/provider/Movieupload");
    await fillUpload(page, { title: "", file: mp4 });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByText("Movie Title is required").first()).toBeVisible();
    await expect(page.getByLabel("Movie Title")).toHaveAttribute("aria-invalid", "true");

    expect(e2eDb().select().from(movies).where(eq(movies.providerId, provider.id)).all().length).toBe(before);
    const tmp = path.join(storageRoot(), "tmp");
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((file) => file.startsWith("upload-")) : []).toEqual([]);
  });

  test(`deleting a title asks first, then removes its row and files — ${mode}`, async ({ page }) => {
    const provider = await createApprovedProvider(`delete${javaScriptEnabled ? "js" : "nojs"}`);
    await openStudio(page, provider);
    const title = `To be deleted ${mode}`;
    await page.goto("/provider/Movieupload");
    await fillUpload(page, { title, file: mp4 });
    await page.getByRole("button", { name: "Upload" }).click();
    // With JavaScript the film goes up in the background: the page moves on to the list when it is stored.
    await expect(page).toHaveURL(/\/provider\/movielist$/);
    await waitUntilReady(page, title);
    const movie = movieByName(title)!;
    const folder = movieDir(movie.id, storageRoot());
    expect(fs.existsSync(path.join(folder, "video.mp4"))).toBe(true);

    await page.getByRole("link", { name: `Delete ${title}` }).click();
    await expect(page.getByRole("alertdialog")).toContainText(`Delete “${title}”?`);
    await page.getByRole("button", { name: "Yes, delete it" }).click();
    await expect(page.getByText("Movie deleted")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(0);
    expect(movieByName(title)).toBeUndefined();
    expect(fs.existsSync(folder)).toBe(false);
  });
});

test("a viewer cannot open the studio, upload or delete, and another provider cannot delete someone else's title", async ({
  page,
  request,
}) => {
  const viewer = await createViewer("studio-intruder");
  await signInThroughForm(page, "/login", viewer.email, viewer.password);
  await page.waitForURL(/\/movies/);
  for (const path of [
    "/provider/Movieupload",
    "/provider/movielist",
    "/provider/payment",
    "/provider/recentlywatched",
    "/provider/watchlater",
    "/provider/savedvideo",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
  }
  const upload = await page.request.post("/provider/uploads", {
    multipart: { name: "x", movie: { name: "a.mp4", mimeType: "video/mp4", buffer: Buffer.from("tiny") } },
  });
  expect(upload.status()).toBe(403);

  const owner = await createApprovedProvider("owner");
  const other = await createApprovedProvider("other");
  const { receiveMovieUpload } = await import("../../app/routes-support/title-requests.server");
  const form = new FormData();
  form.set("name", "Owned title");
  form.set(
    "Category",
    e2eDb()
      .select()
      .from((await import("../../app/db/schema")).categories)
      .get()!.id,
  );
  form.set("movie", new Blob([fs.readFileSync(mp4)]), "owned.mp4");
  const result = await receiveMovieUpload(e2eDb(), new Request("http://localhost/", { method: "POST", body: form }), {
    providerId: owner.id,
    layout: "form",
    root: storageRoot(),
    maxFileBytes: 50 * 1024 * 1024,
  });
  if (!result.ok) throw new Error("fixture upload failed");

  await page.context().clearCookies();
  await signInThroughForm(page, "/cp", other.email, other.password);
  await page.waitForURL(/\/provider\/movielist/);
  const attempt = await page.request.post("/provider/movielist", {
    form: { intent: "delete", movieId: result.movieId },
  });
  expect(attempt.status()).toBe(403);
  expect(e2eDb().select().from(movies).where(eq(movies.id, result.movieId)).get()).toBeDefined();

  const anonymous = await request.get(`/api/files/${result.movieId}.mp4`);
  expect(anonymous.status()).toBe(401);
});

test("an upload cut off mid-body leaves no file and no row behind", async ({ page }) => {
  const provider = await createApprovedProvider("dropped");
  await signInThroughForm(page, "/cp", provider.email, provider.password);
  await page.waitForURL(/\/provider\/movielist/);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const category = e2eDb()
    .select()
    .from((await import("../../app/db/schema")).categories)
    .get()!.id;

  // A real multipart body, of which only the first half is sent before the connection drops.
  const form = new FormData();
  form.set("name", "Dropped upload");
  form.set("Category", category);
  form.set("movie", new Blob([fs.readFileSync(mp4), Buffer.alloc(4 * 1024 * 1024, 1)]), "dropped.mp4");
  const encoded = new Request("http://localhost/", { method: "POST", body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(process.env.E2E_BASE_URL!);
  const net = await import("node:net");
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /provider/uploads HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${cookie}\r\nAccept: application/json\r\n` +
          `Content-Type: ${encoded.headers.get("Content-Type")}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, body.length / 2), () => setTimeout(() => socket.destroy(), 300));
    });
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });

  const tmp = path.join(storageRoot(), "tmp");
  await expect
    .poll(() => (fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((file) => file.startsWith("upload-")) : []), {
      timeout: 5000,
    })
    .toEqual([]);
  expect(movieByName("Dropped upload")).toBeUndefined();
});

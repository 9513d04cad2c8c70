import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { CDPSession, Page } from "@playwright/test";
import { movies, resumableUploads } from "../../app/db/schema";
import { movieVideoPath } from "../../app/media/storage.server";
import { makeVideoFixture } from "../fixtures/media";
import { createApprovedProvider, signInThroughForm, openUploadForm } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";

/**
 * A provider's upload over a link that drops: the network goes away mid-film
 * and comes back, or the page is reloaded and the film picked again; the
 * upload goes on from what the server has, and the title is the same bytes.
 */
const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-e2e-resume-"));
let film: string;
let filmSha: string;

test.beforeAll(async () => {
  film = await makeVideoFixture(fixtures, "mp4-large", 5);
  filmSha = sha256(fs.readFileSync(film));
});

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A slow uplink (1 MB/s), so there is time to cut it. */
async function throttle(page: Page, offline = false): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", {
    offline,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });
  return cdp;
}

async function fillUpload(page: Page, title: string) {
  await page.getByLabel("Movie Title").fill(title);
  await page.getByLabel("Category").selectOption({ label: "Action" });
  await page.getByLabel("Movie", { exact: true }).setInputFiles(film);
}

async function progressOf(page: Page): Promise<number> {
  return Number((await page.locator("[data-upload-progress]").getAttribute("data-upload-progress")) ?? 0);
}

/** Offsets of the film's PATCH requests, in order: where each one started. */
function recordPatches(page: Page): number[] {
  const offsets: number[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH" && request.url().includes("/provider/uploads/tus/"))
      offsets.push(Number(request.headers()["upload-offset"]));
  });
  return offsets;
}

async function expectReadyWithSameBytes(page: Page, title: string) {
  await expect(page).toHaveURL(/\/provider\/movielist$/, { timeout: 30_000 });
  const movie = e2eDb().select().from(movies).where(eq(movies.name, title)).get()!;
  await expect
    .poll(() => e2eDb().select().from(movies).where(eq(movies.id, movie.id)).get()?.status, { timeout: 60_000 })
    .toBe("ready");
  expect(sha256(fs.readFileSync(movieVideoPath(movie.id, process.env.E2E_STORAGE_DIR!)))).toBe(filmSha);
  return movie;
}

test("the network drops mid-film and comes back: the upload goes on from the server's last byte and the title is the same bytes", async ({
  page,
}) => {
  const provider = await createApprovedProvider("resume-offline");
  await signInThroughForm(page, "/cp", provider.email, provider.password);
  await openUploadForm(page);
  const title = "Cut mid-way";
  await fillUpload(page, title);
  const patches = recordPatches(page);
  const cdp = await throttle(page);
  await page.getByRole("button", { name: "Upload" }).click();
  await expect.poll(() => progressOf(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(25);
  await expect(page.getByText(/MB\/s|kB\/s/)).toBeVisible();
  await expect(page.getByText(/about .+ left/)).toBeVisible();

  await cdp.send("Network.emulateNetworkConditions", {
    offline: true,
    latency: 0,
    downloadThroughput: 0,
    uploadThroughput: 0,
  });
  await expect(page.locator("[data-upload-phase]")).toHaveAttribute("data-upload-phase", "offline", {
    timeout: 15_000,
  });
  await expect(page.getByText(/Connection lost\. .* MB are safe on the server/)).toBeVisible();
  const kept = e2eDb().select().from(resumableUploads).where(eq(resumableUploads.providerId, provider.id)).get()!;
  expect(kept.completedAt).toBeNull();

  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 4 * 1024 * 1024,
  });
  await expectReadyWithSameBytes(page, title);
  // It went on from where the server was: only the very first request started at byte 0.
  expect(patches.length, `PATCH offsets: ${patches.join(", ")}`).toBeGreaterThanOrEqual(2);
  expect(
    patches.filter((offset) => offset === 0),
    `PATCH offsets: ${patches.join(", ")}`,
  ).toEqual([0]);
});

test("the page is reloaded mid-film: the unfinished upload is listed, and choosing the same file continues it", async ({
  page,
}) => {
  const provider = await createApprovedProvider("resume-reload");
  await signInThroughForm(page, "/cp", provider.email, provider.password);
  await openUploadForm(page);
  const title = "Reloaded mid-way";
  await fillUpload(page, title);
  await page
    .getByLabel("Poster")
    .setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: fs.readFileSync(await posterFixture()) });
  const patches = recordPatches(page);
  const cdp = await throttle(page);
  await page.getByRole("button", { name: "Upload" }).click();
  await expect.poll(() => progressOf(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(20);
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByText(/Paused at \d+ %/)).toBeVisible();
  await cdp.detach();
  await page.reload();

  const entry = page.locator("[data-unfinished-upload]");
  await expect(entry).toContainText(title);
  await expect(entry).toContainText(/large\.mp4: [1-9][\d.]* of 9\.3 MB on the server/);
  // Another file is not taken for it.
  await entry
    .locator('input[type="file"]')
    .setInputFiles({ name: "other.mp4", mimeType: "video/mp4", buffer: Buffer.alloc(1000) });
  await expect(page.getByText("That is not the same file").first()).toBeVisible();
  await entry.locator('input[type="file"]').setInputFiles(film);
  const movie = await expectReadyWithSameBytes(page, title);
  // The first request was cut mid-chunk; the server kept what had arrived, and the next one started there.
  expect(patches.length, `PATCH offsets: ${patches.join(", ")}`).toBeGreaterThanOrEqual(2);
  expect(
    patches.filter((offset) => offset === 0),
    `PATCH offsets: ${patches.join(", ")}`,
  ).toEqual([0]);
  expect(patches[1] % (8 * 1024 * 1024), `PATCH offsets: ${patches.join(", ")}`).toBeGreaterThan(0);
  expect(movie.providerId).toBe(provider.id);
});

test("without JavaScript an unfinished upload is listed and can be discarded", async ({ browser }) => {
  const provider = await createApprovedProvider("resume-nojs");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInThroughForm(page, "/cp", provider.email, provider.password);
  await openUploadForm(page);
  const category = e2eDb()
    .select()
    .from((await import("../../app/db/schema")).categories)
    .get()!.id;
  const b64 = (value: string) => Buffer.from(value).toString("base64");
  const created = await page.request.post("/provider/uploads/tus", {
    headers: {
      "Tus-Resumable": "1.0.0",
      "Upload-Length": "5000000",
      "Upload-Metadata": `name ${b64("Left unfinished")},Category ${b64(category)},filename ${b64("unfinished.mp4")}`,
      Origin: new URL(process.env.E2E_BASE_URL!).origin,
    },
  });
  expect(created.status()).toBe(201);
  await page.goto("/provider/Movieupload");
  const entry = page.locator("[data-unfinished-upload]");
  await expect(entry).toContainText("Left unfinished");
  await expect(page.getByText("Continuing an upload needs JavaScript")).toBeVisible();
  await entry.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByText("Unfinished upload discarded")).toBeVisible();
  await expect(page.locator("[data-unfinished-upload]")).toHaveCount(0);
  expect(e2eDb().select().from(resumableUploads).where(eq(resumableUploads.providerId, provider.id)).all()).toEqual([]);
  await context.close();
});

async function posterFixture(): Promise<string> {
  const file = path.join(fixtures, "poster.png");
  if (!fs.existsSync(file)) {
    const sharp = (await import("sharp")).default;
    await sharp({ create: { width: 320, height: 180, channels: 3, background: "#208040" } })
      .png()
      .toFile(file);
  }
  return file;
}

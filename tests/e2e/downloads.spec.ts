import type { Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { downloadLicences, plans, watchEvents } from "../../app/db/schema";
import { signLicence } from "../../app/services/downloads.server";
import { createAdmin, createApprovedProvider, createViewer, signInThroughForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, openPlaybackSettings, uniqueWord } from "./fixtures/titles";

/**
 * Offline downloads as a viewer meets them: Download on the title page, the
 * Downloads page with no network, play, seek and resume there, progress
 * reaching the server when the network is back, expiry and renewal, delete,
 * the plan's rules and a device short of space. One title per test (a fresh
 * copy of a demo film with its ladder). Serial: one test switches the FREE
 * plan's downloads off for a moment.
 */
test.describe.configure({ mode: "serial" });

let provider: TestAccount;
let categoryId: string;

test.beforeAll(async () => {
  provider = await createApprovedProvider("downloads-provider");
  categoryId = createCategory("Downloads").id;
});

function newTitle(): { id: string; name: string } {
  const name = uniqueWord("Offline ");
  return { id: createTitle({ name, categoryId, providerId: provider.id, withMedia: true }), name };
}

async function signedInViewer(page: Page, label: string): Promise<TestAccount> {
  const viewer = await createViewer(label);
  await signInThroughForm(page, "/login", viewer.email, viewer.password);
  await expect(page).toHaveURL(/\/movies$/);
  return viewer;
}

/** The service worker is installed and controls the page (it plays the stored films). */
async function withServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  // A page loaded before the worker was active is controlled after its claim, or at the latest after a reload.
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect
    .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 15_000 })
    .toBe(true);
}

async function downloadFromTitlePage(page: Page, movieId: string) {
  await page.goto(`/WatchMovie?id=${movieId}`);
  await withServiceWorker(page);
  // The Download button beside the player's sound opens the downloader under the player.
  await page.getByTestId("player-frame").getByRole("button", { name: "Download", exact: true }).click();
  const panel = page.getByRole("region", { name: "Download to watch offline" });
  await expect(page.getByTestId("playback-settings")).toHaveAttribute("open", "");
  await panel.getByRole("button", { name: "Download", exact: true }).click();
  // The lowest quality is chosen first, with its size from the real file.
  await expect(panel.getByRole("radio").first()).toBeChecked();
  await expect(panel.getByText(/^\d+p — \d+\.\d MB$/).first()).toBeVisible();
  await panel.getByRole("button", { name: "Start download" }).click();
  await expect(panel.getByText("Downloaded")).toBeVisible({ timeout: 30_000 });
}

test("a viewer downloads a film, watches it with no network, seeks, and the progress reaches the server when back online", async ({
  page,
  context,
}) => {
  const viewer = await signedInViewer(page, "offline-viewer");
  const title = newTitle();
  await downloadFromTitlePage(page, title.id);
  const licence = e2eDb()
    .select()
    .from(downloadLicences)
    .where(and(eq(downloadLicences.accountId, viewer.id), eq(downloadLicences.movieId, title.id)))
    .get();
  expect(licence?.deletedAt ?? null).toBeNull();

  await context.setOffline(true);
  await page.goto("/downloads");
  const item = page.locator(`[data-download-id="${title.id}"]`);
  await expect(item.getByRole("heading", { name: title.name })).toBeVisible();
  await expect(page.getByText("You are offline. Downloaded films still play.")).toBeVisible();
  // This device's copy of the page: neither signed in nor offering to sign in.
  await expect(page.getByRole("banner").getByRole("link", { name: "Downloads", exact: true })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Login", exact: true })).toHaveCount(0);
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign up", exact: true })).toHaveCount(0);
  await item.getByRole("button", { name: "Play" }).click();
  const video = page.getByTestId("offline-player").locator("video");
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.5);
  // Seek: the worker answers the new byte range from the stored chunks.
  await video.evaluate((element: HTMLVideoElement) => {
    element.currentTime = Math.min(element.duration - 1, 4);
  });
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => (element.seeking ? 0 : element.currentTime)), {
      timeout: 10_000,
    })
    .toBeGreaterThanOrEqual(3);
  await video.evaluate((element: HTMLVideoElement) => element.pause());
  expect(await video.evaluate((element: HTMLVideoElement) => element.error)).toBeNull();

  // Back online: what was watched offline is reported.
  await context.setOffline(false);
  await page.goto("/downloads");
  await expect
    .poll(
      () =>
        e2eDb()
          .select({ position: watchEvents.positionSeconds })
          .from(watchEvents)
          .where(and(eq(watchEvents.accountId, viewer.id), eq(watchEvents.movieId, title.id)))
          .get()?.position ?? 0,
      { timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(3);

  // It resumes where the viewer stopped.
  await page.locator(`[data-download-id="${title.id}"]`).getByRole("button", { name: "Play" }).click();
  await expect
    .poll(
      () =>
        page
          .getByTestId("offline-player")
          .locator("video")
          .evaluate((element: HTMLVideoElement) => element.currentTime),
      { timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(3);
});

test("an expired download refuses to play and says so; renewing it fetches nothing again; a licence edited on the device is refused", async ({
  page,
}) => {
  const viewer = await signedInViewer(page, "expiry-viewer");
  const title = newTitle();
  await downloadFromTitlePage(page, title.id);
  // The server's own signature over terms that ended an hour ago.
  const now = Date.now();
  const expired = signLicence(e2eDb(), {
    id: `expired-forged-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    movieId: title.id,
    rung: 144,
    issuedAt: now - 3 * 3600_000,
    expiresAt: now - 3600_000,
    playHours: 48,
  });
  await page.goto("/downloads");
  // The page checks its licences with the server on load: let that finish before editing the record.
  await page.waitForLoadState("networkidle");
  await page.evaluate(
    async ({ movieId, licence }) => {
      const cache = await caches.open("kallo-downloads");
      const record = await (await cache.match(`/offline-media/${movieId}/meta`))!.json();
      record.licence = { ...licence, terms: { ...licence.terms, rung: record.licence.terms.rung } };
      await cache.put(`/offline-media/${movieId}/meta`, new Response(JSON.stringify(record)));
    },
    { movieId: title.id, licence: expired },
  );
  await page.reload();
  // The page checks its licences with the server on load: let that finish before editing the record.
  await page.waitForLoadState("networkidle");
  const item = page.locator(`[data-download-id="${title.id}"]`);
  // (The rung was put back above, so the signature no longer matches: the worker calls it forged.)
  const direct = await page.evaluate(
    async (movieId) =>
      (await fetch(`/offline-media/${movieId}/video.mp4`, { headers: { Range: "bytes=0-99" } })).status,
    title.id,
  );
  expect(direct).toBe(403);

  // Now a genuine expired licence for the stored rung.
  const rung = await page.evaluate(
    async (movieId) =>
      (await (await (await caches.open("kallo-downloads")).match(`/offline-media/${movieId}/meta`))!.json()).licence
        .terms.rung as number,
    title.id,
  );
  const genuine = signLicence(e2eDb(), {
    id: `expired-genuine-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    movieId: title.id,
    rung,
    issuedAt: now - 3 * 3600_000,
    expiresAt: now - 3600_000,
    playHours: 48,
  });
  // The server knows it (so the page's check with the server does not call it withdrawn): it simply ended.
  e2eDb()
    .insert(downloadLicences)
    .values({
      id: genuine.terms.id,
      accountId: viewer.id,
      movieId: title.id,
      rung,
      deviceId: "e2e",
      expiresAt: new Date(genuine.terms.expiresAt),
    })
    .run();
  await page.evaluate(
    async ({ movieId, licence }) => {
      const cache = await caches.open("kallo-downloads");
      const record = await (await cache.match(`/offline-media/${movieId}/meta`))!.json();
      record.licence = licence;
      record.revoked = false;
      await cache.put(`/offline-media/${movieId}/meta`, new Response(JSON.stringify(record)));
    },
    { movieId: title.id, licence: genuine },
  );
  await page.reload();
  await expect(item.getByText("This download has expired.")).toBeVisible();
  await expect(item.getByRole("button", { name: "Play" })).toHaveCount(0);
  expect(
    await page.evaluate(
      async (movieId) =>
        (await fetch(`/offline-media/${movieId}/video.mp4`, { headers: { Range: "bytes=0-99" } })).status,
      title.id,
    ),
  ).toBe(403);

  const streamed: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/stream/")) streamed.push(request.url());
  });
  await item.getByRole("button", { name: "Renew" }).click();
  await expect(page.getByText("Download renewed")).toBeVisible();
  await expect(item.getByRole("button", { name: "Play" })).toBeVisible();
  expect(streamed).toEqual([]);
  expect(
    e2eDb()
      .select()
      .from(downloadLicences)
      .where(and(eq(downloadLicences.accountId, viewer.id), eq(downloadLicences.movieId, title.id)))
      .all()
      .filter((row) => !row.deletedAt),
  ).toHaveLength(1);
});

test("delete frees the space on the device and the plan's slot on the server", async ({ page }) => {
  const viewer = await signedInViewer(page, "delete-viewer");
  const title = newTitle();
  await downloadFromTitlePage(page, title.id);
  await page.goto("/downloads");
  const stored = () =>
    page.evaluate(
      async (movieId) =>
        (await (await caches.open("kallo-downloads")).keys()).filter((request) =>
          request.url.includes(`/offline-media/${movieId}/`),
        ).length,
      title.id,
    );
  expect(await stored()).toBeGreaterThan(1);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.locator(`[data-download-id="${title.id}"]`).getByRole("button", { name: "Delete" }).click();
  await expect(page.locator(`[data-download-id="${title.id}"]`)).toHaveCount(0);
  expect(await stored()).toBe(0);
  await expect
    .poll(
      () =>
        e2eDb().select().from(downloadLicences).where(eq(downloadLicences.accountId, viewer.id)).get()?.deletedAt ??
        null,
    )
    .not.toBeNull();
});

test("a device short of space is told before anything is fetched", async ({ page }) => {
  await page.addInitScript(() => {
    navigator.storage.estimate = async () => ({ quota: 2_000_000, usage: 1_900_000 });
  });
  await signedInViewer(page, "quota-viewer");
  const title = newTitle();
  await page.goto(`/WatchMovie?id=${title.id}`);
  await openPlaybackSettings(page);
  const panel = page.getByRole("region", { name: "Download to watch offline" });
  await panel.getByRole("button", { name: "Download", exact: true }).click();
  await panel.getByRole("button", { name: "Start download" }).click();
  await expect(panel.getByRole("alert")).toContainText("Not enough space on this device");
  expect(
    await page.evaluate(
      async (movieId) =>
        (await (await caches.open("kallo-downloads")).keys()).filter((request) => request.url.includes(movieId)).length,
      title.id,
    ),
  ).toBe(0);
});

test("a plan without downloads shows no Download button and the server refuses the licence; the administrator sets it per plan without JavaScript", async ({
  page,
  browser,
  baseURL,
}) => {
  const free = e2eDb().select().from(plans).where(eq(plans.code, "FREE")).get()!;
  const admin = await createAdmin("downloads-admin");
  const adminContext = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const adminPage = await adminContext.newPage();
  try {
    await signInThroughForm(adminPage, "/login", admin.email, admin.password);
    await expect(adminPage).not.toHaveURL(/\/login/);
    await adminPage.goto("/admin/Selectplan");
    await adminPage.locator('[data-admin-plan="FREE"]').getByText("Edit Free").click();
    const form = adminPage.locator("form").filter({ has: adminPage.locator('[data-plan-downloads="FREE"]') });
    await form.getByLabel("Viewers on this plan may download films").uncheck();
    await form.getByLabel("Titles at once").fill("3");
    await form.getByRole("button", { name: /^Save/ }).click();
    await expect(adminPage.getByText("Plan saved")).toBeVisible();
    expect(e2eDb().select().from(plans).where(eq(plans.id, free.id)).get()).toMatchObject({
      downloadsAllowed: false,
      maxDownloads: 3,
    });

    await signedInViewer(page, "no-downloads-viewer");
    const title = newTitle();
    await page.goto(`/WatchMovie?id=${title.id}`);
    await expect(page.getByRole("heading", { name: title.name })).toBeVisible();
    await openPlaybackSettings(page);
    await expect(page.getByTestId("data-saver")).toBeVisible();
    await expect(page.getByRole("region", { name: "Download to watch offline" })).toHaveCount(0);
    await expect(page.getByTestId("player-download")).toHaveCount(0);
    const refused = await page.request.post("/downloads/licences", {
      data: { movieId: title.id, rung: 144 },
      headers: { Origin: new URL(baseURL!).origin },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error).toBe("Your plan does not include downloads.");
  } finally {
    e2eDb()
      .update(plans)
      .set({ downloadsAllowed: free.downloadsAllowed, maxDownloads: free.maxDownloads })
      .where(eq(plans.id, free.id))
      .run();
    await adminContext.close();
  }
});

test("“Download only on Wi‑Fi” waits on mobile data instead of spending it, and says so", async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "connection", { value: { type: "cellular" }, configurable: true });
  });
  await signedInViewer(page, "wifi-viewer");
  const title = newTitle();
  // The download's own requests: its first piece is bytes 0 to 2 MiB − 1 (the player's requests follow the playlist).
  const streamed: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/stream/") && request.headers()["range"] === "bytes=0-2097151")
      streamed.push(request.url());
  });
  await page.goto(`/WatchMovie?id=${title.id}`);
  await openPlaybackSettings(page);
  const panel = page.getByRole("region", { name: "Download to watch offline" });
  await panel.getByRole("button", { name: "Download", exact: true }).click();
  await panel.getByLabel("Download only on Wi‑Fi").check();
  await panel.getByRole("button", { name: "Start download" }).click();
  await expect(panel.getByText("Waiting for Wi‑Fi: this download will not spend mobile data.")).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(streamed).toEqual([]);
});

test("a download that loses the network says so, and goes on by itself from where it stopped once it is back", async ({
  page,
}) => {
  await signedInViewer(page, "reconnect-viewer");
  const title = newTitle();
  // Before play nothing else fetches the film: every range of it now is the download's.
  let away = true;
  let failed = 0;
  const fetched: string[] = [];
  await page.route(
    (url) => url.pathname.startsWith(`/stream/${title.id}/`) && url.pathname.endsWith(".mp4"),
    (route) => {
      if (away) {
        failed += 1;
        return route.abort("internetdisconnected");
      }
      fetched.push(route.request().headers()["range"] ?? "");
      return route.continue();
    },
  );
  await page.goto(`/WatchMovie?id=${title.id}`);
  await withServiceWorker(page);
  await openPlaybackSettings(page);
  const panel = page.getByRole("region", { name: "Download to watch offline" });
  await panel.getByRole("button", { name: "Download", exact: true }).click();
  await panel.getByRole("button", { name: "Start download" }).click();
  await expect(panel.getByTestId("download-reconnecting")).toHaveText(
    "The connection is lost. The download goes on by itself, from where it stopped, as soon as it is back.",
  );
  await expect.poll(() => failed, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await expect(panel.getByText("Downloaded")).toHaveCount(0);
  away = false;
  // No Resume pressed: the next try gets it.
  await expect(panel.getByText("Downloaded")).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByTestId("download-reconnecting")).toHaveCount(0);
  // From its first byte: nothing had been stored before the network went.
  expect(fetched[0]).toMatch(/^bytes=0-\d+$/);
});

import fs from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { movies, watchEvents } from "../../app/db/schema";
import { createId } from "../../app/utils/ids.server";
import { createAdmin, createApprovedProvider, createViewer, signedInContext } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, uniqueWord } from "./fixtures/titles";

/**
 * The provider's statistics and the administrator's dashboard: charts drawn
 * on the server as SVG (so they show without JavaScript), the numbers behind
 * each as CSV, readable on a 360-px phone in English and Hausa with no page
 * error and no hydration warning, and nobody else's to open.
 */

function signedIn(
  browser: Browser,
  account: TestAccount,
  options: { javaScriptEnabled?: boolean; phone?: boolean; hausa?: boolean } = {},
) {
  return signedInContext(browser, account, {
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    ...(options.phone ? { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } : {}),
    ...(options.hausa ? { locale: "ha-NG", extraHTTPHeaders: { "Accept-Language": "ha-NG,ha;q=0.9" } } : {}),
  });
}

/** A provider with one title and known viewings: today three (to the end, half way, a tenth), yesterday one. */
async function providerWithViewings() {
  const provider = await createApprovedProvider("charts");
  const category = createCategory("Charted");
  const id = createTitle({
    name: `Zane ${uniqueWord("z")}`,
    categoryId: category.id,
    providerId: provider.id,
    withMedia: true,
  });
  const duration = e2eDb().select().from(movies).where(eq(movies.id, id)).get()!.durationSeconds;
  const viewer = await createViewer("counted");
  const now = Date.now();
  const rows = [
    [0, duration],
    [0, Math.round(duration / 2)],
    [0, 1],
    [1, duration],
  ].map(([daysAgo, position]) => {
    const startedAt = new Date(now - daysAgo! * 86_400_000 - 60_000);
    return {
      id: createId(),
      accountId: viewer.id,
      movieId: id,
      startedAt,
      updatedAt: new Date(startedAt.getTime() + position! * 1000),
      positionSeconds: position!,
      viewCounted: true,
    };
  });
  e2eDb().insert(watchEvents).values(rows).run();
  return { provider, id, duration };
}

/** Every console error or warning and page error of a page (hydration mismatches are reported there). */
function complaintsOf(page: Page): string[] {
  const complaints: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") complaints.push(message.text());
  });
  page.on("pageerror", (error) => complaints.push(error.message));
  return complaints;
}

async function expectHydratedWithoutSideways(page: Page) {
  await page.waitForFunction(() =>
    Object.keys(document.querySelector("main")!).some((name) => name.startsWith("__reactFiber")),
  );
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, "nothing scrolls sideways").toBeLessThanOrEqual(widths.view);
}

test("a provider's statistics are SVG charts without JavaScript, and each chart's numbers download as CSV", async ({
  browser,
}) => {
  const { provider, id, duration } = await providerWithViewings();
  const { context, page } = await signedIn(browser, provider, { javaScriptEnabled: false });
  await page.goto("/provider/payment");
  await page.getByRole("link", { name: /See your statistics as charts/ }).click();
  await expect(page).toHaveURL(/\/provider\/stats$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Statistics");
  // The running version is the administrator's to see, not a provider's.
  await expect(page.getByTestId("running-version")).toHaveCount(0);
  for (const chart of ["views", "hours", "share", "retention", "earnings"])
    await expect(page.locator(`[data-chart="${chart}"]`)).toBeVisible();

  // Views per day: 30 bars, three today and one yesterday.
  const bars = page.locator('[data-chart="views"] svg rect[data-day]');
  await expect(bars).toHaveCount(30);
  await expect(bars.last()).toHaveAttribute("data-value", "3");
  await expect(bars.nth(28)).toHaveAttribute("data-value", "1");
  await expect(page.locator('[data-chart="views"] figcaption')).toContainText("4 views");
  // Where viewers stop: everyone began, half were still there half way, a half reached the end.
  const still = (share: string) =>
    page.locator(`[data-chart="retention"] circle[data-share="${share}"]`).getAttribute("data-still");
  expect(await still("0")).toBe("1");
  expect(await still("0.5")).toBe("0.75");
  expect(await still("1")).toBe("0.5");
  await expect(page.locator('[data-chart="share"] [data-bar]')).toHaveCount(1);

  // The numbers behind the charts, as CSV.
  const views = await page.request.get("/provider/stats/export?chart=views&days=30");
  expect(views.status()).toBe(200);
  expect(views.headers()["content-type"]).toContain("text/csv");
  const lines = (await views.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toBe("Day,Views");
  expect(lines).toHaveLength(31);
  expect(lines.at(-1)).toMatch(/^\d{4}-\d\d-\d\d,3$/);
  const retention = await page.request.get(`/provider/stats/export?chart=retention&days=30&title=${id}`);
  expect(await retention.text()).toContain(`,50,${Math.round(duration / 2)},75\r\n`);
  // The download link of a chart is its CSV.
  const download = page.waitForEvent("download");
  await page.locator('[data-csv="hours"]').click();
  expect((await download).suggestedFilename()).toMatch(/^kallo-hours-30-days-.*\.csv$/);
  await context.close();
});

test("an administrator's dashboard is SVG charts without JavaScript, first in the menu, with CSV", async ({
  browser,
}) => {
  await providerWithViewings();
  const admin = await createAdmin("boss");
  const { context, page } = await signedIn(browser, admin, { javaScriptEnabled: false });
  await page.goto("/admin/movies");
  const menu = page.getByRole("navigation", { name: "Administration menu" });
  await expect(menu.getByRole("link").first()).toHaveText("Dashboard");
  await menu.getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  for (const chart of ["plans", "passes", "signups", "hours", "top", "disk"])
    await expect(page.locator(`[data-chart="${chart}"]`)).toBeVisible();
  await expect(page.locator('[data-chart^="revenue"]').first()).toBeVisible();
  await expect(page.locator('[data-chart="signups"] svg rect[data-day]')).toHaveCount(30);
  await expect(page.locator('[data-chart="disk"] [data-segment="free"]')).toHaveCount(1);
  // Seven days instead of thirty, by a plain GET form.
  await page.getByLabel("Period").selectOption("7");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/days=7/);
  await expect(page.locator('[data-chart="signups"] svg rect[data-day]')).toHaveCount(7);
  const top = await page.request.get("/admin/dashboard/export?chart=top&days=7");
  expect(top.status()).toBe(200);
  expect((await top.text()).replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("Title,Provider,Viewings,Hours watched");
  const disk = await page.request.get("/admin/dashboard/export?chart=disk&days=7");
  expect(await disk.text()).toContain("Free,");
  // The version that runs, for the administrator who upgrades it (the build's, from package.json), and on /healthz.
  const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
  await expect(page.getByTestId("running-version")).toHaveText(`· Kallo ${version}`);
  expect(await (await page.request.get("/healthz")).json()).toMatchObject({ status: "ok", version });
  await context.close();
});

for (const hausa of [false, true]) {
  const language = hausa ? "Hausa" : "English";
  test(`the dashboards and a title's edit pages fit a 360-px phone in ${language}, with no page error or hydration warning`, async ({
    browser,
  }) => {
    const { provider, id } = await providerWithViewings();
    const studio = await signedIn(browser, provider, { phone: true, hausa });
    const studioComplaints = complaintsOf(studio.page);
    for (const path of ["/provider/stats", `/provider/movie/${id}`]) {
      await studio.page.goto(path);
      await expect(studio.page.locator("html")).toHaveAttribute("lang", hausa ? "ha" : "en");
      await expectHydratedWithoutSideways(studio.page);
    }
    expect(studioComplaints).toEqual([]);
    await studio.context.close();

    const admin = await signedIn(browser, await createAdmin("phone"), { phone: true, hausa });
    const adminComplaints = complaintsOf(admin.page);
    for (const path of ["/admin/dashboard", `/admin/movies/${id}`]) {
      await admin.page.goto(path);
      await expectHydratedWithoutSideways(admin.page);
    }
    await expect(admin.page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(adminComplaints).toEqual([]);
    await admin.context.close();
  });
}

test("the dashboards and their CSV are refused to the wrong role", async ({ browser }) => {
  const viewer = await createViewer("nosy");
  const provider = await createApprovedProvider("curious");
  for (const account of [viewer, provider]) {
    const { context, page } = await signedIn(browser, account, { javaScriptEnabled: false });
    expect((await page.goto("/admin/dashboard"))?.status()).toBe(403);
    expect((await page.request.get("/admin/dashboard/export?chart=revenue")).status()).toBe(403);
    if (account.role === "viewer") {
      expect((await page.goto("/provider/stats"))?.status()).toBe(403);
      expect((await page.request.get("/provider/stats/export?chart=views")).status()).toBe(403);
    }
    await context.close();
  }
  const anonymous = await browser.newContext({ javaScriptEnabled: false });
  const page = await anonymous.newPage();
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await page.goto("/provider/stats");
  await expect(page).toHaveURL(/\/cp\?redirectTo=/);
  await anonymous.close();
});

test("a provider's statistics count only their own titles", async ({ browser }) => {
  const { id } = await providerWithViewings();
  const stranger = await createApprovedProvider("stranger");
  const { context, page } = await signedIn(browser, stranger, { javaScriptEnabled: false });
  await page.goto(`/provider/stats?title=${id}`);
  await expect(page.locator('[data-chart="views"] figcaption')).toContainText("0 views");
  await expect(page.locator('[data-chart="retention"]')).toContainText("Nothing in this period yet.");
  const csv = await page.request.get(`/provider/stats/export?chart=retention&title=${id}`);
  expect(
    (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n"),
  ).toHaveLength(1);
  await context.close();
});

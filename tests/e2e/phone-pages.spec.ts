import { eq } from "drizzle-orm";
import type { Locator } from "@playwright/test";
import { movies } from "../../app/db/schema";
import { formatVoucherCode, generateVoucherBatch } from "../../app/services/vouchers.server";
import { createAdmin, createApprovedProvider, createViewer, signInThroughForm } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, uniqueWord } from "./fixtures/titles";

/**
 * What a person meets on a phone and was wrong: a redeemed voucher missing
 * from Payment history, the provider's title list running off the screen,
 * "1 min" on a card for an 8-second film, and /admin/movies breaking once
 * its script ran.
 */

const PHONE = { width: 360, height: 740 };

function voucherCode(adminId: string): string {
  const result = generateVoucherBatch(
    e2eDb(),
    {
      planId: "planbasic",
      period: "week",
      count: "1",
      expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
    },
    { actorId: adminId },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.fieldErrors));
  return formatVoucherCode(result.codes[0]);
}

/** Every part of the element is on the screen. */
async function expectOnScreen(locator: Locator) {
  const box = (await locator.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test.describe(`on a phone ${mode}`, () => {
    test.use({ javaScriptEnabled, viewport: PHONE });

    test(`a redeemed voucher shows in Payment history, as a card on the phone — ${mode}`, async ({ page }) => {
      const admin = await createAdmin("voucher-history");
      const viewer = await createViewer("voucher-history");
      const code = voucherCode(admin.id);
      await signInThroughForm(page, "/login", viewer.email, viewer.password);
      await expect(page).not.toHaveURL(/\/login/);
      await page.goto("/payment");
      await expect(page.getByText("No payments yet.")).toBeVisible();
      const form = page.locator("form").filter({ has: page.getByLabel("Voucher code") });
      await form.getByLabel("Voucher code").fill(code.toLowerCase());
      await form.getByRole("button", { name: "Redeem" }).click();
      await expect(page.getByText(/Voucher redeemed: Basic until/).first()).toBeVisible();

      const history = page.getByTestId("payment-history");
      const row = history.locator(`[data-payment-reference="${code}"]`);
      await expect(row).toHaveAttribute("data-status", "redeemed");
      await expect(row).toContainText("Basic");
      await expect(row).toContainText("Voucher");
      await expect(row).toContainText("Redeemed");
      await expect(row).toContainText("1 week");
      // Each value under its column's name, all of it on the screen.
      await expect(row.getByRole("cell").first()).toHaveAttribute("data-label", "Date");
      await expectOnScreen(row);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    });

    test(`a provider reads their title list as cards on a phone — ${mode}`, async ({ page }) => {
      const provider = await createApprovedProvider("phone-list");
      const category = createCategory("Phone list");
      const name = uniqueWord("Dogon Suna Na Fim ");
      createTitle({ name, categoryId: category.id, providerId: provider.id, withMedia: true });
      await signInThroughForm(page, "/cp", provider.email, provider.password);
      await expect(page).not.toHaveURL(/\/cp/);
      await page.goto("/provider/movielist");
      const row = page.locator("tr", { hasText: name });
      await expect(row).toBeVisible();
      for (const column of ["Status", "Delete", "Views"]) {
        const cell = row.locator(`td[data-label="${column}"]`);
        await expect(cell).toBeVisible();
        await expectOnScreen(cell);
      }
      await expect(row.getByRole("link", { name: `Delete ${name}` })).toBeVisible();
      await expectOnScreen(row.getByRole("link", { name: `Delete ${name}` }));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    });

    test(`a film under a minute shows its length in seconds — ${mode}`, async ({ page }) => {
      const provider = await createApprovedProvider("seconds");
      const category = createCategory("Seconds");
      const short = createTitle({ name: uniqueWord("Gajere "), categoryId: category.id, providerId: provider.id });
      const long = createTitle({ name: uniqueWord("Dogo "), categoryId: category.id, providerId: provider.id });
      e2eDb().update(movies).set({ durationSeconds: 8 }).where(eq(movies.id, short)).run();
      e2eDb()
        .update(movies)
        .set({ durationSeconds: 95 * 60 })
        .where(eq(movies.id, long))
        .run();
      const viewer = await createViewer("seconds");
      await signInThroughForm(page, "/login", viewer.email, viewer.password);
      await expect(page).not.toHaveURL(/\/login/);
      await page.goto(`/moviecategory?category=${category.slug}`);
      await expect(page.locator(`[data-movie-id="${short}"]`)).toContainText("8 s");
      await expect(page.locator(`[data-movie-id="${short}"]`)).not.toContainText("1 min");
      await expect(page.locator(`[data-movie-id="${long}"]`)).toContainText("1 h 35 min");
    });

    test(`an administrator filters /admin/movies by status — ${mode}`, async ({ page }) => {
      const admin = await createAdmin("admin-movies-filter");
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await signInThroughForm(page, "/login", admin.email, admin.password);
      await expect(page).not.toHaveURL(/\/login/);
      await page.goto("/admin/movies");
      const status = page.getByLabel("Status");
      await expect(status.locator("option")).toHaveText([
        "All statuses",
        "Processing",
        "Ready",
        "Failed",
        "Waiting for approval",
        "Sent back",
        "Approved",
        "Not rated yet",
      ]);
      await status.selectOption("approved");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page).toHaveURL(/status=approved/);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(errors).toEqual([]);
    });
  });
}

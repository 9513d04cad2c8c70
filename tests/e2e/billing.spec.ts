import { expectNoSeriousAccessibilityProblems } from "./fixtures/accessibility";
import type { Browser, Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { passes, payments, planPeriods, redeemCodes } from "../../app/db/schema";
import { completePayment } from "../../app/services/payments.server";
import { formatVoucherCode, generateVoucherBatch, redeemVoucher } from "../../app/services/vouchers.server";
import { createId } from "../../app/utils/ids.server";
import {
  createAdmin,
  createApprovedProvider,
  createViewer,
  signInThroughForm,
  signedInContext,
} from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { describeBothWays, expect, test } from "./fixtures/test";
import { expectAdaptiveStream, expectDecodedFrame, startPlaying } from "./fixtures/titles";

/**
 * Passes, vouchers and what they unlock: a viewer redeems a voucher and
 * plays a Premium title; a FREE viewer is refused one; a viewer buys a pass
 * by card (the e2e server's Paystack is a local stand-in, see
 * start-test-server.ts); a one-screen plan plays on one device at a time; an
 * administrator makes vouchers and sees them used.
 */

/** Premium demo titles (see app/demo/seed-demo.server.ts); tests never change their access. */
const PREMIUM = ["demomovie02", "demomovie08", "demomovie10"];

function makeCodes(count: number, options: { period?: "day" | "week" | "month"; expiresOn?: string } = {}): string[] {
  const expiresOn = options.expiresOn ?? new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const result = generateVoucherBatch(
    e2eDb(),
    { planId: "planbasic", period: options.period ?? "week", count: String(count), expiresOn },
    { actorId: "demoadmin" },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.fieldErrors));
  return result.codes.map(formatVoucherCode);
}

function expiredCode(): string {
  const [code] = makeCodes(1);
  e2eDb()
    .update(redeemCodes)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(redeemCodes.code, code.replace(/-/g, "")))
    .run();
  return code;
}

function giveBasicPass(viewer: TestAccount) {
  const [code] = makeCodes(1);
  const result = redeemVoucher(e2eDb(), { accountId: viewer.id, code });
  if (!result.ok) throw new Error(`could not redeem: ${result.reason}`);
}

function signedIn(browser: Browser, baseURL: string, account: TestAccount, javaScriptEnabled = true) {
  return signedInContext(browser, account, { baseURL, javaScriptEnabled });
}

/** Start the page's player (muted, looping so the short demo film keeps playing) and wait until it has decoded frames. */
async function playsOnPage(page: Page) {
  const video = page.locator("video");
  await expect(video).toBeVisible();
  await startPlaying(video, { loop: true });
  await expectDecodedFrame(video);
}

describeBothWays("passes", ({ javaScriptEnabled, mode }) => {
  test(`a FREE viewer is refused a Premium title, redeems a voucher at /payment, then plays it — ${mode}`, async ({
    page,
  }) => {
    const viewer = await createViewer(`redeem${javaScriptEnabled ? "js" : "nojs"}`);
    const movieId = PREMIUM[javaScriptEnabled ? 0 : 1];
    await signInThroughForm(page, "/login", viewer.email, viewer.password);
    await expect(page).not.toHaveURL(/\/login/);

    await page.goto(`/WatchMovie?id=${movieId}`);
    const panel = page.getByTestId("needs-pass");
    await expect(panel.getByRole("heading", { name: "This title needs a pass" })).toBeVisible();
    await expect(panel.getByRole("link", { name: "Basic" })).toHaveAttribute("href", /\/payment\?plan=BASIC/);
    await expect(page.locator("video")).toHaveCount(0);
    // The page itself still works: title, comments.
    await expect(page.getByRole("heading", { level: 2, name: "Comments" })).toBeVisible();
    const refused = await page.request.get(`/api/files/${movieId}.mp4`);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, reason: "pass_required" });

    await panel.getByRole("link", { name: "Buy a pass or redeem a voucher" }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByTestId("current-plan")).toHaveAttribute("data-plan", "FREE");
    await expect(page.getByRole("button", { name: "Pay for Basic" })).toBeVisible();
    await expect(page.locator('[data-plan-card="BASIC"] [data-period-price="week"]')).toHaveText("₦600");

    const form = page.locator("form").filter({ has: page.getByLabel("Voucher code") });
    const tryCode = async (code: string) => {
      await form.getByLabel("Voucher code").fill(code);
      await form.getByRole("button", { name: "Redeem" }).click();
    };
    await tryCode("AAAA-BBBB-CCCC-DDDD");
    await expect(page.locator("[data-field-error=code]")).toHaveText(
      "We do not know this code. Check it and try again.",
    );
    const [used] = makeCodes(1);
    const other = await createViewer("firstuser");
    redeemVoucher(e2eDb(), { accountId: other.id, code: used });
    await tryCode(used);
    await expect(page.locator("[data-field-error=code]")).toHaveText("This code has already been used.");
    await tryCode(expiredCode());
    await expect(page.locator("[data-field-error=code]")).toHaveText("This code has expired.");

    const [good] = makeCodes(1);
    await tryCode(good.toLowerCase().replace(/-/g, " "));
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByTestId("current-plan")).toHaveAttribute("data-plan", "BASIC");
    await expect(page.getByTestId("pass-expiry")).toContainText("Your pass ends on");
    if (javaScriptEnabled)
      await expect(page.getByRole("status").filter({ hasText: "Voucher redeemed: Basic until" })).toBeVisible();
    const row = e2eDb()
      .select()
      .from(redeemCodes)
      .where(eq(redeemCodes.code, good.replace(/-/g, "")))
      .get();
    expect(row?.redeemedBy).toBe(viewer.id);

    await page.goto(`/WatchMovie?id=${movieId}`);
    await expect(page.getByTestId("needs-pass")).toHaveCount(0);
    const video = page.locator("video");
    await expectAdaptiveStream(video, movieId, javaScriptEnabled);
    await playsOnPage(page);
  });

  test(`a viewer buys a week of Basic by card through Paystack and is sent back with the pass — ${mode}`, async ({
    page,
  }) => {
    const viewer = await createViewer(`buyer${javaScriptEnabled ? "js" : "nojs"}`);
    await signInThroughForm(page, "/login", viewer.email, viewer.password);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto("/plans");
    await page.getByRole("link", { name: "Choose Basic" }).first().click();
    await expect(page).toHaveURL(/\/payment\?plan=BASIC/);

    const card = page.locator('[data-plan-card="BASIC"]');
    await card.getByLabel("1 week").check();
    await card.getByRole("button", { name: "Pay for Basic" }).click();
    await expect(page).toHaveURL(/\/payment\?order=KAL-/);
    const reference = new URL(page.url()).searchParams.get("order")!;
    const order = e2eDb().select().from(payments).where(eq(payments.reference, reference)).get();
    expect(order).toMatchObject({
      accountId: viewer.id,
      status: "pending",
      amountMinor: 60_000,
      currency: "NGN",
      periodDays: 7,
    });
    await expect(page.locator("#order")).toContainText("Basic, 1 week, ₦600.");

    await page.getByRole("link", { name: "Continue to Paystack to pay" }).click();
    await expect(page).toHaveURL(/\/payment$/);
    if (javaScriptEnabled)
      await expect(
        page.getByRole("status").filter({ hasText: "Payment received: your pass is active." }),
      ).toBeVisible();
    await expect(page.getByTestId("current-plan")).toHaveAttribute("data-plan", "BASIC");
    await expect(page.locator(`[data-payment-reference="${reference}"]`)).toHaveAttribute("data-status", "success");
    // The gateway's webhook for the same charge arrives too: still one pass.
    await page.waitForTimeout(1500);
    const paid = e2eDb().select().from(payments).where(eq(payments.reference, reference)).get()!;
    expect(paid.status).toBe("success");
    expect(e2eDb().select().from(passes).where(eq(passes.paymentId, paid.id)).all()).toHaveLength(1);
    await page.goto("/plans");
    await expect(page.getByTestId("plans-current")).toContainText("You are on the Basic plan. Your pass ends on");
  });
});

test("voucher tries are limited per account", async ({ page }) => {
  const viewer = await createViewer("guesser");
  await signInThroughForm(page, "/login", viewer.email, viewer.password);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/payment");
  let last = 0;
  for (let attempt = 0; attempt < 11; attempt++) {
    const response = await page.request.post("/payment", {
      form: { intent: "redeem", code: `WRNG-CODE-${String(attempt).padStart(4, "2")}-ZZZZ` },
      maxRedirects: 0,
    });
    last = response.status();
  }
  expect(last).toBe(429);
});

test.describe("screens", () => {
  test("a second device on a one-screen plan is refused while the first plays, and takes over with “Stop playback on the other device” — with JavaScript", async ({
    browser,
    baseURL,
  }) => {
    const viewer = await createViewer("screensjs");
    giveBasicPass(viewer);
    const movieId = PREMIUM[2];
    const first = await signedIn(browser, baseURL!, viewer);
    const second = await signedIn(browser, baseURL!, viewer);
    try {
      await first.page.goto(`/WatchMovie?id=${movieId}`);
      await playsOnPage(first.page);

      await second.page.goto(`/WatchMovie?id=${movieId}`);
      const panel = second.page.getByTestId("screens-limit");
      await expect(panel).toContainText("Your plan allows 1 screen at a time, and another device is playing now.");
      await expect(second.page.locator("video")).toHaveCount(0);
      const refused = await second.page.request.get(`/api/files/${movieId}.mp4`);
      expect(refused.status()).toBe(403);
      expect(await refused.json()).toMatchObject({ reason: "screens", screens: 1 });

      await panel.getByRole("button", { name: "Stop playback on the other device" }).click();
      await expect(
        second.page.getByRole("status").filter({ hasText: "Playback on the other device stopped" }),
      ).toBeVisible();
      await playsOnPage(second.page);
      // The first device is now the one refused, and its player says so: at its next request for the
      // film (it plays on in a loop, so that may come first) or at a play.
      const now = await first.page.request.get(`/api/files/${movieId}.mp4`, { headers: { Range: "bytes=0-1" } });
      expect(now.status()).toBe(403);
      await first.page.evaluate(() => document.querySelector("video")?.dispatchEvent(new Event("play")));
      await expect(first.page.getByTestId("player-refused")).toContainText("Playing on another device");
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  test("the second device plays once the first stops; the stop form works without JavaScript", async ({
    browser,
    baseURL,
  }) => {
    const viewer = await createViewer("screensnojs");
    giveBasicPass(viewer);
    const movieId = "demomovie01";
    const first = await signedIn(browser, baseURL!, viewer);
    const second = await signedIn(browser, baseURL!, viewer, false);
    try {
      await first.page.goto(`/WatchMovie?id=${movieId}`);
      await playsOnPage(first.page);
      await second.page.goto(`/WatchMovie?id=${movieId}`);
      await expect(second.page.getByTestId("screens-limit")).toContainText("1 screen at a time");

      // The first device leaves the title while it plays: its player frees the screen.
      await first.page.goto("/movies");
      await expect(async () => {
        await second.page.goto(`/WatchMovie?id=${movieId}`);
        await expect(second.page.locator("video")).toHaveCount(1, { timeout: 1000 });
      }).toPass({ timeout: 15_000 });
      const served = await second.page.request.get(`/api/files/${movieId}.mp4`, { headers: { Range: "bytes=0-99" } });
      expect(served.status()).toBe(206);

      // Now the first comes back and is refused; it stops the other device without JavaScript.
      const firstNoJs = await browser.newContext({
        baseURL,
        javaScriptEnabled: false,
        storageState: await first.context.storageState(),
      });
      try {
        const page = await firstNoJs.newPage();
        await page.goto(`/WatchMovie?id=${movieId}`);
        await page.getByRole("button", { name: "Stop playback on the other device" }).click();
        await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${movieId}$`));
        await expect(page.locator("video source").first()).toHaveAttribute(
          "src",
          new RegExp(`^/stream/${movieId}/master\\.m3u8`),
        );
        expect((await page.request.get(`/stream/${movieId}/master.m3u8`)).status()).toBe(200);
        expect((await second.page.request.get(`/stream/${movieId}/master.m3u8`)).status()).toBe(403);
        expect(
          (await page.request.get(`/api/files/${movieId}.mp4`, { headers: { Range: "bytes=0-99" } })).status(),
        ).toBe(206);
        expect(
          (await second.page.request.get(`/api/files/${movieId}.mp4`, { headers: { Range: "bytes=0-99" } })).status(),
        ).toBe(403);
      } finally {
        await firstNoJs.close();
      }
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test(`an administrator generates vouchers, downloads the batch, and sees one redeemed in the tables — ${mode}`, async ({
    browser,
    baseURL,
  }) => {
    const admin = await createAdmin(`vouchers${javaScriptEnabled ? "js" : "nojs"}`);
    const viewer = await createViewer("voucheruser");
    const { context, page } = await signedIn(browser, baseURL!, admin, javaScriptEnabled);
    try {
      await page.goto("/admin/providerslist");
      await page.getByRole("navigation").getByRole("link", { name: "Payment", exact: true }).click();
      await expect(page).toHaveURL(/\/admin\/userpayment$/);

      // A bad count is refused beside the field, and nothing is made.
      const generate = page.locator("form").filter({ has: page.getByLabel("How many codes (1–500)") });
      await generate.getByLabel("Plan and period").selectOption({ label: "Basic — 1 day (₦150)" });
      await generate.getByLabel("How many codes (1–500)").fill("501");
      await generate.getByRole("button", { name: "Generate codes" }).click();
      await expect(page.locator("[data-field-error=count]")).toHaveText("Enter a number from 1 to 500.");

      await generate.getByLabel("How many codes (1–500)").fill("3");
      await generate.getByRole("button", { name: "Generate codes" }).click();
      const batch = page.getByTestId("voucher-batch");
      await expect(batch).toContainText("3 codes for Basic (1 day)");
      // Without JavaScript the page may still be arriving when its first lines show: wait for the list.
      await expect(batch.locator("[data-voucher-code]")).toHaveCount(3);
      const codes = await batch.locator("[data-voucher-code]").allTextContents();
      expect(codes).toHaveLength(3);
      for (const code of codes) expect(code).toMatch(/^[23456789A-HJ-NP-Z]{4}(-[23456789A-HJ-NP-Z]{4}){3}$/);
      const batchId = await batch.getAttribute("data-batch-id");
      // The page is the batch's own address: reloading shows the same codes and makes no more.
      await expect(page).toHaveURL(new RegExp(`batch=${batchId}`));
      await page.reload();
      await expect(page.getByTestId("voucher-batch").locator("[data-voucher-code]")).toHaveText(codes);
      expect(e2eDb().select().from(redeemCodes).where(eq(redeemCodes.batchId, batchId!)).all()).toHaveLength(3);

      const csv = await page.request.get(`/admin/userpayment/export?table=codes&batch=${batchId}`);
      expect(csv.status()).toBe(200);
      expect(csv.headers()["content-type"]).toContain("text/csv");
      const text = await csv.text();
      expect(text).toContain("Payment ID,Redeem Code,Expire Date,Plan,Period,Redeemed,Batch");
      for (const code of codes) expect(text).toContain(code);
      expect(text.trim().split("\r\n")).toHaveLength(4);

      // The viewer redeems one; a card payment lands too.
      const redeemed = redeemVoucher(e2eDb(), { accountId: viewer.id, code: codes[1] });
      expect(redeemed.ok).toBe(true);
      const reference = `KAL-e2e${createId(12)}`;
      e2eDb()
        .insert(payments)
        .values({
          id: createId(),
          accountId: viewer.id,
          planId: "planpro",
          periodDays: 7,
          amountMinor: 120_000,
          currency: "NGN",
          reference,
          status: "pending",
        })
        .run();
      completePayment(e2eDb(), {
        reference,
        status: "success",
        amountMinor: 120_000,
        currency: "NGN",
        paidAt: new Date(),
        gatewayResponse: "Successful",
      });

      const codesTable = page.locator('[data-billing-table="codes"]');
      await codesTable.getByRole("searchbox").fill(codes[1]);
      await codesTable.getByRole("button", { name: "Search Redeem codes" }).click();
      await expect(page).toHaveURL(/codesQ=/);
      await expect(codesTable.locator("tbody tr")).toHaveCount(1);
      await expect(codesTable.locator("[data-code-state]")).toHaveText(`Used by ${viewer.email}`);

      const subscribers = page.locator('[data-billing-table="subscribers"]');
      await subscribers.getByRole("searchbox").fill(viewer.email);
      await subscribers.getByRole("button", { name: "Search Subscribers" }).click();
      await expect(subscribers.locator("tbody tr")).toHaveCount(2);
      await expect(subscribers.locator("tbody")).toContainText("Basic");
      await expect(subscribers.locator("tbody")).toContainText("Pro");

      const status = page.locator('[data-billing-table="status"]');
      await status.getByRole("searchbox").fill(codes[1]);
      await status.getByRole("button", { name: "Search Subscription status" }).click();
      await expect(status.locator("tbody tr")).toHaveCount(1);
      await expect(status.locator("[data-pass-state]")).toHaveText("Active");

      const paymentsTable = page.locator('[data-billing-table="payments"]');
      await paymentsTable.getByRole("searchbox").fill(viewer.email);
      await paymentsTable.getByRole("button", { name: "Search Payments" }).click();
      await expect(paymentsTable.locator("tbody tr")).toHaveCount(1);
      await expect(paymentsTable.locator("tbody tr")).toContainText(viewer.name);
      await expect(paymentsTable.locator("[data-payment-status]")).toHaveText("Paid");
      const paymentsCsv = await (
        await page.request.get(`/admin/userpayment/export?table=payments&q=${encodeURIComponent(viewer.email)}`)
      ).text();
      expect(paymentsCsv).toContain(reference);
      expect(paymentsCsv).toContain("Name,Email,Phone,Payment Status,Payment Date,Plan");
    } finally {
      await context.close();
    }
  });
}

test("an administrator changes the price of a week's pass in Select plan; a bad price is refused — without JavaScript", async ({
  browser,
  baseURL,
}) => {
  const admin = await createAdmin("periods");
  const viewer = await createViewer("periodprice");
  const prices = () =>
    Object.fromEntries(
      e2eDb()
        .select()
        .from(planPeriods)
        .where(eq(planPeriods.planId, "planpro"))
        .all()
        .map((row) => [row.period, row.priceMinor]),
    );
  const before = prices();
  const { context, page } = await signedIn(browser, baseURL!, admin, false);
  try {
    await page.goto("/admin/Selectplan");
    const card = page.locator('[data-admin-plan="PRO"]');
    await card.getByText("Edit Pro").click();
    await card.getByLabel("A week", { exact: true }).fill("abc");
    await card.getByRole("button", { name: "Save Pro" }).click();
    await expect(page.locator('[data-admin-plan="PRO"] [data-field-error="price_week"]')).toHaveText(
      "Enter a price above 0, like 1500 or 1,500.50",
    );
    expect(prices()).toEqual(before);
    // The form came back open with what was typed; the other lengths kept their prices.
    const again = page.locator('[data-admin-plan="PRO"]');
    await again.getByLabel("A week", { exact: true }).fill("1,250");
    await again.getByRole("button", { name: "Save Pro" }).click();
    await expect(page).toHaveURL(/\/admin\/Selectplan$/);
    expect(prices()).toEqual({ ...before, week: 125_000 });

    const shopper = await signedIn(browser, baseURL!, viewer, false);
    await shopper.page.goto("/payment");
    await expect(shopper.page.locator('[data-plan-card="PRO"] [data-period-price="week"]')).toHaveText("₦1,250");
    await shopper.context.close();
  } finally {
    e2eDb()
      .update(planPeriods)
      .set({ priceMinor: before.week ?? 120_000 })
      .where(and(eq(planPeriods.planId, "planpro"), eq(planPeriods.period, "week")))
      .run();
    await context.close();
  }
});

test("viewers and providers are refused the billing tables, their CSV and the voucher form; /userpayment leads there", async ({
  browser,
  baseURL,
  page,
}) => {
  const viewer = await createViewer("nosy");
  const provider = await createApprovedProvider("nosy");
  for (const account of [viewer, provider]) {
    const { context, page: own } = await signedIn(browser, baseURL!, account, false);
    expect((await own.goto("/admin/userpayment"))?.status()).toBe(403);
    expect((await own.request.get("/admin/userpayment/export?table=payments", { maxRedirects: 0 })).status()).toBe(403);
    expect((await own.request.get("/admin/userpayment/export?table=codes", { maxRedirects: 0 })).status()).toBe(403);
    const post = await own.request.post("/admin/userpayment", {
      form: { intent: "generate", planPeriod: "planbasic:week", count: "5", expiresOn: "2030-01-01" },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(403);
    await context.close();
  }
  expect(
    e2eDb()
      .select()
      .from(redeemCodes)
      .where(eq(redeemCodes.expiresAt, new Date("2030-01-01T23:59:59.999Z")))
      .all(),
  ).toHaveLength(0);
  // Signed out: the sign-in page, then back.
  await page.goto("/userpayment");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fuserpayment/);
  const csv = await page.request.get("/admin/userpayment/export?table=codes", { maxRedirects: 0 });
  expect(csv.status()).toBe(302);
  await page.goto("/payment");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fpayment/);
});

test("the payment pages and the needs-a-pass panel have no serious accessibility problems", async ({
  browser,
  baseURL,
}) => {
  const admin = await createAdmin("axebilling");
  const viewer = await createViewer("axebilling");
  const check = expectNoSeriousAccessibilityProblems;
  const asViewer = await signedIn(browser, baseURL!, viewer);
  await check(asViewer.page, "/payment");
  await check(asViewer.page, `/WatchMovie?id=${PREMIUM[0]}`);
  await check(asViewer.page, "/plans");
  await asViewer.context.close();
  const asAdmin = await signedIn(browser, baseURL!, admin);
  await check(asAdmin.page, "/admin/userpayment");
  await check(asAdmin.page, "/admin/Selectplan");
  await asAdmin.context.close();
});

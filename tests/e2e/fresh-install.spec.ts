import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { openDatabase, type DB } from "../../app/db/client.server";
import { auditLog, categories, movies, passes, payments, plans } from "../../app/db/schema";
import { approveProviderApplication } from "../../app/services/account-status.server";
import { applyAsProvider, registerViewer } from "../../app/services/accounts.server";
import { startFakePaystack, type FakePaystack } from "../fixtures/fake-paystack";
import { makeVideoFixture } from "../fixtures/media";
import { readLatestMail, signedInContext } from "./fixtures/accounts";
import { expect, test } from "./fixtures/test";
import { pressPlay } from "./fixtures/titles";

/**
 * A business from nothing: the built server started as an operator starts it
 * (`npm start`: no demo) on an empty storage folder, with the first
 * administrator from ADMIN_EMAIL / ADMIN_PASSWORD and card payments through
 * the local Paystack stand-in. The administrator makes the plans, a provider's
 * first film is sent back and approved, a viewer buys a pass and plays the
 * Premium title, and the plan that was sold is retired.
 */
// Each test is a whole story on a server of its own; a busy machine needs the room.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const port = Number(new URL(process.env.E2E_BASE_URL!).port) + 3;
const base = `http://localhost:${port}`;
const storage = path.join(os.tmpdir(), `kallo-e2e-fresh-${port}`);
const owner = { email: "owner@fresh.kallo.test", password: "owner-password-1" };
const provider = { email: "studio@fresh.kallo.test", password: "studio-password-1", name: "Arewa Studio" };
const viewer = { email: "amina@fresh.kallo.test", password: "viewer-password-1", name: "Amina Sani" };
const FILM = "Ruwan Dare";

let server: ChildProcess;
let paystack: FakePaystack;
let db: DB;
let film: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fs.rmSync(storage, { recursive: true, force: true });
  fs.mkdirSync(storage, { recursive: true });
  film = await makeVideoFixture(storage, "mp4-faststart", 2);
  paystack = await startFakePaystack("sk_test_fresh_install", { webhookUrl: `${base}/payments/paystack/webhook` });
  server = spawn(process.execPath, ["build/server/start.js"], {
    env: {
      ...process.env,
      PORT: String(port),
      STORAGE_DIR: storage,
      DATABASE_PATH: "",
      SESSION_SECRET: "fresh-install-secret-0123456789abcdef",
      NODE_ENV: "production",
      ADMIN_EMAIL: owner.email,
      ADMIN_PASSWORD: owner.password,
      PUBLIC_URL: base,
      WORKERS: "1",
      LOG_LEVEL: "error",
      TRUST_PROXY: "loopback",
      PAYSTACK_SECRET_KEY: paystack.secretKey,
      PAYSTACK_BASE_URL: paystack.baseUrl,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status ?? 0, {
      timeout: 90_000,
      message: `the fresh server did not start:\n${log.slice(-2000)}`,
    })
    .toBe(200);
  db = openDatabase(path.join(storage, "data.db"));
});

test.afterAll(async () => {
  db?.$client.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  await paystack?.close();
  fs.rmSync(storage, { recursive: true, force: true });
});

let address = 1;
function signedIn(
  browser: Browser,
  door: "/login" | "/cp",
  account: { email: string; password: string },
  javaScriptEnabled: boolean,
): Promise<{ context: BrowserContext; page: Page }> {
  return signedInContext(browser, account, {
    baseURL: base,
    javaScriptEnabled,
    door,
    extraHTTPHeaders: { "X-Forwarded-For": `10.99.0.${address++}` },
  });
}

const planRow = (code: string) => db.select().from(plans).where(eq(plans.code, code)).get();
const filmRow = () => db.select().from(movies).where(eq(movies.name, FILM)).get();

test("the administrator starts from the usual plans and edits one; a new plan is refused without a price, then made, moved and deleted — without JavaScript", async ({
  browser,
}) => {
  const visitor = await browser.newContext({ baseURL: base, javaScriptEnabled: false });
  const anonymous = await visitor.newPage();
  await anonymous.goto("/plans");
  await expect(anonymous.getByText("No plans are offered at the moment.")).toBeVisible();

  const { context, page } = await signedIn(browser, "/login", owner, false);
  try {
    await page.goto("/admin/Selectplan");
    await expect(page.getByTestId("no-plans")).toContainText("nothing can be sold");
    await page.getByRole("button", { name: "Start with Free, Basic and Pro" }).click();
    await expect(page.getByText("Free, Basic and Pro are ready")).toBeVisible();
    const preview = page.getByTestId("plan-table");
    await expect(preview.locator('td[data-plan="BASIC"] [data-period-price]')).toHaveText([
      "₦150 a day",
      "₦600 a week",
      "₦1,800 a month",
    ]);

    // An edit: a dearer week, two screens.
    const basic = page.locator('[data-admin-plan="BASIC"]');
    await basic.getByText("Edit Basic").click();
    await basic.getByLabel("A week", { exact: true }).fill("700");
    await basic.getByLabel("Screens at once").fill("2");
    await basic.getByRole("button", { name: "Save Basic" }).click();
    await expect(page.getByText("Plan saved")).toBeVisible();
    expect(planRow("BASIC")).toMatchObject({ screens: 2, premium: true, maxRung: 720 });

    // A plan of one's own: refused without a price, then made, moved up one place, and deleted (never sold).
    await page.getByText("Create a plan").click();
    const create = page.locator('[data-plan-form="new"]');
    await create.getByLabel("Name (English)").fill("Weekend");
    await create.getByLabel("Name (Hausa)").fill("Karshen Mako");
    await create.getByRole("button", { name: "Create the plan" }).click();
    await expect(page.locator('[data-plan-form="new"] [data-field-error="prices"]')).toHaveText(
      "Give at least one pass length a price: a pass plan is sold by length",
    );
    await page.locator('[data-plan-form="new"]').getByLabel("A day", { exact: true }).fill("100");
    await page.locator('[data-plan-form="new"]').getByRole("button", { name: "Create the plan" }).click();
    await expect(page.getByText("Plan created")).toBeVisible();
    await expect(page.locator("[data-admin-plan]")).toHaveCount(4);
    await page.getByRole("button", { name: "Move Weekend up" }).click();
    await expect(page.locator("[data-admin-plan]").nth(2)).toHaveAttribute("data-admin-plan", "WEEKEND");
    const weekend = page.locator('[data-admin-plan="WEEKEND"]');
    await weekend.getByText("Delete…").click();
    await weekend.getByRole("button", { name: "Delete Weekend" }).click();
    await expect(page.getByText("Plan deleted")).toBeVisible();
    expect(planRow("WEEKEND")).toBeUndefined();

    // What visitors read comes from what the plans allow and sell, on a phone too.
    await anonymous.setViewportSize({ width: 360, height: 780 });
    await anonymous.goto("/plans");
    const table = anonymous.getByTestId("plan-table");
    await expect(table.locator('td[data-plan="BASIC"] [data-period-price="week"]')).toHaveText("₦700 a week");
    await expect(table.locator('td[data-plan="PRO"] [data-period-price="year"]')).toHaveText("₦35,000 a year");
    await expect(table.locator('[data-allows-premium="false"]')).toHaveCount(1);
    expect(await anonymous.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The admin's preview fits the phone too: every plan side by side, nothing to scroll sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    const box = await page.getByTestId("plan-table").evaluate((element) => ({
      right: element.getBoundingClientRect().right,
      scrolls: element.scrollWidth > element.clientWidth,
    }));
    expect(box.right).toBeLessThanOrEqual(360);
    expect(box.scrolls).toBe(false);
  } finally {
    await context.close();
    await visitor.close();
  }
});

test("a provider's first film is sent back with a reason; the provider is told, resubmits, and it is approved as Premium — without JavaScript", async ({
  browser,
}) => {
  db.insert(categories).values({ id: "freshdrama1", name: "Drama", slug: "drama" }).run();
  const applied = await applyAsProvider(db, {
    providerName: provider.name,
    email: provider.email,
    phoneNumber: "0803 222 3333",
    password: provider.password,
    password2: provider.password,
  });
  if (!applied.ok) throw new Error("could not apply");
  approveProviderApplication(db, applied.value.id, { actorId: applied.value.id });

  const studio = await signedIn(browser, "/cp", provider, false);
  const admin = await signedIn(browser, "/login", owner, false);
  try {
    const upload = studio.page;
    await upload.goto("/provider/Movieupload");
    await upload.getByLabel("Movie Title").fill(FILM);
    await upload.getByLabel("Description").fill("A night of rain in Kano.");
    await upload.getByLabel("Category").selectOption({ label: "Drama" });
    await upload.getByLabel("Movie", { exact: true }).setInputFiles(film);
    await upload.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => filmRow()?.status, { timeout: 90_000 }).toBe("ready");
    const movieId = filmRow()!.id;

    // Sent back: a reason from the list and the administrator's own words.
    await admin.page.goto("/admin/movies?status=waiting");
    const row = admin.page.locator(`tr[data-movie-id="${movieId}"]`);
    await row.getByText("Send back…").click();
    await row.getByLabel("Reason").selectOption({ label: "Poor picture" });
    await row.getByLabel("Your words to the provider").fill("The picture is blurred after the first minute.");
    await row.getByRole("button", { name: `Send ${FILM} back` }).click();
    await expect(admin.page.getByText("Sent back: the provider has been told why")).toBeVisible();
    await admin.page.goto("/admin/movies?status=sentBack");
    await expect(admin.page.locator(`tr[data-movie-id="${movieId}"] [data-return-reason="picture"]`)).toContainText(
      "Poor picture: The picture is blurred after the first minute.",
    );
    expect(filmRow()).toMatchObject({ approved: false, returnReason: "picture" });

    // The provider reads why: in the bell, in the list of titles, and in a mail (written to storage/mail without SMTP).
    await upload.goto("/notifications");
    await expect(upload.getByText(/was sent back: the picture is too poor\. The picture is blurred/)).toBeVisible();
    const mail = await readLatestMail(provider.email, storage);
    expect(mail).toContain("was sent back: the picture is too poor. The picture is blurred after the first minute.");
    expect(mail).toContain(`${base}/provider/movielist`);
    expect(mail).toContain("An mayar da");
    await upload.goto("/provider/movielist");
    const mine = upload.locator(`tr[data-movie-id="${movieId}"]`);
    await expect(mine.locator('[data-review="sentBack"]')).toContainText("The picture is too poor");
    await expect(mine.locator('[data-review="sentBack"]')).toContainText(
      "The picture is blurred after the first minute.",
    );
    await mine.getByRole("button", { name: `Resubmit ${FILM} for approval` }).click();
    await expect(upload.getByText("Sent for approval again")).toBeVisible();
    await expect(upload.locator(`tr[data-movie-id="${movieId}"] [data-review="waiting"]`)).toBeVisible();

    // Approved, and made Premium.
    await admin.page.goto("/admin/movies?status=waiting");
    await admin.page.getByRole("button", { name: `Approve ${FILM}` }).click();
    await expect(admin.page.getByText("Title approved")).toBeVisible();
    // No longer waiting: it is among the approved titles.
    await admin.page.goto("/admin/movies?status=approved");
    await admin.page.getByRole("button", { name: `Make ${FILM} premium` }).click();
    await expect(admin.page.getByText("Title is now premium")).toBeVisible();
    expect(filmRow()).toMatchObject({ approved: true, access: "premium", returnReason: null });
    await upload.goto("/notifications");
    await expect(upload.getByText(/is approved: viewers can watch it now/)).toBeVisible();
    const actions = db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetId, movieId))
      .all()
      .map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["movie.send_back", "movie.resubmit", "movie.approve"]));
  } finally {
    await studio.context.close();
    await admin.context.close();
  }
});

test("a viewer buys a week of Basic through Paystack and plays the Premium film — with JavaScript", async ({
  browser,
}) => {
  const registered = await registerViewer(db, {
    name: viewer.name,
    email: viewer.email,
    phoneNumber: "0803 444 5555",
    password: viewer.password,
    password2: viewer.password,
  });
  if (!registered.ok) throw new Error("could not register");
  const movieId = filmRow()!.id;
  const { context, page } = await signedIn(browser, "/login", viewer, true);
  try {
    await page.goto(`/WatchMovie?id=${movieId}`);
    const panel = page.getByTestId("needs-pass");
    await expect(panel).toContainText("needs a pass");
    // Only the plans that include Premium titles are offered, from their cheapest pass.
    await expect(panel.getByRole("listitem")).toHaveCount(2);
    await expect(panel.getByRole("listitem").nth(0)).toContainText("from ₦150 for 1 day");
    await expect(panel.getByRole("listitem").nth(1)).toContainText("from ₦1,200 for 1 week");
    await panel.getByRole("link", { name: "Buy a pass or redeem a voucher" }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByTestId("premium-hint")).toHaveText(
      "Premium titles need a pass of a plan that includes them: Basic, Pro.",
    );
    const card = page.locator('[data-plan-card="BASIC"]');
    await expect(card.locator("[data-period-price]")).toHaveText(["₦150", "₦700", "₦1,800"]);
    await card.getByLabel("1 week").check();
    await card.getByRole("button", { name: "Pay for Basic" }).click();
    await expect(page).toHaveURL(/\/payment\?order=KAL-/);
    await expect(page.locator("#order")).toContainText("Basic, 1 week, ₦700.");
    await page.getByRole("link", { name: "Continue to Paystack to pay" }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByTestId("current-plan")).toHaveAttribute("data-plan", "BASIC");
    const paid = db.select().from(payments).where(eq(payments.accountId, registered.value.id)).get()!;
    expect(paid).toMatchObject({ status: "success", amountMinor: 70_000, currency: "NGN", periodDays: 7 });
    expect(paystack.transactions.get(paid.reference)).toMatchObject({ amount: 70_000, currency: "NGN" });

    await page.goto(`/WatchMovie?id=${movieId}`);
    await expect(page.getByTestId("needs-pass")).toHaveCount(0);
    await pressPlay(page.locator("video"), movieId);
  } finally {
    await context.close();
  }
});

test("the administrator retires the plan that was sold: viewers no longer see it, and the pass sold still plays — with JavaScript", async ({
  browser,
}) => {
  const movieId = filmRow()!.id;
  const admin = await signedIn(browser, "/login", owner, true);
  try {
    await admin.page.goto("/admin/Selectplan");
    const basic = admin.page.locator('[data-admin-plan="BASIC"]');
    await expect(basic).toContainText("1 pass sold, 1 running now");
    // Sold: it may be retired, never deleted.
    await expect(basic.getByText("Delete…")).toHaveCount(0);
    await expect(basic).toContainText("can be retired but not deleted");
    await basic.getByRole("button", { name: "Retire Basic" }).click();
    await expect(admin.page.getByRole("status").filter({ hasText: "The plan is retired" })).toBeVisible();
    await expect(admin.page.locator('[data-admin-plan="BASIC"]')).toHaveAttribute("data-offered", "false");
    await expect(admin.page.getByRole("button", { name: "Offer Basic again" })).toBeVisible();
    expect(planRow("BASIC")?.offered).toBe(false);
    expect(
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "plan.retire"), eq(auditLog.targetId, planRow("BASIC")!.id)))
        .all(),
    ).toHaveLength(1);
  } finally {
    await admin.context.close();
  }

  const { context, page } = await signedIn(browser, "/login", viewer, true);
  try {
    await page.goto("/plans");
    await expect(page.getByTestId("plan-table").locator("th[data-plan-column]")).toHaveText([/Free/i, /Pro/i]);
    await page.goto("/payment");
    await expect(page.locator('[data-plan-card="BASIC"]')).toHaveCount(0);
    await expect(page.getByTestId("current-plan")).toHaveAttribute("data-plan", "BASIC");
    expect(db.select().from(passes).all()).toHaveLength(1);
    await page.goto(`/WatchMovie?id=${movieId}`);
    await expect(page.getByTestId("needs-pass")).toHaveCount(0);
    await pressPlay(page.locator("video"), movieId);
  } finally {
    await context.close();
  }
});

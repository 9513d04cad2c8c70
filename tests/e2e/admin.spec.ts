import type { Browser } from "@playwright/test";
import { and, asc, desc, eq, like } from "drizzle-orm";
import sharp from "sharp";
import { categories, movies, plans } from "../../app/db/schema";
import { createId } from "../../app/utils/ids.server";
import { applyAsProvider } from "../../app/services/accounts.server";
import {
  accountByEmail,
  createAdmin,
  createApprovedProvider,
  createViewer,
  sessionCount,
  signInThroughForm,
  uniqueEmail,
  signedInContext,
} from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";

/**
 * The admin console: blocking and unblocking accounts (with and without
 * JavaScript), provider applications, creating providers, and the role
 * checks on every admin page and action.
 */

function signedIn(browser: Browser, baseURL: string, account: TestAccount, javaScriptEnabled = true) {
  return signedInContext(browser, account, { baseURL, javaScriptEnabled });
}

/** The brief's words, punctuated, then whom to write to (customer care from the configuration: the defaults here). */
const BLOCKED_MESSAGE =
  "Your account is blocked. Contact the Administrator: write to care@kallo.local or call +234 800 000 0000, giving the email address you sign in with.";

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";
  for (const kind of ["viewer", "provider"] as const) {
    test(`block a ${kind} after confirming with a reason, then unblock ${mode}`, async ({ browser, baseURL }) => {
      const admin = await createAdmin("blocker");
      const target = kind === "viewer" ? await createViewer("blockme") : await createApprovedProvider("blockme");
      const door = kind === "viewer" ? "/login" : "/cp";
      const ownPage = kind === "viewer" ? "/profile" : "/provider/profile";
      const listPath = kind === "viewer" ? "/admin/userlist" : "/admin/providerslist";
      const reason = `Shared the account with strangers (${mode})`;

      const victim = await signedIn(browser, baseURL!, target, false);
      expect((await victim.page.goto(ownPage))?.status()).toBe(200);
      expect(sessionCount(target.id)).toBeGreaterThan(0);

      const { context, page } = await signedIn(browser, baseURL!, admin, javaScriptEnabled);
      await page.goto(`${listPath}?q=${encodeURIComponent(target.email)}`);
      const row = page.locator(`tr[data-account-id="${target.id}"]`);
      await expect(row).toHaveAttribute("data-blocked", "false");
      // Nothing happens on the first click: it opens the confirmation, which asks why.
      await row.getByText("Block…").click();
      const confirm = row.getByRole("button", { name: `Block ${target.name}` });
      await expect(confirm).toBeVisible();
      expect(accountByEmail(target.email)?.blocked).toBe(false);
      if (!javaScriptEnabled) {
        // The browser asks for the reason first (the field is required); a form sent without one anyway is
        // refused by the server, which answers the page with the message beside the field.
        const refused = await page.request.post(listPath, {
          form: { intent: "block", accountId: target.id, back: listPath, reason: "  " },
          maxRedirects: 0,
        });
        expect(refused.status()).toBe(400);
        expect(await refused.text()).toContain("Say why you block this account");
        expect(accountByEmail(target.email)?.blocked).toBe(false);
      }
      const form = page.locator(`tr[data-account-id="${target.id}"] [data-block-form]`);
      await form.getByLabel("Why? (required; kept in the audit log)").fill(reason);
      await form.getByRole("button", { name: `Block ${target.name}` }).click();
      await expect(page.getByRole("status").filter({ hasText: "User blocked" })).toBeVisible();
      await expect(row).toHaveAttribute("data-blocked", "true");
      await expect(row.getByRole("button", { name: `Unblock ${target.name}` })).toBeVisible();
      expect(accountByEmail(target.email)?.blocked).toBe(true);
      expect(sessionCount(target.id)).toBe(0);

      // The open session stops working, and the door refuses the account, saying so once, with whom to write to.
      await victim.page.goto(ownPage);
      await expect(victim.page).toHaveURL(new RegExp(`${door}\\?`));
      await signInThroughForm(victim.page, door, target.email, target.password);
      await expect(victim.page.getByTestId("blocked-notice")).toHaveText(BLOCKED_MESSAGE);
      await expect(victim.page.getByText("Your account is blocked.")).toHaveCount(1);
      await expect(
        victim.page.getByTestId("blocked-notice").getByRole("link", { name: "care@kallo.local" }),
      ).toHaveAttribute("href", "mailto:care@kallo.local");

      await row.getByRole("button", { name: `Unblock ${target.name}` }).click();
      await expect(page.getByRole("status").filter({ hasText: "User unblocked" })).toBeVisible();
      await expect(row).toHaveAttribute("data-blocked", "false");
      expect(accountByEmail(target.email)?.blocked).toBe(false);

      await signInThroughForm(victim.page, door, target.email, target.password);
      await expect(victim.page).not.toHaveURL(/\/(login|cp)(\?|$)/);

      // Both actions are in the audit log, under the administrator's email; the block with its reason, confirmed.
      await page.goto(`/admin/audit?actor=${encodeURIComponent(admin.email)}`);
      const blocked = page.locator('tr[data-audit-action="account.block"]');
      await expect(blocked).toHaveCount(1);
      await expect(blocked.locator("[data-audit-note]")).toHaveText(`${reason} · confirmed`);
      await expect(page.locator('tr[data-audit-action="account.unblock"]')).toHaveCount(1);
      await context.close();
      await victim.context.close();
    });
  }
}

test("Reset sends the account a password reset link", async ({ browser, baseURL }) => {
  const admin = await createAdmin("resetter");
  const viewer = await createViewer("resetme");
  const { context, page } = await signedIn(browser, baseURL!, admin, false);
  await page.goto(`/admin/userlist?q=${encodeURIComponent(viewer.email)}`);
  await page.getByRole("button", { name: `Send ${viewer.name} a password reset link` }).click();
  await expect(page.getByRole("status").filter({ hasText: "A password reset link has been sent" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/admin/userlist\\?q=`));
  await context.close();
});

test("approve a provider application; the provider then signs in at /cp", async ({ browser, baseURL }) => {
  const admin = await createAdmin("approver");
  const email = uniqueEmail("applicant");
  const password = "applicant-pass-1";
  const providerName = `Applicant ${Date.now().toString(36)}`;
  const applied = await applyAsProvider(e2eDb(), {
    providerName,
    email,
    phoneNumber: "0803 111 2222",
    password,
    password2: password,
  });
  expect(applied.ok).toBe(true);

  const { context, page } = await signedIn(browser, baseURL!, admin, true);
  await page.goto("/admin/providerslist");
  const applications = page.locator('[data-section="applications"]');
  await applications.getByRole("button", { name: `Approve ${providerName}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Provider approved" })).toBeVisible();
  await expect(applications.getByText(providerName)).toHaveCount(0);
  expect(accountByEmail(email)?.providerStatus).toBe("approved");

  const provider = await browser.newContext({ baseURL: baseURL! });
  const providerPage = await provider.newPage();
  await signInThroughForm(providerPage, "/cp", email, password);
  await expect(providerPage).toHaveURL(/\/provider\//);
  await provider.close();
  await context.close();
});

for (const javaScriptEnabled of [true, false]) {
  test(`register a content provider ${javaScriptEnabled ? "with" : "without"} JavaScript; they sign in at /cp at once`, async ({
    browser,
    baseURL,
  }) => {
    const admin = await createAdmin("registrar");
    const { context, page } = await signedIn(browser, baseURL!, admin, javaScriptEnabled);
    const email = uniqueEmail("created");
    const providerName = `Created ${Date.now().toString(36)}`;
    await page.goto("/admin/registercontentprovider");
    await page.getByLabel("Provider name").fill(providerName);
    await page.getByLabel("Business email").fill(email);
    await page.getByLabel("Phone number").fill("0803 333 4444");
    await page.getByLabel("Password", { exact: true }).fill("created-pass-1");
    await page.getByLabel("Confirm password").fill("created-pass-2");
    await page.getByRole("button", { name: "Create provider" }).click();
    await expect(page.locator('[data-field-error="password2"]')).toHaveText("Passwords must match");
    expect(accountByEmail(email)).toBeUndefined();

    await page.getByLabel("Password", { exact: true }).fill("created-pass-1");
    await page.getByLabel("Confirm password").fill("created-pass-1");
    await page.getByRole("button", { name: "Create provider" }).click();
    await expect(page).toHaveURL(/\/admin\/providerslist$/);
    await expect(page.getByRole("status").filter({ hasText: "Provider created" })).toBeVisible();
    expect(accountByEmail(email)?.providerStatus).toBe("approved");

    const provider = await browser.newContext({ baseURL: baseURL! });
    const providerPage = await provider.newPage();
    await signInThroughForm(providerPage, "/cp", email, "created-pass-1");
    await expect(providerPage).toHaveURL(/\/provider\//);
    await provider.close();
    await context.close();
  });
}

const ADMIN_PAGES = [
  "/admin/providerslist",
  "/admin/userlist",
  "/admin/registercontentprovider",
  "/admin/audit",
  "/admin/movies",
  "/admin/moviecategory",
  "/admin/Selectplan",
];

for (const role of ["viewer", "provider"] as const) {
  test(`a ${role} gets 403 from every admin page and action, which change nothing`, async ({ browser, baseURL }) => {
    const account = role === "viewer" ? await createViewer("intruder") : await createApprovedProvider("intruder");
    const victim = await createViewer("untouched");
    const pendingEmail = uniqueEmail("pending");
    const pending = await applyAsProvider(e2eDb(), {
      providerName: "Pending Studio",
      email: pendingEmail,
      phoneNumber: "0803 555 6666",
      password: "pending-pass-1",
      password2: "pending-pass-1",
    });
    expect(pending.ok).toBe(true);
    const basic = e2eDb().select({ id: plans.id }).from(plans).where(eq(plans.code, "BASIC")).get()!;
    // The oldest unfeatured demo title: the feature test takes the newest, the studio tests their own uploads.
    const featureTarget = e2eDb()
      .select({ id: movies.id })
      .from(movies)
      .where(and(eq(movies.featured, false), like(movies.id, "demomovie%")))
      .orderBy(asc(movies.uploadedAt))
      .get()!.id;
    const { context, page } = await signedIn(browser, baseURL!, account, false);
    for (const path of ADMIN_PAGES) {
      expect((await page.goto(path))?.status(), `${role} GET ${path}`).toBe(403);
    }
    const posts: Array<[string, Record<string, string>]> = [
      ["/admin/userlist", { intent: "block", accountId: victim.id, reason: "no reason at all" }],
      ["/admin/userlist", { intent: "reset", accountId: victim.id }],
      ["/admin/providerslist", { intent: "approve", accountId: pending.ok ? pending.value.id : "" }],
      ["/admin/movies", { intent: "feature", movieId: featureTarget }],
      ["/admin/movies", { intent: "autoApprove", value: "on" }],
      ["/admin/moviecategory", { intent: "create", name: "Sneaky category" }],
      ["/admin/Selectplan", { intent: "retire", planId: basic.id }],
      ["/admin/Selectplan", { intent: "starter" }],
      [
        "/admin/registercontentprovider",
        {
          providerName: "Sneaky",
          email: uniqueEmail("sneaky"),
          phoneNumber: "0803 777 8888",
          password: "sneaky-pass-1",
          password2: "sneaky-pass-1",
        },
      ],
    ];
    for (const [path, form] of posts) {
      const response = await context.request.post(path, { form, maxRedirects: 0 });
      expect(response.status(), `${role} POST ${path}`).toBe(403);
    }
    expect(accountByEmail(victim.email)?.blocked).toBe(false);
    expect(accountByEmail(pendingEmail)?.providerStatus).toBe("pending");
    expect(e2eDb().select({ offered: plans.offered }).from(plans).where(eq(plans.id, basic.id)).get()?.offered).toBe(
      true,
    );
    expect(
      e2eDb().select({ id: categories.id }).from(categories).where(eq(categories.name, "Sneaky category")).get(),
    ).toBeUndefined();
    expect(
      e2eDb().select({ featured: movies.featured }).from(movies).where(eq(movies.id, featureTarget)).get()?.featured,
    ).toBe(false);
    await context.close();
  });
}

test("feature a title: it shows in the landing page's Featured carousel; unfeature takes it out", async ({
  browser,
  baseURL,
}) => {
  const admin = await createAdmin("featurer");
  const db = e2eDb();
  const candidate = db
    .select({ id: movies.id, name: movies.name })
    .from(movies)
    .where(and(eq(movies.featured, false), eq(movies.approved, true), eq(movies.status, "ready")))
    .orderBy(desc(movies.uploadedAt))
    .get();
  expect(candidate, "a published title that is not featured").toBeTruthy();
  const { context, page } = await signedIn(browser, baseURL!, admin, false);
  try {
    await page.goto("/admin/movies?status=approved");
    // The disk at a glance: free space and what films, ladders and work in progress take.
    await expect(page.getByTestId("disk-usage")).toContainText(
      /Disk: [\d.]+ GB free of [\d.]+ GB .* Films [\d.]+ GB, adaptive ladders [\d.]+ GB/,
    );
    const row = page.locator(`tr[data-movie-id="${candidate!.id}"]`);
    await expect(row.getByRole("link", { name: candidate!.name, exact: true })).toHaveAttribute(
      "href",
      `/WatchMovie?id=${candidate!.id}`,
    );
    await row.getByRole("button", { name: `Feature ${candidate!.name}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Title featured" })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/movies\?status=approved$/);
    await expect(row).toHaveAttribute("data-featured", "true");

    await page.goto("/");
    await expect(page.locator('[data-section="featured"]').getByText(candidate!.name).first()).toBeAttached();

    await page.goto("/admin/movies?status=approved");
    await row.getByRole("button", { name: `Unfeature ${candidate!.name}` }).click();
    await expect(row).toHaveAttribute("data-featured", "false");
    await page.goto("/");
    await expect(page.locator('[data-section="featured"]').getByText(candidate!.name)).toHaveCount(0);
  } finally {
    db.update(movies).set({ featured: false }).where(eq(movies.id, candidate!.id)).run();
    await context.close();
  }
});

test("delete a title after confirming, without JavaScript", async ({ browser, baseURL }) => {
  const admin = await createAdmin("deleter");
  const provider = await createApprovedProvider("owner");
  const db = e2eDb();
  const category = db.select({ id: categories.id }).from(categories).get()!;
  const movieId = createId();
  const name = `Doomed ${movieId}`;
  db.insert(movies)
    .values({ id: movieId, name, categoryId: category.id, providerId: provider.id, status: "ready" })
    .run();

  const { context, page } = await signedIn(browser, baseURL!, admin, false);
  await page.goto(`/admin/movies?provider=${provider.id}`);
  const row = page.locator(`tr[data-movie-id="${movieId}"]`);
  await expect(row).toContainText("Waiting for approval");
  await row.getByRole("link", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(name);
  await dialog.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Title deleted" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/admin/movies\\?provider=${provider.id}$`));
  expect(db.select({ id: movies.id }).from(movies).where(eq(movies.id, movieId)).get()).toBeUndefined();
  await context.close();
});

for (const javaScriptEnabled of [true, false]) {
  test(`create, rename, re-image and delete a category ${javaScriptEnabled ? "with" : "without"} JavaScript; one in use is refused`, async ({
    browser,
    baseURL,
  }) => {
    const admin = await createAdmin("curator");
    const { context, page } = await signedIn(browser, baseURL!, admin, javaScriptEnabled);
    const suffix = Date.now().toString(36);
    const name = `Tarihi ${suffix}`;
    await page.goto("/admin/moviecategory");
    await page.getByLabel("New category name").fill(name);
    await page.getByRole("button", { name: "Create category" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Category created" })).toBeVisible();
    const item = page.locator("li[data-category-id]").filter({ has: page.getByRole("heading", { name, exact: true }) });
    await expect(item).toContainText("0 titles");

    // The same name again is refused with a message, not an error page.
    await page.getByLabel("New category name").fill(name);
    await page.getByRole("button", { name: "Create category" }).click();
    await expect(page.locator('[data-category-error="create"]')).toHaveText("A category with that name already exists");

    const renamed = `Tarihi renamed ${suffix}`;
    await item.getByLabel(`New name for ${name}`).fill(renamed);
    await item.getByRole("button", { name: "Rename" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Category renamed" })).toBeVisible();
    const renamedItem = page
      .locator("li[data-category-id]")
      .filter({ has: page.getByRole("heading", { name: renamed, exact: true }) });
    await expect(renamedItem).toContainText("no image yet");

    await renamedItem
      .getByLabel(`Image for ${renamed}`)
      .setInputFiles({ name: "tile.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
    await renamedItem.getByRole("button", { name: "Upload image" }).click();
    await expect(page.locator('[data-category-error="image"]')).toHaveText("Only .jpg and .png images are accepted");
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#225588" } })
      .png()
      .toBuffer();
    await renamedItem
      .getByLabel(`Image for ${renamed}`)
      .setInputFiles({ name: "tile.png", mimeType: "image/png", buffer: png });
    await renamedItem.getByRole("button", { name: "Upload image" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Category image updated" })).toBeVisible();
    await expect(renamedItem).toContainText("has an image");

    // A demo category with titles: refused, and nothing changes.
    const inUse = page
      .locator("li[data-category-id]")
      .filter({ hasNot: page.getByText("0 titles") })
      .first();
    const inUseName = (await inUse.getByRole("heading").textContent())!;
    await inUse.getByRole("button", { name: `Delete ${inUseName}` }).click();
    await expect(page.locator('[data-category-error="delete"]')).toContainText("move them to another category first");
    await expect(page.getByRole("heading", { name: inUseName, exact: true })).toBeVisible();

    await renamedItem.getByRole("button", { name: `Delete ${renamed}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Category deleted" })).toBeVisible();
    await expect(page.getByRole("heading", { name: renamed, exact: true })).toHaveCount(0);
    await context.close();
  });
}

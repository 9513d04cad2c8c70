import type { Browser } from "@playwright/test";
import { eq } from "drizzle-orm";
import { auditLog, series } from "../../app/db/schema";
import { sendBackTitle } from "../../app/services/title-lifecycle.server";
import { createId } from "../../app/utils/ids.server";
import { createAdmin, createApprovedProvider, createViewer, signedInContext } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle } from "./fixtures/titles";

/**
 * An administrator sends a title or a series back with a reason; its provider
 * reads why, resubmits, and it is approved. (A film's whole path, upload to
 * approval without JavaScript, is in fresh-install.spec.ts.)
 */

function signedIn(browser: Browser, baseURL: string, account: TestAccount, javaScriptEnabled = true) {
  return signedInContext(browser, account, { baseURL, javaScriptEnabled });
}

test("a series is sent back with the administrator's own reason; its provider is told, resubmits, and it is approved — with JavaScript", async ({
  browser,
  baseURL,
}) => {
  const admin = await createAdmin("reviewer");
  const provider = await createApprovedProvider("reviewed");
  const category = createCategory("Review");
  const seriesId = createId();
  const name = `Kwana Casa'in ${seriesId.slice(0, 5)}`;
  e2eDb().insert(series).values({ id: seriesId, name, categoryId: category.id, providerId: provider.id }).run();

  const boss = await signedIn(browser, baseURL!, admin);
  const studio = await signedIn(browser, baseURL!, provider);
  try {
    await boss.page.goto("/admin/series");
    const row = boss.page.locator(`tr[data-series-id="${seriesId}"]`);
    await row.getByText("Send back…").click();
    // "Another reason" needs the administrator's words.
    await row.getByLabel("Reason").selectOption({ label: "Another reason" });
    await row.getByRole("button", { name: `Send ${name} back` }).click();
    await expect(row.locator('[data-field-error="note"]')).toHaveText("Say what the other reason is");
    expect(e2eDb().select().from(series).where(eq(series.id, seriesId)).get()?.returnReason).toBeNull();
    await row.getByLabel("Your words to the provider").fill("Season one has no poster yet; add one.");
    await row.getByRole("button", { name: `Send ${name} back` }).click();
    await expect(boss.page.getByRole("status").filter({ hasText: "Sent back" })).toBeVisible();
    await expect(row.locator('[data-return-reason="other"]')).toContainText("Season one has no poster yet");

    // The provider's bell counts it; the series says why and offers Resubmit.
    await studio.page.goto("/provider/series");
    await expect(studio.page.getByRole("link", { name: "Notifications, 1 unread" })).toBeVisible();
    const mine = studio.page.locator(`tr[data-series-id="${seriesId}"]`);
    await expect(mine.locator('[data-review="sentBack"]')).toContainText("Season one has no poster yet; add one.");
    await mine.getByRole("button", { name: `Resubmit ${name} for approval` }).click();
    await expect(studio.page.getByRole("status").filter({ hasText: "Sent for approval again" })).toBeVisible();
    await expect(studio.page.locator(`tr[data-series-id="${seriesId}"] [data-review="waiting"]`)).toBeVisible();

    await boss.page.reload();
    await boss.page
      .locator(`tr[data-series-id="${seriesId}"]`)
      .getByRole("button", { name: `Approve ${name}` })
      .click();
    await expect(boss.page.getByRole("status").filter({ hasText: "Series approved" })).toBeVisible();
    expect(e2eDb().select().from(series).where(eq(series.id, seriesId)).get()).toMatchObject({
      approved: true,
      returnReason: null,
      returnNote: null,
    });
    await studio.page.goto("/notifications");
    await expect(studio.page.getByText(`“${name}” is approved: viewers can watch it now.`)).toBeVisible();
    const actions = e2eDb()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetId, seriesId))
      .all()
      .map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["series.send_back", "series.resubmit", "series.approve"]));
  } finally {
    await boss.context.close();
    await studio.context.close();
  }
});

test("only its own provider resubmits a title, and a viewer or another provider cannot send anything back", async ({
  browser,
  baseURL,
}) => {
  const owner = await createApprovedProvider("owner");
  const other = await createApprovedProvider("other");
  const viewer = await createViewer("bystander");
  const admin = await createAdmin("sender");
  const category = createCategory("Owned");
  const title = {
    id: createTitle({ name: "Owned film", categoryId: category.id, providerId: owner.id, approved: false }),
  };
  sendBackTitle(e2eDb(), title.id, { reason: "rights", note: "" }, { actorId: admin.id });
  for (const account of [other, viewer]) {
    const { context, page } = await signedIn(browser, baseURL!, account, false);
    const resubmit = await page.request.post("/provider/movielist", {
      form: { intent: "resubmit", movieId: title.id },
      maxRedirects: 0,
    });
    expect(resubmit.status(), account.role).toBe(403);
    const sendBack = await page.request.post("/admin/movies", {
      form: { intent: "sendBack", movieId: title.id, reason: "content" },
      maxRedirects: 0,
    });
    expect(sendBack.status(), account.role).toBe(403);
    await context.close();
  }
  expect(e2eDb().select().from(auditLog).where(eq(auditLog.targetId, title.id)).all()).toHaveLength(1);
  const { context, page } = await signedIn(browser, baseURL!, owner, false);
  await page.goto("/provider/movielist");
  await page.getByRole("button", { name: "Resubmit Owned film for approval" }).click();
  await expect(page.getByText("Sent for approval again")).toBeVisible();
  await context.close();
});

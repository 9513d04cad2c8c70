import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { accounts } from "../../app/db/schema";
import { checkPin } from "../../app/services/profiles.server";
import {
  createApprovedProvider,
  createViewer,
  readLatestSmsCode,
  signedInContext,
  type TestAccount,
} from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test, testClientAddress } from "./fixtures/test";
import { createCategory, createTitle, uniqueWord } from "./fixtures/titles";

/**
 * A family on one phone: profiles, a children's profile that sees only G and
 * PG titles, and the PIN that keeps a child in it. As people meet it: a
 * 360-px phone, in Hausa, without JavaScript; then a fresh sign-in with
 * JavaScript, asked "Who's watching?".
 */
test.describe.configure({ mode: "serial" });

let viewer: TestAccount;
let word: string;
let titles: { g: string; adult: string; unrated: string };

test.beforeAll(async () => {
  viewer = await createViewer("family");
  const provider = await createApprovedProvider("family-studio");
  const category = createCategory("Family");
  word = uniqueWord("iyali");
  const title = (rating: "G" | "18" | null, name: string) =>
    createTitle({ name: `${word} ${name}`, categoryId: category.id, providerId: provider.id, ageRating: rating });
  titles = { g: title("G", "yara"), adult: title("18", "manya"), unrated: title(null, "sabo") };
});

const found = (page: Page) =>
  page
    .locator("main")
    .getByRole("link", { name: new RegExp(word) })
    .allTextContents();

test("a parent sets the PIN, adds a children's profile, and the child sees only G and PG titles — 360 px, Hausa, no JavaScript", async ({
  browser,
}) => {
  const { context, page } = await signedInContext(browser, viewer, {
    javaScriptEnabled: false,
    viewport: { width: 360, height: 740 },
    locale: "ha-NG",
    extraHTTPHeaders: { "Accept-Language": "ha-NG,ha;q=0.9", "X-Forwarded-For": testClientAddress() },
  });
  // Before: the grown-up's search finds all three.
  await page.goto(`/moviecategory?q=${word}`);
  expect(await found(page)).toHaveLength(3);

  await page.goto("/profiles");
  await expect(page.getByRole("heading", { name: "Masu kallo", exact: true })).toBeVisible();
  const pin = page.getByTestId("pin-settings");
  await pin.getByLabel("Sabon PIN (lambobi 4)").fill("2468");
  await pin.getByLabel("Kalmar sirrin asusunka").fill(viewer.password);
  await pin.getByRole("button", { name: "Saita PIN" }).click();
  await expect(page.getByText("An saita PIN", { exact: true })).toBeVisible();

  const add = page.getByTestId("add-profile");
  await add.getByLabel("Suna").fill("Yara Biyu");
  await add.getByRole("checkbox", { name: /^Yara/ }).check();
  await add.getByRole("button", { name: "Ƙara mai kallo" }).click();
  await expect(page.getByText("An ƙara mai kallo: Yara Biyu")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page.getByRole("button", { name: "Kalla a matsayin Yara Biyu" }).click();
  await expect(page).toHaveURL(/\/movies$/);
  // After: the child's search finds the G title only (never the 18, never the unrated).
  await page.goto(`/moviecategory?q=${word}`);
  expect(await found(page)).toEqual([expect.stringContaining(`${word} yara`)]);
  const refused = await page.goto(`/WatchMovie?id=${titles.adult}`);
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Ba na masu kallo na yara ba ne" })).toBeVisible();
  expect((await page.request.get(`/api/files/${titles.adult}.mp4`)).status()).toBe(403);
  expect((await page.goto(`/WatchMovie?id=${titles.g}`))?.status()).toBe(200);
  // The account's own pages are the grown-ups'.
  for (const path of ["/editprofile", "/payment"]) expect((await page.goto(path))?.status(), path).toBe(403);

  // Leaving the children's profile asks the PIN: a wrong one is refused, the right one lets the parent back.
  await page.goto("/profiles");
  await expect(page.getByTestId("add-profile")).toHaveCount(0);
  await page.getByRole("button", { name: `Kalla a matsayin ${viewer.name}` }).click();
  await expect(page.getByRole("heading", { name: "Shigar da PIN don barin mai kallo na yara" })).toBeVisible();
  await page.getByLabel("PIN", { exact: true }).fill("1111");
  await page.getByRole("button", { name: "Buɗe" }).click();
  await expect(page.getByText("Sauran gwaji 4")).toBeVisible();
  await page.getByLabel("PIN", { exact: true }).fill("2468");
  await page.getByRole("button", { name: "Buɗe" }).click();
  await expect(page).toHaveURL(/\/movies$/);
  await page.goto(`/moviecategory?q=${word}`);
  expect(await found(page)).toHaveLength(3);
  await context.close();
});

test("with two profiles, a fresh sign-in asks who is watching, and the account menu names the profile", async ({
  browser,
}) => {
  const { context, page } = await signedInContext(browser, viewer, { viewport: { width: 360, height: 740 } });
  await expect(page).toHaveURL(/\/profiles\?who=1/);
  await expect(page.getByRole("heading", { name: "Who's watching?" })).toBeVisible();
  await page.getByRole("button", { name: `Watch as ${viewer.name}` }).click();
  await expect(page).toHaveURL(/\/movies$/);
  await expect(page.getByText(`Now watching as ${viewer.name}`)).toBeVisible();
  await page.getByLabel("Account menu").click();
  await expect(page.getByTestId("profile-in-use")).toHaveText(viewer.name);
  await expect(page.getByRole("link", { name: "Switch profile" })).toBeVisible();
  await context.close();
});

test("a forgotten PIN is replaced with a code sent by SMS to the account's number — without JavaScript", async ({
  browser,
}) => {
  const parent = await createViewer("pin-by-sms");
  const e164 = `+2348032${String(Date.now() % 1_000_000).padStart(6, "0")}`;
  e2eDb().update(accounts).set({ verifiedPhone: e164 }).where(eq(accounts.id, parent.id)).run();
  const { context, page } = await signedInContext(browser, parent, { javaScriptEnabled: false });
  await page.goto("/profiles");
  await expect(page.getByTestId("pin-by-code")).toContainText("+234 803 •••");
  await page.getByRole("button", { name: "Send me a code" }).click();
  await expect(page).toHaveURL(/\/phone-code\/[A-Za-z0-9]{24}$/);
  await expect(page.getByRole("heading", { name: "Choose a new PIN" })).toBeVisible();
  await page.getByLabel("6-digit code").fill(await readLatestSmsCode(e164));
  await page.getByLabel("New PIN (4 digits)").fill("9753");
  await page.getByRole("button", { name: "Save new PIN" }).click();
  await expect(page).toHaveURL(/\/profiles$/);
  await expect(page.getByText("PIN set", { exact: true })).toBeVisible();
  expect(await checkPin(e2eDb(), parent.id, "9753")).toEqual({ ok: true });
  await context.close();
});

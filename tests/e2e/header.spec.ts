import type { Locator, Page } from "@playwright/test";
import { seasons, series, movies } from "../../app/db/schema";
import { createId } from "../../app/utils/ids.server";
import { eq } from "drizzle-orm";
import { createApprovedProvider, createViewer, signInThroughForm } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, uniqueWord } from "./fixtures/titles";

/**
 * The top bar on a 360-px phone, as a person uses it: signed out, Login and
 * Sign up side by side and the other links on the screen; signed in, search,
 * categories and the account menu one tap away — all of it with and without
 * JavaScript. Search suggests films, series and episodes as a viewer types.
 */

const PHONE = { width: 360, height: 740 };

/** The element is on the screen, whole, and is what a tap at its centre reaches. */
async function expectTappable(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  const page = locator.page();
  const viewport = page.viewportSize()!;
  expect(box.x, "left edge on the screen").toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, "right edge on the screen").toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, "within the first screen").toBeLessThanOrEqual(viewport.height);
  const reached = await locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit === element || element.contains(hit);
  });
  expect(reached, "nothing covers it").toBe(true);
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** An episode with words no other title has, in a published series of its own. */
function seriesWithEpisode(provider: TestAccount, episodeName: string) {
  const category = createCategory("Header series");
  const seriesId = createId();
  e2eDb()
    .insert(series)
    .values({
      id: seriesId,
      name: uniqueWord("Gidan "),
      categoryId: category.id,
      providerId: provider.id,
      approved: true,
    })
    .run();
  const seasonId = createId();
  e2eDb().insert(seasons).values({ id: seasonId, seriesId, number: 1 }).run();
  const episode = createTitle({ name: episodeName, categoryId: category.id, providerId: provider.id, withMedia: true });
  e2eDb().update(movies).set({ seasonId, episodeNumber: 2 }).where(eq(movies.id, episode)).run();
  const seriesName = e2eDb().select({ name: series.name }).from(series).where(eq(series.id, seriesId)).get()!.name;
  return { episode, seriesName };
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test.describe(`the top bar on a phone ${mode}`, () => {
    test.use({ javaScriptEnabled, viewport: PHONE });

    for (const language of ["en", "ha"] as const) {
      test(`signed out: Login and Sign up side by side, every link on the screen (${language}) — ${mode}`, async ({
        browser,
      }, testInfo) => {
        const context = await browser.newContext({
          baseURL: process.env.E2E_BASE_URL,
          javaScriptEnabled,
          viewport: PHONE,
          locale: language === "ha" ? "ha-NG" : "en-GB",
        });
        const page = await context.newPage();
        await page.goto("/about");
        const header = page.getByRole("banner");
        const login = header.getByRole("link", { name: language === "en" ? "Login" : "Shiga", exact: true });
        const signUp = header.getByRole("link", { name: language === "en" ? "Sign up" : "Yi rijista", exact: true });
        await expectTappable(login);
        await expectTappable(signUp);
        const [loginBox, signUpBox] = [(await login.boundingBox())!, (await signUp.boundingBox())!];
        expect(Math.abs(loginBox.y - signUpBox.y), "on one line").toBeLessThan(4);
        expect(signUpBox.x).toBeGreaterThan(loginBox.x);
        for (const name of language === "en"
          ? ["Content Creator", "Plans", "About"]
          : ["Mai Shirya Fim", "Tsare-tsare", "Game da mu"])
          await expectTappable(header.getByRole("link", { name, exact: true }));
        await expectNoSidewaysScroll(page);
        await page.screenshot({ path: testInfo.outputPath(`header-signed-out-${language}.png`) });

        await signUp.click();
        await expect(page).toHaveURL(/\/register$/);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await context.close();
      });
    }

    test(`signed in: search, categories and the account menu are one tap away on every kind of page — ${mode}`, async ({
      page,
    }, testInfo) => {
      test.slow();
      const viewer = await createViewer("header");
      await signInThroughForm(page, "/login", viewer.email, viewer.password);
      await expect(page).not.toHaveURL(/\/login/);
      for (const path of ["/", "/movies", "/history", "/payment", "/notifications"]) {
        await page.goto(path);
        const header = page.getByRole("banner");
        await expectTappable(header.getByRole("link", { name: "Categories", exact: true }));
        await expectTappable(header.getByRole("link", { name: "Movies", exact: true }));
        await expectTappable(header.getByRole("link", { name: "Downloads", exact: true }));
        await expectTappable(header.getByLabel("Search", { exact: true }));
        await expectTappable(header.getByLabel("Account menu"));
        await expectTappable(header.getByRole("link", { name: /^Notifications/ }));
        await expectNoSidewaysScroll(page);
      }
      await page.goto("/movies");
      await page.screenshot({ path: testInfo.outputPath("header-signed-in.png") });

      // The account menu opens on the screen, every entry reachable.
      const header = page.getByRole("banner");
      await header.getByLabel("Account menu").click();
      for (const name of ["Profile", "History", "Payment"])
        await expectTappable(header.getByRole("link", { name, exact: true }));
      await expectTappable(header.getByRole("button", { name: "Log out" }));
      await page.screenshot({ path: testInfo.outputPath("header-account-menu.png") });
      await header.getByRole("link", { name: "History", exact: true }).click();
      await expect(page).toHaveURL(/\/history$/);

      // Categories in one tap.
      await page.getByRole("banner").getByRole("link", { name: "Categories", exact: true }).click();
      await expect(page).toHaveURL(/\/moviecategory$/);

      // Search: one tap opens the box; a search is a plain GET form.
      await page.getByRole("banner").getByLabel("Search", { exact: true }).click();
      const box = page.getByRole("banner").getByRole("combobox", { name: "Search films and series" });
      await expectTappable(box);
      if (javaScriptEnabled) await expect(box).toBeFocused();
      await page.screenshot({ path: testInfo.outputPath("header-search-open.png") });
      await box.fill("kauye");
      await box.press("Enter");
      await expect(page).toHaveURL(/\/moviecategory\?q=kauye$/);
      await expect(page.getByRole("heading", { name: "Results for “kauye”" })).toBeVisible();
    });

    test(`a search finds an episode by part of its title — ${mode}`, async ({ page }) => {
      const provider = await createApprovedProvider("header-search");
      const word = uniqueWord("Kuɗin");
      const { episode, seriesName } = seriesWithEpisode(provider, `Ranar ${word} Haya`);
      const viewer = await createViewer("header-search");
      await signInThroughForm(page, "/login", viewer.email, viewer.password);
      await expect(page).not.toHaveURL(/\/login/);
      // Part of the title, typed without the hooked letter.
      await page.goto(`/moviecategory?${new URLSearchParams({ q: `${word.replace("ɗ", "d")} haya` })}`);
      const found = page.getByTestId("episode-results").locator(`li[data-movie-id="${episode}"]`);
      await expect(found).toContainText(`Ranar ${word} Haya`);
      await expect(found).toContainText(`${seriesName} · S1E2`);
      await expect(page.getByTestId("empty-results")).toHaveCount(0);
      await found.getByRole("link").click();
      await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${episode}$`));
    });
  });
}

test("search suggests films, series and episodes as a viewer types, and the arrows and Enter open one", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const provider = await createApprovedProvider("suggest");
  const word = uniqueWord("Kuɗin");
  const typed = word.replace("ɗ", "d").toLowerCase();
  const { episode, seriesName } = seriesWithEpisode(provider, `Ranar ${word} Haya`);
  const viewer = await createViewer("suggest");
  await signInThroughForm(page, "/login", viewer.email, viewer.password);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/history");
  await page.getByRole("banner").getByLabel("Search", { exact: true }).click();
  const box = page.getByRole("banner").getByRole("combobox", { name: "Search films and series" });
  await expect(box).toBeFocused();
  // Part of the title, typed without the hooked letter, a letter at a time.
  await box.pressSequentially(typed.slice(0, -2), { delay: 40 });
  const list = page.getByRole("banner").getByRole("listbox", { name: "Suggestions" });
  const option = list.getByRole("option").filter({ hasText: `Ranar ${word} Haya` });
  await expect(option).toBeVisible();
  await expect(option).toContainText(`Episode · ${seriesName} · S1E2`);
  await expect(box).toHaveAttribute("aria-expanded", "true");
  await expectTappable(option);
  await box.press("ArrowDown");
  await expect(box).toHaveAttribute("aria-activedescendant", /.+/);
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/WatchMovie\\?id=${episode}$`));
  // Escape closes the list; the form still searches.
  await page.getByRole("banner").getByLabel("Search", { exact: true }).click();
  const again = page.getByRole("banner").getByRole("combobox", { name: "Search films and series" });
  await again.fill(typed);
  await expect(page.getByRole("banner").getByRole("listbox", { name: "Suggestions" })).toBeVisible();
  await again.press("Escape");
  await expect(page.getByRole("banner").getByRole("listbox", { name: "Suggestions" })).toBeHidden();
  await again.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/moviecategory\\?q=${typed}$`));
});

test("suggestions are for signed-in viewers only", async ({ request }) => {
  const answer = await request.get("/search-suggestions?q=kauye");
  expect(answer.status()).toBe(401);
  expect(await answer.json()).toMatchObject({ error: "Sign in to search" });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import sharp from "sharp";
import type { Browser, Page } from "@playwright/test";
import { auditLog, filmReplacements, movies, ratings, watchEvents } from "../../app/db/schema";
import { makeVideoFixture } from "../fixtures/media";
import { createAdmin, createApprovedProvider, createViewer, signedInContext } from "./fixtures/accounts";
import type { TestAccount } from "./fixtures/accounts";
import { e2eDb } from "./fixtures/db";
import { expect, test } from "./fixtures/test";
import { createCategory, createTitle, pressPlay, uniqueWord } from "./fixtures/titles";

/**
 * Titles after their upload: a provider (or an administrator) edits a title's
 * details and poster, a provider replaces its film while a viewer plays the
 * old one — the old version plays on until the new one is ready, then the
 * title plays the new one and the viewer's history and rating are still
 * there — with and without JavaScript; and who may do none of it.
 */
const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-e2e-edits-"));
let newFilm: string;
let poster: string;

test.beforeAll(async () => {
  // Four seconds at 320×240: shorter than the demo films the test titles borrow, so the swap shows in the title's length.
  newFilm = await makeVideoFixture(fixtures, "mp4-faststart", 4);
  poster = path.join(fixtures, "new-poster.png");
  await sharp({ create: { width: 900, height: 600, channels: 3, background: "#1d4ed8" } })
    .png()
    .toFile(poster);
});

const movie = (id: string) => e2eDb().select().from(movies).where(eq(movies.id, id)).get()!;

function signedIn(browser: Browser, account: TestAccount, javaScriptEnabled: boolean) {
  return signedInContext(browser, account, { javaScriptEnabled });
}

/** Until `check` passes, reloading the page between tries (the page also looks again by itself with JavaScript). */
async function untilAfterReloads(page: Page, check: () => Promise<void>, timeout = 120_000) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout, intervals: [1000, 2000, 3000] });
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test.describe(`editing titles ${mode}`, () => {
    test(`a provider edits a title's details and poster; viewers and search see them at once — ${mode}`, async ({
      browser,
    }) => {
      const provider = await createApprovedProvider(`edit${javaScriptEnabled ? "js" : "nojs"}`);
      const category = createCategory("Edited");
      const id = createTitle({
        name: `Kuskure ${uniqueWord("t")}`,
        categoryId: category.id,
        providerId: provider.id,
        withMedia: true,
      });
      const newName = `Gyararre ${uniqueWord("n")}`;
      const castWord = uniqueWord("cast");

      const studio = await signedIn(browser, provider, javaScriptEnabled);
      await studio.page.goto("/provider/movielist");
      await studio.page.getByRole("link", { name: `Edit ${movie(id).name}` }).click();
      await expect(studio.page).toHaveURL(new RegExp(`/provider/movie/${id}$`));
      const form = studio.page.getByTestId("title-details-form");
      await form.getByLabel("Movie Title").fill(newName);
      await form.getByLabel("Description").fill("A story told again, with its typo mended.");
      await form.getByLabel("Cast").fill(`Ali Nuhu, ${castWord}`);
      await form.getByLabel("A new poster (leave empty to keep this one)").setInputFiles(poster);
      await form.getByRole("button", { name: "Save changes" }).click();
      await expect(studio.page.getByRole("status").filter({ hasText: "Changes saved" })).toBeVisible();
      await expect(studio.page.getByRole("heading", { level: 1 })).toHaveText(newName);
      expect(movie(id)).toMatchObject({ name: newName, approved: true, posterVersion: 1 });
      expect(movie(id).cast).toContain(castWord);
      // The poster's addresses changed with it.
      await expect(form.getByRole("img", { name: "The current poster" })).toHaveAttribute("src", /\?v=1$/);
      const audit = e2eDb()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id), eq(auditLog.action, "movie.edit")))
        .get()!;
      expect(audit.details).toMatchObject({ changed: expect.arrayContaining(["name", "cast", "poster"]) });

      // Still published: a viewer finds it by its new words at once, and its page shows the new name.
      const viewer = await signedIn(browser, await createViewer("reader"), javaScriptEnabled);
      await viewer.page.goto(`/moviecategory?q=${castWord}`);
      await expect(viewer.page.getByRole("link", { name: new RegExp(newName) }).first()).toBeVisible();
      await viewer.page.goto(`/WatchMovie?id=${id}`);
      await expect(viewer.page.getByRole("heading", { level: 1 })).toHaveText(newName);
      await expect(viewer.page.locator("video")).toHaveAttribute("poster", /\?v=1$/);

      // A title left empty: the browser asks for one first (the field is required); sent anyway, the server
      // refuses it beside its field, and nothing changes.
      const title = form.getByLabel("Movie Title");
      await title.fill("");
      expect(await title.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
      await title.evaluate((input: HTMLInputElement) => input.removeAttribute("required"));
      await form.getByRole("button", { name: "Save changes" }).click();
      await expect(studio.page.locator('[data-field-error="name"]')).toHaveText("Movie Title is required");
      expect(movie(id).name).toBe(newName);
      await studio.context.close();
      await viewer.context.close();
    });

    test(`a provider replaces a film while a viewer plays the old one; history and rating survive — ${mode}`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const provider = await createApprovedProvider(`replace${javaScriptEnabled ? "js" : "nojs"}`);
      const category = createCategory("Replaced");
      const id = createTitle({
        name: `Tsohon Fim ${uniqueWord("r")}`,
        categoryId: category.id,
        providerId: provider.id,
        withMedia: true,
      });
      const before = movie(id);

      // The viewer plays the old version (with JavaScript: the player reports its position) and rates it.
      const viewerAccount = await createViewer("watcher");
      const viewer = await signedIn(browser, viewerAccount, true);
      await viewer.page.goto(`/WatchMovie?id=${id}`);
      const video = viewer.page.locator("video");
      await pressPlay(video, id);
      await viewer.page.getByLabel("4 stars").check();
      await viewer.page.getByRole("button", { name: "Rate", exact: true }).click();
      await expect.poll(() => e2eDb().select().from(ratings).where(eq(ratings.movieId, id)).get()?.stars).toBe(4);
      await expect
        .poll(() => e2eDb().select().from(watchEvents).where(eq(watchEvents.accountId, viewerAccount.id)).all().length)
        .toBeGreaterThan(0);
      const oldRung = await viewer.page.evaluate(async (movieId) => {
        const master = await (await fetch(`/stream/${movieId}/master.m3u8`)).text();
        return master.split("\n").find((line) => line.endsWith(".m3u8"))!;
      }, id);
      expect(oldRung).toMatch(/^\d+p\.m3u8$/);

      // The provider sends the new film (the views so far must survive it).
      const viewsBeforeReplacing = movie(id).views;
      const studio = await signedIn(browser, provider, javaScriptEnabled);
      await studio.page.goto(`/provider/movie/${id}`);
      const replace = studio.page.getByTestId("film-replacement");
      await replace.getByLabel("New film file").setInputFiles(newFilm);
      await replace.getByRole("button", { name: "Replace the film" }).click();
      await expect(
        studio.page.getByRole("status").filter({ hasText: "New film received. It is being prepared" }),
      ).toBeVisible({ timeout: 30_000 });

      // Until it is ready, the old version plays on: its rungs are served, the title's length is the old one.
      const replacement = () =>
        e2eDb()
          .select()
          .from(filmReplacements)
          .where(eq(filmReplacements.movieId, id))
          .orderBy(desc(filmReplacements.createdAt))
          .get();
      expect(replacement()).toBeTruthy();
      if (replacement()!.status === "processing") {
        expect(movie(id).mediaVersion).toBe(0);
        const oldBytes = await viewer.page.evaluate(
          async (url) => (await fetch(url, { headers: { Range: "bytes=0-99" } })).status,
          `/stream/${id}/${oldRung.replace(".m3u8", ".mp4")}`,
        );
        expect(oldBytes).toBe(206);
      }

      // Then the swap: the title plays the new film, in its own addresses.
      await untilAfterReloads(studio.page, async () => {
        await expect(studio.page.locator("[data-replacement-status]")).toHaveAttribute(
          "data-replacement-status",
          "done",
          {
            timeout: 1000,
          },
        );
      });
      const after = movie(id);
      expect(after.mediaVersion).toBe(1);
      expect(after.durationSeconds).toBe(4);
      expect(after.durationSeconds).not.toBe(before.durationSeconds);
      expect(after).toMatchObject({ status: "ready", approved: true });
      expect(after.views).toBeGreaterThanOrEqual(viewsBeforeReplacing);
      const master = await viewer.page.evaluate(
        async (movieId) => (await fetch(`/stream/${movieId}/master.m3u8`)).text(),
        id,
      );
      expect(master).toMatch(/^v1\/\d+p\.m3u8$/m);
      // A player that began on the old version still gets the old bytes while they are kept.
      const oldStill = await viewer.page.evaluate(
        async (url) => (await fetch(url, { headers: { Range: "bytes=0-99" } })).status,
        `/stream/${id}/${oldRung.replace(".m3u8", ".mp4")}`,
      );
      expect(oldStill).toBe(206);

      // The viewer's rating and history survived the new film.
      expect(e2eDb().select().from(ratings).where(eq(ratings.movieId, id)).get()?.stars).toBe(4);
      await viewer.page.goto("/history");
      await expect(viewer.page.getByTestId("history-list").locator(`[data-movie-id="${id}"]`)).toHaveCount(1);
      await viewer.page.goto(`/WatchMovie?id=${id}`);
      await expect(viewer.page.getByText("Your rating: 4 of 5")).toBeVisible();
      await pressPlay(viewer.page.locator("video"), id);
      await studio.context.close();
      await viewer.context.close();
    });

    test(`a film ffprobe cannot read is refused with the reason; the old film plays on — ${mode}`, async ({
      browser,
    }) => {
      const provider = await createApprovedProvider(`broken${javaScriptEnabled ? "js" : "nojs"}`);
      const category = createCategory("Broken");
      const id = createTitle({
        name: `Lafiyayye ${uniqueWord("b")}`,
        categoryId: category.id,
        providerId: provider.id,
        withMedia: true,
      });
      const broken = path.join(fixtures, `broken-${javaScriptEnabled}.mp4`);
      const good = fs.readFileSync(newFilm);
      // A real MP4's first bytes, then noise: right by its name and first bytes, unreadable to ffprobe.
      fs.writeFileSync(broken, Buffer.concat([good.subarray(0, 64), Buffer.alloc(200_000, 3)]));
      const studio = await signedIn(browser, provider, javaScriptEnabled);
      await studio.page.goto(`/provider/movie/${id}`);
      const replace = studio.page.getByTestId("film-replacement");
      await replace.getByLabel("New film file").setInputFiles(broken);
      await replace.getByRole("button", { name: "Replace the film" }).click();
      // Beside the field without JavaScript; with it, the resumable upload's refusal is read out as an alert.
      await expect(
        studio.page.getByText(/could not be read as a video|has no picture|seems damaged/).first(),
      ).toBeVisible();
      expect(movie(id).mediaVersion).toBe(0);
      expect(e2eDb().select().from(filmReplacements).where(eq(filmReplacements.movieId, id)).all()).toEqual([]);
      await studio.context.close();
    });

    test(`an administrator edits any title's details — ${mode}`, async ({ browser }) => {
      const provider = await createApprovedProvider("owner");
      const category = createCategory("Before");
      const moved = createCategory("After");
      const id = createTitle({
        name: `Na Mai Bayarwa ${uniqueWord("a")}`,
        categoryId: category.id,
        providerId: provider.id,
      });
      const admin = await signedIn(browser, await createAdmin("editor"), javaScriptEnabled);
      await admin.page.goto(`/admin/movies?provider=${provider.id}`);
      await admin.page.getByRole("link", { name: `Edit ${movie(id).name}` }).click();
      await expect(admin.page).toHaveURL(new RegExp(`/admin/movies/${id}$`));
      const newName = `Gyaran Mai Gudanarwa ${uniqueWord("g")}`;
      await admin.page.getByLabel("Movie Title").fill(newName);
      await admin.page.getByLabel("Category").selectOption({ label: moved.name });
      await admin.page.getByRole("button", { name: "Save changes" }).click();
      await expect(admin.page.getByRole("status").filter({ hasText: "Changes saved" })).toBeVisible();
      expect(movie(id)).toMatchObject({ name: newName, categoryId: moved.id });
      // Replacing the film is the provider's: the administrator's page has no such form.
      await expect(admin.page.getByTestId("replace-film-form")).toHaveCount(0);
      await admin.context.close();
    });
  });
}

test("nobody but a title's provider and administrators may open or post its edit page", async ({
  browser,
  baseURL,
}) => {
  const owner = await createApprovedProvider("rightful");
  const other = await createApprovedProvider("other");
  const category = createCategory("Guarded");
  const id = createTitle({ name: `Kariya ${uniqueWord("k")}`, categoryId: category.id, providerId: owner.id });
  const name = movie(id).name;

  const anonymous = await browser.newContext({ javaScriptEnabled: false });
  const anonymousPage = await anonymous.newPage();
  await anonymousPage.goto(`/provider/movie/${id}`);
  await expect(anonymousPage).toHaveURL(/\/cp\?redirectTo=/);
  await anonymous.close();

  for (const intruder of [other, await createViewer("snoop")]) {
    const { context, page } = await signedIn(browser, intruder, false);
    expect((await page.goto(`/provider/movie/${id}`))?.status()).toBe(403);
    expect((await page.goto(`/admin/movies/${id}`))?.status()).toBe(403);
    const form = { name: "Stolen title", Description: "", cast: "" };
    const posted = await page.request.post(`${baseURL}/provider/movie/${id}`, {
      multipart: form,
      headers: { Origin: baseURL! },
    });
    expect(posted.status()).toBe(403);
    const film = await page.request.post(`${baseURL}/provider/movie/${id}?part=film`, {
      multipart: { movie: { name: "new.mp4", mimeType: "video/mp4", buffer: fs.readFileSync(newFilm) } },
      headers: { Origin: baseURL! },
    });
    expect(film.status()).toBe(403);
    await context.close();
  }
  expect(movie(id).name).toBe(name);
  expect(e2eDb().select().from(filmReplacements).where(eq(filmReplacements.movieId, id)).all()).toEqual([]);
});

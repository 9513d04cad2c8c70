import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import {
  accounts,
  categories,
  movies,
  passes,
  payments,
  planPeriods,
  plans,
  seasons,
  series,
  subtitles,
  watchEvents,
} from "~/db/schema";
import { DEMO_ACCOUNTS, DEMO_SUBTITLED_TITLE } from "~/demo/demo-catalogue";
import { seedDemo, type SeedDemoSummary } from "~/demo/seed-demo.server";
import { probeMedia } from "~/media/ffmpeg.server";
import { firstProfileOf } from "./helpers/test-db";
import { moviePosterPaths } from "~/media/posters.server";
import {
  moviePosterPath,
  movieSubtitlePath,
  movieVideoPath,
  publicPosterName,
  publicVideoName,
  storagePaths,
} from "~/media/storage.server";
import { verifyPassword } from "~/services/passwords.server";
import { listCatalogue } from "~/services/catalogue-lists.server";
import { getSeriesPage } from "~/services/series-viewing.server";
import { copySeededDemo } from "../fixtures/demo-storage";

let workDir: string;
let storageDir: string;
let db: DB;
let firstRun: SeedDemoSummary;

const quiet = () => {};

/** Every file under the storage folder with its modification time, except the database's own files. */
function fileTimes(root: string): Record<string, number> {
  const times: Record<string, number> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith("data.db")) continue;
    const file = path.join(entry.parentPath, entry.name);
    times[path.relative(root, file)] = fs.statSync(file).mtimeMs;
  }
  return times;
}

function tableSnapshot(database: DB) {
  return {
    accounts: database.select().from(accounts).orderBy(asc(accounts.id)).all(),
    categories: database.select().from(categories).orderBy(asc(categories.id)).all(),
    plans: database.select().from(plans).orderBy(asc(plans.id)).all(),
    movies: database.select().from(movies).orderBy(asc(movies.id)).all(),
    watchEvents: database.select().from(watchEvents).orderBy(asc(watchEvents.id)).all(),
    subtitles: database.select().from(subtitles).orderBy(asc(subtitles.movieId), asc(subtitles.language)).all(),
  };
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-seed-"));
  storageDir = path.join(workDir, "storage");
  // Under `npm test` the demo was seeded once for every test that uses it: this file checks that
  // seeding (run once more here, on a copy, as a restart does). Run alone, it seeds from nothing.
  copySeededDemo(storageDir);
  db = openDatabase(path.join(storageDir, "data.db"));
  migrateDatabase(db);
  firstRun = await seedDemo(db, { storageDir, log: quiet });
}, 180_000);

afterAll(() => {
  db?.$client.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe("the demo seed", () => {
  it("creates the eight categories in order, each with its tile", () => {
    const rows = db.select().from(categories).orderBy(asc(categories.sortOrder)).all();
    expect(rows.map((row) => row.name)).toEqual([
      "Action",
      "Romantic",
      "Comedy",
      "Horror",
      "Adventure",
      "Mystery",
      "TV Show",
      "Others",
    ]);
    for (const row of rows) {
      expect(row.imageFile).toBe(`${row.id}.jpg`);
      expect(fs.statSync(path.join(storagePaths(storageDir).categories, row.imageFile!)).size).toBeGreaterThan(2000);
    }
  });

  it("creates the usual Free, Basic and Pro plans, priced in naira for each pass length they sell", () => {
    const rows = db.select().from(plans).orderBy(asc(plans.sortOrder)).all();
    expect(
      rows.map(({ code, nameHa, premium, screens, maxRung, downloadsAllowed, offered }) => ({
        code,
        nameHa,
        premium,
        screens,
        maxRung,
        downloadsAllowed,
        offered,
      })),
    ).toEqual([
      {
        code: "FREE",
        nameHa: "Kyauta",
        premium: false,
        screens: 1,
        maxRung: 480,
        downloadsAllowed: true,
        offered: true,
      },
      {
        code: "BASIC",
        nameHa: "Na Asali",
        premium: true,
        screens: 1,
        maxRung: 720,
        downloadsAllowed: true,
        offered: true,
      },
      { code: "PRO", nameHa: "Gwani", premium: true, screens: 3, maxRung: 1080, downloadsAllowed: true, offered: true },
    ]);
    const prices = db.select().from(planPeriods).all();
    const of = (planId: string) =>
      Object.fromEntries(prices.filter((row) => row.planId === planId).map((row) => [row.period, row.priceMinor]));
    expect(of(rows[0].id)).toEqual({});
    expect(of(rows[1].id)).toEqual({ day: 15_000, week: 60_000, month: 180_000 });
    expect(of(rows[2].id)).toEqual({ week: 120_000, month: 350_000, year: 3_500_000 });
  });

  it("creates one account per role that signs in with the printed password", async () => {
    const rows = db
      .select()
      .from(accounts)
      .all()
      .filter((row) => !row.id.startsWith("demoaudience"));
    expect(rows).toHaveLength(3);
    for (const demo of DEMO_ACCOUNTS) {
      const row = rows.find((candidate) => candidate.email === demo.email.toLowerCase());
      expect(row?.role).toBe(demo.role);
      expect(demo.password.length).toBeGreaterThanOrEqual(8);
      expect(await verifyPassword(demo.password, row!.passwordHash)).toBe(true);
    }
    const provider = rows.find((row) => row.role === "provider")!;
    expect(provider.providerStatus).toBe("approved");
    expect(provider.providerName).toBeTruthy();
  });

  it("creates at least twelve published titles owned by the demo provider, spread over the categories", () => {
    const rows = db.select().from(movies).all();
    const provider = db.select().from(accounts).where(eq(accounts.role, "provider")).get()!;
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(firstRun.movies).toBe(rows.length);
    for (const row of rows) {
      expect(row.id).toMatch(/^[a-z0-9]{8,32}$/);
      expect(row).toMatchObject({ status: "ready", approved: true, providerId: provider.id });
      expect(
        row.description.split(/[.!?](\s|$)/).filter((part) => part.trim().length > 1).length,
      ).toBeGreaterThanOrEqual(2);
      expect(row.cast).not.toBe("");
      expect(Date.now() - row.uploadedAt.getTime()).toBeLessThanOrEqual(61 * 24 * 60 * 60 * 1000);
    }
    expect(rows.filter((row) => row.categoryId === "democataction").length).toBeGreaterThanOrEqual(3);
    expect(new Set(rows.map((row) => row.categoryId)).size).toBe(8);
    expect(rows.filter((row) => row.featured).length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((row) => row.access === "premium")).toHaveLength(3);
    expect(new Set(rows.map((row) => row.views)).size).toBe(rows.length);
  });

  it("gives every title a browser-playable H.264/AAC film and its posters", async () => {
    const rows = db.select().from(movies).all();
    for (const row of rows) {
      const videoPath = movieVideoPath(row.id, storageDir);
      expect(row.videoFile).toBe(publicVideoName(row.id));
      expect(row.posterFile).toBe(publicPosterName(row.id));
      expect(row.sizeBytes).toBe(fs.statSync(videoPath).size);
      for (const poster of moviePosterPaths(row.id, storageDir))
        expect(fs.statSync(poster.path).size).toBeGreaterThan(1000);

      const probe = await probeMedia(videoPath);
      expect(probe).toMatchObject({
        videoCodec: "h264",
        audioCodec: "aac",
        pixelFormat: "yuv420p",
        width: 640,
        height: 360,
      });
      expect(probe.formatName).toContain("mp4");
      expect(probe.durationSeconds).toBeGreaterThanOrEqual(6);
      expect(probe.durationSeconds).toBeLessThanOrEqual(10.2);
      expect(row.durationSeconds).toBe(Math.round(probe.durationSeconds));
      expect({ width: row.width, height: row.height }).toEqual({ width: 640, height: 360 });
    }
  });

  it("includes one series of two seasons and three episodes, shown as one card with its own poster", () => {
    const [show] = db.select().from(series).all();
    expect(show).toMatchObject({ name: "Gidan Haya", approved: true, access: "free", posterFile: "poster" });
    for (const poster of moviePosterPaths(show.id, storageDir))
      expect(fs.statSync(poster.path).size).toBeGreaterThan(1000);
    expect(db.select().from(seasons).where(eq(seasons.seriesId, show.id)).all()).toHaveLength(2);
    const page = getSeriesPage(db, show.id, firstProfileOf("nobodyatall1"))!;
    expect(page.seasons.map((season) => [season.number, season.episodes.map((episode) => episode.code)])).toEqual([
      [1, ["S1E1", "S1E2"]],
      [2, ["S2E1"]],
    ]);
    const cards = listCatalogue({ pageSize: 100 }, db).movies;
    expect(cards.filter((card) => card.kind === "series").map((card) => card.id)).toEqual([show.id]);
    expect(cards.some((card) => card.kind === "episode")).toBe(false);
  });

  it("moves the moov atom to the front, so playback starts before the download ends", () => {
    const head = fs
      .readFileSync(movieVideoPath("demomovie01", storageDir))
      .subarray(0, 64 * 1024)
      .toString("latin1");
    expect(head.indexOf("moov")).toBeGreaterThan(-1);
    expect(head.indexOf("moov")).toBeLessThan(head.indexOf("mdat"));
  });

  it("records recent viewings, after each upload, so trending has signal", () => {
    const events = db.select().from(watchEvents).all();
    const weekAgo = Date.now() - 7 * 24 * 60 * 60 * 1000;
    const viewer = db.select().from(accounts).where(eq(accounts.email, "viewer@kallo.demo")).get()!;
    const viewersOwn = events.filter((event) => event.accountId === viewer.id);
    expect(viewersOwn.length).toBeGreaterThanOrEqual(10);
    expect(events.filter((event) => event.startedAt.getTime() > weekAgo).length).toBeGreaterThan(viewersOwn.length);
    const uploaded = new Map(
      db
        .select({ id: movies.id, uploadedAt: movies.uploadedAt })
        .from(movies)
        .all()
        .map((row) => [row.id, row.uploadedAt]),
    );
    for (const event of events) {
      if (event.accountId === viewer.id) expect(event.startedAt.getTime()).toBeGreaterThan(weekAgo);
      expect(event.startedAt.getTime()).toBeLessThan(Date.now());
      expect(event.startedAt.getTime()).toBeGreaterThan(uploaded.get(event.movieId)!.getTime());
    }
  });

  it("makes views, viewings and watch time agree: every view is a viewing, no viewing outlasts its film", () => {
    const events = db.select().from(watchEvents).all();
    for (const movie of db.select().from(movies).all()) {
      const viewings = events.filter((event) => event.movieId === movie.id && event.viewCounted);
      expect(viewings.length, movie.id).toBe(movie.views);
      for (const viewing of viewings) {
        expect(viewing.positionSeconds).toBeLessThanOrEqual(movie.durationSeconds);
        // Each viewing lasted as long as it played (watch time = how far it got).
        expect(viewing.updatedAt.getTime() - viewing.startedAt.getTime()).toBe(viewing.positionSeconds * 1000);
      }
    }
    // Viewings by the demo audience, who signed up over three months and cannot sign in.
    const audience = db
      .select()
      .from(accounts)
      .all()
      .filter((row) => row.id.startsWith("demoaudience"));
    expect(audience.length).toBeGreaterThanOrEqual(40);
    expect(audience.every((row) => row.role === "viewer" && !row.passwordHash.startsWith("scrypt$"))).toBe(true);
    const providerHours = events.reduce((total, event) => total + event.positionSeconds, 0) / 3600;
    expect(providerHours).toBeGreaterThan(1);
  });

  it("sells passes to part of the audience at the plans' own prices, so revenue and passes have numbers", () => {
    const sold = db
      .select()
      .from(payments)
      .all()
      .filter((row) => row.id.startsWith("demopay"));
    expect(sold.length).toBeGreaterThan(10);
    for (const payment of sold) {
      const offer = db
        .select()
        .from(planPeriods)
        .where(and(eq(planPeriods.planId, payment.planId), eq(planPeriods.days, payment.periodDays)))
        .get()!;
      expect(payment).toMatchObject({ status: "success", amountMinor: offer.priceMinor });
      const pass = db.select().from(passes).where(eq(passes.paymentId, payment.id)).get()!;
      expect(pass.endsAt.getTime() - pass.startsAt.getTime()).toBe(payment.periodDays * 24 * 3600 * 1000);
    }
  });

  it("gives one film and the series' first episode Hausa and English subtitles whose cues fall within them", () => {
    const rows = db.select().from(subtitles).all();
    expect(rows.map((row) => [row.movieId, row.language, row.label]).sort()).toEqual([
      ["demoepisode01", "en", "English"],
      ["demoepisode01", "ha", "Hausa"],
      [DEMO_SUBTITLED_TITLE, "en", "English"],
      [DEMO_SUBTITLED_TITLE, "ha", "Hausa"],
    ]);
    for (const row of rows) {
      const film = db.select().from(movies).where(eq(movies.id, row.movieId)).get()!;
      const text = fs.readFileSync(movieSubtitlePath(row.movieId, row.language, storageDir), "utf8");
      expect(text.startsWith("WEBVTT\n")).toBe(true);
      expect(Buffer.byteLength(text)).toBe(row.sizeBytes);
      const ends = [...text.matchAll(/--> (\d\d):(\d\d):(\d\d)\.(\d{3})/g)].map(
        ([, h, m, s, ms]) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000,
      );
      expect(ends.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...ends)).toBeLessThanOrEqual(film.durationSeconds);
    }
    const hausa = fs.readFileSync(movieSubtitlePath(DEMO_SUBTITLED_TITLE, "ha", storageDir), "utf8");
    expect(hausa).toContain("Na je kasuwa. Hanya ta cika maƙil.");
  });

  it("leaves no temporary files behind", () => {
    expect(fs.readdirSync(storagePaths(storageDir).tmp)).toEqual([]);
  });

  it("changes nothing when run again: same rows, same ids, same files", async () => {
    const rowsBefore = tableSnapshot(db);
    const filesBefore = fileTimes(storageDir);
    const started = performance.now();
    const secondRun = await seedDemo(db, { storageDir, log: quiet });
    expect((performance.now() - started) / 1000).toBeLessThan(2);
    expect(secondRun.created).toEqual({ movies: 0, categories: 0, plans: 0, accounts: 0, files: 0 });
    expect(tableSnapshot(db)).toEqual(rowsBefore);
    expect(fileTimes(storageDir)).toEqual(filesBefore);
  });

  it("makes again only the files that went missing, and keeps an administrator's edits", async () => {
    const heroPoster = moviePosterPath("demomovie03", "hero", "jpg", storageDir);
    const tile = path.join(storagePaths(storageDir).categories, "democathorror.jpg");
    fs.rmSync(heroPoster);
    fs.rmSync(tile);
    db.update(plans).set({ screens: 2 }).where(eq(plans.code, "BASIC")).run();
    db.update(movies).set({ featured: false }).where(eq(movies.id, "demomovie01")).run();
    const rowsBefore = tableSnapshot(db);
    const filesBefore = fileTimes(storageDir);

    const run = await seedDemo(db, { storageDir, log: quiet });
    expect(run.created).toEqual({ movies: 0, categories: 0, plans: 0, accounts: 0, files: 2 });
    expect(fs.existsSync(heroPoster)).toBe(true);
    expect(fs.existsSync(tile)).toBe(true);
    expect(tableSnapshot(db)).toEqual(rowsBefore);
    const filesAfter = fileTimes(storageDir);
    for (const [file, mtime] of Object.entries(filesBefore)) expect(filesAfter[file]).toBe(mtime);
  });

  it("keeps working after a demo user changes their email and an administrator renames a category", async () => {
    db.update(accounts).set({ email: "zainab@example.com" }).where(eq(accounts.email, "viewer@kallo.demo")).run();
    db.update(categories)
      .set({ name: "Action & Thrillers", slug: "action-thrillers" })
      .where(eq(categories.slug, "action"))
      .run();
    const rowsBefore = tableSnapshot(db);
    const run = await seedDemo(db, { storageDir, log: quiet });
    expect(run.created).toEqual({ movies: 0, categories: 0, plans: 0, accounts: 0, files: 0 });
    expect(tableSnapshot(db)).toEqual(rowsBefore);
  });
});

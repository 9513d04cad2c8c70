import fs from "node:fs";
import path from "node:path";
import { and, eq, isNull, or } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, categories, movies, seasons, series, watchEvents, type Role } from "~/db/schema";
import { composeDemoPoster, titleCardSeconds, writeCategoryTile, writeDemoFilm } from "~/demo/demo-media.server";
import { attachDemoSubtitles } from "~/demo/demo-subtitles.server";
import { extractFramePng, probeMedia } from "~/media/ffmpeg.server";
import { moviePosterPaths, writeMoviePosters } from "~/media/posters.server";
import { movieVideoPath, publicPosterName, publicVideoName, storagePaths } from "~/media/storage.server";
import { hashPassword } from "~/services/passwords.server";
import { createStarterPlans } from "~/services/plans.server";
import { STARTER_PLANS } from "~/services/starter-plans";
import { getEnv } from "~/utils/env.server";
import { buildLadder } from "~/services/renditions.server";
import { DEFAULT_LADDER, DEFAULT_LADDER_CODECS, type LadderCodec } from "~/utils/ladder-setting";
import {
  DEMO_ACCOUNTS,
  DEMO_ACCOUNT_IDS,
  DEMO_CATEGORIES,
  demoCategoryId,
  DEMO_PLAN_IDS,
  type DemoTitle,
  DEMO_TITLES,
  DEMO_SUBTITLED_TITLE,
  DEMO_SERIES,
  DEMO_EPISODES,
} from "~/demo/demo-catalogue";
import { HOUR_MS, ensureAudience, ensureAudiencePasses, stopFraction, type Created } from "~/demo/demo-audience.server";

/**
 * The demo catalogue: categories with tiles, the three plans, one account per
 * role, a dozen titles and one series (two seasons, three episodes) with
 * real, playable films and posters made by ffmpeg and sharp. Safe to repeat: every row has a fixed id or unique key and
 * is only inserted when missing (an administrator's edits are never undone),
 * and a file is only generated when it is missing.
 */

export type SeedDemoOptions = {
  storageDir: string;
  /** The adaptive ladder's rungs (the server's LADDER); the default ladder when not given. */
  ladder?: readonly number[];
  /** The rung families (the server's LADDER_CODECS); H.264 and AV1 when not given. */
  codecs?: readonly LadderCodec[];
  /** Where progress goes; console.log by default. */
  log?: (message: string) => void;
};

export type SeedDemoSummary = {
  movies: number;
  categories: number;
  plans: number;
  /** What this run added, files or rows; all zero when there was nothing to do. */
  created: Created;
};

export async function seedDemo(db: DB, options: SeedDemoOptions): Promise<SeedDemoSummary> {
  const { summary, makeMedia } = await seedDemoBasics(db, options);
  await makeMedia();
  return summary;
}

/**
 * The demo in two steps: the rows a visitor signs in with (accounts, plans,
 * categories, the series) now, and `makeMedia` for the films, posters,
 * subtitles and ladders, which takes minutes on a busy box — `npm run demo`
 * serves meanwhile, and each title appears once its film is made, with the
 * progress and the time left in the log. `summary.created` is complete once
 * `makeMedia` has ended.
 */
export async function seedDemoBasics(
  db: DB,
  options: SeedDemoOptions,
): Promise<{ summary: SeedDemoSummary; makeMedia: () => Promise<void> }> {
  const log = options.log ?? ((message: string) => console.log(`[seed] ${message}`));
  const root = path.resolve(options.storageDir);
  const paths = storagePaths(root);
  for (const folder of [paths.media, paths.categories, paths.tmp]) fs.mkdirSync(folder, { recursive: true });
  const created = { movies: 0, categories: 0, plans: 0, accounts: 0, files: 0 };

  const categoryIds = await ensureCategories(db, paths, created);
  ensurePlans(db, created);
  const accountIds = await ensureAccounts(db, created);
  const audience = await ensureAudience(db, created);
  ensureSeriesRows(db, { categoryId: categoryIds.get(DEMO_SERIES.categorySlug)!, providerId: accountIds.provider });
  const summary: SeedDemoSummary = {
    movies: DEMO_TITLES.length + DEMO_EPISODES.length,
    categories: DEMO_CATEGORIES.length,
    plans: STARTER_PLANS.length,
    created,
  };

  const makeMedia = async () => {
    const started = Date.now();
    const titles = [...DEMO_TITLES, ...DEMO_EPISODES];
    const progress = progressLog(log, titles.length);
    await forEachConcurrently(titles, 2, async (title) => {
      const category = DEMO_CATEGORIES.find((candidate) => candidate.slug === title.categorySlug)!;
      const filesBefore = created.files;
      await ensureTitle(db, root, title, {
        categoryId: categoryIds.get(title.categorySlug)!,
        categoryName: category.name,
        accent: category.accent,
        providerId: accountIds.provider,
        viewerId: accountIds.viewer,
        audience,
        created,
        log,
      });
      progress(`"${title.name}" ready`, created.files > filesBefore);
    });
    ensureAudiencePasses(db, audience);
    await ensureSeriesPoster(db, root, created);
    // Hausa and English subtitles on one film and on the series' first episode, so the subtitles menu has something to show.
    created.files += attachDemoSubtitles(db, DEMO_SUBTITLED_TITLE, root);
    created.files += attachDemoSubtitles(db, DEMO_EPISODES[0].id, root);
    // Each title's adaptive ladder (only the rungs it lacks), so the demo plays as viewers will watch.
    const ladders = progressLog(log, titles.length);
    await forEachConcurrently(titles, 2, async (title) => {
      const made = await buildLadder(db, title.id, {
        root,
        ladder: options.ladder ?? DEFAULT_LADDER,
        codecs: options.codecs ?? DEFAULT_LADDER_CODECS,
        pass: "all",
      });
      created.files += made.length * 2;
      ladders(`"${title.name}": adaptive ladder ready`, made.length > 0);
    });
    if (created.files > 0) log(`media ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const nothingNew = Object.values(created).every((count) => count === 0);
    log(
      nothingNew
        ? "demo content already complete: nothing added"
        : `added ${created.movies} titles, ${created.categories} categories, ${created.plans} plans, ${created.accounts} accounts, ${created.files} files`,
    );
  };
  return { summary, makeMedia };
}

/** "3 of 15: … (about 1 min 20 s left)", the time left from the pace so far; quiet for steps that made nothing. */
function progressLog(log: (message: string) => void, total: number) {
  const started = Date.now();
  let done = 0;
  return (what: string, madeSomething: boolean) => {
    done++;
    if (!madeSomething) return;
    const left = Math.round((((Date.now() - started) / done) * (total - done)) / 1000);
    const time = left >= 60 ? `${Math.floor(left / 60)} min ${left % 60} s` : `${left} s`;
    log(`${done} of ${total}: ${what}${done < total ? ` (about ${time} left)` : ""}`);
  };
}

/** The demo series and its seasons (approved, Free), inserted when missing; an administrator's edits stay. */
function ensureSeriesRows(db: DB, context: { categoryId: string; providerId: string }): void {
  db.transaction((tx) => {
    tx.insert(series)
      .values({
        id: DEMO_SERIES.id,
        name: DEMO_SERIES.name,
        description: DEMO_SERIES.description,
        cast: DEMO_SERIES.cast,
        categoryId: context.categoryId,
        providerId: context.providerId,
        approved: true,
        access: "free",
        ageRating: DEMO_SERIES.ageRating,
      })
      .onConflictDoNothing()
      .run();
    for (const season of DEMO_SERIES.seasons)
      tx.insert(seasons)
        .values({ id: season.id, seriesId: DEMO_SERIES.id, number: season.number })
        .onConflictDoNothing()
        .run();
  });
}

/** The series' own posters, from a frame of its first episode; its row names them once they exist. */
async function ensureSeriesPoster(db: DB, root: string, created: Created): Promise<void> {
  const missing = moviePosterPaths(DEMO_SERIES.id, root).filter((poster) => !fs.existsSync(poster.path));
  if (missing.length > 0) {
    const first = DEMO_EPISODES[0];
    const frame = await extractFramePng(
      movieVideoPath(first.id, root),
      Math.max(titleCardSeconds(first.durationSeconds) + 1, first.durationSeconds * 0.7),
    );
    const category = DEMO_CATEGORIES.find((candidate) => candidate.slug === DEMO_SERIES.categorySlug)!;
    const poster = await composeDemoPoster(frame, {
      title: DEMO_SERIES.name,
      category: category.name,
      accent: category.accent,
    });
    fs.mkdirSync(path.dirname(missing[0].path), { recursive: true });
    await writeMoviePosters(DEMO_SERIES.id, poster, { root, only: missing });
    created.files += missing.length;
  }
  db.update(series)
    .set({ posterFile: "poster" })
    .where(and(eq(series.id, DEMO_SERIES.id), isNull(series.posterFile)))
    .run();
}

/** Each demo category's id: the existing row with its slug or name if there is one, else a new row with a tile. */
async function ensureCategories(
  db: DB,
  paths: ReturnType<typeof storagePaths>,
  created: Created,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [index, category] of DEMO_CATEGORIES.entries()) {
    const id = demoCategoryId(category.slug);
    const existing = db
      .select({ id: categories.id, imageFile: categories.imageFile })
      .from(categories)
      // The seed's own row even if an administrator renamed it, else one an administrator made with this name.
      .where(or(eq(categories.id, id), eq(categories.slug, category.slug), eq(categories.name, category.name)))
      .get();
    // Tiles are the seed's own only for the seed's own rows; an administrator's category keeps its image.
    const tileFile = `${id}.jpg`;
    const ownsTile = !existing || (existing.id === id && existing.imageFile === tileFile);
    if (ownsTile && !fs.existsSync(path.join(paths.categories, tileFile))) {
      await writeCategoryTile(category.name, category.colors, path.join(paths.categories, tileFile), paths.tmp);
      created.files++;
    }
    if (!existing) {
      db.insert(categories)
        .values({ id, name: category.name, slug: category.slug, imageFile: tileFile, sortOrder: index })
        .run();
      created.categories++;
    }
    ids.set(category.slug, existing?.id ?? id);
  }
  return ids;
}

/** The starting set, when the database has no plans yet; an administrator's plans stay as they are. */
function ensurePlans(db: DB, created: Created): void {
  const made = createStarterPlans(db, { currency: getEnv().currency, actor: null, ids: DEMO_PLAN_IDS });
  if (made.ok) created.plans += made.created;
}

async function ensureAccounts(db: DB, created: Created): Promise<Record<Role, string>> {
  const entries = await Promise.all(
    DEMO_ACCOUNTS.map(async (account) => {
      const email = account.email.toLowerCase();
      const id = DEMO_ACCOUNT_IDS[account.role];
      // By id too: a demo user may have changed the email on the profile page.
      const existing = db
        .select({ id: accounts.id, role: accounts.role })
        .from(accounts)
        .where(or(eq(accounts.id, id), eq(accounts.email, email)))
        .get();
      if (existing) {
        if (existing.role !== account.role) {
          throw new Error(
            `Cannot seed the demo: ${email} already belongs to a ${existing.role} account, not a ${account.role}`,
          );
        }
        return [account.role, existing.id] as const;
      }
      const passwordHash = await hashPassword(account.password);
      db.insert(accounts)
        .values({
          id,
          name: account.name,
          email,
          phoneNumber: account.phoneNumber,
          passwordHash,
          role: account.role,
          providerName: account.providerName ?? null,
          providerStatus: account.role === "provider" ? "approved" : null,
        })
        .run();
      created.accounts++;
      return [account.role, id] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Role, string>;
}

type TitleContext = {
  categoryId: string;
  categoryName: string;
  accent: string;
  providerId: string;
  viewerId: string;
  audience: readonly string[];
  created: Created;
  log: (message: string) => void;
};

/** Make sure a demo title's film and posters exist, then its row; the row is only ever written after its files. */
async function ensureTitle(db: DB, root: string, title: DemoTitle, context: TitleContext): Promise<void> {
  const { tmp } = storagePaths(root);
  const videoPath = movieVideoPath(title.id, root);
  const existing = db
    .select({ id: movies.id, sizeBytes: movies.sizeBytes, durationSeconds: movies.durationSeconds })
    .from(movies)
    .where(eq(movies.id, title.id))
    .get();

  let videoWritten = false;
  if (!fs.existsSync(videoPath)) {
    context.log(`generating the film of ${title.id} "${title.name}"`);
    await writeDemoFilm(
      {
        title: title.name,
        subtitle: title.filmSubtitle ?? `${context.categoryName} · Kallo demo`,
        accent: context.accent,
        visual: title.visual,
        toneHz: title.toneHz,
        durationSeconds: title.durationSeconds,
      },
      videoPath,
      tmp,
    );
    videoWritten = true;
    context.created.files++;
  }

  const missingPosters = moviePosterPaths(title.id, root).filter((poster) => !fs.existsSync(poster.path));
  if (missingPosters.length > 0) {
    // After the title card has left the picture, so the poster's own lettering is the only text.
    const frameAt = Math.max(titleCardSeconds(title.durationSeconds) + 1, title.durationSeconds * 0.7);
    const frame = await extractFramePng(videoPath, frameAt);
    const poster = await composeDemoPoster(frame, {
      title: title.name,
      category: context.categoryName,
      accent: context.accent,
    });
    await writeMoviePosters(title.id, poster, { root, only: missingPosters });
    context.created.files += missingPosters.length;
  }

  if (existing && !videoWritten) return;
  const probe = await probeMedia(videoPath);
  const sizeBytes = fs.statSync(videoPath).size;
  const durationSeconds = Math.round(probe.durationSeconds);

  if (existing) {
    // The film was missing and has been made again: the row describes the new file.
    if (existing.sizeBytes !== sizeBytes || existing.durationSeconds !== durationSeconds) {
      db.update(movies)
        .set({ sizeBytes, durationSeconds, width: probe.width, height: probe.height })
        .where(eq(movies.id, title.id))
        .run();
    }
    return;
  }

  const now = Date.now();
  const uploadedHoursAgo = title.uploadedDaysAgo * 24 + (title.views % 11);
  const uploadedAt = new Date(now - uploadedHoursAgo * HOUR_MS);
  // Viewings fall in the last week, after the upload, at different hours for each title and viewing.
  const viewingWindowHours = Math.max(1, Math.min(7 * 24, uploadedHoursAgo) - 1);
  db.transaction((tx) => {
    tx.insert(movies)
      .values({
        id: title.id,
        name: title.name,
        description: title.description,
        cast: title.cast,
        categoryId: context.categoryId,
        providerId: context.providerId,
        status: "ready",
        featured: title.featured,
        approved: true,
        access: title.access,
        ageRating: title.ageRating ?? null,
        videoFile: publicVideoName(title.id),
        posterFile: publicPosterName(title.id),
        sizeBytes,
        durationSeconds,
        width: probe.width,
        height: probe.height,
        views: title.views,
        ...(title.seasonId ? { seasonId: title.seasonId, episodeNumber: title.episodeNumber } : {}),
        uploadedAt,
        updatedAt: uploadedAt,
      })
      .run();
    // The rest of its views: the demo audience, from the upload until now, each stopping where people do.
    const uploadedMs = uploadedAt.getTime();
    const audienceViews = Math.max(0, title.views - title.recentViewings);
    for (let viewing = 0; viewing < audienceViews; viewing++) {
      const spread = (viewing + 0.5) / audienceViews;
      const startedAt = new Date(uploadedMs + HOUR_MS + spread * Math.max(HOUR_MS, now - uploadedMs - 2 * HOUR_MS));
      const position = Math.round(durationSeconds * stopFraction(title.id, viewing));
      tx.insert(watchEvents)
        .values({
          id: `${title.id}a${viewing}`,
          accountId: context.audience[(viewing * 7 + Number(title.id.slice(-2))) % context.audience.length]!,
          movieId: title.id,
          startedAt,
          updatedAt: new Date(startedAt.getTime() + position * 1000),
          positionSeconds: position,
          viewCounted: true,
        })
        .run();
    }
    for (let viewing = 0; viewing < title.recentViewings; viewing++) {
      const hoursAgo = 0.5 + ((Number(title.id.slice(-2)) * 17 + viewing * 29) % viewingWindowHours);
      const startedAt = new Date(now - hoursAgo * HOUR_MS);
      const position = Math.min(durationSeconds, 2 + viewing * 2);
      tx.insert(watchEvents)
        .values({
          id: `${title.id}w${viewing}`,
          accountId: context.viewerId,
          profileId: context.viewerId,
          movieId: title.id,
          startedAt,
          updatedAt: new Date(startedAt.getTime() + position * 1000),
          positionSeconds: position,
          viewCounted: true,
        })
        .run();
    }
  });
  context.created.movies++;
}

/** Run `task` over `items`, at most `limit` at a time; the first failure stops new tasks and is thrown once the others settle. */
async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

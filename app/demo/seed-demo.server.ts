import fs from "node:fs";
import path from "node:path";
import { and, eq, inArray, isNull, or } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import {
  accounts,
  categories,
  movies,
  passes,
  payments,
  planPeriods,
  seasons,
  series,
  watchEvents,
  type Role,
} from "~/db/schema";
import {
  composeDemoPoster,
  titleCardSeconds,
  writeCategoryTile,
  writeDemoFilm,
  type TileColors,
} from "~/demo/demo-media.server";
import { attachDemoSubtitles } from "~/demo/demo-subtitles.server";
import { extractFramePng, probeMedia } from "~/media/ffmpeg.server";
import { moviePosterPaths, writeMoviePosters } from "~/media/posters.server";
import { movieVideoPath, publicPosterName, publicVideoName, storagePaths } from "~/media/storage.server";
import { hashPassword } from "~/services/passwords.server";
import { createStarterPlans } from "~/services/plans.server";
import { STARTER_PLANS } from "~/services/starter-plans";
import { getEnv } from "~/utils/env.server";
import { buildLadder } from "~/services/renditions.server";
import { DEFAULT_LADDER } from "~/utils/ladder-setting";

/**
 * The demo catalogue: categories with tiles, the three plans, one account per
 * role, a dozen titles and one series (two seasons, three episodes) with
 * real, playable films and posters made by ffmpeg and sharp. Safe to repeat: every row has a fixed id or unique key and
 * is only inserted when missing (an administrator's edits are never undone),
 * and a file is only generated when it is missing.
 */

export type DemoAccount = {
  role: Role;
  name: string;
  email: string;
  password: string;
  phoneNumber: string;
  providerName?: string;
};

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    role: "admin",
    name: "Amina Bello",
    email: "admin@kallo.demo",
    password: "kallo-admin-demo",
    phoneNumber: "+234 803 100 0001",
  },
  {
    role: "provider",
    name: "Sani Abdullahi",
    email: "provider@kallo.demo",
    password: "kallo-provider-demo",
    phoneNumber: "+234 803 100 0002",
    providerName: "Arewa Screen Studios",
  },
  {
    role: "viewer",
    name: "Zainab Yusuf",
    email: "viewer@kallo.demo",
    password: "kallo-viewer-demo",
    phoneNumber: "+234 803 100 0003",
  },
];

const DEMO_ACCOUNT_IDS: Record<Role, string> = { admin: "demoadmin", provider: "demoprovider", viewer: "demoviewer" };

type DemoCategory = { name: string; slug: string; colors: TileColors; accent: string };

const DEMO_CATEGORIES: readonly DemoCategory[] = [
  { name: "Action", slug: "action", colors: ["#7f1d1d", "#ea580c"], accent: "#dc2626" },
  { name: "Romantic", slug: "romantic", colors: ["#831843", "#db2777"], accent: "#db2777" },
  { name: "Comedy", slug: "comedy", colors: ["#854d0e", "#eab308"], accent: "#ca8a04" },
  { name: "Horror", slug: "horror", colors: ["#0c0a09", "#7f1d1d"], accent: "#991b1b" },
  { name: "Adventure", slug: "adventure", colors: ["#064e3b", "#10b981"], accent: "#059669" },
  { name: "Mystery", slug: "mystery", colors: ["#1e1b4b", "#6366f1"], accent: "#4f46e5" },
  { name: "TV Show", slug: "tv-show", colors: ["#0c4a6e", "#0ea5e9"], accent: "#0284c7" },
  { name: "Others", slug: "others", colors: ["#27272a", "#71717a"], accent: "#52525b" },
];

function demoCategoryId(slug: string): string {
  return `democat${slug.replace(/[^a-z0-9]/g, "")}`;
}

/** The demo's plans are the usual starting set (app/services/starter-plans.ts), under fixed ids, priced in the configured currency. */
const DEMO_PLAN_IDS = { free: "planfree", basic: "planbasic", pro: "planpro" } as const;

type DemoTitle = {
  id: string;
  name: string;
  categorySlug: string;
  description: string;
  cast: string;
  featured: boolean;
  access: "free" | "premium";
  uploadedDaysAgo: number;
  /**
   * Views since the upload. Each is a real viewing in `watch_events` (the demo
   * viewer's recent ones below, the rest by the demo audience, spread from the
   * upload to now), so views, viewings and watch time agree everywhere.
   */
  views: number;
  /** The demo viewer's own viewings in the last seven days (their history and Continue watching). */
  recentViewings: number;
  durationSeconds: number;
  /** The film's picture: a lavfi source drawing 640×360 frames at 25 fps. */
  visual: string;
  toneHz: number;
  /** An episode: its season (a DEMO_SERIES season id) and number, and the line under its title card. */
  seasonId?: string;
  episodeNumber?: number;
  filmSubtitle?: string;
};

const DEMO_TITLES: readonly DemoTitle[] = [
  {
    id: "demomovie01",
    name: "Jarumin Kauye",
    categorySlug: "action",
    description:
      "When raiders threaten his farming village near Katsina, a quiet blacksmith takes up the sword his father buried. He must unite feuding neighbours before the harvest moon. A story of courage, loyalty and the price of peace.",
    cast: "Abubakar Garba, Hauwa Musa, Ibrahim Lawal, Rabi Tanko",
    featured: true,
    access: "free",
    uploadedDaysAgo: 3,
    views: 124,
    recentViewings: 6,
    durationSeconds: 8,
    visual: "testsrc2=s=640x360:r=25,hue=h=20:s=1.3",
    toneHz: 196,
  },
  {
    id: "demomovie02",
    name: "Sarkin Yaki",
    categorySlug: "action",
    description:
      "A disgraced general returns from exile to defend the emirate that banished him. Between palace intrigue and open war, he learns who his true allies are. An epic of honour set in the old Hausa kingdoms.",
    cast: "Musa Danjuma, Fatima Idris, Yakubu Shehu",
    featured: true,
    access: "premium",
    uploadedDaysAgo: 12,
    views: 97,
    recentViewings: 4,
    durationSeconds: 9,
    visual: "mandelbrot=s=640x360:r=25:end_scale=0.05,hue=h=-25",
    toneHz: 174.6,
  },
  {
    id: "demomovie03",
    name: "Gudun Hijira",
    categorySlug: "action",
    description:
      "Three friends witness a crime at a Kano bus park and must flee across the north with the culprits close behind. Every town on the road brings a new danger and a new ally.",
    cast: "Aliyu Sani, Khadija Bala, Nasiru Aminu",
    featured: false,
    access: "free",
    uploadedDaysAgo: 27,
    views: 61,
    recentViewings: 2,
    durationSeconds: 7,
    visual: "cellauto=s=640x360:r=25:rule=30,lutrgb=r='val':g='val*0.45':b='val*0.12'",
    toneHz: 220,
  },
  {
    id: "demomovie04",
    name: "Soyayya Da Kudi",
    categorySlug: "romantic",
    description:
      "A young tailor in Zaria falls for the daughter of a wealthy merchant who wants her to marry for money. Their love is tested by family, pride and a wedding that almost happens. A warm romance about what truly makes a good life.",
    cast: "Maryam Usman, Bashir Yahaya, Halima Sule",
    featured: true,
    access: "free",
    uploadedDaysAgo: 6,
    views: 156,
    recentViewings: 5,
    durationSeconds: 8,
    visual:
      "color=c=black:s=160x90:r=25,geq=r='150+90*sin(X/14+T*1.5)':g='60+40*sin(Y/9+T)':b='120+80*sin((X+Y)/16+T*2)',scale=640:360",
    toneHz: 261.6,
  },
  {
    id: "demomovie05",
    name: "Zuciyar Masoyi",
    categorySlug: "romantic",
    description:
      "Two students from rival families meet at a poetry evening in Sokoto. Their letters, written in secret, become the talk of the town. A tender story of first love and forgiveness.",
    cast: "Aisha Lawan, Umar Faruk, Zulai Ibrahim",
    featured: false,
    access: "free",
    uploadedDaysAgo: 41,
    views: 43,
    recentViewings: 1,
    durationSeconds: 6,
    visual: "life=s=640x360:r=25:mold=20:ratio=0.08:life_color=#ff6fa5:death_color=#2a0618:mold_color=#5c1037",
    toneHz: 293.7,
  },
  {
    id: "demomovie06",
    name: "Dan Kasuwa",
    categorySlug: "comedy",
    description:
      "A fast-talking trader promises his whole market a fortune from one lorry of tomatoes. Nothing goes to plan, and the lorry goes missing. A comedy of schemes, debts and very loud aunties.",
    cast: "Garba Dogo, Saratu Adamu, Lawal Kabir",
    featured: false,
    access: "free",
    uploadedDaysAgo: 9,
    views: 83,
    recentViewings: 3,
    durationSeconds: 7,
    visual: "smptehdbars=s=640x360:r=25,hue=H=2*PI*t/6:s=1.2",
    toneHz: 329.6,
  },
  {
    id: "demomovie07",
    name: "Mai Gadi",
    categorySlug: "comedy",
    description:
      "A retired soldier becomes the night watchman of a busy Abuja estate and runs it like a barracks. The residents plot to get rid of him, until he saves the day. Light-hearted fun for the whole family.",
    cast: "Idris Mohammed, Binta Sale, Yusuf Auwal",
    featured: false,
    access: "free",
    uploadedDaysAgo: 55,
    views: 27,
    recentViewings: 0,
    durationSeconds: 6,
    visual: "testsrc2=s=640x360:r=25,hue=h=140:s=0.9",
    toneHz: 349.2,
  },
  {
    id: "demomovie08",
    name: "Inuwar Dare",
    categorySlug: "horror",
    description:
      "A family moves into an old house outside Bauchi where the shadows move on their own after sunset. The grandmother knows the story behind it, but no one will listen. A slow, chilling tale for brave viewers.",
    cast: "Hadiza Baba, Suleiman Ali, Rukayya Musa",
    featured: false,
    access: "premium",
    uploadedDaysAgo: 18,
    views: 71,
    recentViewings: 3,
    durationSeconds: 8,
    visual: "life=s=640x360:r=25:mold=40:ratio=0.05:life_color=#c81e1e:death_color=#050505:mold_color=#2b0000",
    toneHz: 110,
  },
  {
    id: "demomovie09",
    name: "Hanyar Sahara",
    categorySlug: "adventure",
    description:
      "A young cameleer joins a salt caravan from Agadez to find the brother who vanished on the same route. Sandstorms, bandits and old legends stand in the way. A sweeping journey across the desert.",
    cast: "Abdulrahman Ibrahim, Salamatu Garba, Haruna Bello",
    featured: true,
    access: "free",
    uploadedDaysAgo: 1,
    views: 49,
    recentViewings: 7,
    durationSeconds: 10,
    visual: "mandelbrot=s=640x360:r=25:start_scale=2:end_scale=0.02:start_x=-0.7436:start_y=0.1318,hue=h=35:s=1.1",
    toneHz: 146.8,
  },
  {
    id: "demomovie10",
    name: "Asirin Gida",
    categorySlug: "mystery",
    description:
      "After her father's sudden death, a lawyer returns home to Kaduna and finds a will that no one has seen before. Every relative has a secret to keep. A gripping family mystery.",
    cast: "Amina Shuaibu, Kabiru Tijjani, Safiya Danladi",
    featured: true,
    access: "premium",
    uploadedDaysAgo: 15,
    views: 111,
    recentViewings: 4,
    durationSeconds: 9,
    visual: "cellauto=s=640x360:r=25:rule=110,lutrgb=r='val*0.3':g='val*0.5':b='val'",
    toneHz: 130.8,
  },
  {
    id: "demomovie11",
    name: "Unguwar Mu",
    categorySlug: "tv-show",
    description:
      "The everyday lives of neighbours on one busy street in Kano: weddings, rivalries, small businesses and big dreams. A warm drama series told one household at a time.",
    cast: "Hajara Yusuf, Ahmad Kabir, Nafisa Umar, Sani Dauda",
    featured: false,
    access: "free",
    uploadedDaysAgo: 22,
    views: 140,
    recentViewings: 5,
    durationSeconds: 8,
    visual: "testsrc2=s=640x360:r=25,hue=h=210:s=0.8",
    toneHz: 246.9,
  },
  {
    id: "demomovie12",
    name: "Wakokin Arewa",
    categorySlug: "others",
    description:
      "A musical portrait of northern Nigeria, from kalangu drummers at a Durbar to young singers recording in a Kano studio. Old songs and new voices meet in one celebration of Hausa culture.",
    cast: "Kalangu Ensemble of Zaria, Rahama Sadiq, Danladi Haruna",
    featured: false,
    access: "free",
    uploadedDaysAgo: 34,
    views: 37,
    recentViewings: 2,
    durationSeconds: 7,
    visual:
      "color=c=black:s=160x90:r=25,geq=r='140+80*sin(X/11+T*2)':g='120+70*sin(Y/12+T*1.3)':b='40+30*sin((X-Y)/14+T)',scale=640:360",
    toneHz: 392,
  },
];

/** The demo film with Hausa and English subtitles ("Jarumin Kauye": free, featured). */
export const DEMO_SUBTITLED_TITLE = "demomovie01";

/**
 * One series, so a newcomer sees seasons, episodes, "Continue" and the next
 * episode's card. Its episodes are titles like the films (same files, ladder
 * and rules), short and small; all Free. Uploaded before the newest films, so
 * the films' own order on the lists is as it was.
 */
export const DEMO_SERIES = {
  id: "demoseries01",
  name: "Gidan Haya",
  categorySlug: "tv-show",
  description:
    "A compound of rented rooms in Kano, one landlord and six households who cannot agree on anything. Rent day, weddings and a broken water pump: a warm comedy-drama series.",
  cast: "Maryam Usman, Garba Dogo, Hauwa Musa, Yusuf Auwal",
  seasons: [
    { id: "demoseason01", number: 1 },
    { id: "demoseason02", number: 2 },
  ],
} as const;

const DEMO_EPISODES: readonly DemoTitle[] = [
  {
    id: "demoepisode01",
    name: "Sabon Mai Gida",
    categorySlug: "tv-show",
    description:
      "A new landlord arrives with new rules and a list of repairs no one can pay for. The tenants meet under the neem tree to decide what to do.",
    cast: "Maryam Usman, Garba Dogo, Hauwa Musa",
    featured: false,
    access: "free",
    uploadedDaysAgo: 40,
    views: 66,
    recentViewings: 3,
    durationSeconds: 8,
    visual: "testsrc2=s=640x360:r=25,hue=h=60:s=0.9",
    toneHz: 207.7,
    seasonId: "demoseason01",
    episodeNumber: 1,
    filmSubtitle: "Gidan Haya · S1E1",
  },
  {
    id: "demoepisode02",
    name: "Ranar Kuɗin Haya",
    categorySlug: "tv-show",
    description:
      "Rent day comes early and every household has a different excuse. Only the youngest tenant has a plan, and it involves the landlord's goat.",
    cast: "Maryam Usman, Yusuf Auwal, Hauwa Musa",
    featured: false,
    access: "free",
    uploadedDaysAgo: 33,
    views: 55,
    recentViewings: 1,
    durationSeconds: 6,
    visual: "smptehdbars=s=640x360:r=25,hue=H=2*PI*t/5:s=0.8",
    toneHz: 233.1,
    seasonId: "demoseason01",
    episodeNumber: 2,
    filmSubtitle: "Gidan Haya · S1E2",
  },
  {
    id: "demoepisode03",
    name: "Sabuwar Shekara",
    categorySlug: "tv-show",
    description:
      "A year later, the compound has a new water pump and an old quarrel. A wedding invitation brings everyone back together for one loud night.",
    cast: "Garba Dogo, Hauwa Musa, Yusuf Auwal",
    featured: false,
    access: "free",
    uploadedDaysAgo: 12,
    views: 45,
    recentViewings: 0,
    durationSeconds: 6,
    visual: "cellauto=s=640x360:r=25:rule=90,lutrgb=r='val*0.9':g='val*0.6':b='val*0.3'",
    toneHz: 261.6,
    seasonId: "demoseason02",
    episodeNumber: 1,
    filmSubtitle: "Gidan Haya · S2E1",
  },
];

export type SeedDemoOptions = {
  storageDir: string;
  /** The adaptive ladder's rungs (the server's LADDER); the default ladder when not given. */
  ladder?: readonly number[];
  /** Where progress goes; console.log by default. */
  log?: (message: string) => void;
};

export type SeedDemoSummary = {
  movies: number;
  categories: number;
  plans: number;
  /** What this run added, files or rows; all zero when there was nothing to do. */
  created: { movies: number; categories: number; plans: number; accounts: number; files: number };
};

const HOUR_MS = 60 * 60 * 1000;

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
      const made = await buildLadder(db, title.id, { root, ladder: options.ladder ?? DEFAULT_LADDER, pass: "all" });
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

type Created = SeedDemoSummary["created"];

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

/**
 * Where the demo audience's viewing `index` of a title stops, as a share of
 * the film: most watch to the end, some leave early, fewer towards the end
 * (a retention curve that falls as real ones do). Fixed per title and
 * viewing, so a second seed makes the same numbers.
 */
export function stopFraction(titleId: string, index: number): number {
  let hash = 2166136261;
  for (const char of `${titleId}:${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  const draw = ((hash >>> 0) % 1000) / 1000;
  if (draw < 0.55) return 1;
  // The rest stop anywhere, more of them early on.
  return Math.round(((draw - 0.55) / 0.45) ** 2 * 100) / 100;
}

const DEMO_AUDIENCE_NAMES = [
  "Aisha Garba",
  "Musa Danladi",
  "Hadiza Lawal",
  "Ibrahim Sani",
  "Fatima Usman",
  "Abubakar Musa",
  "Zainab Idris",
  "Yusuf Aliyu",
  "Maryam Bello",
  "Umar Shehu",
  "Hauwa Adamu",
  "Sadiq Haruna",
  "Rukayya Salisu",
  "Nasiru Kabir",
  "Khadija Tijjani",
  "Bashir Yakubu",
  "Amina Sule",
  "Kabiru Dauda",
  "Safiya Ahmad",
  "Habibu Nuhu",
  "Rahma Isa",
  "Auwal Bala",
  "Halima Jibril",
  "Tanimu Abdu",
  "Bilkisu Hamza",
  "Lawan Mohammed",
  "Asma'u Ibrahim",
  "Salisu Yahaya",
  "Jamila Sadiq",
  "Aminu Garba",
  "Hafsat Umar",
  "Ismail Rabiu",
  "Saratu Bashir",
  "Nura Ado",
  "Balaraba Tukur",
  "Shamsu Lawan",
  "Ummi Saleh",
  "Dahiru Sabo",
  "Zuwaira Ali",
  "Mustapha Ahmed",
];

/**
 * The demo audience: viewers who signed up over the last three months and
 * whose viewings make up the titles' views. They cannot sign in (no password
 * is theirs); the administrator sees them in the user list and the sign-ups
 * chart. Fixed ids, inserted when missing.
 */
async function ensureAudience(db: DB, created: Created): Promise<string[]> {
  const ids = DEMO_AUDIENCE_NAMES.map((_, index) => `demoaudience${String(index + 1).padStart(2, "0")}`);
  const existing = new Set(
    db
      .select({ id: accounts.id })
      .from(accounts)
      .where(inArray(accounts.id, ids))
      .all()
      .map((row) => row.id),
  );
  const now = Date.now();
  db.transaction((tx) => {
    DEMO_AUDIENCE_NAMES.forEach((name, index) => {
      const id = ids[index]!;
      if (existing.has(id)) return;
      const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@audience.kallo.demo`;
      const result = tx
        .insert(accounts)
        .values({
          id,
          name,
          email,
          phoneNumber: `+234 806 200 ${String(index + 1).padStart(4, "0")}`,
          // Not a password hash: nobody can sign in as a member of the audience.
          passwordHash: "demo-audience-no-sign-in",
          role: "viewer",
          // Sign-ups over the last 90 days, the first ones first.
          createdAt: new Date(now - (90 - index * 2.2) * 24 * HOUR_MS),
        })
        .onConflictDoNothing()
        .run();
      created.accounts += result.changes;
    });
  });
  return ids;
}

/**
 * Passes some of the audience bought (by card, through the demo's payment
 * rows), priced from the plans' pass lengths as they stand in the database,
 * so the administrator's revenue, passes and the providers' earnings have
 * numbers that agree. Nothing when no paid plan has a pass length on sale.
 */
function ensureAudiencePasses(db: DB, audience: readonly string[]): void {
  const offers = db
    .select({
      planId: planPeriods.planId,
      days: planPeriods.days,
      priceMinor: planPeriods.priceMinor,
    })
    .from(planPeriods)
    .where(inArray(planPeriods.planId, ["planbasic", "planpro"]))
    .orderBy(planPeriods.planId, planPeriods.days)
    .all();
  if (offers.length === 0) return;
  const now = Date.now();
  db.transaction((tx) => {
    audience.forEach((accountId, index) => {
      // Two in five of the audience bought passes, one after another.
      if (index % 5 > 1) return;
      let startsAt = now - (58 - index) * 24 * HOUR_MS;
      for (let purchase = 0; purchase < 1 + (index % 3); purchase++) {
        const offer = offers[(index + purchase) % offers.length]!;
        const id = `demopay${String(index + 1).padStart(2, "0")}${purchase}`;
        const endsAt = startsAt + offer.days * 24 * HOUR_MS;
        if (startsAt > now) break;
        const paid = tx
          .insert(payments)
          .values({
            id,
            accountId,
            planId: offer.planId,
            periodDays: offer.days,
            amountMinor: offer.priceMinor,
            currency: getEnv().currency,
            gateway: "paystack",
            reference: `demo-${id}`,
            status: "success",
            paidAt: new Date(startsAt),
            createdAt: new Date(startsAt - 60_000),
          })
          .onConflictDoNothing()
          .run();
        if (paid.changes > 0) {
          tx.insert(passes)
            .values({
              id: `demopass${id.slice("demopay".length)}`,
              accountId,
              planId: offer.planId,
              startsAt: new Date(startsAt),
              endsAt: new Date(endsAt),
              source: "payment",
              paymentId: id,
            })
            .onConflictDoNothing()
            .run();
        }
        startsAt = endsAt + (index % 4) * 24 * HOUR_MS;
      }
    });
  });
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

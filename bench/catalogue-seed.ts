/**
 * A large, realistic catalogue for load benchmarks: titles spread over
 * categories, providers and two years of upload dates, with descriptions and
 * casts built from a word list (so search has work to do), ratings, comments
 * and a month of viewings (so Trending and history have real rows). Every
 * ready title has its adaptive ladder recorded, as a served catalogue has, so
 * the server's start-up backfill finds nothing to queue and the watch page
 * offers its qualities, and its posters named, so every card and hero carries
 * its `<picture>` as a real catalogue's do (the files themselves, video and
 * images, are never read by these pages).
 * Deterministic: the same seed number gives the same catalogue.
 */
import { randomBytes } from "node:crypto";
import type { DB } from "../app/db/client.server";
import { planLadder } from "../app/media/ladder";
import { fixedPosterName } from "../app/media/poster-sizes";

const WORDS = [
  "Kano",
  "Kaduna",
  "Zaria",
  "Sokoto",
  "Katsina",
  "Maiduguri",
  "Abuja",
  "Lagos",
  "Accra",
  "Niamey",
  "love",
  "soyayya",
  "family",
  "iyali",
  "wedding",
  "aure",
  "market",
  "kasuwa",
  "village",
  "gari",
  "king",
  "sarki",
  "prince",
  "yarima",
  "secret",
  "sirri",
  "journey",
  "tafiya",
  "river",
  "kogi",
  "desert",
  "hamada",
  "rain",
  "ruwa",
  "harvest",
  "girbi",
  "school",
  "makaranta",
  "doctor",
  "likita",
  "café",
  "fête",
  "naïve",
  "résumé",
  "Dàmágàrám",
  "ƙauye",
  "ɗan",
  "ƴar",
  "football",
  "kwallo",
  "brothers",
  "sisters",
  "mother",
  "uwa",
  "father",
  "uba",
  "friendship",
  "abota",
  "betrayal",
  "cin amana",
  "comedy",
  "dariya",
  "drama",
  "wasan kwaikwayo",
  "history",
  "tarihi",
  "music",
  "waka",
  "dance",
  "rawa",
];
const NAMES = [
  "Ali Nuhu",
  "Rahama Sadau",
  "Adam A. Zango",
  "Hadiza Gabon",
  "Sani Danja",
  "Maryam Booth",
  "Nafisa Abdullahi",
  "Yakubu Mohammed",
  "Aisha Tsamiya",
  "Sadiq Sani Sadiq",
  "Fati Washa",
  "Umar M. Shareef",
];

/** A small fast PRNG (mulberry32) so runs are repeatable without a dependency. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const id = () => randomBytes(8).toString("hex");

export type BulkCatalogue = { movieIds: string[]; categoryIds: string[]; searchWords: string[] };

/**
 * Insert `count` published titles (plus a few unpublished ones, which lists
 * must skip) for the given provider and viewers. One transaction, prepared
 * statements: 10,000 titles take a few seconds.
 */
export function seedBulkCatalogue(
  db: DB,
  options: { count: number; providerIds: string[]; viewerIds: string[]; seed?: number; now?: number },
): BulkCatalogue {
  const rand = random(options.seed ?? 1);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const now = options.now ?? Date.now();
  const day = 24 * 3600 * 1000;
  const sqlite = db.$client;

  const categoryIds: string[] = [];
  const insertCategory = sqlite.prepare("INSERT INTO categories (id, name, slug) VALUES (?, ?, ?)");
  const insertMovie = sqlite.prepare(
    `INSERT INTO movies (id, name, description, "cast", category_id, provider_id, status, featured, approved, access,
       video_file, poster_file, size_bytes, duration_seconds, width, height, views, uploaded_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'video.mp4', ?, ?, ?, 1280, 720, ?, ?, ?)`,
  );
  const insertRating = sqlite.prepare("INSERT OR IGNORE INTO ratings (movie_id, account_id, stars) VALUES (?, ?, ?)");
  const insertComment = sqlite.prepare(
    "INSERT INTO comments (id, movie_id, account_id, body, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const insertRendition = sqlite.prepare(
    `INSERT INTO movie_renditions (movie_id, rung, width, height, status, bandwidth, average_bandwidth, codecs, size_bytes, duration_seconds, ready_at)
     VALUES (?, ?, ?, ?, 'ready', ?, ?, 'avc1.64001f,mp4a.40.2', ?, ?, ?)`,
  );
  const ladder = planLadder({ width: 1280, height: 720 });
  const insertWatch = sqlite.prepare(
    "INSERT INTO watch_events (id, account_id, movie_id, started_at, updated_at, position_seconds, view_counted) VALUES (?, ?, ?, ?, ?, ?, 1)",
  );

  const movieIds: string[] = [];
  sqlite.transaction(() => {
    for (const name of ["Drama", "Comedy", "Romance", "History", "Music", "Family", "Thriller"]) {
      const categoryId = `bulk${name.toLowerCase()}`.padEnd(12, "0");
      insertCategory.run(categoryId, `${name} (bulk)`, `bulk-${name.toLowerCase()}`);
      categoryIds.push(categoryId);
    }
    for (let i = 0; i < options.count; i++) {
      const movieId = id();
      const uploadedAt = now - Math.floor(rand() * 730 * day);
      // About one title in fifty is still processing or waiting for approval: lists must skip them.
      const unpublished = rand() < 0.02;
      const status = unpublished && rand() < 0.5 ? "processing" : "ready";
      const durationSeconds = Math.floor(1200 + rand() * 6000);
      insertMovie.run(
        movieId,
        `${pick(WORDS)} ${pick(WORDS)} ${i + 1}`.replace(/^./, (c) => c.toUpperCase()),
        `${words(12)}. ${words(10)}.`,
        `${pick(NAMES)}, ${pick(NAMES)}`,
        pick(categoryIds),
        pick(options.providerIds),
        status,
        rand() < 0.01 ? 1 : 0,
        unpublished ? 0 : 1,
        rand() < 0.3 ? "premium" : "free",
        status === "ready" ? fixedPosterName(movieId) : null,
        Math.floor(50_000_000 + rand() * 1_500_000_000),
        durationSeconds,
        Math.floor(rand() * 20_000),
        uploadedAt,
        uploadedAt,
      );
      if (!unpublished) movieIds.push(movieId);
      if (status === "ready") {
        for (const spec of ladder) {
          const bitsPerSecond = (spec.videoKbps + spec.audioKbps) * 1000;
          insertRendition.run(
            movieId,
            spec.rung,
            spec.width,
            spec.height,
            Math.round(bitsPerSecond * 1.3),
            bitsPerSecond,
            Math.round((bitsPerSecond / 8) * durationSeconds),
            durationSeconds,
            uploadedAt,
          );
        }
      }
      const raters = Math.floor(rand() * 4);
      for (let r = 0; r < raters; r++) insertRating.run(movieId, pick(options.viewerIds), 1 + Math.floor(rand() * 5));
      if (rand() < 0.2) insertComment.run(id(), movieId, pick(options.viewerIds), words(15), uploadedAt + day);
    }
    // A month of viewings: 5 per title on average, concentrated on a popular few.
    const viewings = options.count * 5;
    for (let v = 0; v < viewings; v++) {
      const movieId = movieIds[Math.floor(Math.pow(rand(), 3) * movieIds.length)]!;
      const startedAt = now - Math.floor(rand() * 30 * day);
      insertWatch.run(
        id(),
        pick(options.viewerIds),
        movieId,
        startedAt,
        startedAt + 600_000,
        Math.floor(rand() * 3000),
      );
    }
  })();
  return { movieIds, categoryIds, searchWords: ["kano", "soyayya", "cafe", "sarki tafiya", "Rahama", "kogi"] };
}

/**
 * Replacing a film: the time from its last byte (the replacement queued, as
 * the upload routes do at their last byte) to the swap (the new version
 * playing), for a tiny film and a realistic one, through the server's own
 * media job runner. `npm run bench:replace`; `BENCH_REPLACE_SECONDS` sets the
 * realistic film's length (default 180 s of 720p with sound).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-bench-replace-"));
process.env.STORAGE_DIR = root;
process.env.LOG_LEVEL = "error";

const { getDb, migrateDatabase } = await import("../app/db/client.server");
const { accounts, categories, filmReplacements, movieRenditions, movies } = await import("../app/db/schema");
const { runFfmpeg } = await import("../app/media/ffmpeg.server");
const { storeNewTitle } = await import("../app/services/uploads.server");
const { startReplacement } = await import("../app/services/film-replacements.server");
const { startMediaJobs, stopMediaJobs } = await import("../app/jobs/media-jobs.server");
const { getEnv } = await import("../app/utils/env.server");

const db = getDb();
migrateDatabase(db);
db.insert(accounts)
  .values({
    id: "benchprovider01",
    name: "Bench Provider",
    email: "provider@bench.test",
    phoneNumber: "1",
    passwordHash: "x",
    role: "provider",
    providerName: "Bench",
    providerStatus: "approved",
  })
  .run();
db.insert(categories).values({ id: "benchcategory01", name: "Action", slug: "action" }).run();

async function film(name: string, seconds: number, size: string): Promise<string> {
  const file = path.join(root, name);
  await runFfmpeg([
    "-y",
    "-hide_banner",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${size}:rate=25`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=330:sample_rate=48000",
    "-t",
    String(seconds),
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-b:v",
    size === "1280x720" ? "2500k" : "300k",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-movflags",
    "+faststart",
    file,
  ]);
  return file;
}

const runner = startMediaJobs();
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 200));
};

async function measure(label: string, seconds: number, size: string) {
  const movieId = `bench${label}`
    .slice(0, 24)
    .replace(/[^a-z0-9]/g, "")
    .padEnd(8, "0");
  const first = await film(`${label}-first.mp4`, 2, "320x240");
  storeNewTitle(db, {
    movieId,
    providerId: "benchprovider01",
    details: { name: label, Description: "", cast: "", Category: "benchcategory01", ageRating: null },
    movie: { path: first, originalName: "first.mp4", size: fs.statSync(first).size },
    root,
    place: fs.renameSync,
  });
  runner.poke();
  await until(() => db.select().from(movies).where(eq(movies.id, movieId)).get()?.status === "ready");
  const replacement = await film(`${label}-new.mp4`, seconds, size);
  const sizeBytes = fs.statSync(replacement).size;
  const started = startReplacement(db, {
    movieId,
    actor: { id: "benchprovider01", role: "provider" },
    file: { path: replacement, originalName: "new.mp4", size: sizeBytes },
    place: fs.renameSync,
    root,
  });
  if (!started.ok) throw new Error(`replacement refused: ${started.key}`);
  runner.poke();
  await until(() => {
    const row = db.select().from(filmReplacements).where(eq(filmReplacements.id, started.replacementId)).get();
    if (row?.status === "failed") throw new Error(`replacement failed: ${row.failureReason}`);
    return row?.status === "done";
  });
  const row = db.select().from(filmReplacements).where(eq(filmReplacements.id, started.replacementId)).get()!;
  const rungs = db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movieId)).all();
  const wall = (row.swappedAt!.getTime() - row.createdAt.getTime()) / 1000;
  console.log(
    `  ${label.padEnd(10)} ${seconds} s of ${size} (${(sizeBytes / 1e6).toFixed(1)} MB): last byte → swap ${wall.toFixed(1)} s ` +
      `(${(seconds / wall).toFixed(2)} s of film per second), ladder ${rungs.map((rung) => `${rung.rung}p`).join(" ")}`,
  );
}

console.log(
  `\nReplacing a film (LADDER ${getEnv().ladder.join(",")}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`,
);
await measure("tiny", 3, "320x240");
await measure("realistic", Number(process.env.BENCH_REPLACE_SECONDS ?? 180), "1280x720");
await stopMediaJobs();
fs.rmSync(root, { recursive: true, force: true });
process.exit(0);

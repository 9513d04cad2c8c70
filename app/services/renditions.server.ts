import fs from "node:fs";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { jobs, movieRenditions, movies } from "~/db/schema";
import { temporaryPath } from "~/media/atomic-files.server";
import { probeMedia } from "~/media/ffmpeg.server";
import { encodeRungs } from "~/media/ladder-encode.server";
import { ladderPasses, planLadder, type LadderCodec, type RungSpec } from "~/media/ladder";
import { movieDir, movieHlsDir, movieVideoPath, renditionPath, storagePaths } from "~/media/storage.server";
import { enqueueJob } from "./jobs.server";

/**
 * A title's adaptive ladder: planning its rungs, making the missing ones
 * (lowest first, so it plays early, then the rungs a slow phone plays), and what the pages show of them. The
 * ladder is made from `video.mp4`, the film at the source's quality, so a
 * title processed before ladders existed gets one from the same job.
 */
export const LADDER_JOB = "make-ladder";

export type Rendition = {
  rung: number;
  codec: LadderCodec;
  width: number;
  height: number;
  bandwidth: number;
  averageBandwidth: number;
  codecs: string;
  sizeBytes: number;
  durationSeconds: number;
};

/** The ready rungs of a title, lowest first. */
// The watch page and every playlist ask: prepared once.
const readyRenditions = preparedQuery((db) =>
  db
    .select({
      rung: movieRenditions.rung,
      codec: movieRenditions.codec,
      width: movieRenditions.width,
      height: movieRenditions.height,
      bandwidth: movieRenditions.bandwidth,
      averageBandwidth: movieRenditions.averageBandwidth,
      codecs: movieRenditions.codecs,
      sizeBytes: movieRenditions.sizeBytes,
      durationSeconds: movieRenditions.durationSeconds,
    })
    .from(movieRenditions)
    .where(and(eq(movieRenditions.movieId, sql.placeholder("movieId")), eq(movieRenditions.status, "ready")))
    .orderBy(desc(movieRenditions.codec), asc(movieRenditions.rung))
    .prepare(),
);

/** The ready rungs of a title, of every family (H.264's, then AV1's), each lowest first. */
export function listReadyRenditions(db: DB, movieId: string): Rendition[] {
  return readyRenditions(db).all({ movieId });
}

/** The rungs of one family, lowest first. */
export function ofFamily<R extends { codec: LadderCodec }>(renditions: readonly R[], codec: LadderCodec): R[] {
  return renditions.filter((rendition) => rendition.codec === codec);
}

/**
 * The rungs of one family a viewer may play: those up to `maxRung` (the plan's cap, data saver), or the
 * family's lowest when every rung is above it (nobody is left with nothing). Lowest first.
 */
export function allowedOfFamily<R extends { codec: LadderCodec; rung: number }>(
  renditions: readonly R[],
  codec: LadderCodec,
  maxRung: number,
): R[] {
  const family = ofFamily(renditions, codec);
  const capped = family.filter((rendition) => rendition.rung <= maxRung);
  return capped.length > 0 ? capped : family.slice(0, 1);
}

export type RenditionStatusRow = {
  rung: number;
  codec: LadderCodec;
  status: "pending" | "ready" | "failed";
  sizeBytes: number;
  /** Where the rung's file is: this box's disk, or the media bucket. */
  store: "local" | "s3";
};

/** Every planned rung of each title, for the provider's and administrator's lists. */
export function renditionStatuses(db: DB, movieIds: readonly string[]): Map<string, RenditionStatusRow[]> {
  const byMovie = new Map<string, RenditionStatusRow[]>();
  if (movieIds.length === 0) return byMovie;
  const rows = db
    .select({
      movieId: movieRenditions.movieId,
      rung: movieRenditions.rung,
      codec: movieRenditions.codec,
      status: movieRenditions.status,
      sizeBytes: movieRenditions.sizeBytes,
      store: movies.mediaStore,
    })
    .from(movieRenditions)
    .innerJoin(movies, eq(movies.id, movieRenditions.movieId))
    .where(inArray(movieRenditions.movieId, [...movieIds]))
    .orderBy(asc(movieRenditions.movieId), desc(movieRenditions.codec), asc(movieRenditions.rung))
    .all();
  for (const { movieId, ...row } of rows) {
    const list = byMovie.get(movieId) ?? [];
    list.push(row);
    byMovie.set(movieId, list);
  }
  return byMovie;
}

/** The room ready renditions take in `store` (this box's disk by default, or the media bucket), and over how many titles. */
export function renditionDiskTotal(db: DB, store: "local" | "s3" = "local"): { bytes: number; titles: number } {
  const row = db
    .select({
      bytes: sql<number>`coalesce(sum(${movieRenditions.sizeBytes}), 0)`,
      titles: sql<number>`count(distinct ${movieRenditions.movieId})`,
    })
    .from(movieRenditions)
    .innerJoin(movies, eq(movies.id, movieRenditions.movieId))
    .where(and(eq(movieRenditions.status, "ready"), eq(movies.mediaStore, store)))
    .get();
  return { bytes: row?.bytes ?? 0, titles: row?.titles ?? 0 };
}

type LadderPass = "first" | "all";

/** One rung of one family, as a key: "h264:240". */
function rungKey(rung: { rung: number; codec: LadderCodec }): string {
  return `${rung.codec}:${rung.rung}`;
}

/** A title's picture size and the version of its film that plays now; undefined for no such title. */
export function filmFrame(db: DB, movieId: string) {
  return db
    .select({ width: movies.width, height: movies.height, version: movies.mediaVersion })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get();
}

/**
 * Make the rungs of a title's ladder that are not ready yet. "first" makes
 * only the lowest rung, which is all a title needs to play; "all" makes that
 * (if missing), then the other rungs a slow phone plays (up to 360p), then
 * the rest: each group in one ffmpeg run, each ready as soon as its run ends. Rungs already on disk are kept, so a job stopped midway resumes where
 * it was. Returns the rungs made by this call.
 */
export async function buildLadder(
  db: DB,
  movieId: string,
  options: {
    root: string;
    ladder: readonly number[];
    /** The families to make (LADDER_CODECS); H.264 alone when not given. */
    codecs?: readonly LadderCodec[];
    pass: LadderPass;
    /** Bring the film back to `source` when it is not on the disk (a title held in the bucket). */
    fetchSource?: (source: string) => Promise<unknown>;
  },
): Promise<RungSpec[]> {
  const movie = filmFrame(db, movieId);
  // The version that plays now (a replaced film's lives in its own folder; film-replacements.server.ts).
  if (!movie) return [];
  const source = movieVideoPath(movieId, options.root, movie.version);
  const codecs = options.codecs ?? ["h264"];
  const readyRungs = () =>
    new Set(
      db
        .select({ rung: movieRenditions.rung, codec: movieRenditions.codec })
        .from(movieRenditions)
        .where(and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.status, "ready")))
        .all()
        .filter((row) =>
          fs.existsSync(renditionPath(movieId, row.rung, "playlist", options.root, movie.version, row.codec)),
        )
        .map((row) => rungKey(row)),
    );
  // Nothing to do (a repeated seed, a resumed job that had finished): no need to read the film.
  const known = planLadder(movie, options.ladder, codecs);
  let ready = readyRungs();
  if (known.length > 0 && known.every((spec) => ready.has(rungKey(spec)))) return [];
  // Rungs are missing (a longer LADDER) and the film is in the bucket: it comes back for them.
  if (!fs.existsSync(source) && options.fetchSource) await options.fetchSource(source);
  if (!fs.existsSync(source)) return [];

  const probe = await probeMedia(source);
  const plan = planLadder({ width: probe.width, height: probe.height }, options.ladder, codecs);
  if (plan.length === 0) return [];
  db.insert(movieRenditions)
    .values(
      plan.map((spec) => ({ movieId, rung: spec.rung, codec: spec.codec, width: spec.width, height: spec.height })),
    )
    .onConflictDoNothing()
    .run();
  ready = readyRungs();
  // The passes in the order viewers need them (ladderPasses); "first" stops after the lowest rung.
  const passes = ladderPasses(plan).map((pass) => pass.filter((spec) => !ready.has(rungKey(spec))));
  const groups = options.pass === "first" ? passes.slice(0, 1) : passes;

  const made: RungSpec[] = [];
  for (const group of groups) {
    if (group.length === 0) continue;
    const encoded = await encodeRungs(source, group, {
      hasAudio: probe.audioCodec !== null,
      frameRate: probe.frameRate,
      workDir: temporaryPath(storagePaths(options.root).tmp, `ladder-${movieId}`),
      hlsDir: movieHlsDir(movieId, options.root, movie.version),
      // Generous: a slow box with other work must not kill a feature film's ladder.
      timeoutMs: Math.max(10 * 60_000, probe.durationSeconds * 30_000),
    });
    const stillThere = db.transaction((tx) => {
      const now = tx.select({ version: movies.mediaVersion }).from(movies).where(eq(movies.id, movieId)).get();
      if (!now) return false;
      // The film was replaced meanwhile: these rungs belong to a retired version and are not recorded.
      if (now.version !== movie.version) return "replaced";
      for (const rung of encoded) {
        tx.update(movieRenditions)
          .set({
            status: "ready",
            width: rung.width,
            height: rung.height,
            bandwidth: rung.bandwidth,
            averageBandwidth: rung.averageBandwidth,
            codecs: rung.codecs,
            sizeBytes: rung.sizeBytes,
            durationSeconds: rung.durationSeconds,
            readyAt: new Date(),
          })
          .where(
            and(
              eq(movieRenditions.movieId, movieId),
              eq(movieRenditions.codec, rung.codec),
              eq(movieRenditions.rung, rung.rung),
            ),
          )
          .run();
      }
      return true;
    });
    if (stillThere === "replaced") return made;
    if (!stillThere) {
      // Deleted while its ladder was being made: what was just written goes too.
      fs.rmSync(movieDir(movieId, options.root), { recursive: true, force: true });
      return made;
    }
    made.push(...group);
  }
  return made;
}

/** A ladder job gave up: its rungs that are not ready are marked failed (the title keeps what it has). */
export function markLadderFailed(db: DB, movieId: string): void {
  db.update(movieRenditions)
    .set({ status: "failed" })
    .where(and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.status, "pending")))
    .run();
}

/** Queue the job that makes the rest of a title's ladder, unless one is already waiting or running. */
export function enqueueLadderJob(db: DB, movieId: string): boolean {
  const waiting = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, LADDER_JOB), eq(jobs.movieId, movieId), inArray(jobs.status, ["queued", "running"])))
    .get();
  if (waiting) return false;
  enqueueJob(db, LADDER_JOB, { movieId });
  return true;
}

/**
 * The backfill, run at start: every ready title whose ladder lacks a rung the
 * current `LADDER` gives it (titles from before ladders existed, or a ladder
 * the operator extended) gets a ladder job. Rungs that failed are not tried
 * again by themselves. Returns how many titles were queued.
 */
export function enqueueMissingLadders(
  db: DB,
  ladder: readonly number[],
  codecs: readonly LadderCodec[] = ["h264"],
): number {
  const titles = db
    .select({ id: movies.id, width: movies.width, height: movies.height })
    .from(movies)
    .where(eq(movies.status, "ready"))
    .all();
  const known = new Map<string, Set<string>>();
  for (const row of db
    .select({
      movieId: movieRenditions.movieId,
      rung: movieRenditions.rung,
      codec: movieRenditions.codec,
      status: movieRenditions.status,
    })
    .from(movieRenditions)
    .all()) {
    if (row.status === "pending") continue;
    const rungs = known.get(row.movieId) ?? new Set<string>();
    rungs.add(rungKey(row));
    known.set(row.movieId, rungs);
  }
  let queued = 0;
  for (const title of titles) {
    const have = known.get(title.id) ?? new Set<string>();
    const wanted = planLadder(title, ladder, codecs);
    if (wanted.some((spec) => !have.has(rungKey(spec))) && enqueueLadderJob(db, title.id)) queued++;
  }
  return queued;
}

export type Av1Progress = {
  /** AV1 + Opus rungs made, being made (planned, not yet made) and failed, over every title. */
  ready: number;
  pending: number;
  failed: number;
  /** What the ready ones take, on the disk and in the bucket together. */
  bytes: number;
  /** Titles whose ladder job waits or runs now (a backfill's titles wait here before their rungs are planned). */
  titlesQueued: number;
};

/** How far the AV1 rungs are, for the administrator's list: new titles' and the backfill of older ones. */
export function av1Progress(db: DB): Av1Progress {
  const rows = db
    .select({
      status: movieRenditions.status,
      count: sql<number>`count(*)`,
      bytes: sql<number>`coalesce(sum(${movieRenditions.sizeBytes}), 0)`,
    })
    .from(movieRenditions)
    .where(eq(movieRenditions.codec, "av1"))
    .groupBy(movieRenditions.status)
    .all();
  const of = (status: string) => rows.find((row) => row.status === status);
  const queued = db
    .select({ count: sql<number>`count(distinct ${jobs.movieId})` })
    .from(jobs)
    .where(and(eq(jobs.kind, LADDER_JOB), inArray(jobs.status, ["queued", "running"])))
    .get();
  return {
    ready: of("ready")?.count ?? 0,
    pending: of("pending")?.count ?? 0,
    failed: of("failed")?.count ?? 0,
    bytes: of("ready")?.bytes ?? 0,
    titlesQueued: queued?.count ?? 0,
  };
}

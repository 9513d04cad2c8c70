import fs from "node:fs";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { requiredText, titleDetailsSchema } from "./title-fields";
import type { DB } from "~/db/client.server";
import { categories, movies, seasons, series, type ReturnReason, type Role } from "~/db/schema";
import { writeMoviePosters } from "~/media/posters.server";
import { removeMovieFiles } from "~/media/media-store.server";
import { movieDir, seriesPosterUrl } from "~/media/storage.server";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { deleteTitleAudited, type DeleteTitleOutcome } from "./title-lifecycle.server";
import { getSetting } from "./settings.server";
import { isFinished, resumePosition } from "./watching.server";

/**
 * Series, seasons and episodes: who may make and change them, where an
 * episode goes, what "next episode" and "continue" mean, and what the studio
 * shows (what viewers see: series-viewing.server.ts; the administrator:
 * series-review.server.ts). An episode is an ordinary title
 * (a `movies` row with a season and an episode number): it is uploaded,
 * processed, played, rated, commented on, kept in history and downloaded
 * like a film, so none of that is repeated here.
 */

type Actor = { id: string; role: Role };
export type SeriesAccess = "free" | "premium";

export const SERIES_NAME_MAX = 200;
export const EPISODE_NUMBER_MAX = 9999;

// ---------------------------------------------------------------- rules without the database

/** An episode in series order (seasons by number, episodes by number within them). */
export type OrderedEpisode = { id: string; durationSeconds: number };

/** Where a viewer is in one episode: their latest visible viewing. */
export type EpisodeProgress = { positionSeconds: number; lastWatchedAt: number };

/** The episode after `currentId` in series order, across seasons; null after the last (or for an unknown id). */
export function nextEpisodeAfter<E extends OrderedEpisode>(episodes: readonly E[], currentId: string): E | null {
  const index = episodes.findIndex((episode) => episode.id === currentId);
  return index >= 0 && index + 1 < episodes.length ? episodes[index + 1] : null;
}

/**
 * "start": nothing watched yet, S1E1 from the beginning.
 * "resume": the latest episode watched is unfinished: there, where it stopped.
 * "next": the latest episode watched was finished: the one after it (where it stopped, if started).
 * "again": the last episode was finished: from the first again.
 */
export type ContinueReason = "start" | "resume" | "next" | "again";
export type ContinueTarget<E extends OrderedEpisode> = { episode: E; positionSeconds: number; reason: ContinueReason };

/**
 * What "Continue" opens: the most recently watched episode if it is
 * unfinished, at its position; if it was finished, the next episode across
 * seasons; with nothing watched, the first. Null only for a series without
 * episodes. `progress` holds the viewer's latest viewing of each episode.
 */
export function continueTarget<E extends OrderedEpisode>(
  episodes: readonly E[],
  progress: ReadonlyMap<string, EpisodeProgress>,
): ContinueTarget<E> | null {
  if (episodes.length === 0) return null;
  let latest: { episode: E; progress: EpisodeProgress } | null = null;
  for (const episode of episodes) {
    const seen = progress.get(episode.id);
    if (seen && (!latest || seen.lastWatchedAt > latest.progress.lastWatchedAt)) latest = { episode, progress: seen };
  }
  if (!latest) return { episode: episodes[0], positionSeconds: 0, reason: "start" };
  const { episode, progress: seen } = latest;
  if (!isFinished(seen.positionSeconds, episode.durationSeconds))
    return {
      episode,
      positionSeconds: resumePosition(seen.positionSeconds, episode.durationSeconds),
      reason: "resume",
    };
  const next = nextEpisodeAfter(episodes, episode.id);
  if (!next) return { episode: episodes[0], positionSeconds: 0, reason: "again" };
  return {
    episode: next,
    positionSeconds: resumePosition(progress.get(next.id)?.positionSeconds, next.durationSeconds),
    reason: "next",
  };
}

/**
 * Whether the end card starts the next episode by itself: always, except
 * while data saver is on, unless the viewer chose to let it.
 */
export function startsNextByItself(dataSaverOn: boolean, autoplayOnDataSaver: boolean): boolean {
  return !dataSaverOn || autoplayOnDataSaver;
}

/** New episode numbers for a season: every episode once, each a distinct number from 1. */
export function checkEpisodeOrder(
  episodeIds: readonly string[],
  wanted: ReadonlyMap<string, number>,
): { ok: true } | { ok: false; error: string } {
  if (wanted.size !== episodeIds.length || episodeIds.some((id) => !wanted.has(id)))
    return { ok: false, error: "series:errors.orderIncomplete" };
  const numbers = [...wanted.values()];
  if (numbers.some((value) => !Number.isInteger(value) || value < 1 || value > EPISODE_NUMBER_MAX))
    return { ok: false, error: "series:errors.episodeNumberInvalid" };
  if (new Set(numbers).size !== numbers.length) return { ok: false, error: "series:errors.episodeNumberRepeated" };
  return { ok: true };
}

// ---------------------------------------------------------------- making and changing a series

export const seriesDetailsSchema = titleDetailsSchema.extend({
  name: requiredText("series:errors.nameRequired", { max: SERIES_NAME_MAX, tooLong: "series:errors.nameTooLong" }),
});
export type SeriesDetails = z.infer<typeof seriesDetailsSchema>;
export type SeriesFieldErrors = Partial<
  Record<"name" | "Description" | "cast" | "Category" | "ageRating" | "poster", string[]>
>;

export type SeriesResult =
  | { ok: true; seriesId: string }
  | { ok: false; status: 400 | 403 | 404; fieldErrors: SeriesFieldErrors; formError?: string };

function checkDetails(
  db: DB,
  input: Record<string, unknown>,
): { details: SeriesDetails } | { errors: SeriesFieldErrors } {
  const parsed = seriesDetailsSchema.safeParse(input);
  const errors: SeriesFieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      (errors[issue.path[0] as keyof SeriesFieldErrors] ??= []).push(issue.message);
    return { errors };
  }
  if (!db.select({ id: categories.id }).from(categories).where(eq(categories.id, parsed.data.Category)).get())
    return { errors: { Category: ["studio:errors.categoryUnknown"] } };
  return { details: parsed.data };
}

/** A poster already checked by type (streamed to a temporary file by the page's form: routes-support/upload-forms). */
export type PosterFile = { path: string };

/**
 * A provider makes a series. The posters are written first (into the
 * series' own folder), then the row; if anything fails the folder goes and
 * nothing is stored. Approved at once when titles are (auto-approval).
 */
export async function createSeries(
  db: DB,
  provider: { id: string },
  input: Record<string, unknown>,
  options: { poster?: PosterFile; root: string; ipAddress?: string | null },
): Promise<SeriesResult> {
  const checked = checkDetails(db, input);
  if ("errors" in checked) return { ok: false, status: 400, fieldErrors: checked.errors };
  const id = createId();
  try {
    if (options.poster) await writeSeriesPosters(id, options.poster, options.root);
  } catch {
    removeMovieFiles(id, options.root);
    return { ok: false, status: 400, fieldErrors: { poster: ["series:errors.posterUnreadable"] } };
  }
  try {
    db.transaction((tx) => {
      tx.insert(series)
        .values({
          id,
          name: checked.details.name,
          description: checked.details.Description,
          cast: checked.details.cast,
          categoryId: checked.details.Category,
          ageRating: checked.details.ageRating,
          providerId: provider.id,
          posterFile: options.poster ? "poster" : null,
          approved: getSetting(tx as unknown as DB, "autoApproveMovies"),
        })
        .run();
      recordAudit(tx, {
        actorId: provider.id,
        action: "series.create",
        targetType: "series",
        targetId: id,
        ipAddress: options.ipAddress,
      });
    });
  } catch (error) {
    removeMovieFiles(id, options.root);
    throw error;
  }
  return { ok: true, seriesId: id };
}

async function writeSeriesPosters(seriesId: string, poster: PosterFile, root: string): Promise<void> {
  fs.mkdirSync(movieDir(seriesId, root), { recursive: true });
  await writeMoviePosters(seriesId, poster.path, { root, position: "attention" });
}

type OwnedSeries = { id: string; providerId: string; approved: boolean; access: SeriesAccess; categoryId: string };

/** The series if this provider owns it: "notFound" when there is none, "forbidden" when it is another's. */
function ownedSeries(db: DB, actor: Actor, seriesId: string): OwnedSeries | "notFound" | "forbidden" {
  if (!seriesId) return "notFound";
  const row = db
    .select({
      id: series.id,
      providerId: series.providerId,
      approved: series.approved,
      access: series.access,
      categoryId: series.categoryId,
    })
    .from(series)
    .where(eq(series.id, seriesId))
    .get();
  if (!row) return "notFound";
  if (row.providerId !== actor.id) return "forbidden";
  return row;
}

function refusal(outcome: "notFound" | "forbidden"): SeriesResult {
  return outcome === "notFound"
    ? { ok: false, status: 404, fieldErrors: {}, formError: "series:errors.seriesMissing" }
    : { ok: false, status: 403, fieldErrors: {}, formError: "series:errors.notYourSeries" };
}

/**
 * Its provider edits a series' details (and poster). A new category is its
 * episodes' too, since related titles and notifications read the episode's.
 */
export async function updateSeries(
  db: DB,
  actor: Actor,
  seriesId: string,
  input: Record<string, unknown>,
  options: { poster?: PosterFile; root: string; ipAddress?: string | null },
): Promise<SeriesResult> {
  const owned = ownedSeries(db, actor, seriesId);
  if (typeof owned === "string") return refusal(owned);
  const checked = checkDetails(db, input);
  if ("errors" in checked) return { ok: false, status: 400, fieldErrors: checked.errors };
  if (options.poster) {
    try {
      await writeSeriesPosters(seriesId, options.poster, options.root);
    } catch {
      return { ok: false, status: 400, fieldErrors: { poster: ["series:errors.posterUnreadable"] } };
    }
  }
  const now = new Date();
  db.transaction((tx) => {
    tx.update(series)
      .set({
        name: checked.details.name,
        description: checked.details.Description,
        cast: checked.details.cast,
        categoryId: checked.details.Category,
        ageRating: checked.details.ageRating,
        ...(options.poster ? { posterFile: "poster" } : {}),
        updatedAt: now,
      })
      .where(eq(series.id, seriesId))
      .run();
    if (checked.details.Category !== owned.categoryId)
      tx.update(movies)
        .set({ categoryId: checked.details.Category })
        .where(inArray(movies.seasonId, seasonIdsOf(seriesId)))
        .run();
    recordAudit(tx, {
      actorId: actor.id,
      action: "series.update",
      targetType: "series",
      targetId: seriesId,
      ipAddress: options.ipAddress,
    });
  });
  return { ok: true, seriesId };
}

export function seasonIdsOf(seriesId: string) {
  return sql`(SELECT ${seasons.id} FROM ${seasons} WHERE ${seasons.seriesId} = ${seriesId})`;
}

/** A series with no episodes may be deleted by its provider (an administrator deletes episodes first). */
export function deleteEmptySeries(
  db: DB,
  actor: Actor,
  seriesId: string,
  options: { root: string; ipAddress?: string | null },
): "deleted" | "notFound" | "forbidden" | "hasEpisodes" {
  const owned = ownedSeries(db, actor, seriesId);
  if (typeof owned === "string") return owned;
  const episodes =
    db
      .select({ value: count() })
      .from(movies)
      .innerJoin(seasons, eq(seasons.id, movies.seasonId))
      .where(eq(seasons.seriesId, seriesId))
      .get()?.value ?? 0;
  if (episodes > 0) return "hasEpisodes";
  db.transaction((tx) => {
    tx.delete(series).where(eq(series.id, seriesId)).run();
    recordAudit(tx, {
      actorId: actor.id,
      action: "series.delete",
      targetType: "series",
      targetId: seriesId,
      ipAddress: options.ipAddress,
    });
  });
  removeMovieFiles(seriesId, options.root);
  return "deleted";
}

/** Its provider adds the next season (numbered one past the highest). */
export function addSeason(
  db: DB,
  actor: Actor,
  seriesId: string,
  context: { ipAddress?: string | null } = {},
): { ok: true; seasonId: string; number: number } | { ok: false; outcome: "notFound" | "forbidden" } {
  const owned = ownedSeries(db, actor, seriesId);
  if (typeof owned === "string") return { ok: false, outcome: owned };
  return db.transaction((tx) => {
    const highest =
      tx
        .select({ value: sql<number | null>`max(${seasons.number})` })
        .from(seasons)
        .where(eq(seasons.seriesId, seriesId))
        .get()?.value ?? 0;
    const number = Number(highest) + 1;
    const id = createId();
    tx.insert(seasons).values({ id, seriesId, number }).run();
    tx.update(series).set({ updatedAt: new Date() }).where(eq(series.id, seriesId)).run();
    recordAudit(tx, {
      actorId: actor.id,
      action: "season.create",
      targetType: "series",
      targetId: seriesId,
      details: { seasonId: id, number },
      ipAddress: context.ipAddress,
    });
    return { ok: true as const, seasonId: id, number };
  });
}

// ---------------------------------------------------------------- where an upload goes

/** The place an episode upload asks for: a season, and a number (the next free one when absent). */
export type EpisodeRequest = { seasonId: string; episodeNumber: number | null };

/** Where an episode will be made, with what it takes from its series. */
export type EpisodePlacement = {
  seasonId: string;
  episodeNumber: number;
  categoryId: string;
  /** The series is approved: the episode is published as soon as it is ready. */
  approved: boolean;
  access: SeriesAccess;
};

export type PlacementRefusal = { status: 400 | 403; field: "seasonId" | "episodeNumber"; key: string };

/**
 * Read an upload's `seasonId` and `episodeNumber` fields (the form's, tus
 * metadata's or a script's): null when the upload is a film (no season).
 */
export function parseEpisodeRequest(fields: {
  seasonId?: string | null;
  episodeNumber?: string | null;
}): EpisodeRequest | null | PlacementRefusal {
  const seasonId = (fields.seasonId ?? "").trim();
  const numberText = (fields.episodeNumber ?? "").trim();
  if (!seasonId) {
    return numberText ? { status: 400, field: "seasonId", key: "series:errors.seasonRequired" } : null;
  }
  if (!numberText) return { seasonId, episodeNumber: null };
  const number = Number(numberText);
  if (!/^\d{1,4}$/.test(numberText) || !Number.isInteger(number) || number < 1 || number > EPISODE_NUMBER_MAX)
    return { status: 400, field: "episodeNumber", key: "series:errors.episodeNumberInvalid" };
  return { seasonId, episodeNumber: number };
}

export function isPlacementRefusal(value: unknown): value is PlacementRefusal {
  return typeof value === "object" && value !== null && "key" in value && "status" in value;
}

/**
 * Check where an episode goes, for this provider: the season must be one of
 * their own series' (another provider's is refused, 403), and the number
 * free in it. Without a number, the one after the season's last. With
 * `takeNextIfTaken` (the title is being made from bytes already received),
 * a number taken meanwhile gives the next free one instead of a refusal.
 */
export function placeEpisode(
  db: DB,
  providerId: string,
  wanted: EpisodeRequest,
  options: { takeNextIfTaken?: boolean } = {},
): EpisodePlacement | PlacementRefusal {
  const row = db
    .select({
      seasonId: seasons.id,
      providerId: series.providerId,
      categoryId: series.categoryId,
      approved: series.approved,
      access: series.access,
    })
    .from(seasons)
    .innerJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(seasons.id, wanted.seasonId))
    .get();
  if (!row) return { status: 400, field: "seasonId", key: "series:errors.seasonUnknown" };
  if (row.providerId !== providerId) return { status: 403, field: "seasonId", key: "series:errors.notYourSeries" };
  const highest = Number(
    db
      .select({ value: sql<number | null>`max(${movies.episodeNumber})` })
      .from(movies)
      .where(eq(movies.seasonId, row.seasonId))
      .get()?.value ?? 0,
  );
  let episodeNumber = wanted.episodeNumber ?? highest + 1;
  const taken = db
    .select({ id: movies.id })
    .from(movies)
    .where(and(eq(movies.seasonId, row.seasonId), eq(movies.episodeNumber, episodeNumber)))
    .get();
  if (taken) {
    if (!options.takeNextIfTaken)
      return { status: 400, field: "episodeNumber", key: "series:errors.episodeNumberTaken" };
    episodeNumber = highest + 1;
  }
  if (episodeNumber > EPISODE_NUMBER_MAX)
    return { status: 400, field: "episodeNumber", key: "series:errors.episodeNumberInvalid" };
  return {
    seasonId: row.seasonId,
    episodeNumber,
    categoryId: row.categoryId,
    approved: row.approved,
    access: row.access,
  };
}

/** The provider's seasons, for the upload form's "Series and season" menu (newest series first). */
export function listUploadSeasons(db: DB, providerId: string) {
  return db
    .select({ seasonId: seasons.id, seriesName: series.name, seasonNumber: seasons.number })
    .from(series)
    .innerJoin(seasons, eq(seasons.seriesId, series.id))
    .where(eq(series.providerId, providerId))
    .orderBy(desc(series.updatedAt), asc(series.id), asc(seasons.number))
    .limit(500)
    .all();
}

// ---------------------------------------------------------------- the studio

export type StudioSeriesRow = {
  id: string;
  name: string;
  approved: boolean;
  /** Sent back by an administrator: why, and their words (null: not sent back). */
  returnReason: ReturnReason | null;
  returnNote: string | null;
  seasons: number;
  episodes: number;
  views: number;
  poster: string | null;
};

/** A series as its review shows it: what its provider and the administrator both see of it. */
export const reviewedSeries = {
  id: series.id,
  name: series.name,
  approved: series.approved,
  returnReason: series.returnReason,
  returnNote: series.returnNote,
};

/** A provider's series with their seasons, episodes and views (every episode's views together). */
export function listProviderSeries(db: DB, providerId: string): StudioSeriesRow[] {
  // One pass over the provider's series with their seasons and episodes (joined, so every column is named with its table).
  const rows = db
    .select({
      ...reviewedSeries,
      posterFile: series.posterFile,
      seasons: sql<number>`count(DISTINCT ${seasons.id})`,
      episodes: sql<number>`count(${movies.id})`,
      views: sql<number>`coalesce(sum(${movies.views}), 0)`,
    })
    .from(series)
    .leftJoin(seasons, eq(seasons.seriesId, series.id))
    .leftJoin(movies, eq(movies.seasonId, seasons.id))
    .where(eq(series.providerId, providerId))
    .groupBy(series.id)
    .orderBy(desc(series.updatedAt), asc(series.id))
    .limit(200)
    .all();
  return rows.map(({ posterFile, ...row }) => ({
    ...row,
    seasons: Number(row.seasons),
    episodes: Number(row.episodes),
    views: Number(row.views),
    poster: posterFile ? seriesPosterUrl(row.id, "card", "jpg") : null,
  }));
}

export type StudioEpisode = {
  id: string;
  episodeNumber: number;
  name: string;
  status: "processing" | "ready" | "failed";
  approved: boolean;
  views: number;
  durationSeconds: number;
  uploadedAt: Date;
};

/** One series as its provider manages it: details, seasons with every episode (any status) and views. */
export function getStudioSeries(db: DB, actor: Actor, seriesId: string) {
  const owned = ownedSeries(db, actor, seriesId);
  if (typeof owned === "string") return owned;
  const row = db.select().from(series).where(eq(series.id, seriesId)).get()!;
  const seasonRows = db
    .select({ id: seasons.id, number: seasons.number })
    .from(seasons)
    .where(eq(seasons.seriesId, seriesId))
    .orderBy(asc(seasons.number))
    .all();
  const episodes = db
    .select({
      id: movies.id,
      seasonId: movies.seasonId,
      episodeNumber: movies.episodeNumber,
      name: movies.name,
      status: movies.status,
      approved: movies.approved,
      views: movies.views,
      durationSeconds: movies.durationSeconds,
      uploadedAt: movies.uploadedAt,
    })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .where(eq(seasons.seriesId, seriesId))
    .orderBy(asc(seasons.number), asc(movies.episodeNumber))
    .all();
  const bySeason = new Map<string, StudioEpisode[]>();
  for (const episode of episodes) {
    const list = bySeason.get(episode.seasonId!) ?? [];
    list.push({ ...episode, episodeNumber: episode.episodeNumber ?? 0 });
    bySeason.set(episode.seasonId!, list);
  }
  return {
    series: {
      id: row.id,
      name: row.name,
      description: row.description,
      cast: row.cast,
      categoryId: row.categoryId,
      ageRating: row.ageRating,
      approved: row.approved,
      returnReason: row.returnReason,
      returnNote: row.returnNote,
      access: row.access,
      poster: row.posterFile ? seriesPosterUrl(row.id, "card", "jpg") : null,
    },
    seasons: seasonRows.map((season) => {
      const list = bySeason.get(season.id) ?? [];
      return { ...season, episodes: list, views: list.reduce((total, episode) => total + episode.views, 0) };
    }),
    views: episodes.reduce((total, episode) => total + episode.views, 0),
  };
}

/**
 * Its provider gives a season's episodes new numbers (every episode once,
 * distinct numbers), in one transaction: first out of the way (negative), then
 * in place, so the unique (season, number) index never sees two at once.
 */
export function reorderEpisodes(
  db: DB,
  actor: Actor,
  seasonId: string,
  wanted: ReadonlyMap<string, number>,
  context: { ipAddress?: string | null } = {},
): { ok: true } | { ok: false; status: 400 | 403 | 404; error: string } {
  const season = db
    .select({ id: seasons.id, seriesId: seasons.seriesId, providerId: series.providerId })
    .from(seasons)
    .innerJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(seasons.id, seasonId))
    .get();
  if (!season) return { ok: false, status: 404, error: "series:errors.seasonUnknown" };
  if (season.providerId !== actor.id) return { ok: false, status: 403, error: "series:errors.notYourSeries" };
  const ids = db
    .select({ id: movies.id })
    .from(movies)
    .where(eq(movies.seasonId, seasonId))
    .all()
    .map((row) => row.id);
  const checked = checkEpisodeOrder(ids, wanted);
  if (!checked.ok) return { ok: false, status: 400, error: checked.error };
  db.transaction((tx) => {
    for (const id of ids)
      tx.update(movies)
        .set({ episodeNumber: sql`-${movies.episodeNumber} - 1` })
        .where(eq(movies.id, id))
        .run();
    for (const id of ids)
      tx.update(movies)
        .set({ episodeNumber: wanted.get(id)!, updatedAt: new Date() })
        .where(eq(movies.id, id))
        .run();
    recordAudit(tx, {
      actorId: actor.id,
      action: "episode.reorder",
      targetType: "series",
      targetId: season.seriesId,
      details: { seasonId, order: Object.fromEntries(wanted) },
      ipAddress: context.ipAddress,
    });
  });
  return { ok: true };
}

/**
 * Delete an episode of this series (its provider, or an administrator): the
 * same delete as any title, after checking the title is an episode of it.
 */
export function deleteEpisode(
  db: DB,
  actor: Actor,
  seriesId: string,
  movieId: string,
  context: { ipAddress?: string | null; root?: string } = {},
): DeleteTitleOutcome {
  const episode = db
    .select({ id: movies.id, providerId: movies.providerId })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .where(and(eq(movies.id, movieId), eq(seasons.seriesId, seriesId)))
    .get();
  if (!episode) return "notFound";
  if (actor.role !== "admin" && episode.providerId !== actor.id) return "forbidden";
  return deleteTitleAudited(db, movieId, actor, { ipAddress: context.ipAddress }, context.root);
}

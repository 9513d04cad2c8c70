import fs from "node:fs";
import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { requiredText, titleDetailsSchema } from "./title-fields";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import {
  accounts,
  categories,
  movies,
  savedMovies,
  seasons,
  series,
  watchEvents,
  type ReturnReason,
  type Role,
} from "~/db/schema";
import { qualified } from "~/db/sql";
import { writeMoviePosters } from "~/media/posters.server";
import { removeMovieFiles } from "~/media/media-store.server";
import { movieDir, seriesPosterUrl } from "~/media/storage.server";
import type { PosterOwner } from "~/media/poster-sizes";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { publishingVerb, type PublishingChange } from "./publishing";
import {
  isPublished,
  isSeriesPublished,
  seriesRatingSummaries,
  watchPageHref,
  type ShownDetails,
} from "./catalogue.server";
import { episodeCode } from "./episode-names";
import {
  deleteTitleAudited,
  type DeleteTitleOutcome,
  type ResubmitOutcome,
  type ReturnInput,
} from "./title-lifecycle.server";
import { tellProvider } from "./review-notices.server";
import { notifyNewTitle } from "./notifications.server";
import { addToSavedList, removeFromSavedList, type SavedList } from "./saved-lists.server";
import { getSetting } from "./settings.server";
import { isFinished, resumePosition } from "./watching.server";

/**
 * Series, seasons and episodes: who may make and change them, where an
 * episode goes, what "next episode" and "continue" mean, and what the series
 * page, the studio and the administrator see. An episode is an ordinary title
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
export type SeriesFieldErrors = Partial<Record<"name" | "Description" | "cast" | "Category" | "poster", string[]>>;

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

function seasonIdsOf(seriesId: string) {
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
const reviewedSeries = {
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

// ---------------------------------------------------------------- what viewers see

export type SeriesEpisode = {
  id: string;
  href: string;
  seasonNumber: number;
  episodeNumber: number;
  code: string;
  name: string;
  description: string;
  durationSeconds: number;
  access: SeriesAccess;
  poster: PosterOwner | null;
  /** The viewer's latest viewing of it: where, and whether they reached the end. */
  positionSeconds: number | null;
  finished: boolean;
};

/** A published series' published episodes, in series order (seasons_series_number_unique, movies_season_episode_unique). */
function publishedEpisodes(db: DB, seriesId: string) {
  return db
    .select({
      id: movies.id,
      seasonNumber: seasons.number,
      episodeNumber: movies.episodeNumber,
      name: movies.name,
      description: movies.description,
      durationSeconds: movies.durationSeconds,
      access: movies.access,
      posterFile: movies.posterFile,
      posterVersion: movies.posterVersion,
    })
    .from(seasons)
    .innerJoin(movies, eq(movies.seasonId, seasons.id))
    .where(and(eq(seasons.seriesId, seriesId), isPublished()))
    .orderBy(asc(seasons.number), asc(movies.episodeNumber))
    .all()
    .map((row) => ({ ...row, episodeNumber: row.episodeNumber ?? 0 }));
}

/** This viewer's latest visible viewing of each of these titles (watch_events_account_movie_idx). */
function progressOf(db: DB, accountId: string, movieIds: string[]): Map<string, EpisodeProgress> {
  const progress = new Map<string, EpisodeProgress>();
  if (movieIds.length === 0) return progress;
  const rows = db.all<{ movieId: string; lastWatched: number; position: number }>(
    sql`SELECT ${watchEvents.movieId} AS movieId, max(${watchEvents.updatedAt}) AS lastWatched, ${watchEvents.positionSeconds} AS position
        FROM ${watchEvents}
        WHERE ${watchEvents.accountId} = ${accountId} AND ${watchEvents.hiddenAt} IS NULL AND ${inArray(watchEvents.movieId, movieIds)}
        GROUP BY ${watchEvents.movieId}`,
  );
  for (const row of rows)
    progress.set(row.movieId, { positionSeconds: Number(row.position), lastWatchedAt: Number(row.lastWatched) });
  return progress;
}

export type SeriesPage = {
  series: ShownDetails & {
    access: SeriesAccess;
    /** The series' own poster, else its first episode's with one, else none. */
    poster: PosterOwner | null;
  };
  averageRating: number | null;
  ratingCount: number;
  seasons: { number: number; episodes: SeriesEpisode[] }[];
  episodeCount: number;
  continueWith: { episode: SeriesEpisode; positionSeconds: number; reason: ContinueReason } | null;
  lists: { watchLater: boolean; saved: boolean };
};

/** Everything /series/<id> shows, or null when there is no such published series. */
export function getSeriesPage(db: DB, seriesId: string, viewer: { id: string }): SeriesPage | null {
  if (!seriesId) return null;
  const row = db
    .select({
      id: series.id,
      name: series.name,
      description: series.description,
      cast: series.cast,
      categoryName: categories.name,
      providerName: sql<string>`coalesce(${accounts.providerName}, ${accounts.name})`,
      access: series.access,
      posterFile: series.posterFile,
    })
    .from(series)
    .innerJoin(categories, eq(categories.id, series.categoryId))
    .innerJoin(accounts, eq(accounts.id, series.providerId))
    .where(and(eq(series.id, seriesId), isSeriesPublished()))
    .get();
  if (!row) return null;
  const rows = publishedEpisodes(db, seriesId);
  const progress = progressOf(
    db,
    viewer.id,
    rows.map((episode) => episode.id),
  );
  const episodes: SeriesEpisode[] = rows.map((episode) => {
    const seen = progress.get(episode.id);
    return {
      id: episode.id,
      href: watchPageHref(episode.id),
      seasonNumber: episode.seasonNumber,
      episodeNumber: episode.episodeNumber,
      code: episodeCode(episode.seasonNumber, episode.episodeNumber),
      name: episode.name,
      description: episode.description,
      durationSeconds: episode.durationSeconds,
      access: episode.access,
      poster: episode.posterFile ? { kind: "title", id: episode.id, version: episode.posterVersion } : null,
      positionSeconds: seen ? seen.positionSeconds : null,
      finished: seen ? isFinished(seen.positionSeconds, episode.durationSeconds) : false,
    };
  });
  const seasonsShown: SeriesPage["seasons"] = [];
  for (const episode of episodes) {
    const last = seasonsShown.at(-1);
    if (last && last.number === episode.seasonNumber) last.episodes.push(episode);
    else seasonsShown.push({ number: episode.seasonNumber, episodes: [episode] });
  }
  const summary = seriesRatingSummaries(db, [seriesId]).get(seriesId);
  const poster: PosterOwner | null = row.posterFile
    ? { kind: "series", id: row.id }
    : (episodes.find((episode) => episode.poster)?.poster ?? null);
  return {
    series: {
      id: row.id,
      name: row.name,
      description: row.description,
      cast: row.cast,
      categoryName: row.categoryName,
      providerName: row.providerName,
      access: row.access,
      poster,
    },
    averageRating: summary ? Math.round(summary.average * 10) / 10 : null,
    ratingCount: summary?.count ?? 0,
    seasons: seasonsShown,
    episodeCount: episodes.length,
    continueWith: continueTarget(episodes, progress),
    lists: listStateOf(
      db,
      viewer.id,
      episodes.map((episode) => episode.id),
    ),
  };
}

/**
 * The season a series page shows: a long series is read one season at a time
 * (100 episodes would be 250 kB of page). `requested` (`?season=`) when the
 * series has it; otherwise the season of the episode Continue opens, so a
 * returning viewer lands where they are; else the first.
 */
export function chooseSeason(
  page: Pick<SeriesPage, "seasons" | "continueWith">,
  requested: number | null,
): SeriesPage["seasons"][number] | null {
  const find = (number: number | null | undefined) =>
    number == null ? undefined : page.seasons.find((season) => season.number === number);
  return find(requested) ?? find(page.continueWith?.episode.seasonNumber) ?? page.seasons[0] ?? null;
}

function listStateOf(db: DB, accountId: string, movieIds: string[]) {
  if (movieIds.length === 0) return { watchLater: false, saved: false };
  const lists = new Set(
    db
      .selectDistinct({ list: savedMovies.list })
      .from(savedMovies)
      .where(and(eq(savedMovies.accountId, accountId), inArray(savedMovies.movieId, movieIds)))
      .all()
      .map((row) => row.list),
  );
  return { watchLater: lists.has("watch_later"), saved: lists.has("saved") };
}

/**
 * "Watch later" (or Save) on a series page keeps the episode Continue would
 * open — what the viewer means to watch — so the list shows it as
 * "Series — S1E3 Title" and opens it where they stopped. False when the series
 * is not published.
 */
export function keepSeriesOnList(db: DB, viewer: { id: string }, seriesId: string, list: SavedList): boolean {
  const page = getSeriesPage(db, seriesId, viewer);
  if (!page?.continueWith) return false;
  return addToSavedList(db, viewer.id, page.continueWith.episode.id, list);
}

/** Take every episode of the series off one of the viewer's lists. */
export function dropSeriesFromList(db: DB, viewer: { id: string }, seriesId: string, list: SavedList): void {
  const ids = db
    .select({ id: movies.id })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .where(eq(seasons.seriesId, seriesId))
    .all();
  for (const { id } of ids) removeFromSavedList(db, viewer.id, id, list);
}

export type EpisodeContext = {
  seriesId: string;
  seriesName: string;
  seasonNumber: number;
  episodeNumber: number;
  code: string;
  next: { id: string; href: string; name: string; code: string } | null;
};

// Every watch page asks (a film's answer is no row): prepared once.
const episodePlace = preparedQuery((db) =>
  db
    .select({
      seriesId: series.id,
      seriesName: series.name,
      seasonNumber: seasons.number,
      episodeNumber: movies.episodeNumber,
    })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .innerJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(movies.id, sql.placeholder("movieId")))
    .prepare(),
);

/** For an episode's watch page: its series, season and number, and the next published episode (null for a film). */
export function getEpisodeContext(db: DB, movieId: string): EpisodeContext | null {
  const row = episodePlace(db).get({ movieId });
  if (!row) return null;
  const episodes = publishedEpisodes(db, row.seriesId);
  const next = nextEpisodeAfter(episodes, movieId);
  const episodeNumber = row.episodeNumber ?? 0;
  return {
    seriesId: row.seriesId,
    seriesName: row.seriesName,
    seasonNumber: row.seasonNumber,
    episodeNumber,
    code: episodeCode(row.seasonNumber, episodeNumber),
    next: next
      ? {
          id: next.id,
          href: watchPageHref(next.id),
          name: next.name,
          code: episodeCode(next.seasonNumber, next.episodeNumber),
        }
      : null,
  };
}

/** Whether this viewer lets the next episode start by itself while data saver is on. */
export function autoplayOnDataSaver(db: DB, accountId: string): boolean {
  return (
    db.select({ value: accounts.autoplayOnDataSaver }).from(accounts).where(eq(accounts.id, accountId)).get()?.value ??
    false
  );
}

export function setAutoplayOnDataSaver(db: DB, accountId: string, on: boolean): void {
  db.update(accounts).set({ autoplayOnDataSaver: on }).where(eq(accounts.id, accountId)).run();
}

/** Who may see a series' poster: like a title's (posterAccess in catalogue.server.ts). */
export function seriesPosterAccess(
  db: DB,
  seriesId: string,
  caller: { id: string; role: string } | null,
): "public" | "private" | "hidden" {
  const row = db
    .select({ providerId: series.providerId, published: sql<number>`${isSeriesPublished()}` })
    .from(series)
    .where(eq(series.id, seriesId))
    .get();
  if (!row) return "hidden";
  if (Number(row.published) === 1) return "public";
  if (caller && (caller.role === "admin" || caller.id === row.providerId)) return "private";
  return "hidden";
}

// ---------------------------------------------------------------- the administrator

export const ADMIN_SERIES_PAGE_SIZE = 20;

/** Every series, newest change first, with its provider, state and episode counts. */
export function listAllSeries(db: DB, options: { page?: number; pageSize?: number } = {}) {
  const pageSize = Math.min(Math.max(options.pageSize ?? ADMIN_SERIES_PAGE_SIZE, 1), 100);
  const page = Math.max(options.page ?? 1, 1);
  const total = db.select({ value: count() }).from(series).get()?.value ?? 0;
  const rows = db
    .select({
      ...reviewedSeries,
      featured: series.featured,
      access: series.access,
      posterFile: series.posterFile,
      providerName: accounts.providerName,
      episodes: sql<number>`(SELECT count(*) FROM ${seasons} INNER JOIN ${movies} ON ${movies.seasonId} = ${seasons.id} WHERE ${seasons.seriesId} = ${qualified(series.id)})`,
      waiting: sql<number>`(SELECT count(*) FROM ${seasons} INNER JOIN ${movies} ON ${movies.seasonId} = ${seasons.id} WHERE ${seasons.seriesId} = ${qualified(series.id)} AND ${movies.approved} = 0)`,
      overrides: sql<number>`(SELECT count(*) FROM ${seasons} INNER JOIN ${movies} ON ${movies.seasonId} = ${seasons.id} WHERE ${seasons.seriesId} = ${qualified(series.id)} AND ${movies.accessOverride} = 1)`,
      views: sql<number>`(SELECT coalesce(sum(${movies.views}), 0) FROM ${seasons} INNER JOIN ${movies} ON ${movies.seasonId} = ${seasons.id} WHERE ${seasons.seriesId} = ${qualified(series.id)})`,
    })
    .from(series)
    .innerJoin(accounts, eq(accounts.id, series.providerId))
    .orderBy(desc(series.updatedAt), asc(series.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all()
    .map(({ posterFile, ...row }) => ({
      ...row,
      episodes: Number(row.episodes),
      waiting: Number(row.waiting),
      overrides: Number(row.overrides),
      views: Number(row.views),
      poster: posterFile ? seriesPosterUrl(row.id, "card", "jpg") : null,
    }));
  return { rows, total, page, pageSize };
}

export type SeriesChange = PublishingChange;

/**
 * An administrator approves (or withdraws), features or prices a series.
 * Approval is its episodes' too, so each episode stays an ordinary published
 * title (the one rule for playback, lists and downloads); access is copied to
 * every episode that has no access of its own. Newly published episodes are
 * announced to the series' viewers. False when there is no such series.
 */
export function changeSeries(
  db: DB,
  seriesId: string,
  change: SeriesChange,
  actor: { actorId: string; ipAddress?: string | null },
): boolean {
  const published = db.transaction((tx) => {
    const approving = "approved" in change && change.approved;
    const before = approving
      ? tx
          .select({ approved: series.approved, name: series.name, providerId: series.providerId })
          .from(series)
          .where(eq(series.id, seriesId))
          .get()
      : undefined;
    const updated = tx
      .update(series)
      .set({
        ...change,
        // Approval ends a send-back: its reason is answered.
        ...(approving ? { returnedAt: null, returnReason: null, returnNote: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(series.id, seriesId))
      .run();
    if (updated.changes === 0) return null;
    if (before && !before.approved)
      tellProvider(tx, {
        providerId: before.providerId,
        name: before.name,
        link: `/provider/series/${seriesId}`,
        notice: { outcome: "approved" },
      });
    const episodesOf = inArray(movies.seasonId, seasonIdsOf(seriesId));
    let newlyPublished: string[] = [];
    if ("approved" in change) {
      if (change.approved)
        newlyPublished = tx
          .select({ id: movies.id })
          .from(movies)
          .where(and(episodesOf, eq(movies.approved, false), eq(movies.status, "ready")))
          .all()
          .map((row) => row.id);
      tx.update(movies)
        .set({ approved: change.approved })
        .where(and(episodesOf, ne(movies.approved, change.approved)))
        .run();
    }
    if ("access" in change)
      tx.update(movies)
        .set({ access: change.access })
        .where(and(episodesOf, eq(movies.accessOverride, false)))
        .run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: `series.${publishingVerb(change)}`,
      targetType: "series",
      targetId: seriesId,
      details: { ...change },
      ipAddress: actor.ipAddress,
    });
    return newlyPublished;
  });
  if (published === null) return false;
  for (const movieId of published) notifyNewTitle(db, movieId);
  return true;
}

/**
 * Send a series back to its provider with a reason: it and its episodes are
 * no longer approved (so not published), the provider reads why on the
 * series and in a notification and a mail. Audited. False when there is none.
 */
export function sendBackSeries(
  db: DB,
  seriesId: string,
  input: ReturnInput,
  actor: { actorId: string; ipAddress?: string | null },
): boolean {
  return db.transaction((tx) => {
    const row = tx
      .select({ name: series.name, providerId: series.providerId })
      .from(series)
      .where(eq(series.id, seriesId))
      .get();
    if (!row) return false;
    tx.update(series)
      .set({
        approved: false,
        returnedAt: new Date(),
        returnReason: input.reason,
        returnNote: input.note || null,
        updatedAt: new Date(),
      })
      .where(eq(series.id, seriesId))
      .run();
    tx.update(movies)
      .set({ approved: false })
      .where(and(inArray(movies.seasonId, seasonIdsOf(seriesId)), eq(movies.approved, true)))
      .run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "series.send_back",
      targetType: "series",
      targetId: seriesId,
      details: { reason: input.reason, note: input.note },
      ipAddress: actor.ipAddress,
    });
    tellProvider(tx, {
      providerId: row.providerId,
      name: row.name,
      link: `/provider/series/${seriesId}`,
      notice: { outcome: "returned", reason: input.reason, note: input.note },
    });
    return true;
  });
}

/** Its provider sends a series that was sent back for approval again (its reason is cleared). Audited. */
export function resubmitSeries(
  db: DB,
  seriesId: string,
  actor: { id: string; role: Role },
  context: { ipAddress?: string | null } = {},
): ResubmitOutcome {
  return db.transaction((tx) => {
    const row = tx
      .select({ providerId: series.providerId, returnedAt: series.returnedAt })
      .from(series)
      .where(eq(series.id, seriesId))
      .get();
    if (!row) return "notFound";
    if (actor.role !== "admin" && row.providerId !== actor.id) return "forbidden";
    if (!row.returnedAt) return "notSentBack";
    tx.update(series)
      .set({ returnedAt: null, returnReason: null, returnNote: null, updatedAt: new Date() })
      .where(eq(series.id, seriesId))
      .run();
    recordAudit(tx, {
      actorId: actor.id,
      action: "series.resubmit",
      targetType: "series",
      targetId: seriesId,
      ipAddress: context.ipAddress,
    });
    return "resubmitted";
  });
}

/**
 * An episode's access set on its own (the administrator's movie table): it
 * no longer follows its series'. "follow" gives it the series' access back.
 */
export function setEpisodeAccessOverride(db: Pick<DB, "update" | "select">, movieId: string, follow: boolean): void {
  if (!follow) {
    db.update(movies)
      .set({ accessOverride: true })
      .where(and(eq(movies.id, movieId), sql`${movies.seasonId} IS NOT NULL`))
      .run();
    return;
  }
  const owner = db
    .select({ access: series.access })
    .from(movies)
    .innerJoin(seasons, eq(seasons.id, movies.seasonId))
    .innerJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(movies.id, movieId))
    .get();
  if (!owner) return;
  db.update(movies).set({ accessOverride: false, access: owner.access }).where(eq(movies.id, movieId)).run();
}

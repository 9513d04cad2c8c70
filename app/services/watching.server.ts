import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { fieldErrorsOf } from "~/services/validation";
import { z } from "zod";
import { requiredText } from "./title-fields";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { qualified } from "~/db/sql";
import {
  accounts,
  categories,
  comments,
  movies,
  profiles,
  ratings,
  seasons,
  watchEvents,
  type Role,
} from "~/db/schema";
import { COMMENT_MAX_LENGTH } from "~/utils/form-limits";
import { sizedPosterUrl, type SizedPosterFormat } from "~/media/poster-sizes";
import { createId } from "~/utils/ids.server";
import type { Viewer } from "./profiles.server";
import {
  isChildSafeTitle,
  isPublished,
  listCardsForEntries,
  viewableBy,
  queryEntries,
  roundedStars,
  titleDetailColumns,
  titleStars,
  type CatalogueCard,
  type EntryFilter,
  type ShownDetails,
} from "./catalogue.server";

/**
 * The watch page and what a viewer does there: comments, ratings, lists and
 * the resume position. Only published titles (ready and approved) can be
 * watched, commented on, rated or reported as played.
 */

/** A viewing that has not moved for this long is over; the next play is a new viewing (and a new view). */
export const VIEWING_IDLE_MS = 30 * 60 * 1000;
const SIDE_LIST_LIMIT = 8;
const COMMENTS_LIMIT = 100;

/**
 * How close to the end counts as "watched to the end": 10 s, or a tenth of a
 * short title (the demo films last 6–10 s, where 10 s would be the whole film).
 */
export function endMargin(durationSeconds: number): number {
  return Math.min(10, durationSeconds * 0.1);
}

export function isFinished(positionSeconds: number, durationSeconds: number): boolean {
  return durationSeconds > 0 && positionSeconds >= durationSeconds - endMargin(durationSeconds);
}

/** Where the player should start: the last position, unless the viewer had (nearly) finished. */
export function resumePosition(positionSeconds: number | null | undefined, durationSeconds: number): number {
  if (!positionSeconds || positionSeconds <= 0) return 0;
  return isFinished(positionSeconds, durationSeconds) ? 0 : positionSeconds;
}

type Actor = { id: string; role: Role };

/** Who acts on the watch page: the account (its role, its comments) and the profile watching. */
export type WatchViewer = Actor & Viewer;

/** Whose a viewing, a comment or a rating is: the account and its profile (a children's one may only reach child-safe titles). */
type ByProfile = { accountId: string; profileId: string; children?: boolean };

function findPublishedMovie(db: DB, movieId: string, children = false) {
  if (!movieId) return undefined;
  return db
    .select({ id: movies.id, durationSeconds: movies.durationSeconds })
    .from(movies)
    .where(and(eq(movies.id, movieId), viewableBy({ profile: { children } })))
    .get();
}

export type WatchComment = { id: string; body: string; authorName: string; createdAt: string; canDelete: boolean };

export type WatchPage = {
  movie: ShownDetails & {
    /**
     * The player's poster. `<video poster>` takes one image, not a srcset: the
     * middle hero width (960 px: a phone at 2×, most laptops' players) in JPEG,
     * which every browser shows.
     */
    playerPoster: string | null;
    durationSeconds: number;
    videoUrl: string;
    /** Which version of the film plays (its stream addresses name it). */
    mediaVersion: number;
  };
  averageRating: number | null;
  ratingCount: number;
  myRating: number | null;
  comments: WatchComment[];
  providerTitles: CatalogueCard[];
  related: CatalogueCard[];
  onWatchLater: boolean;
  onSaved: boolean;
  resumeSeconds: number;
};

/**
 * The title with everything about it that belongs to this viewer, in one
 * statement: its stars (titleStars), the viewer's own stars, which of the
 * viewer's lists hold it, and where the viewer's latest visible viewing
 * stopped (watch_events_account_movie_idx). Each subquery reads one index
 * range for this one row.
 */
const watchPageTitle = preparedQuery((db) =>
  db
    .select({
      ...titleDetailColumns,
      categoryName: categories.name,
      providerName: sql<string>`coalesce(${accounts.providerName}, ${accounts.name})`,
      posterFile: movies.posterFile,
      posterVersion: movies.posterVersion,
      mediaVersion: movies.mediaVersion,
      durationSeconds: movies.durationSeconds,
      seriesId: seasons.seriesId,
      ...titleStars,
      myStars: sql<
        number | null
      >`(SELECT r.stars FROM ratings AS r WHERE r.movie_id = ${qualified(movies.id)} AND r.account_id = ${sql.placeholder("viewerId")})`,
      lists: sql<
        string | null
      >`(SELECT group_concat(s.list) FROM saved_movies AS s WHERE s.profile_id = ${sql.placeholder("profileId")} AND s.movie_id = ${qualified(movies.id)})`,
      // A viewing the viewer removed from their history no longer says where to resume.
      lastPosition: sql<number | null>`(SELECT w.position_seconds FROM watch_events AS w
        WHERE w.profile_id = ${sql.placeholder("profileId")} AND w.movie_id = ${qualified(movies.id)} AND w.hidden_at IS NULL
        ORDER BY w.updated_at DESC LIMIT 1)`,
    })
    .from(movies)
    .innerJoin(categories, eq(categories.id, movies.categoryId))
    .innerJoin(accounts, eq(accounts.id, movies.providerId))
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .where(
      and(
        eq(movies.id, sql.placeholder("movieId")),
        isPublished(),
        sql`(${sql.placeholder("children")} = 0 OR ${isChildSafeTitle()})`,
      ),
    )
    .prepare(),
);

const watchPageComments = preparedQuery((db) =>
  db
    .select({
      id: comments.id,
      body: comments.body,
      accountId: comments.accountId,
      // The profile that wrote it; the account's name once that profile is gone.
      authorName: sql<string>`coalesce(${profiles.name}, ${accounts.name})`,
      createdAt: comments.createdAt,
    })
    .from(comments)
    .innerJoin(accounts, eq(accounts.id, comments.accountId))
    .leftJoin(profiles, eq(profiles.id, comments.profileId))
    .where(eq(comments.movieId, sql.placeholder("movieId")))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(COMMENTS_LIMIT)
    .prepare(),
);

/**
 * Everything /WatchMovie shows, or null when there is no such published title:
 * the title with the viewer's part, the comments, and the two side lists (each
 * its entries and their cards), six statements.
 */
export function getWatchPage(
  db: DB,
  movieId: string,
  viewer: WatchViewer,
  options: { posterFormat?: SizedPosterFormat } = {},
): WatchPage | null {
  if (!movieId) return null;
  const children = viewer.profile.children;
  const movie = watchPageTitle(db).get({
    movieId,
    viewerId: viewer.id,
    profileId: viewer.profile.id,
    children: children ? 1 : 0,
  });
  if (!movie) return null;
  const commentRows = watchPageComments(db).all({ movieId: movie.id });
  const lists = movie.lists?.split(",") ?? [];
  const ratingCount = Number(movie.ratingCount);

  // Other films and series (an episode's own series and the title itself left out), newest first.
  const others = (filter: EntryFilter) =>
    listCardsForEntries(
      db,
      queryEntries(db, { ...filter, childrenOnly: children }, { order: "new", limit: SIDE_LIST_LIMIT + 1 })
        .filter((entry) => entry.id !== (entry.kind === "film" ? movie.id : movie.seriesId))
        .slice(0, SIDE_LIST_LIMIT),
    );

  return {
    movie: {
      id: movie.id,
      name: movie.name,
      description: movie.description,
      cast: movie.cast,
      categoryName: movie.categoryName,
      providerName: movie.providerName,
      playerPoster: movie.posterFile
        ? sizedPosterUrl(
            { kind: "title", id: movie.id, version: movie.posterVersion },
            "hero",
            960,
            options.posterFormat ?? "jpg",
          )
        : null,
      durationSeconds: movie.durationSeconds,
      videoUrl: `/api/files/${movie.id}.mp4`,
      mediaVersion: movie.mediaVersion,
    },
    averageRating: roundedStars(movie.averageStars, ratingCount),
    ratingCount,
    myRating: movie.myStars ?? null,
    comments: commentRows.map((row) => ({
      id: row.id,
      body: row.body,
      authorName: row.authorName,
      createdAt: row.createdAt.toISOString(),
      canDelete: row.accountId === viewer.id || viewer.role === "admin",
    })),
    providerTitles: others({ providerId: movie.providerId }),
    related: others({ categoryId: movie.categoryId }),
    onWatchLater: lists.includes("watch_later"),
    onSaved: lists.includes("saved"),
    resumeSeconds: resumePosition(movie.lastPosition, movie.durationSeconds),
  };
}

export const commentSchema = z.object({
  body: requiredText("watch:errors.commentRequired", {
    max: COMMENT_MAX_LENGTH,
    tooLong: "watch:errors.commentTooLong",
  }),
});

export type CommentResult =
  { ok: true; id: string } | { ok: false; notFound: true } | { ok: false; fieldErrors: Record<string, string[]> };

export function addComment(
  db: DB,
  input: ByProfile & { movieId: string; body: unknown },
  now: Date = new Date(),
): CommentResult {
  const parsed = commentSchema.safeParse({ body: typeof input.body === "string" ? input.body : undefined });
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrorsOf(parsed.error) };
  if (!findPublishedMovie(db, input.movieId, input.children)) return { ok: false, notFound: true };
  const id = createId();
  db.insert(comments)
    .values({
      id,
      movieId: input.movieId,
      accountId: input.accountId,
      profileId: input.profileId,
      body: parsed.data.body,
      createdAt: now,
    })
    .run();
  return { ok: true, id };
}

/** The author may delete their comment; an administrator any comment. */
export function deleteComment(db: DB, commentId: string, actor: Actor): "deleted" | "forbidden" | "notFound" {
  if (!commentId) return "notFound";
  const comment = db.select({ accountId: comments.accountId }).from(comments).where(eq(comments.id, commentId)).get();
  if (!comment) return "notFound";
  if (comment.accountId !== actor.id && actor.role !== "admin") return "forbidden";
  db.delete(comments).where(eq(comments.id, commentId)).run();
  return "deleted";
}

export const starsSchema = z.coerce.number().int().min(1).max(5);

/** One rating per viewer and title; rating again changes it. */
export function rateMovie(
  db: DB,
  input: ByProfile & { movieId: string; stars: unknown },
  now: Date = new Date(),
): "rated" | "invalid" | "notFound" {
  const stars = starsSchema.safeParse(input.stars);
  if (!stars.success || input.stars === "" || input.stars === null || input.stars === undefined) return "invalid";
  if (!findPublishedMovie(db, input.movieId, input.children)) return "notFound";
  db.insert(ratings)
    .values({
      movieId: input.movieId,
      accountId: input.accountId,
      profileId: input.profileId,
      stars: stars.data,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [ratings.movieId, ratings.accountId],
      set: { stars: stars.data, profileId: input.profileId, updatedAt: now },
    })
    .run();
  return "rated";
}

export const progressSchema = z.object({
  movieId: z.string().min(1).max(64),
  positionSeconds: z.coerce
    .number()
    .finite()
    .min(0)
    .max(24 * 60 * 60),
});

export type ProgressResult =
  { ok: true; eventId: string; newViewing: boolean; positionSeconds: number } | { ok: false; notFound: true };

/**
 * The player reports where the viewer is. The viewer's latest event for this
 * title is updated unless it is a finished viewing or has been idle for
 * VIEWING_IDLE_MS; then a new viewing starts, and only a new viewing adds one
 * to movies.views (so reloads, seeks and beacons never count twice).
 */
export function recordProgress(
  db: DB,
  input: ByProfile & { movieId: string; positionSeconds: number },
  now: Date = new Date(),
): ProgressResult {
  return db.transaction((tx) => {
    const movie = findPublishedMovie(tx as unknown as DB, input.movieId, input.children);
    if (!movie) return { ok: false, notFound: true } as const;
    const position = Math.max(
      0,
      Math.floor(
        movie.durationSeconds > 0 ? Math.min(input.positionSeconds, movie.durationSeconds) : input.positionSeconds,
      ),
    );
    const last = currentViewing(tx as unknown as DB, input.profileId, movie, now, position);
    if (last) {
      tx.update(watchEvents)
        .set({ positionSeconds: position, updatedAt: now, viewCounted: true })
        .where(eq(watchEvents.id, last.id))
        .run();
      if (!last.viewCounted)
        tx.update(movies)
          .set({ views: sql`${movies.views} + 1` })
          .where(eq(movies.id, movie.id))
          .run();
      return { ok: true, eventId: last.id, newViewing: false, positionSeconds: position } as const;
    }
    const id = createId();
    tx.insert(watchEvents)
      .values({
        id,
        accountId: input.accountId,
        profileId: input.profileId,
        movieId: movie.id,
        startedAt: now,
        updatedAt: now,
        positionSeconds: position,
        viewCounted: true,
      })
      .run();
    tx.update(movies)
      .set({ views: sql`${movies.views} + 1` })
      .where(eq(movies.id, movie.id))
      .run();
    return { ok: true, eventId: id, newViewing: true, positionSeconds: position } as const;
  });
}

/**
 * The viewer's viewing of a title still going on (not idle for VIEWING_IDLE_MS, not finished), if any.
 * A report of a position at the end (`position`) still belongs to a viewing that just finished: a
 * player reports the end more than once (its pause, then its end), and that is one viewing, one view.
 */
function currentViewing(
  db: DB,
  profileId: string,
  movie: { id: string; durationSeconds: number },
  now: Date,
  position?: number,
) {
  const last = db
    .select({
      id: watchEvents.id,
      updatedAt: watchEvents.updatedAt,
      positionSeconds: watchEvents.positionSeconds,
      viewCounted: watchEvents.viewCounted,
    })
    .from(watchEvents)
    // A viewing removed from the history is never continued: playing again starts a new, visible one.
    .where(and(eq(watchEvents.profileId, profileId), eq(watchEvents.movieId, movie.id), isNull(watchEvents.hiddenAt)))
    .orderBy(desc(watchEvents.updatedAt))
    .limit(1)
    .get();
  const continues =
    last &&
    now.getTime() - last.updatedAt.getTime() < VIEWING_IDLE_MS &&
    (!isFinished(last.positionSeconds, movie.durationSeconds) ||
      (position !== undefined && isFinished(position, movie.durationSeconds)));
  return continues ? last : undefined;
}

export type ViewingResult =
  { ok: true; eventId: string; viewCounted: boolean; views: number } | { ok: false; notFound: true };

/**
 * A player that reports "started" or "watched" without a position (the old
 * clients' PUT /api/files/movies/views/{id} and POST /api/files/watched):
 * the current viewing goes on, or a new one starts at 0, so it appears in the
 * history. With `countView` the viewing's view is counted, once per viewing,
 * by the same rule as recordProgress; the position is never moved.
 */
export function markViewing(
  db: DB,
  input: ByProfile & { movieId: string; countView: boolean },
  now: Date = new Date(),
): ViewingResult {
  return db.transaction((tx) => {
    const movie = findPublishedMovie(tx as unknown as DB, input.movieId, input.children);
    if (!movie) return { ok: false, notFound: true } as const;
    const current = currentViewing(tx as unknown as DB, input.profileId, movie, now);
    let eventId: string;
    let counted = false;
    if (current) {
      eventId = current.id;
      counted = input.countView && !current.viewCounted;
      tx.update(watchEvents)
        .set({ updatedAt: now, ...(counted ? { viewCounted: true } : {}) })
        .where(eq(watchEvents.id, current.id))
        .run();
    } else {
      eventId = createId();
      counted = input.countView;
      tx.insert(watchEvents)
        .values({
          id: eventId,
          accountId: input.accountId,
          profileId: input.profileId,
          movieId: movie.id,
          startedAt: now,
          updatedAt: now,
          positionSeconds: 0,
          viewCounted: counted,
        })
        .run();
    }
    if (counted)
      tx.update(movies)
        .set({ views: sql`${movies.views} + 1` })
        .where(eq(movies.id, movie.id))
        .run();
    const views = tx.select({ views: movies.views }).from(movies).where(eq(movies.id, movie.id)).get()?.views ?? 0;
    return { ok: true, eventId, viewCounted: counted, views } as const;
  });
}

import { and, count, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { movies, notifications } from "~/db/schema";
import { dateFormatter } from "~/utils/dates";
import { isChildSafeTitle, isPublished } from "./catalogue.server";

/**
 * A notice's values as its reader reads them: a moment (`endsAt`) written in
 * the reader's language and the pages' zone, a plan by its name in that
 * language (`planHa`); other values as stored.
 */
export function shownNotificationValues(
  values: Record<string, string | number>,
  language: string,
): Record<string, string | number> {
  const shown = { ...values };
  if (typeof values.endsAt === "string" && !Number.isNaN(Date.parse(values.endsAt)))
    shown.date = dateFormatter(language, "dateTime").format(new Date(values.endsAt));
  if (language === "ha" && typeof values.planHa === "string" && values.planHa) shown.plan = values.planHa;
  return shown;
}

/**
 * The notices a profile is shown: all of the account's, but a children's profile only those of no title or
 * of a title it may open (a new episode of a 15-rated series is not its news). The same rule as its lists.
 */
function shownTo(children: boolean): SQL | undefined {
  return children
    ? sql`(${notifications.movieId} IS NULL OR EXISTS (SELECT 1 FROM ${movies} WHERE ${movies.id} = ${notifications.movieId} AND ${isChildSafeTitle()}))`
    : undefined;
}

/** A person's notifications (new titles and the like), newest first; `children`: what a children's profile is shown. */
export function listNotifications(db: DB, accountId: string, options: { children?: boolean; limit?: number } = {}) {
  const limit = options.limit ?? 50;
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      messageKey: notifications.messageKey,
      messageValues: notifications.messageValues,
      link: notifications.link,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(and(eq(notifications.accountId, accountId), shownTo(Boolean(options.children))))
    .orderBy(desc(notifications.createdAt))
    .limit(limit)
    .all();
}

// The bell on every signed-in page: prepared once (a grown-up's, a children's profile's).
const unreadCountFor = (children: boolean) =>
  preparedQuery((db) =>
    db
      .select({ value: count() })
      .from(notifications)
      .where(
        and(eq(notifications.accountId, sql.placeholder("accountId")), isNull(notifications.readAt), shownTo(children)),
      )
      .prepare(),
  );
const unreadCount = { grownUp: unreadCountFor(false), children: unreadCountFor(true) };

export function countUnreadNotifications(db: DB, accountId: string, options: { children?: boolean } = {}): number {
  return (options.children ? unreadCount.children : unreadCount.grownUp)(db).get({ accountId })?.value ?? 0;
}

/** Mark one (only the owner's) or all of a person's notifications read. */
export function markNotificationsRead(db: DB, accountId: string, notificationId?: string): number {
  const owner = and(eq(notifications.accountId, accountId), isNull(notifications.readAt));
  return db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(notificationId ? and(owner, eq(notifications.id, notificationId)) : owner)
    .run().changes;
}

export const NEW_TITLE_KIND = "new_title";
export const NEW_TITLE_MESSAGE = "browse:notifications.newInCategory";
export const NEW_EPISODE_KIND = "new_episode";
export const NEW_EPISODE_MESSAGE = "series:notifications.newEpisode";

/**
 * A title has just become published (approved by an administrator, or ready
 * with auto-approval on): tell every viewer who has a visible viewing of a
 * title in the same category, once. One INSERT…SELECT does the whole fan-out
 * (watch_events found through movies_category_idx and watch_events_movie_idx);
 * the unique index on (account, kind, title) makes a second call for the same
 * title add nothing. Nothing happens while the title is not published. The
 * number of notifications created.
 *
 * An episode is told only to the viewers of its own series (a visible
 * viewing of any of its episodes), as "new episode", never to the whole
 * category: a series of a hundred episodes would otherwise flood the bell.
 */
export function notifyNewTitle(db: Pick<DB, "run">, movieId: string, now: Date = new Date()): number {
  const forCategory = db.run(sql`
    INSERT INTO notifications (id, account_id, kind, message_key, message_values, link, movie_id, created_at)
    SELECT lower(hex(randomblob(8))), watchers.account_id, ${NEW_TITLE_KIND}, ${NEW_TITLE_MESSAGE},
           json_object('category', categories.name, 'title', movies.name),
           '/WatchMovie?id=' || movies.id, movies.id, ${now.getTime()}
    FROM movies
    INNER JOIN categories ON categories.id = movies.category_id
    INNER JOIN (
      SELECT DISTINCT watch_events.account_id, watched.category_id
      FROM movies AS watched
      INNER JOIN watch_events ON watch_events.movie_id = watched.id AND watch_events.hidden_at IS NULL
      WHERE watched.category_id = (SELECT category_id FROM movies WHERE id = ${movieId})
    ) AS watchers ON watchers.category_id = movies.category_id
    INNER JOIN accounts ON accounts.id = watchers.account_id AND accounts.role = 'viewer' AND accounts.blocked = 0
    WHERE movies.id = ${movieId} AND movies.season_id IS NULL AND ${isPublished()}
    ON CONFLICT DO NOTHING
  `).changes;
  // The series' viewers: seasons by series (seasons_series_number_unique), its episodes by season, their viewings by title.
  const forSeries = db.run(sql`
    INSERT INTO notifications (id, account_id, kind, message_key, message_values, link, movie_id, created_at)
    SELECT lower(hex(randomblob(8))), watchers.account_id, ${NEW_EPISODE_KIND}, ${NEW_EPISODE_MESSAGE},
           json_object('series', series.name, 'code', 'S' || seasons.number || 'E' || movies.episode_number, 'title', movies.name),
           '/WatchMovie?id=' || movies.id, movies.id, ${now.getTime()}
    FROM movies
    INNER JOIN seasons ON seasons.id = movies.season_id
    INNER JOIN series ON series.id = seasons.series_id AND series.approved = 1
    INNER JOIN (
      SELECT DISTINCT watch_events.account_id
      FROM seasons AS watched_seasons
      INNER JOIN movies AS watched ON watched.season_id = watched_seasons.id
      INNER JOIN watch_events ON watch_events.movie_id = watched.id AND watch_events.hidden_at IS NULL
      WHERE watched_seasons.series_id = (SELECT seasons.series_id FROM movies INNER JOIN seasons ON seasons.id = movies.season_id WHERE movies.id = ${movieId})
        AND watched.id <> ${movieId}
    ) AS watchers
    INNER JOIN accounts ON accounts.id = watchers.account_id AND accounts.role = 'viewer' AND accounts.blocked = 0
    WHERE movies.id = ${movieId} AND ${isPublished()}
    ON CONFLICT DO NOTHING
  `).changes;
  return forCategory + forSeries;
}

/** Open one of a person's notifications: mark it read and give its link (null when it is not theirs or has none). */
export function openNotification(db: DB, accountId: string, notificationId: string): string | null {
  if (!notificationId) return null;
  const row = db
    .select({ link: notifications.link })
    .from(notifications)
    .where(and(eq(notifications.id, notificationId), eq(notifications.accountId, accountId)))
    .get();
  if (!row) return null;
  markNotificationsRead(db, accountId, notificationId);
  return row.link;
}

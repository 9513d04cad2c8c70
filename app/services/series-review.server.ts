import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, movies, seasons, series, type Role } from "~/db/schema";
import { qualified } from "~/db/sql";
import { seriesPosterUrl } from "~/media/storage.server";
import { recordAudit } from "./audit.server";
import { publishingVerb, type PublishingChange } from "./publishing";
import type { ResubmitOutcome, ReturnInput } from "./title-lifecycle.server";
import { tellProvider } from "./review-notices.server";
import { notifyNewTitle } from "./notifications.server";
import { reviewedSeries, seasonIdsOf } from "./series.server";

/**
 * The administrator and a series: every series in one table, approving,
 * featuring, Free or Premium for the series and its episodes (an episode may
 * keep a price of its own), sending back with a reason, and the provider's
 * resubmission.
 */

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
      ageRating: series.ageRating,
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

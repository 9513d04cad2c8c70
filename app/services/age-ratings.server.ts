import { and, eq, isNull } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { isAgeRating, type AgeRating } from "~/db/age-ratings";
import { movies, series } from "~/db/schema";
import { recordAudit } from "./audit.server";

/**
 * An administrator's age rating of a film or a series, set while reviewing
 * (a provider sets one on upload and edit: title-fields.ts). An episode
 * carries its series' rating and has none of its own. Changing a rating is
 * live at once: children's profiles list, open and stream by it.
 */
export type RatingChoice = AgeRating | null;

/** The form's value: a rating, or "" for "not rated"; undefined when it is neither. */
export function readRatingChoice(value: unknown): RatingChoice | undefined {
  if (value === "" || value === "unrated") return null;
  return isAgeRating(value) ? value : undefined;
}

type Actor = { actorId: string; ipAddress?: string | null };

/** Rate a film (not an episode). False when there is no such film. */
export function rateTitle(db: DB, movieId: string, rating: RatingChoice, actor: Actor): boolean {
  return db.transaction((tx) => {
    const before = tx
      .select({ ageRating: movies.ageRating })
      .from(movies)
      .where(and(eq(movies.id, movieId), isNull(movies.seasonId)))
      .get();
    if (!before) return false;
    tx.update(movies).set({ ageRating: rating }).where(eq(movies.id, movieId)).run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "movie.age_rating",
      targetType: "movie",
      targetId: movieId,
      details: { before: before.ageRating, after: rating },
      ipAddress: actor.ipAddress,
    });
    return true;
  });
}

/** Rate a series (its episodes with it). False when there is no such series. */
export function rateSeries(db: DB, seriesId: string, rating: RatingChoice, actor: Actor): boolean {
  return db.transaction((tx) => {
    const before = tx.select({ ageRating: series.ageRating }).from(series).where(eq(series.id, seriesId)).get();
    if (!before) return false;
    tx.update(series).set({ ageRating: rating }).where(eq(series.id, seriesId)).run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "series.age_rating",
      targetType: "series",
      targetId: seriesId,
      details: { before: before.ageRating, after: rating },
      ipAddress: actor.ipAddress,
    });
    return true;
  });
}

import { eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { movies, type PassPeriod, type Role } from "~/db/schema";
import type { Currency } from "~/utils/money";
import { allowsPremium, getPassStatus } from "./passes.server";
import { checkPlaybackLease } from "./playback.server";
import { listPlansOnOffer, type PlanOffer } from "./plans.server";
import { isBoundByPlan } from "~/services/roles";

/**
 * What the billing pages show, read through the billing services: the plans
 * on sale with their prices, and what a title's page may offer its viewer.
 */

/** A plan a locked title's page offers: one that includes Premium titles, from its cheapest pass. */
export type PremiumOffer = { code: string; name: string; cheapest: { price: string; period: PassPeriod } | null };

export type WatchAccess =
  { kind: "play" } | { kind: "needsPass"; plans: PremiumOffer[] } | { kind: "screens"; screens: number };

/** The plans on sale that include Premium titles, each with its cheapest pass (what a locked title names). */
export function premiumOffers(plans: readonly PlanOffer[]): PremiumOffer[] {
  return plans
    .filter((plan) => plan.premium && plan.prices.length > 0)
    .map((plan) => {
      const cheapest = [...plan.prices].sort((a, b) => a.priceMinor - b.priceMinor)[0];
      return {
        code: plan.code,
        name: plan.name,
        cheapest: cheapest ? { price: cheapest.price, period: cheapest.period } : null,
      };
    });
}

const titleAccess = preparedQuery((db) =>
  db
    .select({ access: movies.access })
    .from(movies)
    .where(eq(movies.id, sql.placeholder("movieId")))
    .prepare(),
);

/**
 * What the watch page shows instead of (or as) the player: the player; a
 * "needs a pass" panel for a Premium title the plan in force does not
 * include; or the screens panel when other devices use every screen of the
 * plan. Read only: the video's byte requests take the lease.
 */
export function decideWatchAccess(
  db: DB,
  input: { account: { id: string; role: Role }; movieId: string; deviceId: string | null },
  reader: { language: string; currency: Currency },
  now: Date = new Date(),
): WatchAccess {
  if (!isBoundByPlan(input.account.role)) return { kind: "play" };
  const movie = titleAccess(db).get({ movieId: input.movieId });
  if (movie?.access === "premium" && !allowsPremium(db, input.account.id, now)) {
    return { kind: "needsPass", plans: premiumOffers(listPlansOnOffer(db, reader.language, reader.currency)) };
  }
  const lease = checkPlaybackLease(
    db,
    { account: input.account, deviceId: input.deviceId ?? `account:${input.account.id}` },
    now,
  );
  if (!lease.ok) return { kind: "screens", screens: lease.screens };
  return { kind: "play" };
}

export { getPassStatus };

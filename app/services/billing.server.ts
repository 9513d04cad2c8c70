import { eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { movies, type PassPeriod, type Role } from "~/db/schema";
import { formatPrice } from "~/utils/money";
import { FREE_PLAN_CODE, getPassStatus, hasActivePass } from "./passes.server";
import { checkPlaybackLease } from "./playback.server";
import { listOfferedPlans, listPlanPeriods, type OfferedPlan } from "./plans.server";
import { isBoundByPlan } from "~/services/roles";

/**
 * What the billing pages show, read through the billing services: the plans
 * on sale with their periods, and what a title's page may offer its viewer.
 */

export type PlanForSale = OfferedPlan & {
  periods: { period: PassPeriod; days: number; priceMinor: number; price: string }[];
};

/** Offered plans with their pass periods and formatted prices (FREE has none). */
export function listPlansForSale(db: DB): PlanForSale[] {
  const offered = listOfferedPlans(db);
  const periods = listPlanPeriods(
    db,
    offered.map((plan) => plan.id),
  );
  return offered.map((plan) => ({
    ...plan,
    periods:
      plan.code === FREE_PLAN_CODE
        ? []
        : (periods[plan.id] ?? []).map((period) => ({
            ...period,
            price: formatPrice(period.priceMinor, plan.currency),
          })),
  }));
}

export type WatchAccess =
  | { kind: "play" }
  | {
      kind: "needsPass";
      plans: { code: string; name: string; cheapest: { price: string; period: PassPeriod } | null }[];
    }
  | { kind: "screens"; screens: number };

const titleAccess = preparedQuery((db) =>
  db
    .select({ access: movies.access })
    .from(movies)
    .where(eq(movies.id, sql.placeholder("movieId")))
    .prepare(),
);

/**
 * What the watch page shows instead of (or as) the player: the player; a
 * "needs a pass" panel for a Premium title without a pass; or the screens
 * panel when other devices use every screen of the plan. Read only: the
 * video's byte requests take the lease.
 */
export function decideWatchAccess(
  db: DB,
  input: { account: { id: string; role: Role }; movieId: string; deviceId: string | null },
  now: Date = new Date(),
): WatchAccess {
  if (!isBoundByPlan(input.account.role)) return { kind: "play" };
  const movie = titleAccess(db).get({ movieId: input.movieId });
  if (movie?.access === "premium" && !hasActivePass(db, input.account.id, now)) {
    const plans = listPlansForSale(db)
      .filter((plan) => plan.periods.length > 0)
      .map((plan) => {
        const cheapest = plan.periods[0];
        return {
          code: plan.code,
          name: plan.name,
          cheapest: cheapest ? { price: cheapest.price, period: cheapest.period } : null,
        };
      });
    return { kind: "needsPass", plans };
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

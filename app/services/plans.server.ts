import { asc, eq } from "drizzle-orm";
import { getDb, type DB } from "~/db/client.server";
import { PLAN_FEATURES, plans, type PlanFeature } from "~/db/schema";
import { annualPriceMinor, formatPrice } from "~/utils/money";

export { annualPriceMinor, formatPrice, parseBilling, type Billing } from "~/utils/money";

/** A plan as the pages show it: prices in minor units plus ready-formatted strings. */
export type OfferedPlan = {
  id: string;
  code: string;
  name: string;
  currency: string;
  monthlyPriceMinor: number;
  annualPriceMinor: number;
  annualDiscountPercent: number;
  monthlyPrice: string;
  annualPrice: string;
  screens: number;
  maxQuality: "sd" | "hd" | "uhd";
  features: PlanFeature[];
};

/** Keep only features the app knows, in the canonical order (the column is JSON an admin edits). */
function knownFeatures(value: unknown): PlanFeature[] {
  if (!Array.isArray(value)) return [];
  return PLAN_FEATURES.filter((feature) => value.includes(feature));
}

/** The plans visitors may choose, in the administrator's order (a handful of rows). */
export function listOfferedPlans(db: DB = getDb()): OfferedPlan[] {
  const rows = db.select().from(plans).where(eq(plans.offered, true)).orderBy(asc(plans.sortOrder), asc(plans.code)).all();
  return rows.map((plan) => {
    const annual = annualPriceMinor(plan.monthlyPriceMinor, plan.annualDiscountPercent);
    return {
      id: plan.id,
      code: plan.code,
      name: plan.name,
      currency: plan.currency,
      monthlyPriceMinor: plan.monthlyPriceMinor,
      annualPriceMinor: annual,
      annualDiscountPercent: plan.annualDiscountPercent,
      monthlyPrice: formatPrice(plan.monthlyPriceMinor, plan.currency),
      annualPrice: formatPrice(annual, plan.currency),
      screens: plan.screens,
      maxQuality: plan.maxQuality,
      features: knownFeatures(plan.features),
    };
  });
}

/** The offered plans and the features any of them includes (canonical order): the rows of a comparison. */
export function loadPlanComparison(db: DB = getDb()): { plans: OfferedPlan[]; features: PlanFeature[] } {
  const offered = listOfferedPlans(db);
  const features = PLAN_FEATURES.filter((feature) => offered.some((plan) => plan.features.includes(feature)));
  return { plans: offered, features };
}

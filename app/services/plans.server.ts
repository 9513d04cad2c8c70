import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb, type DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { PERIOD_DAYS, PLAN_FEATURES, planPeriods, plans, type PassPeriod, type PlanFeature } from "~/db/schema";
import { annualPriceMinor, formatPrice } from "~/utils/money";
import { recordAudit } from "./audit.server";

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

type PlanRow = typeof plans.$inferSelect;

/** A plan row as the pages show it: prices in minor units and formatted, monthly and annual. */
function toPlanView(plan: PlanRow) {
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
}

/** The plans visitors may choose, in the administrator's order (a handful of rows). */
// The landing page, /plans and every watch page of a Premium title without a pass ask: prepared once.
const offeredPlans = preparedQuery((db) =>
  db.select().from(plans).where(eq(plans.offered, true)).orderBy(asc(plans.sortOrder), asc(plans.code)).prepare(),
);

export function listOfferedPlans(db: DB = getDb()): OfferedPlan[] {
  return offeredPlans(db).all().map(toPlanView);
}

/** The offered plans and the features any of them includes (canonical order): the rows of a comparison. */
export function loadPlanComparison(db: DB = getDb()): { plans: OfferedPlan[]; features: PlanFeature[] } {
  const offered = listOfferedPlans(db);
  const features = PLAN_FEATURES.filter((feature) => offered.some((plan) => plan.features.includes(feature)));
  return { plans: offered, features };
}

/** Every plan, offered or not, for the administrator's table. */
export function listAllPlans(db: DB = getDb()) {
  return db
    .select()
    .from(plans)
    .orderBy(asc(plans.sortOrder), asc(plans.code))
    .all()
    .map((plan) => ({
      ...toPlanView(plan),
      offered: plan.offered,
      downloads: {
        allowed: plan.downloadsAllowed,
        maxDownloads: plan.maxDownloads,
        days: plan.downloadDays,
        playHours: plan.downloadPlayHours,
      },
    }));
}

export const PLAN_ERRORS = {
  price: "admin:plans.errors.price",
  priceDigits: "admin:plans.errors.priceDigits",
  currency: "admin:plans.errors.currency",
  screens: "admin:plans.errors.screens",
  quality: "admin:plans.errors.quality",
  discount: "admin:plans.errors.discount",
  downloadCount: "admin:plans.errors.downloadCount",
  downloadDays: "admin:plans.errors.downloadDays",
  downloadHours: "admin:plans.errors.downloadHours",
  notFound: "admin:plans.errors.notFound",
} as const;

export const PLAN_MAX_PRICE_MAJOR = 1_000_000;

function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat("en", { style: "currency", currency: code });
    return true;
  } catch {
    return false;
  }
}

/**
 * A price typed in major units ("14", "10.99", "1,500") as whole minor units,
 * or an error key: never negative, never more digits than the currency has.
 */
export function parsePriceToMinor(
  raw: string,
  currency: string,
): { ok: true; value: number } | { ok: false; error: string } {
  const text = raw.trim().replace(/,/g, "");
  const match = /^(\d{1,9})(?:\.(\d+))?$/.exec(text);
  if (!match) return { ok: false, error: PLAN_ERRORS.price };
  const digits = minorUnitDigitsSafe(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return { ok: false, error: PLAN_ERRORS.priceDigits };
  const major = Number(match[1]);
  if (major > PLAN_MAX_PRICE_MAJOR) return { ok: false, error: PLAN_ERRORS.price };
  return { ok: true, value: major * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0") };
}

function minorUnitDigitsSafe(currency: string): number {
  return isCurrency(currency)
    ? (new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2)
    : 2;
}

export type PlanEditInput = {
  price: string;
  currency: string;
  screens: string;
  maxQuality: string;
  annualDiscountPercent: string;
  features: string[];
  /** Offline downloads (left as they are when the form does not send them). */
  downloads?: { allowed: boolean; maxDownloads: string; days: string; playHours: string };
};

function whole(text: string, min: number, max: number): number | null {
  const value = Number(text.trim());
  return /^\d{1,4}$/.test(text.trim()) && value >= min && value <= max ? value : null;
}

type Actor = { actorId: string; ipAddress?: string | null };

/** Check and store an administrator's edit of one plan (prices typed in major units). */
export function updatePlan(
  db: DB,
  planId: string,
  input: PlanEditInput,
  actor: Actor,
): { ok: true } | { ok: false; fieldErrors: Record<string, string[]> } {
  const existing = db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId)).get();
  if (!existing) return { ok: false, fieldErrors: { form: [PLAN_ERRORS.notFound] } };
  const fieldErrors: Record<string, string[]> = {};
  const currency = input.currency.trim().toUpperCase();
  if (!isCurrency(currency)) fieldErrors.currency = [PLAN_ERRORS.currency];
  const price = parsePriceToMinor(input.price, currency);
  if (!price.ok) fieldErrors.price = [price.error];
  const screens = Number(input.screens.trim());
  if (!Number.isInteger(screens) || screens < 1 || screens > 10) fieldErrors.screens = [PLAN_ERRORS.screens];
  const maxQuality = input.maxQuality;
  if (maxQuality !== "sd" && maxQuality !== "hd" && maxQuality !== "uhd")
    fieldErrors.maxQuality = [PLAN_ERRORS.quality];
  const discountText = input.annualDiscountPercent.trim() || "0";
  const discount = Number(discountText);
  if (!/^\d{1,3}$/.test(discountText) || discount > 100) fieldErrors.annualDiscountPercent = [PLAN_ERRORS.discount];
  const downloads = input.downloads
    ? {
        downloadsAllowed: input.downloads.allowed,
        maxDownloads: whole(input.downloads.maxDownloads, 1, 100),
        downloadDays: whole(input.downloads.days, 1, 365),
        downloadPlayHours: whole(input.downloads.playHours, 1, 8760),
      }
    : null;
  if (downloads && downloads.maxDownloads === null) fieldErrors.maxDownloads = [PLAN_ERRORS.downloadCount];
  if (downloads && downloads.downloadDays === null) fieldErrors.downloadDays = [PLAN_ERRORS.downloadDays];
  if (downloads && downloads.downloadPlayHours === null) fieldErrors.downloadPlayHours = [PLAN_ERRORS.downloadHours];
  if (Object.keys(fieldErrors).length > 0 || !price.ok) return { ok: false, fieldErrors };
  const features = knownFeatures(input.features);
  db.transaction((tx) => {
    tx.update(plans)
      .set({
        monthlyPriceMinor: price.value,
        currency,
        screens,
        maxQuality: maxQuality as "sd" | "hd" | "uhd",
        annualDiscountPercent: discount,
        features,
        ...(downloads
          ? (downloads as {
              downloadsAllowed: boolean;
              maxDownloads: number;
              downloadDays: number;
              downloadPlayHours: number;
            })
          : {}),
      })
      .where(eq(plans.id, planId))
      .run();
    syncMonthPeriod(tx, planId, price.value);
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "plan.update",
      targetType: "plan",
      targetId: planId,
      details: {
        monthlyPriceMinor: price.value,
        currency,
        screens,
        maxQuality,
        annualDiscountPercent: discount,
        features,
        ...(downloads ?? {}),
      },
      ipAddress: actor.ipAddress,
    });
  });
  return { ok: true };
}

/** Offer a plan to viewers or withdraw it ('Active Plan'). */
export function setPlanOffered(db: DB, planId: string, offered: boolean, actor: Actor): boolean {
  return db.transaction((tx) => {
    const updated = tx.update(plans).set({ offered }).where(eq(plans.id, planId)).run();
    if (updated.changes === 0) return false;
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "plan.update",
      targetType: "plan",
      targetId: planId,
      details: { offered },
      ipAddress: actor.ipAddress,
    });
    return true;
  });
}

type Tx = Pick<DB, "select" | "insert" | "update" | "delete">;

/** A month's pass costs the plan's monthly price: one number, kept in step when the price changes. */
function syncMonthPeriod(tx: Tx, planId: string, monthlyPriceMinor: number): void {
  const plan = tx.select({ code: plans.code }).from(plans).where(eq(plans.id, planId)).get();
  const month = and(eq(planPeriods.planId, planId), eq(planPeriods.period, "month"));
  if (!plan || plan.code === "FREE" || monthlyPriceMinor <= 0) {
    tx.delete(planPeriods).where(month).run();
    return;
  }
  tx.insert(planPeriods)
    .values({ planId, period: "month", days: PERIOD_DAYS.month, priceMinor: monthlyPriceMinor })
    .onConflictDoUpdate({ target: [planPeriods.planId, planPeriods.period], set: { priceMinor: monthlyPriceMinor } })
    .run();
}

/** The periods of these plans with their prices (day, week, month order), for pages and the admin table. */
export function listPlanPeriods(
  db: DB,
  planIds: string[],
): Record<string, { period: PassPeriod; days: number; priceMinor: number }[]> {
  const result: Record<string, { period: PassPeriod; days: number; priceMinor: number }[]> = {};
  if (planIds.length === 0) return result;
  for (const row of db.select().from(planPeriods).where(inArray(planPeriods.planId, planIds)).all()) {
    (result[row.planId] ??= []).push({ period: row.period, days: row.days, priceMinor: row.priceMinor });
  }
  for (const list of Object.values(result)) list.sort((a, b) => a.days - b.days);
  return result;
}

/**
 * An administrator's day and week pass prices for a paid plan (typed in
 * major units; an empty field stops selling that period). The month's
 * price is the plan's monthly price.
 */
export function updatePlanPeriods(
  db: DB,
  planId: string,
  input: { day: string; week: string },
  actor: Actor,
): { ok: true } | { ok: false; fieldErrors: Record<string, string[]> } {
  const plan = db.select({ code: plans.code, currency: plans.currency }).from(plans).where(eq(plans.id, planId)).get();
  if (!plan || plan.code === "FREE") return { ok: false, fieldErrors: { form: [PLAN_ERRORS.notFound] } };
  const fieldErrors: Record<string, string[]> = {};
  const prices: Partial<Record<"day" | "week", number | null>> = {};
  for (const period of ["day", "week"] as const) {
    const text = input[period].trim();
    if (!text) {
      prices[period] = null;
      continue;
    }
    const parsed = parsePriceToMinor(text, plan.currency);
    if (!parsed.ok || parsed.value <= 0) fieldErrors[period] = [parsed.ok ? PLAN_ERRORS.price : parsed.error];
    else prices[period] = parsed.value;
  }
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  db.transaction((tx) => {
    for (const period of ["day", "week"] as const) {
      const price = prices[period];
      const where = and(eq(planPeriods.planId, planId), eq(planPeriods.period, period));
      if (price === null || price === undefined) tx.delete(planPeriods).where(where).run();
      else
        tx.insert(planPeriods)
          .values({ planId, period, days: PERIOD_DAYS[period], priceMinor: price })
          .onConflictDoUpdate({ target: [planPeriods.planId, planPeriods.period], set: { priceMinor: price } })
          .run();
    }
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "plan.periods",
      targetType: "plan",
      targetId: planId,
      details: { day: prices.day ?? null, week: prices.week ?? null },
      ipAddress: actor.ipAddress,
    });
  });
  return { ok: true };
}

import { PASS_PERIODS, PERIOD_DAYS, type PassPeriod } from "~/db/pass-periods";
import { parseAmount } from "~/utils/money";

/**
 * What an administrator may set on a plan, and the checks of the plan form.
 * No server code: the plan editor's page imports the choices too.
 */

/** The plan coded FREE is what everyone without an active pass is on; it is never sold. */
export const FREE_PLAN_CODE = "FREE";

/** The highest picture a plan may allow: a rung of the adaptive ladder (short side in lines). */
export const PLAN_RUNGS = [240, 360, 480, 720, 1080] as const;

export const PLAN_LIMITS = {
  nameLength: 40,
  descriptionLength: 300,
  screens: { min: 1, max: 10 },
  maxDownloads: { min: 1, max: 100 },
  downloadDays: { min: 1, max: 365 },
  downloadPlayHours: { min: 1, max: 8760 },
} as const;

export const PLAN_ERRORS = {
  name: "admin:plans.errors.name",
  nameHa: "admin:plans.errors.nameHa",
  description: "admin:plans.errors.description",
  price: "admin:plans.errors.price",
  priceDigits: "admin:plans.errors.priceDigits",
  noPrice: "admin:plans.errors.noPrice",
  screens: "admin:plans.errors.screens",
  quality: "admin:plans.errors.quality",
  downloadCount: "admin:plans.errors.downloadCount",
  downloadDays: "admin:plans.errors.downloadDays",
  downloadHours: "admin:plans.errors.downloadHours",
  notFound: "admin:plans.errors.notFound",
  freeExists: "admin:plans.errors.freeExists",
  sold: "admin:plans.errors.sold",
  notEmpty: "admin:plans.errors.notEmpty",
} as const;

/** A plan's names and descriptions, in English and Hausa. */
export type PlanTexts = { name: string; nameHa: string; description: string; descriptionHa: string };

/** What a plan allows, as its row keeps it. */
export type PlanRules = {
  premium: boolean;
  screens: number;
  maxRung: number;
  downloadsAllowed: boolean;
  maxDownloads: number;
  downloadDays: number;
  downloadPlayHours: number;
};

type NumberRule = "screens" | "maxRung" | "maxDownloads" | "downloadDays" | "downloadPlayHours";

/** The plan form's fields as posted (strings; a checkbox is "on" or absent). */
export type PlanFormFields = PlanTexts &
  Omit<PlanRules, NumberRule> &
  Record<NumberRule, string> & {
    /** A price per pass length in major units; empty: that length is not sold. */
    prices: Partial<Record<PassPeriod, string>>;
  };

export type PlanValues = PlanTexts &
  PlanRules & {
    /** The lengths sold and their prices in minor units (none for the free plan). */
    prices: { period: PassPeriod; days: number; priceMinor: number }[];
  };

/** What a plan lets its holder do: Premium titles, screens at once, the highest rung, offline downloads. */
export type PlanLimits = {
  premium: boolean;
  screens: number;
  maxRung: number;
  downloads: { allowed: boolean; maxDownloads: number; days: number; playHours: number };
};

export function planLimits(plan: PlanRules): PlanLimits {
  return {
    premium: plan.premium,
    screens: plan.screens,
    maxRung: plan.maxRung,
    downloads: {
      allowed: plan.downloadsAllowed,
      maxDownloads: plan.maxDownloads,
      days: plan.downloadDays,
      playHours: plan.downloadPlayHours,
    },
  };
}

export type PlanCheck = { ok: true; value: PlanValues } | { ok: false; fieldErrors: Record<string, string[]> };

function wholeIn(text: string, range: { min: number; max: number }): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,5}$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= range.min && value <= range.max ? value : null;
}

/** One line of text, spaces collapsed. */
function line(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Check a plan form. Prices are read as the administrator's language writes
 * them (1,500 / 1.500). A pass plan sells at least one length; the free plan
 * sells none (its price fields are ignored). Download numbers are kept even
 * when downloads are off, so turning them back on restores them.
 */
export function checkPlanForm(
  fields: PlanFormFields,
  context: { currency: string; language: string; free: boolean },
): PlanCheck {
  const errors: Record<string, string[]> = {};
  const name = line(fields.name);
  const nameHa = line(fields.nameHa);
  const description = fields.description.trim();
  const descriptionHa = fields.descriptionHa.trim();
  if (!name || name.length > PLAN_LIMITS.nameLength) errors.name = [PLAN_ERRORS.name];
  if (!nameHa || nameHa.length > PLAN_LIMITS.nameLength) errors.nameHa = [PLAN_ERRORS.nameHa];
  if (description.length > PLAN_LIMITS.descriptionLength) errors.description = [PLAN_ERRORS.description];
  if (descriptionHa.length > PLAN_LIMITS.descriptionLength) errors.descriptionHa = [PLAN_ERRORS.description];
  const screens = wholeIn(fields.screens, PLAN_LIMITS.screens);
  if (screens === null) errors.screens = [PLAN_ERRORS.screens];
  const maxRung = Number(fields.maxRung);
  if (!(PLAN_RUNGS as readonly number[]).includes(maxRung)) errors.maxRung = [PLAN_ERRORS.quality];
  const maxDownloads = wholeIn(fields.maxDownloads, PLAN_LIMITS.maxDownloads);
  const downloadDays = wholeIn(fields.downloadDays, PLAN_LIMITS.downloadDays);
  const downloadPlayHours = wholeIn(fields.downloadPlayHours, PLAN_LIMITS.downloadPlayHours);
  if (maxDownloads === null) errors.maxDownloads = [PLAN_ERRORS.downloadCount];
  if (downloadDays === null) errors.downloadDays = [PLAN_ERRORS.downloadDays];
  if (downloadPlayHours === null) errors.downloadPlayHours = [PLAN_ERRORS.downloadHours];

  const prices: PlanValues["prices"] = [];
  if (!context.free) {
    for (const period of PASS_PERIODS) {
      const text = (fields.prices[period] ?? "").trim();
      if (!text) continue;
      const parsed = parseAmount(text, context.currency, context.language);
      if (!parsed.ok) errors[period] = [parsed.reason === "digits" ? PLAN_ERRORS.priceDigits : PLAN_ERRORS.price];
      else if (parsed.value <= 0) errors[period] = [PLAN_ERRORS.price];
      else prices.push({ period, days: PERIOD_DAYS[period], priceMinor: parsed.value });
    }
    if (prices.length === 0 && !PASS_PERIODS.some((period) => errors[period])) errors.prices = [PLAN_ERRORS.noPrice];
  }

  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  return {
    ok: true,
    value: {
      name,
      nameHa,
      description,
      descriptionHa,
      premium: fields.premium,
      screens: screens!,
      maxRung,
      downloadsAllowed: fields.downloadsAllowed,
      maxDownloads: maxDownloads!,
      downloadDays: downloadDays!,
      downloadPlayHours: downloadPlayHours!,
      prices,
    },
  };
}

/**
 * A new plan's code from its English name: letters and digits in capitals,
 * words joined by "-", at most 20 characters, never FREE for a pass plan and
 * never one already taken (then "-2", "-3" …).
 */
export function planCodeFor(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 20)
      .replace(/-+$/, "") || "PLAN";
  let code = base;
  for (let n = 2; code === FREE_PLAN_CODE || taken.has(code); n++) code = `${base.slice(0, 16)}-${n}`;
  return code;
}

import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { planPeriods, plans } from "~/db/schema";
import { isCurrency, minorUnitDigits, type Currency } from "~/utils/money";
import { recordAudit } from "./audit.server";

/**
 * Money is never reinterpreted: a price keeps the currency it was set in
 * (`plan_periods.currency`). When the operator's CURRENCY differs from the
 * prices' the start refuses, naming both and the command that converts them
 * (`npm run prices:convert`) at a rate the operator gives, or keeps the
 * amounts as they are; each conversion is in the audit log with every price
 * before and after.
 *
 * Prices without a currency come only from a database that took migration
 * 0018 before it kept the plans' currency: since then they have been shown
 * and charged in CURRENCY, so the start records that, once, in the audit log.
 */

export type PriceCurrencies = { currency: string | null; prices: number }[];

export function priceCurrencies(db: DB): PriceCurrencies {
  return db
    .select({ currency: planPeriods.currency, prices: sql<number>`count(*)` })
    .from(planPeriods)
    .groupBy(planPeriods.currency)
    .all();
}

/** Record CURRENCY for prices that have none (see above); returns how many. */
export function recordMissingCurrency(db: DB, currency: Currency): number {
  return db.transaction((tx) => {
    const changed = tx.update(planPeriods).set({ currency }).where(isNull(planPeriods.currency)).run().changes;
    if (changed > 0)
      recordAudit(tx, {
        actorId: null,
        action: "prices.currency_recorded",
        details: {
          prices: changed,
          currency,
          why: "no currency was recorded for these prices (a database upgraded through migration 0018 before it kept the plans' currency); they have been shown and charged in CURRENCY since",
        },
      });
    return changed;
  });
}

/** Why the service must not start with `currency` (prices set in another), for the operator; null when it may. */
export function currencyRefusal(db: DB, currency: Currency): string | null {
  const others = priceCurrencies(db).filter((row) => row.currency !== null && row.currency !== currency);
  if (others.length === 0) return null;
  const what = others.map((row) => `${row.prices} in ${row.currency}`).join(", ");
  const from = others[0].currency!;
  return [
    `Plan prices were set in another currency than CURRENCY=${currency}: ${what}. Kallo never reads a price in a currency it was not set in.`,
    `Either start with CURRENCY=${from}${others.length > 1 ? " (and convert the rest)" : ""}, or convert the prices to ${currency}:`,
    `  npm run prices:convert -- --to ${currency} --rate <${currency} per 1 ${from}>`,
    "      (each price times the rate, rounded to the minor unit)",
    `  npm run prices:convert -- --to ${currency} --keep-amounts`,
    `      (the same figures, now in ${currency})`,
    "Either way the audit log records every price before and after.",
  ].join("\n");
}

export type Conversion = { planId: string; plan: string; period: string; from: string; before: number; after: number };

/**
 * Convert every price not in `to`: by `rate` (units of `to` per unit of the price's currency, in major units), or
 * keeping the figures. One transaction; one audit entry with each price before and after.
 */
export function convertPrices(db: DB, options: { to: Currency; rate?: number; keepAmounts?: boolean }): Conversion[] {
  if (!options.keepAmounts && !(options.rate && Number.isFinite(options.rate) && options.rate > 0))
    throw new Error("a rate above 0, or --keep-amounts");
  return db.transaction((tx) => {
    const rows = tx
      .select({
        planId: planPeriods.planId,
        plan: plans.name,
        period: planPeriods.period,
        priceMinor: planPeriods.priceMinor,
        currency: planPeriods.currency,
      })
      .from(planPeriods)
      .innerJoin(plans, eq(plans.id, planPeriods.planId))
      .where(or(isNull(planPeriods.currency), ne(planPeriods.currency, options.to)))
      .all();
    const done: Conversion[] = [];
    for (const row of rows) {
      const from = row.currency ?? options.to;
      const after = options.keepAmounts
        ? row.priceMinor
        : Math.round(row.priceMinor * options.rate! * 10 ** (minorUnitDigits(options.to) - minorUnitDigits(from)));
      tx.update(planPeriods)
        .set({ priceMinor: after, currency: options.to })
        .where(and(eq(planPeriods.planId, row.planId), eq(planPeriods.period, row.period)))
        .run();
      done.push({ planId: row.planId, plan: row.plan, period: row.period, from, before: row.priceMinor, after });
    }
    if (done.length > 0)
      recordAudit(tx, {
        actorId: null,
        action: "prices.convert",
        details: {
          to: options.to,
          rate: options.keepAmounts ? null : options.rate,
          keptAmounts: Boolean(options.keepAmounts),
          prices: done,
        },
      });
    return done;
  });
}

export function parseCurrency(code: string | undefined): Currency | null {
  const upper = code?.toUpperCase();
  return isCurrency(upper) ? upper : null;
}

/**
 * What a start (and `npm run upgrade`) does about prices: records CURRENCY for those without a currency,
 * and says why the service must not start when others were set in another currency (null when it may).
 */
export function settlePriceCurrency(db: DB, currency: Currency): { recorded: number; refusal: string | null } {
  const recorded = recordMissingCurrency(db, currency);
  return { recorded, refusal: currencyRefusal(db, currency) };
}

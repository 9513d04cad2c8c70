import { asc, eq, inArray, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { qualified } from "~/db/sql";
import { passes, payments, PERIOD_DAYS, planPeriods, plans, redeemCodes, type PassPeriod } from "~/db/schema";
import { formatMoney, minorUnitDigits, type Currency } from "~/utils/money";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import {
  checkPlanForm,
  FREE_PLAN_CODE,
  PLAN_ERRORS,
  planCodeFor,
  planLimits,
  type PlanFormFields,
  type PlanLimits,
} from "./plan-rules";
import { STARTER_PLANS } from "./starter-plans";

/**
 * Plans as an administrator makes them and as viewers read them. Every text a
 * viewer reads about a plan is made from these rows: what the plan allows
 * (Premium titles, screens at once, highest picture, downloads) is what
 * playback and downloads enforce (passes.server `getPassStatus`), and only the
 * pass lengths with a price are offered anywhere.
 */

type PlanRow = typeof plans.$inferSelect;
type Actor = { actorId: string; ipAddress?: string | null };

export type PlanPrice = { period: PassPeriod; days: number; priceMinor: number };

/** A plan as a viewer reads it, in their language, with its prices formatted for them. */
export type PlanOffer = {
  id: string;
  code: string;
  name: string;
  description: string;
  /** The free plan: what everyone without a pass has. */
  free: boolean;
  prices: (PlanPrice & { price: string })[];
} & PlanLimits;

/** A plan's name in the reader's language (Hausa falls back to English when the plan has none). */
export function localPlanName(plan: { name: string; nameHa: string }, language: string): string {
  return language === "ha" && plan.nameHa ? plan.nameHa : plan.name;
}

function localDescription(plan: { description: string; descriptionHa: string }, language: string): string {
  return (language === "ha" ? plan.descriptionHa || plan.description : plan.description || plan.descriptionHa) ?? "";
}

/** The prices of these plans, shortest pass first. */
export function listPlanPrices(db: Pick<DB, "select">, planIds: string[]): Record<string, PlanPrice[]> {
  const result: Record<string, PlanPrice[]> = {};
  if (planIds.length === 0) return result;
  for (const row of db.select().from(planPeriods).where(inArray(planPeriods.planId, planIds)).all()) {
    (result[row.planId] ??= []).push({ period: row.period, days: row.days, priceMinor: row.priceMinor });
  }
  for (const list of Object.values(result)) list.sort((a, b) => a.days - b.days);
  return result;
}

// The landing page, /plans, /payment and the watch page of a Premium title without a pass ask: prepared once.
const offeredPlansQuery = preparedQuery((db) =>
  db
    .select()
    .from(plans)
    .where(eq(plans.offered, true))
    .orderBy(asc(plans.sortOrder), asc(plans.createdAt), asc(plans.code))
    .prepare(),
);

function toOffer(plan: PlanRow, prices: PlanPrice[], language: string, currency: Currency): PlanOffer {
  const free = plan.code === FREE_PLAN_CODE;
  return {
    id: plan.id,
    code: plan.code,
    name: localPlanName(plan, language),
    description: localDescription(plan, language),
    free,
    ...planLimits(plan),
    prices: free ? [] : prices.map((price) => ({ ...price, price: formatMoney(price.priceMinor, currency, language) })),
  };
}

/**
 * The plans on offer, in the administrator's order, in the reader's
 * language: the free plan and every pass plan that sells at least one length.
 */
export function listPlansOnOffer(db: DB, language: string, currency: Currency): PlanOffer[] {
  const rows = offeredPlansQuery(db).all();
  const prices = listPlanPrices(
    db,
    rows.map((row) => row.id),
  );
  return rows
    .map((row) => toOffer(row, prices[row.id] ?? [], language, currency))
    .filter((plan) => plan.free || plan.prices.length > 0);
}

// ---------------------------------------------------------------------------
// The administrator's plan editor.

export type AdminPlan = PlanRow & {
  free: boolean;
  prices: PlanPrice[];
  /** Passes sold or redeemed, and of those running now. */
  passesSold: number;
  passesActive: number;
  /** Ever sold (a pass, a payment or a voucher names it): retired, never deleted. */
  sold: boolean;
};

/** Every plan, on offer or retired, in the administrator's order, with its prices and what was sold. */
export function listPlansForAdmin(db: DB, now: Date = new Date()): AdminPlan[] {
  const at = now.getTime();
  // The outer plan, named with its table inside the correlated subqueries (each reads its own index on plan_id).
  const planId = qualified(plans.id);
  const rows = db
    .select({
      plan: plans,
      passesSold: sql<number>`(SELECT count(*) FROM ${passes} WHERE ${passes.planId} = ${planId})`,
      passesActive: sql<number>`(SELECT count(*) FROM ${passes} WHERE ${passes.planId} = ${planId} AND ${passes.endsAt} > ${at} AND ${passes.startsAt} <= ${at})`,
      otherSales: sql<number>`(EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.planId} = ${planId}) OR EXISTS (SELECT 1 FROM ${redeemCodes} WHERE ${redeemCodes.planId} = ${planId}))`,
    })
    .from(plans)
    .orderBy(asc(plans.sortOrder), asc(plans.createdAt), asc(plans.code))
    .all();
  const prices = listPlanPrices(
    db,
    rows.map((row) => row.plan.id),
  );
  return rows.map((row) => ({
    ...row.plan,
    free: row.plan.code === FREE_PLAN_CODE,
    prices: prices[row.plan.id] ?? [],
    passesSold: Number(row.passesSold),
    passesActive: Number(row.passesActive),
    sold: Number(row.passesSold) > 0 || Number(row.otherSales) > 0,
  }));
}

type Tx = Pick<DB, "select" | "insert" | "update" | "delete">;

function wasSold(tx: Pick<DB, "select">, planId: string): boolean {
  const named = (table: typeof passes | typeof payments | typeof redeemCodes) =>
    Boolean(tx.select({ id: table.id }).from(table).where(eq(table.planId, planId)).limit(1).get());
  return named(passes) || named(payments) || named(redeemCodes);
}

/** A plan's prices, recorded in the currency they were set in (never read in another: services/price-currency.server.ts). */
function writePrices(tx: Tx, planId: string, prices: PlanPrice[], currency: Currency): void {
  tx.delete(planPeriods).where(eq(planPeriods.planId, planId)).run();
  for (const price of prices)
    tx.insert(planPeriods)
      .values({ planId, period: price.period, days: price.days, priceMinor: price.priceMinor, currency })
      .run();
}

export type PlanContext = { currency: Currency; language: string; actor: Actor };
export type PlanSaveResult = { ok: true; planId: string } | { ok: false; fieldErrors: Record<string, string[]> };

/**
 * A new plan from the administrator's form: the free plan (one only: what
 * everyone without a pass has) or a pass plan, last in the order, on offer.
 */
export function createPlan(
  db: DB,
  fields: PlanFormFields & { kind: "free" | "pass" },
  context: PlanContext,
): PlanSaveResult {
  const free = fields.kind === "free";
  const checked = checkPlanForm(fields, { currency: context.currency, language: context.language, free });
  if (!checked.ok) return checked;
  const { prices, ...values } = checked.value;
  return db.transaction((tx) => {
    const codes = new Set(
      tx
        .select({ code: plans.code })
        .from(plans)
        .all()
        .map((row) => row.code),
    );
    if (free && codes.has(FREE_PLAN_CODE)) return { ok: false, fieldErrors: { kind: [PLAN_ERRORS.freeExists] } };
    const code = free ? FREE_PLAN_CODE : planCodeFor(values.name, codes);
    const last = tx
      .select({ value: sql<number | null>`max(${plans.sortOrder})` })
      .from(plans)
      .get()?.value;
    const id = createId();
    tx.insert(plans)
      .values({ id, code, ...values, offered: true, sortOrder: last === null || last === undefined ? 0 : last + 1 })
      .run();
    writePrices(tx, id, prices, context.currency);
    recordAudit(tx, {
      actorId: context.actor.actorId,
      action: "plan.create",
      targetType: "plan",
      targetId: id,
      details: { code, ...values, prices, currency: context.currency },
      ipAddress: context.actor.ipAddress,
    });
    return { ok: true, planId: id } as const;
  });
}

/**
 * An administrator's edit of a plan: names, descriptions, what it allows and
 * its prices. What it allows applies at once, to passes already sold too
 * (their holders play by the plan as it stands); a price applies to the next sale.
 */
export function updatePlan(db: DB, planId: string, fields: PlanFormFields, context: PlanContext): PlanSaveResult {
  const existing = db.select({ code: plans.code }).from(plans).where(eq(plans.id, planId)).get();
  if (!existing) return { ok: false, fieldErrors: { form: [PLAN_ERRORS.notFound] } };
  const free = existing.code === FREE_PLAN_CODE;
  const checked = checkPlanForm(fields, { currency: context.currency, language: context.language, free });
  if (!checked.ok) return checked;
  const { prices, ...values } = checked.value;
  db.transaction((tx) => {
    tx.update(plans).set(values).where(eq(plans.id, planId)).run();
    writePrices(tx, planId, prices, context.currency);
    recordAudit(tx, {
      actorId: context.actor.actorId,
      action: "plan.update",
      targetType: "plan",
      targetId: planId,
      details: { ...values, prices, currency: context.currency },
      ipAddress: context.actor.ipAddress,
    });
  });
  return { ok: true, planId };
}

/** Move a plan one place up or down the order viewers see (the order is renumbered 0, 1, 2 …). */
export function movePlan(db: DB, planId: string, direction: "up" | "down", actor: Actor): boolean {
  return db.transaction((tx) => {
    const order = tx
      .select({ id: plans.id })
      .from(plans)
      .orderBy(asc(plans.sortOrder), asc(plans.createdAt), asc(plans.code))
      .all()
      .map((row) => row.id);
    const index = order.indexOf(planId);
    if (index === -1) return false;
    const other = direction === "up" ? index - 1 : index + 1;
    if (other < 0 || other >= order.length) return true;
    [order[index], order[other]] = [order[other], order[index]];
    order.forEach((id, position) => tx.update(plans).set({ sortOrder: position }).where(eq(plans.id, id)).run());
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "plan.reorder",
      targetType: "plan",
      targetId: planId,
      details: { direction, order },
      ipAddress: actor.ipAddress,
    });
    return true;
  });
}

/**
 * Retire a plan (off sale and out of every viewer's page; the passes already
 * sold run to their end on it) or offer it again. False when there is no such plan.
 */
export function setPlanOffered(db: DB, planId: string, offered: boolean, actor: Actor): boolean {
  return db.transaction((tx) => {
    const updated = tx.update(plans).set({ offered }).where(eq(plans.id, planId)).run();
    if (updated.changes === 0) return false;
    recordAudit(tx, {
      actorId: actor.actorId,
      action: offered ? "plan.offer" : "plan.retire",
      targetType: "plan",
      targetId: planId,
      ipAddress: actor.ipAddress,
    });
    return true;
  });
}

/** Delete a plan that was never sold; one that was is refused (retire it instead). */
export function deletePlan(db: DB, planId: string, actor: Actor): "deleted" | "notFound" | "sold" {
  return db.transaction(
    (tx) => {
      const plan = tx.select({ code: plans.code, name: plans.name }).from(plans).where(eq(plans.id, planId)).get();
      if (!plan) return "notFound";
      if (wasSold(tx, planId)) return "sold";
      tx.delete(plans).where(eq(plans.id, planId)).run();
      recordAudit(tx, {
        actorId: actor.actorId,
        action: "plan.delete",
        targetType: "plan",
        targetId: planId,
        details: { code: plan.code, name: plan.name },
        ipAddress: actor.ipAddress,
      });
      return "deleted";
    },
    { behavior: "immediate" },
  );
}

/**
 * The usual starting set (Free, Basic, Pro) priced in the operator's
 * currency, for an install without plans; refused once any plan exists.
 * `ids` names the rows (the demo keeps its own).
 */
export function createStarterPlans(
  db: DB,
  context: { currency: Currency; actor: Actor | null; ids?: Partial<Record<"free" | "basic" | "pro", string>> },
): { ok: true; created: number } | { ok: false; error: string } {
  return db.transaction(
    (tx) => {
      if (tx.select({ id: plans.id }).from(plans).limit(1).get()) return { ok: false, error: PLAN_ERRORS.notEmpty };
      STARTER_PLANS.forEach((starter, position) => {
        const { key, prices, ...values } = starter;
        const id = context.ids?.[key] ?? createId();
        tx.insert(plans)
          .values({ id, ...values, offered: true, sortOrder: position })
          .run();
        const inCurrency = prices?.[context.currency] ?? {};
        writePrices(
          tx,
          id,
          (Object.entries(inCurrency) as [PassPeriod, number][]).map(([period, major]) => ({
            period,
            days: PERIOD_DAYS[period],
            priceMinor: Math.round(major * 10 ** minorUnitDigits(context.currency)),
          })),
          context.currency,
        );
      });
      if (context.actor)
        recordAudit(tx, {
          actorId: context.actor.actorId,
          action: "plan.starter",
          targetType: "plan",
          details: { plans: STARTER_PLANS.map((plan) => plan.code), currency: context.currency },
          ipAddress: context.actor.ipAddress,
        });
      return { ok: true, created: STARTER_PLANS.length } as const;
    },
    { behavior: "immediate" },
  );
}

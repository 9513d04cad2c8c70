import { and, asc, eq, gt, gte, isNull, lte, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { notifications, passes, PASS_PERIODS, PERIOD_DAYS, planPeriods, plans, type PassPeriod } from "~/db/schema";
import { createId } from "~/utils/ids.server";
import { FREE_PLAN_CODE, planLimits, type PlanLimits } from "./plan-rules";

export { FREE_PLAN_CODE };

/**
 * Passes: a paid plan for a period, bought or redeemed, never renewed by
 * itself. A pass is active while startsAt ≤ now < endsAt; without an active
 * pass a person is on the FREE plan. See docs/decisions/015-passes-and-payments.md.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

export type { PlanLimits };

/**
 * Without a free plan (a fresh install before the administrator makes one, or
 * after deleting it) a viewer without a pass gets the least: free titles on one
 * screen, the ladder up to 1080p, no downloads.
 */
export const NO_PLAN_LIMITS: PlanLimits = {
  premium: false,
  screens: 1,
  maxRung: 1080,
  downloads: { allowed: false, maxDownloads: 0, days: 0, playHours: 0 },
};

const planColumns = {
  planName: plans.name,
  planNameHa: plans.nameHa,
  planCode: plans.code,
  premium: plans.premium,
  screens: plans.screens,
  maxRung: plans.maxRung,
  downloadsAllowed: plans.downloadsAllowed,
  maxDownloads: plans.maxDownloads,
  downloadDays: plans.downloadDays,
  downloadPlayHours: plans.downloadPlayHours,
};

/** Anything with Drizzle's select/insert/update: the connection or a transaction inside it. */
type Tx = Pick<DB, "select" | "insert" | "update" | "delete">;

export type PassWindow = { startsAt: number; endsAt: number };
export type ExistingPass = PassWindow & { planId: string };

/**
 * Where a new pass goes on the account's time line. Passes never overlap: a
 * new one starts when the last pass that has not ended yet ends (so a pass of
 * the same plan as the current one extends it without a gap, and a different
 * plan starts after the current paid time), or now when there is none.
 */
export function placeNewPass(existing: readonly ExistingPass[], days: number, now: number): PassWindow {
  const lastEnd = existing.reduce((latest, pass) => (pass.endsAt > now ? Math.max(latest, pass.endsAt) : latest), now);
  const startsAt = Math.max(now, lastEnd);
  return { startsAt, endsAt: startsAt + days * DAY_MS };
}

export function isActive(pass: PassWindow, now: number): boolean {
  return pass.startsAt <= now && now < pass.endsAt;
}

/**
 * The end of the current stretch of the same plan: passes of one plan placed
 * back to back read as one pass to the viewer.
 */
export function currentStretchEnd(sorted: readonly ExistingPass[], active: ExistingPass): number {
  let end = active.endsAt;
  for (const pass of sorted) {
    if (pass.planId === active.planId && pass.startsAt === end) end = pass.endsAt;
  }
  return end;
}

export function periodOfDays(days: number): PassPeriod | null {
  return PASS_PERIODS.find((period) => PERIOD_DAYS[period] === days) ?? null;
}

// Every watch page asks for the plan in force (screens, quality, downloads): prepared once.
const openPassesQuery = preparedQuery((db: Tx) =>
  db
    .select({
      id: passes.id,
      planId: passes.planId,
      startsAt: passes.startsAt,
      endsAt: passes.endsAt,
      ...planColumns,
    })
    .from(passes)
    .innerJoin(plans, eq(plans.id, passes.planId))
    .where(and(eq(passes.accountId, sql.placeholder("accountId")), gt(passes.endsAt, sql.placeholder("now"))))
    .orderBy(asc(passes.startsAt))
    .prepare(),
);

function openPasses(db: Tx, accountId: string, now: number) {
  return openPassesQuery(db)
    .all({ accountId, now })
    .map((row) => ({ ...row, startsAt: row.startsAt.getTime(), endsAt: row.endsAt.getTime() }));
}

const freePlanQuery = preparedQuery((db: Tx) =>
  db
    .select({ id: plans.id, ...planColumns })
    .from(plans)
    .where(eq(plans.code, FREE_PLAN_CODE))
    .prepare(),
);

function freePlan(db: Tx) {
  return freePlanQuery(db).get();
}

export type PassStatus = {
  /** The plan in force now: the active pass's plan, else the free plan (null: there is none). */
  plan: { code: string; name: string; nameHa: string } & PlanLimits;
  onFreePlan: boolean;
  /** When the current stretch of the active plan ends (null on the free plan). */
  expiresAt: Date | null;
  /** Passes bought or redeemed that start later. */
  upcoming: { planName: string; planNameHa: string; startsAt: Date; endsAt: Date }[];
};

/** The plan someone is on now, its expiry and what is queued after it (a few indexed rows). */
export function getPassStatus(db: Tx, accountId: string, now: Date = new Date()): PassStatus {
  const t = now.getTime();
  const open = openPasses(db, accountId, t);
  const active = open.find((pass) => isActive(pass, t));
  const upcoming = open.filter((pass) => pass.startsAt > t);
  const queued = (list: typeof open) =>
    list.map((pass) => ({
      planName: pass.planName,
      planNameHa: pass.planNameHa,
      startsAt: new Date(pass.startsAt),
      endsAt: new Date(pass.endsAt),
    }));
  if (active) {
    const expiresAt = currentStretchEnd(open, active);
    return {
      plan: { code: active.planCode, name: active.planName, nameHa: active.planNameHa, ...planLimits(active) },
      onFreePlan: false,
      expiresAt: new Date(expiresAt),
      upcoming: queued(upcoming.filter((pass) => !(pass.planId === active.planId && pass.endsAt <= expiresAt))),
    };
  }
  const free = freePlan(db);
  return {
    plan: free
      ? { code: free.planCode, name: free.planName, nameHa: free.planNameHa, ...planLimits(free) }
      : { code: FREE_PLAN_CODE, name: "", nameHa: "", ...NO_PLAN_LIMITS },
    onFreePlan: true,
    expiresAt: null,
    upcoming: queued(upcoming),
  };
}

/** Whether the plan in force lets this account play Premium titles. */
export function allowsPremium(db: Tx, accountId: string, now: Date = new Date()): boolean {
  return getPassStatus(db, accountId, now).plan.premium;
}

export type SellablePlan = {
  id: string;
  code: string;
  name: string;
  days: number;
  period: PassPeriod;
  priceMinor: number;
};

/** A paid plan's period as it is sold (null when the plan is FREE, withdrawn from sale, or has no such period). */
export function findSellablePeriod(
  db: Tx,
  planId: string,
  period: string,
  options: { offeredOnly?: boolean } = {},
): SellablePlan | null {
  if (!(PASS_PERIODS as readonly string[]).includes(period)) return null;
  const row = db
    .select({
      id: plans.id,
      code: plans.code,
      name: plans.name,
      offered: plans.offered,
      days: planPeriods.days,
      priceMinor: planPeriods.priceMinor,
    })
    .from(planPeriods)
    .innerJoin(plans, eq(plans.id, planPeriods.planId))
    .where(and(eq(planPeriods.planId, planId), eq(planPeriods.period, period as PassPeriod)))
    .get();
  if (!row || row.code === FREE_PLAN_CODE) return null;
  if (options.offeredOnly && !row.offered) return null;
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    days: row.days,
    period: period as PassPeriod,
    priceMinor: row.priceMinor,
  };
}

/**
 * Add a pass to an account's time line (call inside the transaction that
 * records why: the payment or the voucher). It starts where the last pass
 * ends, so a "your pass ends tomorrow" notice sent in the last day no longer
 * holds: it goes.
 */
export function grantPass(
  tx: Tx,
  input: {
    accountId: string;
    planId: string;
    days: number;
    source: "payment" | "voucher" | "admin";
    paymentId?: string;
    redeemCodeId?: string;
  },
  now: Date = new Date(),
): { id: string; startsAt: Date; endsAt: Date } {
  const existing = openPasses(tx, input.accountId, now.getTime());
  const window = placeNewPass(existing, input.days, now.getTime());
  const id = createId();
  tx.insert(passes)
    .values({
      id,
      accountId: input.accountId,
      planId: input.planId,
      startsAt: new Date(window.startsAt),
      endsAt: new Date(window.endsAt),
      source: input.source,
      paymentId: input.paymentId ?? null,
      redeemCodeId: input.redeemCodeId ?? null,
    })
    .run();
  tx.delete(notifications)
    .where(
      and(
        eq(notifications.accountId, input.accountId),
        eq(notifications.kind, "pass_expiring"),
        gte(notifications.createdAt, new Date(now.getTime() - DAY_MS)),
      ),
    )
    .run();
  return { id, startsAt: new Date(window.startsAt), endsAt: new Date(window.endsAt) };
}

/** "2026-11-23 14:00 UTC": one form for notifications stored once and read in either language. */
export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The day-before-expiry notice: for each pass ending within a day whose end
 * is not covered by another pass, one notification (never twice: the pass is
 * marked in the same transaction). A pass whose end is covered is marked too,
 * so it is not looked at again. Returns how many notices went out.
 */
export function notifyExpiringPasses(db: DB, now: Date = new Date()): number {
  const soon = new Date(now.getTime() + DAY_MS);
  const due = db
    .select({
      id: passes.id,
      accountId: passes.accountId,
      endsAt: passes.endsAt,
      planName: plans.name,
      planNameHa: plans.nameHa,
    })
    .from(passes)
    .innerJoin(plans, eq(plans.id, passes.planId))
    .where(and(gt(passes.endsAt, now), lte(passes.endsAt, soon), isNull(passes.expiryNotifiedAt)))
    .limit(500)
    .all();
  let sent = 0;
  for (const pass of due) {
    db.transaction((tx) => {
      const claimed = tx
        .update(passes)
        .set({ expiryNotifiedAt: now })
        .where(and(eq(passes.id, pass.id), isNull(passes.expiryNotifiedAt)))
        .run();
      if (claimed.changes === 0) return;
      const covered = tx
        .select({ id: passes.id })
        .from(passes)
        .where(
          and(eq(passes.accountId, pass.accountId), lte(passes.startsAt, pass.endsAt), gt(passes.endsAt, pass.endsAt)),
        )
        .limit(1)
        .get();
      if (covered) return;
      tx.insert(notifications)
        .values({
          id: createId(),
          accountId: pass.accountId,
          kind: "pass_expiring",
          messageKey: "billing:notifications.passEnding",
          // The moment and both names: the page writes them in its reader's language and zone
          // (shownNotificationValues); `date` is for readers of notices stored before.
          messageValues: {
            plan: pass.planName,
            planHa: pass.planNameHa,
            endsAt: pass.endsAt.toISOString(),
            date: formatUtc(pass.endsAt),
          },
          link: "/payment",
          createdAt: now,
        })
        .run();
      sent += 1;
    });
  }
  return sent;
}

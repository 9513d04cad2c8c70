import { and, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, movies, passes, payments, plans, seasons, series, watchEvents } from "~/db/schema";
import { qualified } from "~/db/sql";
import { diskUsage, type DiskUsage } from "./disk.server";
import { episodeContextColumns, titleDisplayName } from "./episode-names";
import { dayOfSql, dayWindow, endOfDay, fillDays, watchedSecondsSql, type DailyValue } from "./viewing-stats.server";

/**
 * The numbers behind the administrator's dashboard (/admin/dashboard), over
 * the last `days` days: revenue by day and by plan, passes active at the end
 * of each day, sign-ups, hours watched, the most watched titles, and the disk.
 * Each is one grouped query through an index on its time column
 * (payments_paid_idx, passes_ends_idx, accounts_role_created_idx,
 * watch_events_started_idx); nothing reads a table whole.
 */
export const TOP_TITLES = 10;

export type CurrencySeries = { currency: string; perDay: DailyValue[]; totalMinor: number };

export type AdminDashboard = {
  days: number;
  since: string;
  revenue: CurrencySeries[];
  revenueByPlan: Array<{ planId: string; name: string; currency: string; payments: number; amountMinor: number }>;
  passesActive: DailyValue[];
  passesActiveNow: number;
  signUps: DailyValue[];
  viewingsPerDay: DailyValue[];
  hoursPerDay: DailyValue[];
  topTitles: Array<{ id: string; name: string; providerName: string; viewings: number; hours: number }>;
  disk: DiskUsage;
};

const hours = (seconds: number) => Math.round((seconds / 3600) * 100) / 100;

export function adminDashboard(
  db: DB,
  options: { days: number; root: string; reserveBytes: number; now?: Date },
): AdminDashboard {
  const now = options.now ?? new Date();
  const window = dayWindow(options.days, now);

  const paidDay = dayOfSql(qualified(payments.paidAt));
  const paid = and(eq(payments.status, "success"), gte(payments.paidAt, window.since), lte(payments.paidAt, now));
  const revenueRows = db
    .select({ day: paidDay, currency: payments.currency, amount: sql<number>`sum(${payments.amountMinor})` })
    .from(payments)
    .where(paid)
    .groupBy(paidDay, payments.currency)
    .all();
  const currencies = [...new Set(revenueRows.map((row) => row.currency))];
  const revenue = currencies
    .map((currency) => {
      const rows = revenueRows.filter((row) => row.currency === currency);
      return {
        currency,
        perDay: fillDays(
          window.days,
          rows.map((row) => ({ day: row.day, value: Number(row.amount) })),
        ),
        totalMinor: rows.reduce((total, row) => total + Number(row.amount), 0),
      };
    })
    .sort((a, b) => b.totalMinor - a.totalMinor);

  const revenueByPlan = db
    .select({
      planId: plans.id,
      name: plans.name,
      currency: payments.currency,
      payments: sql<number>`count(*)`,
      amountMinor: sql<number>`sum(${payments.amountMinor})`,
    })
    .from(payments)
    .innerJoin(plans, eq(plans.id, payments.planId))
    .where(paid)
    .groupBy(plans.id, payments.currency)
    .orderBy(desc(sql`sum(${payments.amountMinor})`))
    .all()
    .map((row) => ({ ...row, payments: Number(row.payments), amountMinor: Number(row.amountMinor) }));

  // Passes active at the end of each day (today: now): those begun by then and not yet ended.
  const overlapping = db
    .select({ startsAt: passes.startsAt, endsAt: passes.endsAt })
    .from(passes)
    .where(and(gte(passes.endsAt, window.since), lte(passes.startsAt, now)))
    .all();
  const starts = overlapping.map((pass) => pass.startsAt.getTime()).sort((a, b) => a - b);
  const ends = overlapping.map((pass) => pass.endsAt.getTime()).sort((a, b) => a - b);
  const activeAt = (moment: number) => countAtMost(starts, moment) - countAtMost(ends, moment);
  const passesActive = window.days.map((day) => ({ day, value: activeAt(Math.min(endOfDay(day) - 1, now.getTime())) }));

  const signUpDay = dayOfSql(qualified(accounts.createdAt));
  const signUps = fillDays(
    window.days,
    db
      .select({ day: signUpDay, value: sql<number>`count(*)` })
      .from(accounts)
      .where(and(eq(accounts.role, "viewer"), gte(accounts.createdAt, window.since)))
      .groupBy(signUpDay)
      .all(),
  );

  const viewingDay = dayOfSql(qualified(watchEvents.startedAt));
  const viewing = db
    .select({ day: viewingDay, viewings: sql<number>`count(*)`, seconds: sql<number>`sum(${watchedSecondsSql})` })
    .from(watchEvents)
    .innerJoin(movies, eq(movies.id, watchEvents.movieId))
    .where(gte(watchEvents.startedAt, window.since))
    .groupBy(viewingDay)
    .all();

  const topTitles = db
    .select({
      id: movies.id,
      name: movies.name,
      providerName: sql<string>`coalesce(${accounts.providerName}, ${accounts.name})`,
      viewings: sql<number>`count(*)`,
      seconds: sql<number>`sum(${watchedSecondsSql})`,
      ...episodeContextColumns,
    })
    .from(watchEvents)
    .innerJoin(movies, eq(movies.id, watchEvents.movieId))
    .innerJoin(accounts, eq(accounts.id, movies.providerId))
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(gte(watchEvents.startedAt, window.since))
    .groupBy(movies.id)
    .orderBy(desc(sql`sum(${watchedSecondsSql})`), desc(sql`count(*)`))
    .limit(TOP_TITLES)
    .all()
    .map((row) => ({
      id: row.id,
      name: titleDisplayName(row),
      providerName: row.providerName,
      viewings: Number(row.viewings),
      hours: hours(Number(row.seconds ?? 0)),
    }));

  return {
    days: options.days,
    since: window.since.toISOString(),
    revenue,
    revenueByPlan,
    passesActive,
    passesActiveNow: activeAt(now.getTime()),
    signUps,
    viewingsPerDay: fillDays(
      window.days,
      viewing.map((row) => ({ day: row.day, value: Number(row.viewings) })),
    ),
    hoursPerDay: fillDays(
      window.days,
      viewing.map((row) => ({ day: row.day, value: hours(Number(row.seconds ?? 0)) })),
    ),
    topTitles,
    disk: diskUsage(db, options.root, options.reserveBytes),
  };
}

/** How many of the sorted `values` are at most `limit` (binary search). */
function countAtMost(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! <= limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

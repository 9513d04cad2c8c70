/**
 * The lengths a pass is sold for. Apart from the schema (which re-exports
 * them) so pages can list them without bringing the table definitions, and
 * Drizzle with them, into the browser.
 */
export const PASS_PERIODS = ["day", "week", "month", "year"] as const;
export type PassPeriod = (typeof PASS_PERIODS)[number];
export const PERIOD_DAYS: Record<PassPeriod, number> = { day: 1, week: 7, month: 30, year: 365 };

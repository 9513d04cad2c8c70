/**
 * What a plan can offer. Apart from the schema (which re-exports it) so the
 * plan editor's page can list the features without bringing the table
 * definitions, and Drizzle with them, into the browser.
 */
export const PLAN_FEATURES = [
  "hd",
  "ultraHd",
  "simultaneousScreens",
  "multiDevice",
  "unlimitedTitles",
  "cancelAnyTime",
  "firstMonthFree",
  "support247",
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

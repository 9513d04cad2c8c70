/**
 * Why an administrator sends a title or a series back to its provider (with
 * their own words beside it). Apart from the schema (which re-exports them)
 * so pages can list them without bringing Drizzle into the browser.
 */
export const RETURN_REASONS = ["picture", "category", "rights", "content", "other"] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

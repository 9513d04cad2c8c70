/**
 * What an administrator changes on a title or a series from its table:
 * approve or withdraw, feature or not, Free or Premium. Both tables post the
 * same `intent`s; each row offers the three that change its present state.
 * No server code here: the pages import it too.
 */

export type PublishingChange = { approved: boolean } | { featured: boolean } | { access: "free" | "premium" };

const CHANGES = {
  approve: { approved: true },
  unapprove: { approved: false },
  feature: { featured: true },
  unfeature: { featured: false },
  free: { access: "free" },
  premium: { access: "premium" },
} as const satisfies Record<string, PublishingChange>;

export type PublishingIntent = keyof typeof CHANGES;

/** The change an intent asks for; null for anything else a form may send (never a key of Object's prototype). */
export function publishingChange(intent: string): PublishingChange | null {
  return Object.hasOwn(CHANGES, intent) ? CHANGES[intent as PublishingIntent] : null;
}

/** The three buttons a row shows: each turns one of its settings the other way. */
export function publishingToggles(row: {
  approved: boolean;
  featured: boolean;
  access: "free" | "premium";
}): PublishingIntent[] {
  return [
    row.approved ? "unapprove" : "approve",
    row.featured ? "unfeature" : "feature",
    row.access === "free" ? "premium" : "free",
  ];
}

/** The audit log's verb for a change (`movie.approve`, `series.access`, …). */
export function publishingVerb(change: PublishingChange): "approve" | "unapprove" | "feature" | "unfeature" | "access" {
  if ("approved" in change) return change.approved ? "approve" : "unapprove";
  if ("featured" in change) return change.featured ? "feature" : "unfeature";
  return "access";
}

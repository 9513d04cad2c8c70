import type { Role } from "~/db/schema";

/**
 * Who counts as a viewer, in one place:
 * - the viewer's pages (watching, lists, history, progress) are for viewers,
 *   and for administrators checking them;
 * - the plans bind viewers only (Premium passes, screens, download windows):
 *   administrators and a title's own provider are never charged or counted.
 */
export function usesViewerPages(role: Role): boolean {
  return role === "viewer" || role === "admin";
}

export function isBoundByPlan(role: Role): boolean {
  return role === "viewer";
}

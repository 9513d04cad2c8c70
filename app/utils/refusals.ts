/** The body of a 403 thrown for a children's profile (routes-support/children-refusal.server.ts), read by the root's error page. */
export const CHILDREN_REFUSAL = "children";

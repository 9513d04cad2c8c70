/** The body of a 403 thrown for a children's profile (auth/guards.server.ts, refuseToChildren), read by the root's error page. */
export const CHILDREN_REFUSAL = "children";

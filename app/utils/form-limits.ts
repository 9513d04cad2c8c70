/**
 * Limits the server enforces and the forms also show (`maxLength`, `max`):
 * one value for both. Here, not in the services that enforce them, because a
 * page's component runs in the browser too, where a `.server` module is empty
 * (a constant imported from one is undefined there).
 */

/** Characters of a search kept (search.server.ts); the search boxes stop there. */
export const SEARCH_MAX_LENGTH = 200;

/** Characters of a comment (watching.server.ts); the comment box stops there. */
export const COMMENT_MAX_LENGTH = 1000;

/** Vouchers one batch may make (vouchers.server.ts); the batch form's number field stops there. */
export const VOUCHER_BATCH_MAX = 500;

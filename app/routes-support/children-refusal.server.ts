import { data } from "@remix-run/node";
import { CHILDREN_REFUSAL } from "~/utils/refusals";

/**
 * A children's profile at a title or series rated above PG (or not rated):
 * 403, with the body the error page reads to say so and offer another profile.
 */
export function refuseToChildren(): never {
  throw data(CHILDREN_REFUSAL, { status: 403 });
}

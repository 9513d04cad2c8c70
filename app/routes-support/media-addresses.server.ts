import type { DB } from "~/db/client.server";
import {
  bucketIsDown,
  signedTitleFileUrl,
  TITLE_UNREACHABLE_MESSAGE,
  TitleUnreachable,
} from "~/media/media-store.server";

/**
 * The byte routes' answer for a file held in the bucket, once the route has
 * checked that the caller may play the title: a redirect to a short-lived
 * signed address (the `<video>` without JavaScript, old clients, the offline
 * downloader all follow it). Not stored by anyone: the address is this
 * viewer's, for now.
 */
export async function redirectToBucket(db: DB, movieId: string, key: string): Promise<Response> {
  if (await bucketIsDown()) return unreachable(new TitleUnreachable(TITLE_UNREACHABLE_MESSAGE));
  const address = await signedTitleFileUrl(db, movieId, key);
  return new Response(null, {
    status: 302,
    headers: { Location: address, "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" },
  });
}

/** 503 with the words the player shows when a title's bucket cannot be reached; anything else is thrown on. */
export function unreachable(error: unknown): Response {
  if (!(error instanceof TitleUnreachable)) throw error;
  return Response.json(
    { success: false, message: error.message, reason: "unreachable" },
    { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": "60" } },
  );
}

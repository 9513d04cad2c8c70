import { getDb } from "~/db/client.server";
import { serveFileWithRanges } from "./byte-range.server";
import { ensureLocalCopy } from "./media-store.server";
import { ensureSizedPoster, POSTER_MIME_TYPES } from "./posters.server";
import type { ResolvedPoster } from "./storage.server";

/**
 * Answer a request for one poster file of a title or a series, once the route
 * has decided who may see it: public ones are immutable for a year (a new
 * poster comes with a new URL), private ones (the provider's and the
 * administrators' before publication) never stored. A srcset size missing on
 * disk (an owner older than that size) is made now. Null when there is no such
 * file: the route answers its own 404.
 */
export async function servePoster(
  request: Request,
  ownerId: string,
  poster: Omit<ResolvedPoster, "movieId">,
  access: "public" | "private",
): Promise<Response | null> {
  // A title held in the bucket keeps copies of its posters here; a new box fetches them back on first request.
  await ensureLocalCopy(getDb(), ownerId, poster.path).catch((error) => {
    console.error(`[poster] could not fetch ${poster.path} back from the bucket`, error);
  });
  if (poster.sized) {
    const { variant, width, format } = poster.sized;
    if (!(await ensureSizedPoster(ownerId, variant, width, format))) return null;
  }
  return serveFileWithRanges(request, poster.path, {
    contentType: POSTER_MIME_TYPES[poster.format],
    cacheControl: access === "public" ? "public, max-age=31536000, immutable" : "private, no-store",
  });
}

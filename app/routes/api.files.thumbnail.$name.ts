import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiFailure } from "~/api/http.server";
import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { servePoster } from "~/media/poster-serving.server";
import { resolvePublicPoster } from "~/media/storage.server";
import { posterAccess } from "~/services/catalogue.server";

/**
 * GET/HEAD /api/files/thumbnail/:name — a title's poster by its public name:
 * `<movieId>-<card|hero>.jpg` (old clients; `.webp` for titles made before
 * sized posters) or one of the sizes the pages list in srcset,
 * `<movieId>-<card|hero|tall>-<width>.<avif|jpg>` (media/poster-sizes.ts),
 * made on its first request for a title older than those sizes. A published title's poster is public,
 * like the original's thumbnails, and cached as immutable for a year: a page
 * showing a replaced poster must change its URL (for example `?v=<updatedAt>`);
 * the ETag still answers revalidations. Before it is published, only its
 * provider and administrators (cookie or Bearer) get it, never cached; others 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const poster = resolvePublicPoster(params.name ?? "");
  if (!poster) return posterNotFound();
  let access = posterAccess(getDb(), poster.movieId, null);
  if (access === "hidden")
    access = posterAccess(getDb(), poster.movieId, (await getApiCaller(request))?.account ?? null);
  if (access === "hidden") return posterNotFound();
  try {
    return (await servePoster(request, poster.movieId, poster, access)) ?? posterNotFound();
  } catch (error) {
    console.error(`[thumbnail] could not serve ${params.name}`, error);
    return apiFailure(500, "Internal server error");
  }
}

function posterNotFound() {
  return apiFailure(404, "Poster not found", { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
}

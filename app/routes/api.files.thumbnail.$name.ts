import type { LoaderFunctionArgs } from "@remix-run/node";
import { serveFileWithRanges } from "~/media/byte-range.server";
import { POSTER_MIME_TYPES } from "~/media/posters.server";
import { resolvePublicPoster } from "~/media/storage.server";

/**
 * GET/HEAD /api/files/thumbnail/:name — a title's poster by its public name
 * (`<movieId>-<card|hero>.<jpg|webp>`). Public, like the original's thumbnails.
 * Cached as immutable for a year: a page showing a replaced poster must change
 * its URL (for example `?v=<updatedAt>`); the ETag still answers revalidations.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const poster = resolvePublicPoster(params.name ?? "");
  if (!poster) return posterNotFound();
  try {
    const response = await serveFileWithRanges(request, poster.path, {
      contentType: POSTER_MIME_TYPES[poster.format],
      cacheControl: "public, max-age=31536000, immutable",
    });
    return response ?? posterNotFound();
  } catch (error) {
    console.error(`[thumbnail] could not serve ${params.name}`, error);
    return Response.json({ success: false, message: "Internal server error" }, { status: 500 });
  }
}

function posterNotFound() {
  return Response.json(
    { success: false, message: "Poster not found" },
    { status: 404, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
  );
}

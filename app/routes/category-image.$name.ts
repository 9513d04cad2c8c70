import type { LoaderFunctionArgs } from "@remix-run/node";
import { serveFileWithRanges } from "~/media/byte-range.server";
import { resolveCategoryImage } from "~/services/search.server";

/**
 * GET/HEAD /category-image/:categoryId.jpg — a category's tile image, public
 * like the posters. Pages link it with `?v=<file time>`, so a versioned URL is
 * cached as immutable for a year (a new image gets a new URL); without the
 * version the browser revalidates with the ETag every time. Only names of the
 * form `<id>.jpg` map to a file, inside categories/: nothing else is reachable.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const file = resolveCategoryImage(params.name ?? "");
  if (!file) return imageNotFound();
  const versioned = new URL(request.url).searchParams.has("v");
  try {
    const response = await serveFileWithRanges(request, file, {
      contentType: "image/jpeg",
      cacheControl: versioned ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate",
    });
    return response ?? imageNotFound();
  } catch (error) {
    console.error(`[category-image] could not serve ${params.name}`, error);
    return new Response("Internal server error", {
      status: 500,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}

function imageNotFound() {
  return new Response("Not found", {
    status: 404,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

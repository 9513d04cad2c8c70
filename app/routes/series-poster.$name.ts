import type { LoaderFunctionArgs } from "@remix-run/node";
import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { servePoster } from "~/media/poster-serving.server";
import { resolveSeriesPoster } from "~/media/storage.server";
import { seriesPosterAccess } from "~/services/series-viewing.server";

/**
 * GET/HEAD /series-poster/:name — a series' own poster by the names a title's has
 * (`<seriesId>-<card|hero>.jpg`, or a srcset size `<seriesId>-<card|hero|tall>-<width>.<avif|jpg>`),
 * by the same rule as a title's (/api/files/thumbnail): public and immutable once the series is
 * published (a new poster comes with a new URL, `?v=`), before that only for its provider and
 * administrators (private, never stored); anyone else gets 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const poster = resolveSeriesPoster(params.name ?? "");
  if (!poster) return posterNotFound();
  let access = seriesPosterAccess(getDb(), poster.seriesId, null);
  if (access === "hidden")
    access = seriesPosterAccess(getDb(), poster.seriesId, (await getApiCaller(request))?.account ?? null);
  if (access === "hidden") return posterNotFound();
  try {
    return (await servePoster(request, poster.seriesId, poster, access)) ?? posterNotFound();
  } catch (error) {
    console.error(`[series-poster] could not serve ${params.name}`, error);
    return new Response("Internal server error", { status: 500 });
  }
}

function posterNotFound() {
  return new Response("Poster not found", {
    status: 404,
    headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}

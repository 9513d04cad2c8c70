import type { LoaderFunctionArgs } from "@remix-run/node";
import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { serveFileWithRanges } from "~/media/byte-range.server";
import { ensureLocalCopy } from "~/media/media-store.server";
import { authorizeSubtitleFile } from "~/services/subtitles.server";

/**
 * GET/HEAD /subtitles/<movieId>/<language>.vtt — a title's subtitles in one
 * language, to whoever may play the title (cookie or Bearer; the same rule as
 * the film's own bytes). Personal, so only the browser keeps a copy: for a day
 * when the address carries the file's version (`?v=`, what the pages link),
 * else revalidated by ETag each time. The server compresses it (text/vtt) for
 * clients that accept gzip.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const caller = await getApiCaller(request);
  const decision = authorizeSubtitleFile(
    getDb(),
    { movieId: params.movieId ?? "", file: params.file ?? "" },
    caller?.account ?? null,
  );
  if (!decision.allowed) {
    const { status, message, reason } = decision;
    return Response.json({ success: false, message, reason }, { status, headers: { "Cache-Control": "no-store" } });
  }
  // Kept on the box; a new box restored from the replica fetches them back from the bucket.
  await ensureLocalCopy(getDb(), params.movieId ?? "", decision.path).catch((error) => {
    console.error(`[subtitles] could not fetch ${decision.path} back from the bucket`, error);
  });
  const versioned = new URL(request.url).searchParams.has("v");
  const response = await serveFileWithRanges(request, decision.path, {
    contentType: "text/vtt; charset=utf-8",
    cacheControl: versioned ? "private, max-age=86400" : "private, no-cache",
    extraHeaders: { "Content-Language": decision.language },
  });
  return (
    response ??
    Response.json(
      { success: false, message: "Subtitles not found" },
      { status: 404, headers: { "Cache-Control": "no-store" } },
    )
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApiRequest } from "~/api/router.server";
import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { serveFileWithRanges } from "~/media/byte-range.server";
import { movieVideoPath } from "~/media/storage.server";
import { decidePlayback } from "~/services/playback.server";

/**
 * GET/HEAD /api/files/:filename — a title's video, streamed from disk with
 * byte ranges so players start at once and seek anywhere. The page player and
 * the old clients use the same URL.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // The session cookie (a page's <video src>) or a Bearer token (the mobile app).
  const user = (await getApiCaller(request))?.account ?? null;
  const decision = decidePlayback(getDb(), params.filename ?? "", user);
  if (!decision.allowed) {
    return Response.json({ success: false, message: decision.message }, { status: decision.status, headers: { "Cache-Control": "no-store" } });
  }
  const response = await serveFileWithRanges(request, movieVideoPath(decision.movieId), {
    contentType: "video/mp4",
    // Personal: only the viewer's own browser may keep it.
    cacheControl: "private, max-age=3600",
  });
  return response ?? Response.json({ success: false, message: "Video not found" }, { status: 404 });
}

/** Writes under /api/files/<one segment> (the old clients' POST /api/files/watched) belong to the /api router. */
export function action({ request }: ActionFunctionArgs) {
  return handleApiRequest(request);
}

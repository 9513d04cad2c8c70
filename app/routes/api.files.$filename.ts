import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiFailure, apiJson } from "~/api/http.server";
import { handleApiRequest } from "~/api/router.server";
import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { serveFileWithRanges } from "~/media/byte-range.server";
import { locateTitleFile } from "~/media/media-store.server";
import { redirectToBucket } from "~/routes-support/media-addresses.server";
import { authorizeStream } from "~/services/playback.server";

/**
 * GET/HEAD /api/files/:filename — a title's video, streamed from disk with
 * byte ranges so players start at once and seek anywhere. The page player and
 * the old clients use the same URL.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // The session cookie (a page's <video src>) or a Bearer token (the mobile app); each sign-in is one device.
  const caller = await getApiCaller(request);
  const decision = authorizeStream(getDb(), params.filename ?? "", caller?.account ?? null, caller?.deviceId ?? null);
  if (!decision.allowed) {
    const { status, message, reason, screens } = decision;
    return apiJson({ success: false, message, reason, screens }, { status });
  }
  const location = locateTitleFile(getDb(), decision.movieId, decision.videoPath);
  if (location.where === "bucket") return redirectToBucket(getDb(), decision.movieId, location.key);
  const response = await serveFileWithRanges(request, decision.videoPath, {
    contentType: "video/mp4",
    // Personal: only the viewer's own browser may keep it.
    cacheControl: "private, max-age=3600",
  });
  return response ?? apiFailure(404, "Video not found");
}

/** Writes under /api/files/<one segment> (the old clients' POST /api/files/watched) belong to the /api router. */
export function action({ request }: ActionFunctionArgs) {
  return handleApiRequest(request);
}

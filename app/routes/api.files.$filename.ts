import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOptionalUser } from "~/auth/guards.server";
import { getDeviceId } from "~/auth/session.server";
import { getDb } from "~/db/client.server";
import { serveFileWithRanges } from "~/media/byte-range.server";
import { authorizeStream } from "~/services/playback.server";

/**
 * GET/HEAD /api/files/:filename — a title's video, streamed from disk with
 * byte ranges so players start at once and seek anywhere. The page player and
 * the old clients use the same URL.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const decision = authorizeStream(getDb(), params.filename ?? "", user, await getDeviceId(request));
  if (!decision.allowed) {
    const { status, message, reason, screens } = decision;
    return Response.json({ success: false, message, reason, screens }, { status, headers: { "Cache-Control": "no-store" } });
  }
  const response = await serveFileWithRanges(request, decision.videoPath, {
    contentType: "video/mp4",
    // Personal: only the viewer's own browser may keep it.
    cacheControl: "private, max-age=3600",
  });
  return response ?? Response.json({ success: false, message: "Video not found" }, { status: 404 });
}

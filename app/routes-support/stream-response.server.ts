import { gzipSync } from "node:zlib";
import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { serveFileWithRanges } from "~/media/byte-range.server";
import { downlinkHintKbps } from "~/media/data-cost";
import { writeMasterPlaylist } from "~/media/hls";
import { locateTitleFile, rungPlaylistText } from "~/media/media-store.server";
import { renditionFileName, versionedStreamFile } from "~/media/storage.server";
import { redirectToBucket, unreachable } from "~/routes-support/media-addresses.server";
import { DATA_SAVER_MAX_RUNG } from "~/services/data-saver.server";
import { isDataSaverOn } from "./preferences.server";
import { authorizeHlsStream, masterVariants } from "~/services/playback.server";

/**
 * GET/HEAD /stream/<movieId>/<file> and /stream/<movieId>/v<N>/<file> — the adaptive player's files:
 *   master.m3u8   this viewer's master playlist (the rungs their plan allows;
 *                 `?max=` caps it, `?rung=` keeps one rung, `?bw=` is the
 *                 player's link estimate in kbps; data saver caps it at 240p)
 *                 (`?av1=1`: the browser decodes AV1; its rungs come first)
 *   <rung>p.m3u8  a rung's media playlist (<rung>p-av1.m3u8 for AV1 + Opus)
 *   <rung>p.mp4   a rung's fragmented MP4, by byte ranges (also a progressive
 *                 MP4 on its own: the page's fallback without HLS)
 * Every request is checked like the video route: sign-in (cookie or Bearer),
 * published, Premium pass, screens lease, and the plan's maximum quality.
 * A replaced film's rungs live under `v<N>/` (the master playlist names the
 * version that plays now); see `authorizeHlsStream`.
 */
const PLAYLIST_TYPE = "application/vnd.apple.mpegurl";

/**
 * A playlist as text, gzipped when the client accepts it: a feature film's
 * media playlist is tens of kilobytes of repetitive lines (a tenth of that
 * gzipped), and it stands between the viewer and the first frame.
 */
function playlistResponse(request: Request, text: string, cacheControl: string): Response {
  const headers = new Headers({
    "Content-Type": PLAYLIST_TYPE,
    "Cache-Control": cacheControl,
    Vary: "Accept-Encoding, Cookie, Authorization, Save-Data, Downlink",
    "X-Content-Type-Options": "nosniff",
  });
  let body = Buffer.from(text);
  if (body.length > 1024 && /\bgzip\b/.test(request.headers.get("Accept-Encoding") ?? "")) {
    body = gzipSync(body);
    headers.set("Content-Encoding", "gzip");
  }
  headers.set("Content-Length", String(body.length));
  return new Response(request.method === "HEAD" ? null : body, { headers });
}

function positiveInteger(value: string | null): number | null {
  if (!value || !/^\d{1,6}$/.test(value)) return null;
  const number = Number(value);
  return number > 0 ? number : null;
}

/** Answer one stream request; `version` is the `v<N>` folder the path names, if any. */
export async function answerStreamRequest(
  request: Request,
  target: { movieId: string; file: string; version?: number },
): Promise<Response> {
  const caller = await getApiCaller(request);
  const decision = authorizeHlsStream(
    getDb(),
    {
      movieId: target.movieId,
      file: target.file,
      ...(target.version === undefined ? {} : { version: target.version }),
    },
    caller?.account ?? null,
    caller?.deviceId ?? null,
  );
  if (!decision.allowed) {
    const { status, message, reason, screens } = decision;
    return Response.json(
      { success: false, message, reason, screens },
      { status, headers: { "Cache-Control": "no-store" } },
    );
  }

  if (decision.file.kind === "master") {
    const url = new URL(request.url);
    const saver = await isDataSaverOn(request, caller?.account ?? null);
    const maxRung = Math.min(
      positiveInteger(url.searchParams.get("max")) ?? Number.POSITIVE_INFINITY,
      saver ? DATA_SAVER_MAX_RUNG : Number.POSITIVE_INFINITY,
    );
    const variants = masterVariants(decision.renditions, {
      maxRung,
      only: positiveInteger(url.searchParams.get("rung")),
      linkKbps: positiveInteger(url.searchParams.get("bw")) ?? downlinkHintKbps(request.headers.get("Downlink")),
      dataSaver: saver,
      // The player asks for AV1 (`?av1=1`) when its browser decodes it smoothly; see masterVariants.
      av1: url.searchParams.get("av1") === "1",
    });
    const body = writeMasterPlaylist(
      variants.map((rendition) => ({
        ...rendition,
        uri: versionedStreamFile(decision.mediaVersion, renditionFileName(rendition.rung, "playlist", rendition.codec)),
      })),
    );
    return playlistResponse(request, body, "private, no-cache");
  }

  if (decision.file.kind === "playlist") {
    let text: string | null;
    try {
      // Names the rung's file here, or by one signed address of the bucket when it is held there.
      text = await rungPlaylistText(
        getDb(),
        decision.movieId,
        decision.file.rung,
        target.version ?? 0,
        new Date(),
        decision.file.codec,
      );
    } catch (error) {
      return unreachable(error);
    }
    if (text === null) return Response.json({ success: false, message: "Video not found" }, { status: 404 });
    return playlistResponse(request, text, "private, max-age=300");
  }

  const location = locateTitleFile(getDb(), decision.movieId, decision.path!);
  if (location.where === "bucket") return redirectToBucket(getDb(), decision.movieId, location.key);
  const response = await serveFileWithRanges(request, decision.path!, {
    contentType: "video/mp4",
    // Personal (the check above), and a rung's bytes never change under the same ETag.
    cacheControl: "private, max-age=86400",
  });
  return response ?? Response.json({ success: false, message: "Video not found" }, { status: 404 });
}

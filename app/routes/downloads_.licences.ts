import { jsonError } from "~/utils/json-error";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { movies } from "~/db/schema";
import { getRequestT } from "~/i18n/translate.server";
import { posterUrl, renditionFileName, streamUrl, versionedStreamFile } from "~/media/storage.server";
import { issueLicence, licenceStandings } from "~/services/downloads.server";
import { listSubtitles } from "~/services/subtitles.server";

/**
 * POST /downloads/licences — a licence to keep a title offline on this device
 * (JSON `{ movieId, rung, codec?, replaces? }`, cookie or Bearer; codec "av1" for the AV1 + Opus rung): the signed licence,
 * the file to fetch (the rung's MP4, by ranges, through the stream route's own
 * checks) and its size, and the title's subtitles (every language: they are
 * small) for the device to keep beside it. GET /downloads/licences?ids=a,b — which licences the
 * device holds still stand (no session needed: the ids are the secrets).
 */
const issueSchema = z.object({
  movieId: z.string().regex(/^[a-z0-9]{8,32}$/),
  rung: z.number().int().positive().max(4320),
  /** The family: AV1 + Opus (about half the bytes) for a device that decodes it; H.264 when not given. */
  codec: z.enum(["h264", "av1"]).default("h264"),
  replaces: z.string().max(64).nullish(),
});

const noStore = { "Cache-Control": "no-store" };

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed", { headers: { Allow: "POST, GET" } });
  const { t } = await getRequestT(request, "downloads");
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return jsonError(400, "Send JSON: movieId and rung");
  }
  const parsed = issueSchema.safeParse(body);
  if (!parsed.success) return jsonError(400, t("errors.notAvailable"));
  const caller = await getApiCaller(request);
  const db = getDb();
  const result = issueLicence(db, caller?.account ?? null, { ...parsed.data, deviceId: caller?.deviceId ?? "unknown" });
  if (!result.ok)
    return jsonError(result.status, t(result.key.replace(/^downloads:/, ""), result.values), { key: result.key });
  const movie = db
    .select({ name: movies.name, durationSeconds: movies.durationSeconds, mediaVersion: movies.mediaVersion })
    .from(movies)
    .where(eq(movies.id, parsed.data.movieId))
    .get()!;
  return Response.json(
    {
      licence: result.licence,
      publicKey: result.publicKey,
      profileId: caller!.account.profile.id,
      title: {
        id: parsed.data.movieId,
        name: movie.name,
        durationSeconds: movie.durationSeconds,
        poster: posterUrl(parsed.data.movieId),
      },
      media: {
        // The version playing now: a download begun before a replacement goes on with the film it began with.
        url: streamUrl(
          parsed.data.movieId,
          versionedStreamFile(movie.mediaVersion, renditionFileName(parsed.data.rung, "media", parsed.data.codec)),
        ),
        sizeBytes: result.sizeBytes,
      },
      subtitles: listSubtitles(db, parsed.data.movieId).map(({ language, label, url }) => ({ language, label, url })),
    },
    { status: 201, headers: noStore },
  );
}

export function loader({ request }: LoaderFunctionArgs) {
  const ids = (new URL(request.url).searchParams.get("ids") ?? "").split(",").filter(Boolean);
  return Response.json({ standings: licenceStandings(getDb(), ids) }, { headers: noStore });
}

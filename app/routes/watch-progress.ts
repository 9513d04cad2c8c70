import { fieldErrorsOf } from "~/services/validation";
import { byProfile } from "~/services/profiles.server";
import { jsonError } from "~/utils/json-error";
import type { ActionFunctionArgs } from "@remix-run/node";
import { getOptionalUser } from "~/auth/guards.server";
import { getDeviceId } from "~/auth/session.server";
import { getDb } from "~/db/client.server";
import { releasePlaybackLease, screensMessage, takePlaybackLease } from "~/services/playback.server";
import { progressSchema, recordProgress } from "~/services/watching.server";
import { usesViewerPages } from "~/services/roles";

/**
 * POST /watch-progress — the player's beacons (FormData: movieId,
 * positionSeconds, and `event`: "play", "progress" or "stop"). Each report
 * but "stop" takes or renews this device's playback lease (a device beyond
 * the plan's screens gets 403 with reason "screens"); "stop" frees it.
 * Callers are scripts, not people: a missing or wrong
 * sign-in gets 401/403 JSON instead of a redirect to the sign-in page.
 * A resource route answers with its own Response, so the status reaches the caller.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed", { headers: { Allow: "POST" } });
  const user = await getOptionalUser(request);
  if (!user) return jsonError(401, "Sign in to watch");
  if (!usesViewerPages(user.role)) return jsonError(403, "Not allowed");
  let form: FormData;
  try {
    // eslint-disable-next-line no-restricted-properties -- its own answer for a body that is no form (JSON for the player)
    form = await request.formData();
  } catch {
    return jsonError(400, "Send movieId and positionSeconds as form data");
  }
  const parsed = progressSchema.safeParse({
    movieId: form.get("movieId") || undefined,
    positionSeconds: form.get("positionSeconds") || undefined,
  });
  if (!parsed.success) return jsonError(400, "Invalid progress", { fieldErrors: fieldErrorsOf(parsed.error) });
  const db = getDb();
  const deviceId = (await getDeviceId(request)) ?? `account:${user.id}`;
  const stopping = form.get("event") === "stop";
  if (!stopping) {
    // "play" takes the screen; a progress report only renews it (one sent before a "stop" may arrive after it).
    const by = form.get("event") === "play" ? "play" : "request";
    const lease = takePlaybackLease(db, { account: user, deviceId, movieId: parsed.data.movieId }, new Date(), by);
    if (!lease.ok)
      return jsonError(403, screensMessage(lease.screens), { details: { reason: "screens", screens: lease.screens } });
  }
  const result = recordProgress(db, { ...byProfile(user), ...parsed.data });
  if (stopping) releasePlaybackLease(db, user.id, deviceId);
  if (!result.ok) return jsonError(404, "Video not found");
  return Response.json({ ok: true, positionSeconds: result.positionSeconds, newViewing: result.newViewing });
}

/** Nothing to read here. */
export function loader() {
  return jsonError(405, "Method not allowed", { headers: { Allow: "POST" } });
}

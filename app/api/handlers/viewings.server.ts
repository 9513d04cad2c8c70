import { fieldErrorsOf } from "~/services/validation";
import { byProfile } from "~/services/profiles.server";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { markViewing } from "~/services/watching.server";
import type { ApiRoute, HandlerContext } from "../types";
import { ApiError, apiJson, fieldMessages, NOT_ALLOWED, readFields } from "../http.server";

/** The old players' view count and history calls, over the same viewing rule as /watch-progress (decision 012). */

export const VIDEO_NOT_FOUND = "Video not found";

export const watchedSchema = z.object({
  userId: z.string().max(64).optional(),
  movieId: z
    .string({ required_error: "movieId is required" })
    .trim()
    .min(1, "movieId is required")
    .max(64, "movieId is invalid"),
});

/** Counts a view, once per viewing: a second call during the same viewing changes nothing. */
function countView({ params, caller }: HandlerContext) {
  const result = markViewing(getDb(), { ...byProfile(caller!.account), movieId: params.movieId, countView: true });
  if (!result.ok) throw new ApiError(404, VIDEO_NOT_FOUND);
  return apiJson({ success: true, counted: result.viewCounted, views: result.views });
}

/** Records the title in the caller's history. `userId`, when sent, must be the caller: nobody writes another's history. */
async function recordWatched({ request, caller }: HandlerContext) {
  const parsed = watchedSchema.safeParse(await readFields(request));
  if (!parsed.success)
    return apiJson({ success: false, message: fieldMessages(fieldErrorsOf(parsed.error)) }, { status: 400 });
  if (parsed.data.userId !== undefined && parsed.data.userId !== caller!.account.id)
    throw new ApiError(403, NOT_ALLOWED);
  const result = markViewing(getDb(), {
    ...byProfile(caller!.account),
    movieId: parsed.data.movieId,
    countView: false,
  });
  if (!result.ok) throw new ApiError(404, VIDEO_NOT_FOUND);
  return apiJson({ success: true });
}

export const viewingHandlers: ApiRoute[] = [
  { method: "PUT", path: "/files/movies/views/{movieId}", access: ["viewer", "admin"], handle: countView },
  { method: "POST", path: "/files/watched", access: ["viewer", "admin"], handle: recordWatched },
];

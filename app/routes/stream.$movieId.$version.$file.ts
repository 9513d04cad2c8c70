import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseStreamVersion } from "~/media/storage.server";
import { answerStreamRequest } from "~/routes-support/stream-response.server";

/** GET/HEAD /stream/<movieId>/v<N>/<file>: a rung of the film's Nth replacement (see stream-response). */
export function loader({ request, params }: LoaderFunctionArgs) {
  const version = parseStreamVersion(params.version ?? "");
  if (version === null)
    return Response.json(
      { success: false, message: "Video not found" },
      { status: 404, headers: { "Cache-Control": "no-store" } },
    );
  return answerStreamRequest(request, { movieId: params.movieId ?? "", file: params.file ?? "", version });
}

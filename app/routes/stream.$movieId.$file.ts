import type { LoaderFunctionArgs } from "@remix-run/node";
import { answerStreamRequest } from "~/routes-support/stream-response.server";

/** GET/HEAD /stream/<movieId>/<file>: the master playlist, and the rungs of the film's first version (see stream-response). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return answerStreamRequest(request, { movieId: params.movieId ?? "", file: params.file ?? "" });
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getApiCaller } from "~/auth/api-tokens.server";
import { handleTusRequest } from "~/routes-support/tus.server";

/**
 * /provider/uploads/tus and /provider/uploads/tus/<id>: resumable uploads by
 * the tus protocol. HEAD, GET and OPTIONS arrive as the loader, POST, PATCH
 * and DELETE as the action; the caller is the page cookie or an /api token,
 * and the service checks what that caller may do on each.
 */
async function answer(request: Request) {
  // Discovery (OPTIONS) is public: no caller is looked up for it.
  const caller = request.method === "OPTIONS" ? null : await getApiCaller(request);
  return handleTusRequest(request, caller);
}

export function loader({ request }: LoaderFunctionArgs) {
  return answer(request);
}

export function action({ request }: ActionFunctionArgs) {
  return answer(request);
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApiRequest } from "~/api/router.server";

/**
 * Every /api/... path the old web client and the mobile app call (except the
 * file routes, which have their own modules): one router, app/api/. Unknown
 * paths answer 404 JSON, never the HTML Not Found page.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleApiRequest(request);
}

export function action({ request }: ActionFunctionArgs) {
  return handleApiRequest(request);
}

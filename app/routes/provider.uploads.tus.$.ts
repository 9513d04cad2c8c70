import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleTusRequest } from "~/services/resumable-uploads.server";

/**
 * /provider/uploads/tus and /provider/uploads/tus/<id>: resumable uploads by
 * the tus protocol. HEAD, GET and OPTIONS arrive as the loader, POST, PATCH
 * and DELETE as the action; the service checks who may do what on each.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return handleTusRequest(request);
}

export function action({ request }: ActionFunctionArgs) {
  return handleTusRequest(request);
}

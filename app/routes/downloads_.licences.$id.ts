import { jsonError } from "~/utils/json-error";
import type { ActionFunctionArgs } from "@remix-run/node";
import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { deleteLicence } from "~/services/downloads.server";

/** DELETE (or POST) /downloads/licences/<id> — the device deleted a download: its slot in the plan's limit is free again. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE" && request.method !== "POST")
    return jsonError(405, "Method not allowed", { headers: { Allow: "DELETE, POST" } });
  const caller = await getApiCaller(request);
  if (!caller) return jsonError(401, "Sign in");
  const deleted = deleteLicence(getDb(), caller.account.id, params.id ?? "");
  return Response.json({ deleted }, { status: deleted ? 200 : 404, headers: { "Cache-Control": "no-store" } });
}

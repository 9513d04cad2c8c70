import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { requireViewer } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { dismissFromContinueWatching } from "~/services/continue-watching.server";
import { readForm } from "~/utils/read-form.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * POST /continue-watching (`movieId`, `redirectTo`): take a title out of the
 * viewer's "Continue watching" row (their history keeps it). Back to the page
 * with a toast; the row's form posts here with or without JavaScript.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireViewer(request);
  const form = await readForm(request);
  const back = safeRedirectPath(form.get("redirectTo"), "/movies");
  const movieId = String(form.get("movieId") ?? "").slice(0, 64);
  if (!dismissFromContinueWatching(getDb(), viewer, movieId))
    throw data(null, { status: 404, statusText: "Nothing to remove" });
  return redirectWithToast(back, { type: "success", key: "pages:continue.removed" }, { status: 303 });
}

export function loader() {
  return redirect("/movies");
}

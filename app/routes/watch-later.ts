import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { getOptionalUser } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { addToSavedList, removeFromSavedList } from "~/services/saved-lists.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * POST /watch-later — the Playlist buttons: add (or remove) a title on the
 * viewer's watch-later list and go back to the page. Signed-out visitors are
 * sent to sign in first and come back to that page.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const back = safeRedirectPath(form.get("redirectTo"), "/");
  const user = await getOptionalUser(request);
  if (!user) return redirect(`/login?${new URLSearchParams({ redirectTo: back })}`, { status: 303 });
  if (user.role !== "viewer" && user.role !== "admin") throw data(null, { status: 403 });
  const movieId = String(form.get("movieId") ?? "");
  const db = getDb();
  if (form.get("intent") === "remove") {
    removeFromSavedList(db, user.id, movieId, "watch_later");
    return redirectWithToast(back, { type: "success", key: "common:watchLater.removed" }, { status: 303 });
  }
  if (!addToSavedList(db, user.id, movieId, "watch_later")) {
    return redirectWithToast(back, { type: "error", key: "common:watchLater.unknown" }, { status: 303 });
  }
  return redirectWithToast(back, { type: "success", key: "common:watchLater.added" }, { status: 303 });
}

/** Nothing to show at this address: the lists live on the viewer's pages. */
export function loader() {
  return redirect("/");
}

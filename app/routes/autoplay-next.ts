import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { requireViewer } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { setAutoplayOnDataSaver } from "~/services/series-viewing.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/read-form.server";

/**
 * POST /autoplay-next (`autoplay` = "on" or "off", `redirectTo`): whether the
 * next episode starts by itself while data saver is on (it always does
 * otherwise). Kept on the viewer's account; back to the page with a toast.
 */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireViewer(request);
  const form = await readForm(request);
  const back = safeRedirectPath(form.get("redirectTo"), "/movies");
  const choice = form.get("autoplay");
  if (choice !== "on" && choice !== "off") throw data(null, { status: 400, statusText: "Choose on or off" });
  setAutoplayOnDataSaver(getDb(), viewer.id, choice === "on");
  return redirectWithToast(
    back,
    { type: "success", key: choice === "on" ? "series:autoplay.turnedOn" : "series:autoplay.turnedOff" },
    { status: 303 },
  );
}

export function loader() {
  return redirect("/");
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getOptionalUser } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { chooseDataSaver } from "~/routes-support/preferences.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/read-form.server";

/**
 * POST /data-saver (`dataSaver` = "on" or "off", `redirectTo`): the data
 * saver switch of the watch page and the profile. Kept on the account when
 * signed in, in a cookie otherwise; back to the page with a toast.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const back = safeRedirectPath(form.get("redirectTo"), "/");
  const choice = form.get("dataSaver");
  if (choice !== "on" && choice !== "off") return redirect(back, { status: 303 });
  const user = await getOptionalUser(request);
  const cookie = await chooseDataSaver(getDb(), user, choice === "on");
  return redirectWithToast(
    back,
    { type: "success", key: choice === "on" ? "watch:dataSaver.turnedOn" : "watch:dataSaver.turnedOff" },
    {
      status: 303,
      headers: { "Set-Cookie": cookie },
    },
  );
}

export function loader() {
  return redirect("/");
}

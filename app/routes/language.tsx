import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isLanguage } from "~/i18n/config";
import { languageCookie } from "~/i18n/language.server";
import { safeRedirectPath } from "~/utils/redirect";
import { readForm } from "~/utils/read-form.server";
import { getOptionalUser } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { setAccountLanguage } from "~/services/accounts.server";
import { setProfileLanguage } from "~/services/profiles.server";

/** POST-only: remembers the chosen language in a cookie and returns to the page. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const language = form.get("language");
  const back = safeRedirectPath(form.get("redirectTo"), "/");
  if (!isLanguage(language)) return redirect(back, { status: 303 });
  // A signed-in person's choice is kept with the account too: what reaches them by SMS speaks it.
  const user = await getOptionalUser(request);
  // And with the profile watching, which speaks it whenever it is chosen again.
  if (user) {
    setAccountLanguage(getDb(), user.id, language);
    setProfileLanguage(getDb(), user.profile.id, language);
  }
  return redirect(back, { status: 303, headers: { "Set-Cookie": await languageCookie.serialize(language) } });
}

export function loader() {
  return redirect("/");
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isLanguage } from "~/i18n/config";
import { languageCookie } from "~/i18n/language.server";
import { safeRedirectPath } from "~/utils/redirect";
import { readForm } from "~/utils/read-form.server";

/** POST-only: remembers the chosen language in a cookie and returns to the page. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const language = form.get("language");
  const back = safeRedirectPath(form.get("redirectTo"), "/");
  if (!isLanguage(language)) return redirect(back, { status: 303 });
  return redirect(back, { status: 303, headers: { "Set-Cookie": await languageCookie.serialize(language) } });
}

export function loader() {
  return redirect("/");
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { chooseSubtitles } from "~/routes-support/preferences.server";
import { languageAutonym } from "~/utils/language-tags";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/read-form.server";

/**
 * POST /subtitle-language (`language`: a language tag or "off"; `redirectTo`):
 * the watch page's subtitles menu.
 * Kept in a cookie on this browser. The form without JavaScript comes back
 * to the page with a toast; the menu with JavaScript has already switched the
 * track and asks for JSON (`Accept: application/json`), answered 204.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const back = safeRedirectPath(form.get("redirectTo"), "/");
  const choice = String(form.get("language") ?? "");
  const cookie = await chooseSubtitles(choice === "off" ? null : choice);
  const wantsJson = /application\/json/.test(request.headers.get("Accept") ?? "");
  if (!cookie) return wantsJson ? Response.json({ ok: false }, { status: 400 }) : redirect(back, { status: 303 });
  if (wantsJson) return new Response(null, { status: 204, headers: { "Set-Cookie": cookie } });
  return redirectWithToast(
    back,
    choice === "off"
      ? { type: "success", key: "subtitles:menu.turnedOff" }
      : { type: "success", key: "subtitles:menu.chosen", values: { label: languageAutonym(choice) } },
    { status: 303, headers: { "Set-Cookie": cookie } },
  );
}

export function loader() {
  return redirect("/");
}

import { getLanguage } from "~/i18n/language.server";
import { getFixedT } from "~/i18n/translate.server";
import { plainPage } from "./plain-page.server";

/**
 * "Kallo is busy, try again in N s": the answer to a request the box cannot serve within its deadline (the
 * server's admission, scripts/admission.ts, or a page whose render ran out of time) — 503 with Retry-After,
 * never a 500. A page says it in the reader's language and tries again by itself; /api callers get the old
 * JSON shape; a page's data request (a click inside the app) gets the text alone.
 */
export async function busyAnswer(request: Request, retryAfterSeconds: number): Promise<Response> {
  const language = await getLanguage(request);
  const t = getFixedT(language, "common");
  const seconds = Math.max(1, Math.round(retryAfterSeconds));
  const headers = { "Cache-Control": "no-store", "Retry-After": String(seconds) };
  // A page asked by a browser comes back by itself; a form's answer does not (it would send the form again).
  const comesBack = request.method === "GET";
  const text = t(comesBack ? "errors.busyText" : "errors.busyTextLater", { seconds });
  const url = new URL(request.url);
  const { pathname } = url;
  if (pathname === "/api" || pathname.startsWith("/api/"))
    return Response.json(
      { success: false, message: getFixedT("en", "common")("errors.busyText", { seconds }) },
      { status: 503, headers },
    );
  if (pathname.endsWith(".data") || url.searchParams.has("_data"))
    return new Response(text, { status: 503, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
  const html = plainPage(language, {
    title: t("errors.busyTitle"),
    text,
    link: { href: pathname, label: t("errors.busyAgain") },
    refreshSeconds: comesBack ? seconds : undefined,
  });
  return new Response(html, { status: 503, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
}

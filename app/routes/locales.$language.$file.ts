import type { LoaderFunctionArgs } from "@remix-run/node";
import { catalogueFile } from "~/i18n/catalogues.server";
import { isLanguage, isNamespace } from "~/i18n/config";

/**
 * GET /locales/<language>/<namespace>.<hash>.json — one namespace of one
 * language, the file a page preloads (decision 031). The hash is the content's,
 * so the current one is cached for a year as immutable. A page from an older
 * version of the site may ask for an old hash: it gets today's text, which no
 * cache may keep under that name.
 */
export function loader({ params }: LoaderFunctionArgs) {
  const match = /^([a-z]+)\.([0-9a-f]{6,64})\.json$/.exec(params.file ?? "");
  const language = params.language;
  if (!match || !isLanguage(language) || !isNamespace(match[1])) {
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const file = catalogueFile(language, match[1]);
  return new Response(file.json, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": file.hash === match[2] ? "public, max-age=31536000, immutable" : "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

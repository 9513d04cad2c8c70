import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOptionalUser } from "~/auth/guards.server";
import { usesViewerPages } from "~/services/roles";
import { normaliseSearchText, suggestTitles } from "~/services/search.server";
import { jsonError } from "~/utils/json-error";

/**
 * GET /search-suggestions?q=… — what the top bar's search box offers while a
 * viewer types: films, series and episodes (JSON). The box itself is a plain
 * GET form to /moviecategory; this only adds the list once the page's script
 * runs. For whoever may use the viewer's pages, as the device's profile sees the catalogue.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) return jsonError(401, "Sign in to search", { key: "common:search.signIn" });
  if (!usesViewerPages(user.role)) return jsonError(403, "Search is for viewers");
  const q = normaliseSearchText(new URL(request.url).searchParams.get("q"));
  return Response.json(
    { q, suggestions: suggestTitles(q, undefined, undefined, user.profile.children) },
    // Asked again each time: a device that changes profile keeps its cookie, and a children's profile sees other titles.
    { headers: { "Cache-Control": "private, no-cache", Vary: "Cookie" } },
  );
}

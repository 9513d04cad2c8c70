import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { getOptionalUser } from "~/auth/guards.server";
import { SavedListView } from "~/components/library/saved-list-view";
import { getDb } from "~/db/client.server";
import { loadSavedListPage } from "~/routes-support/saved-list-page.server";
import { addToSavedList, removeFromSavedList } from "~/services/saved-lists.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { usesViewerPages } from "~/services/roles";
import { dropSeriesFromList, keepSeriesOnList } from "~/services/series-viewing.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["browse", "pages"] };

export const meta = metaTitleMeta;

/** GET /watch-later — the viewer's watch-later list, last added first. */
export function loader({ request }: LoaderFunctionArgs) {
  return loadSavedListPage(request, "watch_later");
}

/**
 * POST /watch-later — the Playlist buttons: add (or remove) a title on the
 * viewer's watch-later list and go back to the page. Signed-out visitors are
 * sent to sign in first and come back to that page. A series' card sends
 * `seriesId`: the episode it continues with is kept (series.server.ts).
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const back = safeRedirectPath(form.get("redirectTo"), "/");
  const user = await getOptionalUser(request);
  if (!user) return redirect(`/login?${new URLSearchParams({ redirectTo: back })}`, { status: 303 });
  if (!usesViewerPages(user.role)) throw data(null, { status: 403 });
  const movieId = String(form.get("movieId") ?? "");
  const seriesId = String(form.get("seriesId") ?? "");
  const db = getDb();
  if (form.get("intent") === "remove") {
    if (seriesId) dropSeriesFromList(db, user, seriesId, "watch_later");
    else removeFromSavedList(db, user, movieId, "watch_later");
    return redirectWithToast(back, { type: "success", key: "common:watchLater.removed" }, { status: 303 });
  }
  const added = seriesId
    ? keepSeriesOnList(db, user, seriesId, "watch_later")
    : addToSavedList(db, user, movieId, "watch_later");
  if (!added) {
    return redirectWithToast(back, { type: "error", key: "common:watchLater.unknown" }, { status: 303 });
  }
  return redirectWithToast(back, { type: "success", key: "common:watchLater.added" }, { status: 303 });
}

export default function WatchLater() {
  const { t } = useTranslation("browse");
  const { list, language } = useLoaderData<typeof loader>();
  const here = list.page > 1 ? `/watch-later?page=${list.page}` : "/watch-later";
  return (
    <SavedListView
      title={t("lists.watchLaterTitle")}
      emptyText={t("lists.watchLaterEmpty")}
      action="/watch-later"
      here={here}
      language={language}
      list={list}
    />
  );
}

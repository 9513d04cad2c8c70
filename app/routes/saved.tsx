import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireViewer } from "~/auth/guards.server";
import { SavedListView } from "~/components/library/saved-list-view";
import { getDb } from "~/db/client.server";
import { loadSavedListPage } from "~/routes-support/saved-list-page.server";
import { removeFromSavedList } from "~/services/saved-lists.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["browse", "pages"] };

export const meta = metaTitleMeta;

/** GET /saved — the titles this viewer saved, last saved first. */
export function loader({ request }: LoaderFunctionArgs) {
  return loadSavedListPage(request, "saved");
}

/** POST /saved with intent=remove — take a title off the saved list (saving happens on the watch page). */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireViewer(request);
  const form = await readForm(request);
  if (form.get("intent") !== "remove") throw data(null, { status: 400, statusText: "Unknown action" });
  removeFromSavedList(getDb(), viewer, String(form.get("movieId") ?? ""), "saved");
  return redirectWithToast(
    safeRedirectPath(form.get("redirectTo"), "/saved"),
    { type: "success", key: "browse:lists.removed" },
    { status: 303 },
  );
}

export default function Saved() {
  const { t } = useTranslation("browse");
  const { list, language } = useLoaderData<typeof loader>();
  const here = list.page > 1 ? `/saved?page=${list.page}` : "/saved";
  return (
    <SavedListView
      title={t("lists.savedTitle")}
      emptyText={t("lists.savedEmpty")}
      action="/saved"
      here={here}
      language={language}
      list={list}
    />
  );
}

import { requireViewer } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { listSavedMovies, type SavedList } from "~/services/saved-lists.server";
import { pageParam } from "~/utils/paging";

const META_TITLE: Record<SavedList, string> = {
  saved: "lists.savedMetaTitle",
  watch_later: "lists.watchLaterMetaTitle",
};

/** The loader of /saved and /watch-later (and the providers' copies): one page of the viewer's list. */
export async function loadSavedListPage(request: Request, list: SavedList) {
  const viewer = await requireViewer(request);
  const { t, language } = await getRequestT(request, "browse");
  return {
    metaTitle: t(META_TITLE[list]),
    language,
    list: listSavedMovies(getDb(), viewer, list, { page: pageParam(request) }),
  };
}

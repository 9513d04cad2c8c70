import { getApiCaller } from "~/auth/api-tokens.server";
import { getDb } from "~/db/client.server";
import { publicPosterName, publicVideoName } from "~/media/storage.server";
import { getAccountById } from "~/services/accounts.server";
import { listPublishedTitles, type PublishedTitle } from "~/services/catalogue-lists.server";
import { listProviderMovies } from "~/services/movies.server";
import { deleteTitleAudited } from "~/services/title-lifecycle.server";
import { clientAddress } from "~/utils/client.server";
import { receiveProviderUpload } from "~/routes-support/title-requests.server";
import { LIST_PAGE_SIZE, type ApiRoute, type HandlerContext } from "../types";
import { ApiError, apiJson, englishText, fieldMessages, NOT_ALLOWED, NOT_FOUND } from "../http.server";
import { pageParam } from "~/utils/paging";

/** Titles as the old clients list, upload and delete them. */

/** A title as the old clients' lists show it (the published list's rows, or a provider's own). */
type TitleRow = PublishedTitle;

/** Size in MB with two decimals, as the original's lists showed it. */
export function sizeInMegabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 100) / 100;
}

/** A title in the original's field names; `filename` and `thumbnail` are the names /api/files/... serves. */
export function titleRecord(row: TitleRow) {
  return {
    _id: row.id,
    MovieName: row.name,
    filename: publicVideoName(row.id),
    thumbnail: row.posterFile ? publicPosterName(row.id, "card", "jpg") : null,
    description: row.description,
    uploadedDate: row.uploadedAt.toISOString(),
    views: row.views,
    size: sizeInMegabytes(row.sizeBytes),
  };
}

async function listPublished({ request }: HandlerContext) {
  const page = pageParam(request);
  // Open to anyone; a token or a page session of a children's profile lists only what that profile may watch.
  const caller =
    request.headers.has("Authorization") || request.headers.has("Cookie") ? await getApiCaller(request) : null;
  const children = Boolean(caller?.account.profile.children);
  const { rows, total } = listPublishedTitles(getDb(), { page, pageSize: LIST_PAGE_SIZE, children });
  return apiJson(rows.map(titleRecord), { headers: { "X-Total-Count": String(total), "X-Page": String(page) } });
}

/** A provider's own titles, every status (a provider sees its titles while they process). */
function listProviderTitles({ request, params, caller }: HandlerContext) {
  const self = caller!.account;
  if (self.role !== "admin" && self.id !== params.providerId) throw new ApiError(403, NOT_ALLOWED);
  const provider = self.id === params.providerId ? self : getAccountById(getDb(), params.providerId);
  if (!provider || provider.role !== "provider") throw new ApiError(404, NOT_FOUND);
  const page = pageParam(request);
  const result = listProviderMovies(getDb(), provider.id, { page, pageSize: LIST_PAGE_SIZE });
  const rows = result.rows.map((row) => ({
    ...titleRecord({ ...row, uploadedAt: row.uploadedAt }),
    status: row.status,
    approved: row.approved,
    lastModified: row.updatedAt.toISOString(),
  }));
  return apiJson(rows, { headers: { "X-Total-Count": String(result.total), "X-Page": String(page) } });
}

/** The old web client's multipart layout, streamed through the studio's upload service; answered once the files are stored. */
async function uploadMovie({ request, caller }: HandlerContext) {
  const result = await receiveProviderUpload(request, caller!.account, "legacy");
  if (!result.ok) {
    const message = result.formError ? englishText(result.formError) : fieldMessages(result.fieldErrors);
    return apiJson({ success: false, message }, { status: result.status });
  }
  return apiJson(
    { success: true, message: englishText("studio:upload.success"), _id: result.movieId },
    { status: 201 },
  );
}

function deleteTitle({ request, params, caller }: HandlerContext) {
  const outcome = deleteTitleAudited(getDb(), params.movieId, caller!.account, { ipAddress: clientAddress(request) });
  if (outcome === "notFound") throw new ApiError(404, englishText("studio:list.deleteMissing"));
  if (outcome === "forbidden") throw new ApiError(403, NOT_ALLOWED);
  return apiJson({ success: true, message: englishText("studio:list.deleted") });
}

export const movieHandlers: ApiRoute[] = [
  { method: "GET", path: "/movies/all", access: "anyone", handle: listPublished },
  { method: "GET", path: "/movies/all/{providerId}", access: ["provider", "admin"], handle: listProviderTitles },
  { method: "POST", path: "/upload/movies", access: ["provider"], handle: uploadMovie },
  { method: "DELETE", path: "/movies/delete/{movieId}", access: ["provider", "admin"], handle: deleteTitle },
];

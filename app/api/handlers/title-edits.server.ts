import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { movies } from "~/db/schema";
import { storageRoot } from "~/media/storage.server";
import { latestReplacement } from "~/services/film-replacements.server";
import { editableTitle, editTitle, type TitleEditResult } from "~/services/title-edits.server";
import { editTitleFromRequest, receiveReplacementUpload } from "~/routes-support/title-requests.server";
import { clientAddress } from "~/utils/client.server";
import { getEnv } from "~/utils/env.server";
import { ApiError, apiJson, englishText, fieldMessages, NOT_ALLOWED, NOT_FOUND, readFields } from "../http.server";
import type { ApiRoute, HandlerContext } from "../types";
import { titleRecord } from "./movies.server";

/**
 * Editing a title and replacing its film from scripts and apps, through the
 * same services as the studio's pages (editTitle, the film replacements):
 *
 *   PUT  /api/movies/edit/{movieId}     the details (`name`, `Description`, `Category`, `cast`: only those sent
 *                                       change) as JSON or URL-encoded; multipart to send a `poster` too
 *   POST /api/movies/replace/{movieId}  a new film (multipart, field `movie` or `file`); 202 once it is queued
 *   GET  /api/movies/replace/{movieId}  where the latest replacement stands
 *
 * Its provider or an administrator edits; only its provider replaces the film.
 */

function refused(result: Extract<TitleEditResult, { ok: false }>): Response {
  if (result.status === 404) throw new ApiError(404, NOT_FOUND);
  if (result.status === 403) throw new ApiError(403, NOT_ALLOWED);
  const message =
    Object.keys(result.fieldErrors).length > 0
      ? fieldMessages(result.fieldErrors)
      : englishText(result.formError ?? "studio:errors.incomplete");
  return apiJson({ success: false, message }, { status: result.status });
}

/** The title as the old clients list it, with where it stands. */
function editedRecord(movieId: string) {
  const row = getDb().select().from(movies).where(eq(movies.id, movieId)).get();
  if (!row) throw new ApiError(404, NOT_FOUND);
  return {
    ...titleRecord(row),
    cast: row.cast,
    Category: row.categoryId,
    status: row.status,
    approved: row.approved,
    lastModified: row.updatedAt.toISOString(),
  };
}

async function editMovie({ request, params, caller }: HandlerContext) {
  const db = getDb();
  const actor = caller!.account;
  const options = { root: storageRoot(), ipAddress: clientAddress(request) };
  const multipart = (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/");
  let result: TitleEditResult;
  if (multipart) {
    result = await editTitleFromRequest(db, request, params.movieId, actor, options);
  } else {
    // Who may edit is answered before the body is read.
    const title = editableTitle(db, params.movieId, actor);
    if (title === "notFound") throw new ApiError(404, NOT_FOUND);
    if (title === "forbidden") throw new ApiError(403, NOT_ALLOWED);
    result = await editTitle(db, params.movieId, await readFields(request), actor, options);
  }
  if (!result.ok) return refused(result);
  return apiJson({
    success: true,
    message: englishText("studio:edit.saved"),
    changed: result.changed,
    movie: editedRecord(result.movieId),
  });
}

async function replaceFilm({ request, params, caller }: HandlerContext) {
  const result = await receiveReplacementUpload(getDb(), request, params.movieId, caller!.account, {
    root: storageRoot(),
    maxFileBytes: getEnv().maxUploadBytes,
    ipAddress: clientAddress(request),
  });
  if (!result.ok) {
    if (result.status === 404) throw new ApiError(404, NOT_FOUND);
    const message =
      Object.keys(result.fieldErrors).length > 0
        ? fieldMessages(result.fieldErrors)
        : englishText(result.formError ?? "studio:errors.incomplete");
    return apiJson({ success: false, message }, { status: result.status });
  }
  return apiJson(
    { success: true, message: englishText("studio:replace.started"), replacementId: result.replacementId },
    { status: 202 },
  );
}

function replacementStatus({ params, caller }: HandlerContext) {
  const db = getDb();
  const title = editableTitle(db, params.movieId, caller!.account);
  if (title === "notFound") throw new ApiError(404, NOT_FOUND);
  if (title === "forbidden") throw new ApiError(403, NOT_ALLOWED);
  const latest = latestReplacement(db, params.movieId);
  return apiJson({
    success: true,
    replacement: latest
      ? {
          status: latest.status,
          file: latest.originalName,
          receivedAt: latest.createdAt.toISOString(),
          swappedAt: latest.swappedAt?.toISOString() ?? null,
          failureReason: latest.failureReason,
          message: latest.failureReason ? englishText(`studio:list.failure.${latest.failureReason}`) : null,
        }
      : null,
  });
}

export const titleEditHandlers: ApiRoute[] = [
  { method: "PUT", path: "/movies/edit/{movieId}", access: ["provider", "admin"], handle: editMovie },
  { method: "POST", path: "/movies/replace/{movieId}", access: ["provider"], handle: replaceFilm },
  { method: "GET", path: "/movies/replace/{movieId}", access: ["provider", "admin"], handle: replacementStatus },
];

import { eq } from "drizzle-orm";
import { data } from "@remix-run/node";
import { listCategoryOptions } from "~/services/categories.server";
import { getDb, type DB } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { movies, seasons, series } from "~/db/schema";
import { MOVIE_EXTENSIONS, POSTER_EXTENSIONS } from "~/media/file-types.server";
import { posterUrl, storageRoot } from "~/media/storage.server";
import { isPublishedRow } from "~/services/catalogue.server";
import { titleDisplayName } from "~/services/episode-names";
import { checkReplacement, latestReplacement } from "~/services/film-replacements.server";
import { knownFailureReason } from "~/services/movie-processing.server";
import { renditionStatuses } from "~/services/renditions.server";
import { discardProviderUpload, listUnfinishedUploads } from "~/services/resumable-uploads.server";
import { editableTitle } from "~/services/title-edits.server";
import type { Account } from "~/services/accounts.server";
import { clientAddress } from "~/utils/client.server";
import { getEnv } from "~/utils/env.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { FormErrors } from "~/components/ui/form";
import { readForm } from "~/utils/read-form.server";
import { editTitleFromRequest, receiveReplacementUpload } from "./title-requests.server";

/**
 * What the title's page in the studio (/provider/movie/<id>) and the
 * administrator's (/admin/movies/<id>) share: the title as its editor sees
 * it, and the two forms' actions — details and poster (both), and the film's
 * replacement without JavaScript (its provider). The rules are the services':
 * editTitle and the film replacements.
 */
export async function loadTitleEditPage(db: DB, movieId: string, actor: Account) {
  const title = editableTitle(db, movieId, actor);
  if (title === "notFound") throw data(null, { status: 404 });
  if (title === "forbidden") throw data(null, { status: 403 });
  const row = db
    .select({
      durationSeconds: movies.durationSeconds,
      sizeBytes: movies.sizeBytes,
      views: movies.views,
      failureReason: movies.failureReason,
      updatedAt: movies.updatedAt,
      seriesId: series.id,
      seriesName: series.name,
      seasonNumber: seasons.number,
      episodeNumber: movies.episodeNumber,
    })
    .from(movies)
    .leftJoin(seasons, eq(seasons.id, movies.seasonId))
    .leftJoin(series, eq(series.id, seasons.seriesId))
    .where(eq(movies.id, movieId))
    .get()!;
  const replacement = latestReplacement(db, movieId);
  const replaceable = checkReplacement(db, movieId, actor);
  return {
    title: {
      id: title.id,
      displayName: titleDisplayName({ name: title.name, ...row }),
      name: title.name,
      description: title.description,
      cast: title.cast,
      categoryId: title.categoryId,
      ageRating: title.ageRating,
      status: title.status,
      approved: title.approved,
      published: isPublishedRow(title),
      failureReason: knownFailureReason(row.failureReason),
      poster: title.posterFile ? posterUrl(title.id, "card", "jpg", title.posterVersion) : null,
      durationSeconds: row.durationSeconds,
      sizeBytes: row.sizeBytes,
      views: row.views,
      updatedAt: row.updatedAt.toISOString(),
      series: row.seriesId ? { id: row.seriesId, name: row.seriesName ?? "" } : null,
      renditions: renditionStatuses(db, [movieId]).get(movieId) ?? [],
    },
    replacement: replacement
      ? {
          ...replacement,
          createdAt: replacement.createdAt.toISOString(),
          swappedAt: replacement.swappedAt?.toISOString() ?? null,
        }
      : null,
    /** Whether this account may send a new film now, and if not, why (an i18n key). */
    replace:
      actor.role === "provider"
        ? {
            allowed: replaceable.ok,
            refusal: replaceable.ok ? null : replaceable.key,
            unfinished: listUnfinishedUploads(db, actor.id, storageRoot(), { replacing: movieId }).map((upload) => ({
              id: upload.id,
              filename: upload.filename,
              sizeBytes: upload.sizeBytes,
              receivedBytes: upload.receivedBytes,
            })),
          }
        : null,
    categories: listCategoryOptions(db),
    accept: { movie: MOVIE_EXTENSIONS.join(","), poster: POSTER_EXTENSIONS.join(",") },
    maxUploadBytes: getEnv().maxUploadBytes,
  };
}

export type TitleEditPageData = Awaited<ReturnType<typeof loadTitleEditPage>>;

/** The page's loader data: the title as its editor sees it, and the page's title in the reader's language. */
export async function titleEditPageLoader(request: Request, movieId: string, actor: Account) {
  const page = await loadTitleEditPage(getDb(), movieId, actor);
  const { t } = await getRequestT(request, "studio");
  return { metaTitle: t("edit.metaTitle", { name: page.title.displayName }), ...page };
}

/** Which form posted: `?part=film` is the film's replacement, `?part=discard` drops an unfinished one, anything else the details. */
export type TitleEditActionData = FormErrors & { part: "details" | "film" };

/**
 * The page's action. The details form (multipart, for the poster) edits the
 * title and comes back with "Changes saved"; the replacement form (multipart,
 * without JavaScript: with it the film goes by the resumable upload) queues
 * the new film and comes back with "The new film is being prepared".
 */
export async function titleEditAction(request: Request, db: DB, movieId: string, actor: Account, here: string) {
  const wanted = new URL(request.url).searchParams.get("part");
  const part = wanted === "film" ? "film" : "details";
  const root = storageRoot();
  const ipAddress = clientAddress(request);
  if (wanted === "discard") {
    const form = await readForm(request);
    const discarded = discardProviderUpload(db, actor.id, String(form.get("uploadId") ?? ""));
    return redirectWithToast(
      here,
      discarded
        ? { type: "success", key: "studio:upload.discarded" }
        : { type: "error", key: "studio:errors.uploadNotFound" },
      { status: 303 },
    );
  }
  if (part === "film") {
    const result = await receiveReplacementUpload(db, request, movieId, actor, {
      root,
      maxFileBytes: getEnv().maxUploadBytes,
      ipAddress,
    });
    if (!result.ok) {
      if (result.status === 404) throw data(null, { status: 404 });
      return data(
        { part, fieldErrors: result.fieldErrors, formError: result.formError } satisfies TitleEditActionData,
        {
          status: result.status,
        },
      );
    }
    return redirectWithToast(here, { type: "success", key: "studio:replace.started" }, { status: 303 });
  }
  const result = await editTitleFromRequest(db, request, movieId, actor, { root, ipAddress });
  if (!result.ok) {
    if (result.status === 404) throw data(null, { status: 404 });
    if (result.status === 403) throw data(null, { status: 403 });
    return data({ part, fieldErrors: result.fieldErrors, formError: result.formError } satisfies TitleEditActionData, {
      status: result.status,
    });
  }
  return redirectWithToast(here, { type: "success", key: "studio:edit.saved" }, { status: 303 });
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { ReviewState } from "~/components/studio/review-state";
import { requireProvider } from "~/auth/guards.server";
import { EpisodeClock } from "~/components/series/episode-clock";
import { SeriesDetailsForm } from "~/components/series/series-form";
import { ConfirmDelete } from "~/components/ui/confirm-delete";
import { SubmitButton, useErrorToasts, type FormErrors } from "~/components/ui/form";
import { listCategoryOptions } from "~/services/categories.server";
import { getDb } from "~/db/client.server";
import { readSeriesForm } from "~/routes-support/upload-forms.server";
import { getRequestT } from "~/i18n/translate.server";
import { POSTER_EXTENSIONS } from "~/media/file-types.server";
import { storageRoot } from "~/media/storage.server";
import { episodeCode } from "~/services/episode-names";
import {
  addSeason,
  deleteEmptySeries,
  deleteEpisode,
  getStudioSeries,
  reorderEpisodes,
  updateSeries,
} from "~/services/series.server";
import { resubmitSeries } from "~/services/series-review.server";
import { clientAddress } from "~/utils/client.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["series", "studio"] };

export const meta = metaTitleMeta;

/**
 * /provider/series/<id>: one of this provider's series — its details, its
 * seasons, each episode with its status and views (and the series' and each
 * season's total), new episode numbers, deleting an episode, and uploading
 * the next one into a season. Another provider's series is refused (403).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const db = getDb();
  const studio = getStudioSeries(db, provider, params.id ?? "");
  if (studio === "notFound") throw data(null, { status: 404 });
  if (studio === "forbidden") throw data(null, { status: 403 });
  const { t } = await getRequestT(request, "series");
  const confirmId = new URL(request.url).searchParams.get("confirm");
  const confirming =
    studio.seasons
      .flatMap((season) => season.episodes.map((episode) => ({ ...episode, seasonNumber: season.number })))
      .find((episode) => episode.id === confirmId) ?? null;
  return {
    metaTitle: t("studio.seriesMetaTitle", { name: studio.series.name }),
    ...studio,
    seasons: studio.seasons.map((season) => ({
      ...season,
      episodes: season.episodes.map((episode) => ({ ...episode, uploadedAt: episode.uploadedAt.toISOString() })),
    })),
    confirming: confirming
      ? {
          id: confirming.id,
          name: confirming.name,
          code: episodeCode(confirming.seasonNumber, confirming.episodeNumber),
        }
      : null,
    categories: listCategoryOptions(db),
    posterAccept: POSTER_EXTENSIONS.join(","),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const provider = await requireProvider(request);
  const seriesId = params.id ?? "";
  const here = `/provider/series/${encodeURIComponent(seriesId)}`;
  const db = getDb();
  const root = storageRoot();
  const ipAddress = clientAddress(request);

  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const form = await readSeriesForm(request, root);
    if (!form.ok)
      return data({ fieldErrors: form.fieldErrors, formError: form.formError } satisfies FormErrors, {
        status: form.status,
      });
    try {
      const updated = await updateSeries(db, provider, seriesId, form.fields, { poster: form.poster, root, ipAddress });
      if (!updated.ok) {
        if (updated.status === 403 || updated.status === 404) throw data(null, { status: updated.status });
        return data({ fieldErrors: updated.fieldErrors, formError: updated.formError } satisfies FormErrors, {
          status: updated.status,
        });
      }
    } finally {
      await form.discard();
    }
    return redirectWithToast(here, { type: "success", key: "series:studio.saved" }, { status: 303 });
  }

  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  switch (intent) {
    case "addSeason": {
      const added = addSeason(db, provider, seriesId, { ipAddress });
      if (!added.ok) throw data(null, { status: added.outcome === "forbidden" ? 403 : 404 });
      return redirectWithToast(
        `${here}#season-${added.number}`,
        { type: "success", key: "series:studio.seasonAdded", values: { number: added.number } },
        { status: 303 },
      );
    }
    case "reorder": {
      const seasonId = String(form.get("seasonId") ?? "");
      const wanted = new Map<string, number>();
      for (const [name, value] of form.entries()) {
        if (!name.startsWith("episode:")) continue;
        wanted.set(name.slice("episode:".length), Number(String(value).trim() || "NaN"));
      }
      const result = reorderEpisodes(db, provider, seasonId, wanted, { ipAddress });
      if (!result.ok) {
        if (result.status === 403 || result.status === 404) throw data(null, { status: result.status });
        return data({ formError: result.error } satisfies FormErrors, { status: 400 });
      }
      return redirectWithToast(here, { type: "success", key: "series:studio.reordered" }, { status: 303 });
    }
    case "delete": {
      const outcome = deleteEpisode(db, provider, seriesId, String(form.get("movieId") ?? ""), { ipAddress, root });
      if (outcome === "forbidden") throw data(null, { status: 403 });
      return redirectWithToast(
        here,
        outcome === "deleted"
          ? { type: "success", key: "series:studio.episodeDeleted" }
          : { type: "error", key: "series:errors.episodeMissing" },
        { status: 303 },
      );
    }
    case "resubmit": {
      // A series sent back goes to the administrator again; from the list of series, back there.
      const outcome = resubmitSeries(db, seriesId, provider, { ipAddress });
      if (outcome === "forbidden") throw data(null, { status: 403 });
      if (outcome === "notFound") throw data(null, { status: 404 });
      const back = form.get("back") === "/provider/series" ? "/provider/series" : here;
      return redirectWithToast(
        back,
        outcome === "resubmitted"
          ? { type: "success", key: "studio:review.resubmitted" }
          : { type: "error", key: "studio:review.notSentBack" },
        { status: 303 },
      );
    }
    case "deleteSeries": {
      const outcome = deleteEmptySeries(db, provider, seriesId, { root, ipAddress });
      if (outcome === "forbidden") throw data(null, { status: 403 });
      if (outcome === "notFound") throw data(null, { status: 404 });
      if (outcome === "hasEpisodes")
        return data({ formError: "series:errors.hasEpisodes" } satisfies FormErrors, { status: 409 });
      return redirectWithToast("/provider/series", { type: "success", key: "series:studio.deleted" }, { status: 303 });
    }
    default:
      return data({ formError: "studio:errors.unknownAction" } satisfies FormErrors, { status: 400 });
  }
}

export default function ProviderSeriesDetail() {
  const { t } = useTranslation("series");
  const { t: tStudio } = useTranslation("studio");
  const page = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>() as FormErrors | undefined;
  useErrorToasts(errors);
  const here = `/provider/series/${page.series.id}`;
  const episodeCount = page.seasons.reduce((total, season) => total + season.episodes.length, 0);

  return (
    <section className="max-w-5xl" data-series-id={page.series.id}>
      <p className="text-sm">
        <Link to="/provider/series" className="text-brand-300 hover:underline">
          {t("studio.back")}
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{page.series.name}</h1>
      <p className="mt-1 text-sm text-slate-300" data-testid="series-views">
        {t("studio.seriesViews", { count: page.views })}
      </p>
      <ReviewState
        approved={page.series.approved}
        returnReason={page.series.returnReason}
        returnNote={page.series.returnNote}
        idField="seriesId"
        id={page.series.id}
        name={page.series.name}
      />

      {page.confirming ? (
        <ConfirmDelete
          title={t("studio.confirmTitle", { code: page.confirming.code, name: page.confirming.name })}
          text={t("studio.confirmText")}
          confirmLabel={t("studio.confirmDelete")}
          cancelLabel={t("studio.cancel")}
          cancelTo={here}
          action={here}
          hidden={{ movieId: page.confirming.id }}
        />
      ) : null}

      {page.seasons.map((season) => (
        <section
          key={season.id}
          id={`season-${season.number}`}
          aria-labelledby={`season-${season.number}-title`}
          className="mt-8 scroll-mt-20"
          data-season-id={season.id}
        >
          <div className="flex flex-wrap items-baseline justify-between gap-3">
            <h2 id={`season-${season.number}-title`} className="text-xl font-semibold">
              {t("page.season", { number: season.number })}{" "}
              <span className="text-sm font-normal text-slate-400">
                {t("studio.seasonViews", { count: season.views })}
              </span>
            </h2>
            <Link
              to={`/provider/Movieupload?season=${season.id}`}
              className="rounded bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
            >
              {t("studio.uploadEpisode", { number: season.number })}
            </Link>
          </div>
          {season.episodes.length === 0 ? (
            <p className="mt-3 text-sm text-slate-400">{t("studio.noEpisodes")}</p>
          ) : (
            <Form method="post" action={here} className="mt-3">
              <input type="hidden" name="seasonId" value={season.id} />
              <div className="overflow-x-auto rounded-lg border border-white/10">
                <table className="w-full min-w-[640px] text-left text-sm">
                  <thead className="bg-ink-800 text-slate-300">
                    <tr>
                      <th scope="col" className="px-3 py-2">
                        {t("studio.columns.number")}
                      </th>
                      <th scope="col" className="px-3 py-2">
                        {t("studio.columns.episode")}
                      </th>
                      <th scope="col" className="px-3 py-2">
                        {t("studio.columns.status")}
                      </th>
                      <th scope="col" className="px-3 py-2 text-right">
                        {t("studio.columns.views")}
                      </th>
                      <th scope="col" className="px-3 py-2">
                        <span className="sr-only">{t("studio.columns.actions")}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-white/5">
                    {season.episodes.map((episode) => (
                      <tr key={episode.id} data-episode-id={episode.id}>
                        <td className="px-3 py-2">
                          <input
                            type="number"
                            name={`episode:${episode.id}`}
                            defaultValue={episode.episodeNumber}
                            min={1}
                            max={9999}
                            required
                            aria-label={t("studio.numberLabel", { name: episode.name })}
                            className="w-20 rounded border border-white/15 bg-ink-900 px-2 py-1 text-slate-50"
                          />
                        </td>
                        <td className="px-3 py-2">
                          <span className="font-medium">{episode.name}</span>
                          <span className="block text-xs text-slate-400">
                            <EpisodeClock seconds={episode.durationSeconds} />
                          </span>
                        </td>
                        <td className="px-3 py-2">{tStudio(`list.status.${episode.status}`)}</td>
                        <td className="px-3 py-2 text-right tabular-nums">{episode.views}</td>
                        <td className="px-3 py-2">
                          <Link
                            to={`?confirm=${episode.id}`}
                            aria-label={t("studio.deleteLabel", { name: episode.name })}
                            className="rounded border border-red-400/40 px-2 py-1 text-xs text-red-200 hover:bg-red-950"
                          >
                            {t("studio.delete")}
                          </Link>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="mt-2">
                <SubmitButton
                  intent="reorder"
                  pendingText={t("studio.savingOrder")}
                  className="rounded border border-white/20 px-3 py-1.5 text-sm hover:bg-white/5"
                >
                  {t("studio.saveOrder")}
                </SubmitButton>
              </div>
            </Form>
          )}
        </section>
      ))}

      <Form method="post" action={here} className="mt-6">
        <SubmitButton intent="addSeason" pendingText={t("studio.addingSeason")}>
          {t("studio.addSeason", { number: page.seasons.length + 1 })}
        </SubmitButton>
      </Form>

      <h2 className="mt-10 text-xl font-semibold">{t("studio.detailsTitle")}</h2>
      <div className="mt-3 max-w-2xl">
        <SeriesDetailsForm
          action={here}
          categories={page.categories}
          values={{
            name: page.series.name,
            description: page.series.description,
            cast: page.series.cast,
            categoryId: page.series.categoryId,
            ageRating: page.series.ageRating,
          }}
          errors={errors}
          submitLabel={t("studio.save")}
          pendingLabel={t("studio.saving")}
          posterAccept={page.posterAccept}
        />
      </div>

      {episodeCount === 0 ? (
        <Form method="post" action={here} className="mt-8">
          <p className="text-sm text-slate-300">{t("studio.deleteEmptyHint")}</p>
          <button
            type="submit"
            name="intent"
            value="deleteSeries"
            className="mt-2 rounded border border-red-400/40 px-3 py-1.5 text-sm text-red-200 hover:bg-red-950"
          >
            {t("studio.deleteSeries")}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

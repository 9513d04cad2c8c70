import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider, requireProviderSendingFilm } from "~/auth/guards.server";
import { dateFormatter } from "~/utils/dates";
import { megabytes, UploadSubmit, wrongFileFor } from "~/components/studio/upload-progress";
import { TUS_ENDPOINT, useResumableUpload } from "~/components/studio/use-resumable-upload";
import { UnfinishedUploadActions } from "~/components/studio/unfinished-upload-actions";
import { DetailsFields } from "~/components/studio/details-fields";
import { Field, FormError, SelectField, useErrorToasts, type FormErrors } from "~/components/ui/form";
import { showToast } from "~/components/ui/toaster";
import { useHydrated } from "~/components/ui/use-hydrated";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { MOVIE_EXTENSIONS, POSTER_EXTENSIONS } from "~/media/file-types.server";
import { listCategoryOptions } from "~/services/categories.server";
import { discardProviderUpload, listUnfinishedUploads } from "~/services/resumable-uploads.server";
import { newUploadKey } from "~/services/uploads.server";
import { receiveProviderUpload } from "~/routes-support/title-requests.server";
import { listUploadSeasons } from "~/services/series.server";
import { getEnv } from "~/utils/env.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["studio", "series"] };

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const { t } = await getRequestT(request, "studio");
  const db = getDb();
  // An episode goes into one of this provider's seasons (`?season=` from the series page picks it).
  const seasons = listUploadSeasons(db, provider.id);
  const wantedSeason = new URL(request.url).searchParams.get("season") ?? "";
  return {
    metaTitle: t("upload.metaTitle"),
    categories: listCategoryOptions(db),
    seasons,
    season: seasons.some((season) => season.seasonId === wantedSeason) ? wantedSeason : "",
    maxUploadBytes: getEnv().maxUploadBytes,
    maxUploadMb: Math.round(getEnv().maxUploadBytes / 1024 / 1024),
    accept: { movie: MOVIE_EXTENSIONS.join(","), poster: POSTER_EXTENSIONS.join(",") },
    uploadKey: newUploadKey(),
    unfinished: listUnfinishedUploads(db, provider.id).map((upload) => ({
      ...upload,
      createdAt: upload.createdAt.getTime(),
      expiresAt: upload.expiresAt.getTime(),
    })),
  };
}

/**
 * The form's plain (no JavaScript) submission: stored, then on to the movie
 * list with the message. The unfinished uploads' Discard buttons post here too.
 */
export async function action({ request }: ActionFunctionArgs) {
  const provider = await requireProviderSendingFilm(request);
  if ((request.headers.get("Content-Type") ?? "").startsWith("application/x-www-form-urlencoded")) {
    const form = await readForm(request);
    if (form.get("intent") !== "discard")
      return data({ formError: "studio:errors.unknownAction" } satisfies FormErrors, { status: 400 });
    const discarded = discardProviderUpload(getDb(), provider.id, String(form.get("uploadId") ?? ""));
    if (!discarded) return data({ formError: "studio:errors.uploadNotFound" } satisfies FormErrors, { status: 404 });
    return redirectWithToast(
      "/provider/Movieupload",
      { type: "success", key: "studio:upload.discarded" },
      { status: 303 },
    );
  }
  const result = await receiveProviderUpload(request, provider, "form");
  if (!result.ok)
    return data({ fieldErrors: result.fieldErrors, formError: result.formError } satisfies FormErrors, {
      status: result.status,
    });
  return redirectWithToast("/provider/movielist", { type: "success", key: "studio:upload.success" }, { status: 303 });
}

export default function MovieUpload() {
  const { t } = useTranslation("studio");
  const {
    categories: categoryOptions,
    maxUploadMb,
    maxUploadBytes,
    accept,
    unfinished,
    uploadKey,
    seasons,
    season,
  } = useLoaderData<typeof loader>();
  const { t: tSeries } = useTranslation("series");
  const [seasonId, setSeasonId] = useState(season);
  const serverErrors = useActionData<typeof action>();
  const [clientErrors, setClientErrors] = useState<FormErrors | null>(null);
  const navigate = useNavigate();
  const { state, start, pause, resume } = useResumableUpload();
  const errors: FormErrors | null = clientErrors ?? serverErrors ?? null;
  useErrorToasts(errors);
  const busy = state.phase !== "idle";

  const succeed = () => {
    showToast({ type: "success", key: "studio:upload.success" });
    navigate("/provider/movielist");
  };

  // With JavaScript the film goes up by the resumable protocol: progress, pause, and no loss when the link drops.
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const movie = form.get("movie");
    const poster = form.get("poster");
    if (!(movie instanceof File) || movie.size === 0) {
      setClientErrors({
        fieldErrors: {
          movie: [movie instanceof File && movie.name ? "studio:errors.movieEmpty" : "studio:errors.movieRequired"],
        },
      });
      return;
    }
    // Refused before a single byte is sent: too large here; the server says so at once when its disk is short.
    if (movie.size > maxUploadBytes) {
      setClientErrors({ fieldErrors: { movie: ["studio:errors.tooLarge"] } });
      return;
    }
    setClientErrors(null);
    void start({
      file: movie,
      poster: poster instanceof File && poster.size > 0 ? poster : null,
      details: {
        name: String(form.get("name") ?? ""),
        Description: String(form.get("Description") ?? ""),
        Category: String(form.get("Category") ?? ""),
        cast: String(form.get("cast") ?? ""),
        ageRating: String(form.get("ageRating") ?? ""),
        // An episode: its season and number travel as tus metadata under the form's names.
        ...(form.get("seasonId") ? { seasonId: String(form.get("seasonId")) } : {}),
        ...(form.get("seasonId") && form.get("episodeNumber")
          ? { episodeNumber: String(form.get("episodeNumber")) }
          : {}),
      },
      onSuccess: succeed,
      onRefused: setClientErrors,
    });
  }

  function continueUpload(upload: Unfinished, file: File) {
    if (busy) return;
    const wrong = wrongFileFor(upload, file, t);
    setClientErrors(wrong);
    if (wrong) return;
    void start({ file, uploadUrl: `${TUS_ENDPOINT}/${upload.id}`, onSuccess: succeed, onRefused: setClientErrors });
  }

  const fieldErrors = errors?.fieldErrors ?? {};
  return (
    <section className="max-w-2xl">
      <h1 className="text-3xl font-bold">{t("upload.title")}</h1>
      <p className="mt-2 text-slate-300">{t("upload.intro", { mb: maxUploadMb })}</p>
      {unfinished.length > 0 ? (
        <UnfinishedUploads uploads={unfinished} busy={busy} onContinue={continueUpload} />
      ) : null}
      <form
        method="post"
        encType="multipart/form-data"
        action="/provider/Movieupload"
        onSubmit={onSubmit}
        noValidate
        className="mt-6 grid gap-5 rounded-lg border border-white/10 bg-ink-900/60 p-6"
      >
        <FormError errors={errors} />
        {/* Sending this form twice (a retry after a lost answer) makes one title, not two. */}
        <input type="hidden" name="uploadKey" value={uploadKey} />
        {seasons.length > 0 ? (
          <fieldset className="grid gap-3 rounded border border-white/10 p-4" data-testid="episode-place">
            <legend className="px-1 text-sm font-medium text-slate-200">{tSeries("upload.legend")}</legend>
            <SelectField
              name="seasonId"
              label={tSeries("upload.season")}
              value={seasonId}
              onChange={(event) => setSeasonId(event.currentTarget.value)}
              options={[
                { value: "", label: tSeries("upload.film") },
                ...seasons.map((option) => ({
                  value: option.seasonId,
                  label: tSeries("upload.seasonOption", { series: option.seriesName, number: option.seasonNumber }),
                })),
              ]}
              hint={tSeries("upload.seasonHint")}
              errors={fieldErrors.seasonId}
            />
            <Field
              name="episodeNumber"
              type="number"
              min={1}
              max={9999}
              label={tSeries("upload.episodeNumber")}
              hint={tSeries("upload.episodeNumberHint")}
              errors={fieldErrors.episodeNumber}
            />
          </fieldset>
        ) : null}
        <Field
          name="name"
          label={seasonId ? tSeries("upload.episodeTitle") : t("upload.movieTitle")}
          errors={fieldErrors.name}
          required
          maxLength={200}
        />
        <DetailsFields categories={categoryOptions} errors={fieldErrors} withRating={!seasonId} />
        <Field
          type="file"
          name="poster"
          label={t("upload.poster")}
          accept={accept.poster}
          hint={t("upload.posterHint")}
          errors={fieldErrors.poster}
        />
        <Field
          type="file"
          name="movie"
          label={t("upload.movie")}
          accept={accept.movie}
          hint={t("upload.movieHint")}
          errors={fieldErrors.movie}
          required
        />
        <UploadSubmit state={state} onPause={pause} onResume={resume} busy={busy} label={t("upload.submit")} />
      </form>
    </section>
  );
}

type Unfinished = {
  id: string;
  name: string;
  filename: string;
  sizeBytes: number;
  receivedBytes: number;
  expiresAt: number;
};

/** Unfinished uploads kept on the server: continue one by choosing its file again, or discard it (that works without JavaScript). */
function UnfinishedUploads({
  uploads,
  busy,
  onContinue,
}: {
  uploads: Unfinished[];
  busy: boolean;
  onContinue: (upload: Unfinished, file: File) => void;
}) {
  const { t, i18n } = useTranslation("studio");
  const hydrated = useHydrated();
  const dates = dateFormatter(i18n.language, "dateTime");
  return (
    <section
      aria-labelledby="unfinished-title"
      className="mt-6 rounded-lg border border-amber-400/30 bg-amber-950/30 p-5"
    >
      <h2 id="unfinished-title" className="text-lg font-semibold">
        {t("upload.unfinishedTitle")}
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        {hydrated ? t("upload.unfinishedIntro") : t("upload.continueNeedsScript")}
      </p>
      <ul className="mt-3 grid gap-3">
        {uploads.map((upload) => (
          <li
            key={upload.id}
            className="grid gap-2 rounded border border-white/10 p-3"
            data-unfinished-upload={upload.id}
          >
            <p>
              <span className="font-medium">{upload.name}</span>
              <span className="block text-sm text-slate-300">
                {t("upload.unfinishedEntry", {
                  filename: upload.filename,
                  received: megabytes(upload.receivedBytes),
                  total: megabytes(upload.sizeBytes),
                })}
              </span>
              <span className="block text-xs text-slate-400">
                {t("upload.unfinishedKept", { date: dates.format(new Date(upload.expiresAt)) })}
              </span>
            </p>
            <UnfinishedUploadActions
              uploadId={upload.id}
              busy={busy}
              hydrated={hydrated}
              onContinue={(file) => onContinue(upload, file)}
              discardAction="/provider/Movieupload"
              discardIntent="discard"
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

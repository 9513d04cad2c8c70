import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { asc } from "drizzle-orm";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { requireProvider } from "~/auth/guards.server";
import { Field, FormError, useErrorToasts, type FormErrors } from "~/components/ui/form";
import { showToast } from "~/components/ui/toaster";
import { getDb } from "~/db/client.server";
import { categories } from "~/db/schema";
import { getRequestT } from "~/i18n/translate.server";
import { MOVIE_EXTENSIONS, POSTER_EXTENSIONS } from "~/media/file-types.server";
import { receiveProviderUpload } from "~/services/uploads.server";
import { getEnv } from "~/utils/env.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireProvider(request);
  const { t } = await getRequestT(request, "studio");
  const categoryOptions = getDb().select({ id: categories.id, name: categories.name }).from(categories).orderBy(asc(categories.sortOrder), asc(categories.name)).all();
  return {
    metaTitle: t("upload.metaTitle"),
    categories: categoryOptions,
    maxUploadMb: Math.round(getEnv().maxUploadBytes / 1024 / 1024),
    accept: { movie: MOVIE_EXTENSIONS.join(","), poster: POSTER_EXTENSIONS.join(",") },
  };
}

/** The form's plain (no JavaScript) submission: stored, then on to the movie list with the message. */
export async function action({ request }: ActionFunctionArgs) {
  const provider = await requireProvider(request);
  const result = await receiveProviderUpload(request, provider, "form");
  if (!result.ok) return data({ fieldErrors: result.fieldErrors, formError: result.formError } satisfies FormErrors, { status: result.status });
  return redirectWithToast("/provider/movielist", { type: "success", key: "studio:upload.success" }, { status: 303 });
}

type UploadState = { phase: "idle" } | { phase: "sending"; percent: number } | { phase: "storing" };

export default function MovieUpload() {
  const { t } = useTranslation("studio");
  const { categories: categoryOptions, maxUploadMb, accept } = useLoaderData<typeof loader>();
  const serverErrors = useActionData<typeof action>();
  const [clientErrors, setClientErrors] = useState<FormErrors | null>(null);
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const navigate = useNavigate();
  const errors = clientErrors ?? serverErrors ?? null;
  useErrorToasts(errors);
  const busy = state.phase !== "idle";

  // With JavaScript the same form goes up through XMLHttpRequest, whose upload events give real progress.
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const body = new FormData(event.currentTarget);
    const request = new XMLHttpRequest();
    request.open("POST", "/provider/uploads");
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (progress) => {
      if (!progress.lengthComputable) return;
      const percent = Math.min(100, Math.round((progress.loaded / progress.total) * 100));
      setState(percent >= 100 ? { phase: "storing" } : { phase: "sending", percent });
    };
    request.upload.onload = () => setState({ phase: "storing" });
    request.onload = () => {
      setState({ phase: "idle" });
      let reply: { success?: boolean; fieldErrors?: FormErrors["fieldErrors"]; formError?: string } = {};
      try {
        reply = JSON.parse(request.responseText);
      } catch {
        reply = { success: false, formError: request.status === 413 ? "studio:errors.tooLarge" : "common:errors.serverText" };
      }
      if (request.status >= 200 && request.status < 300 && reply.success) {
        showToast({ type: "success", key: "studio:upload.success" });
        navigate("/provider/movielist");
        return;
      }
      if (request.status === 401 || request.status === 403) {
        window.location.assign("/cp");
        return;
      }
      setClientErrors({ fieldErrors: reply.fieldErrors, formError: reply.formError ?? (reply.fieldErrors ? undefined : "common:errors.serverText") });
    };
    request.onerror = () => {
      setState({ phase: "idle" });
      setClientErrors({ formError: "studio:errors.network" });
    };
    setClientErrors(null);
    setState({ phase: "sending", percent: 0 });
    request.send(body);
  }

  const fieldErrors = errors?.fieldErrors ?? {};
  const percent = state.phase === "sending" ? state.percent : state.phase === "storing" ? 100 : 0;
  return (
    <section className="max-w-2xl">
      <h1 className="text-3xl font-bold">{t("upload.title")}</h1>
      <p className="mt-2 text-slate-300">{t("upload.intro", { mb: maxUploadMb })}</p>
      <form
        method="post"
        encType="multipart/form-data"
        action="/provider/Movieupload"
        onSubmit={onSubmit}
        noValidate
        className="mt-6 grid gap-5 rounded-lg border border-white/10 bg-ink-900/60 p-6"
      >
        <FormError errors={errors} />
        <Field name="name" label={t("upload.movieTitle")} errors={fieldErrors.name} required maxLength={200} />
        <div className="grid gap-1">
          <label htmlFor="upload-description" className="text-sm font-medium text-slate-200">
            {t("upload.description")}
          </label>
          <textarea id="upload-description" name="Description" rows={4} maxLength={5000} className={inputClass(false)} aria-describedby={fieldErrors.Description ? "upload-description-error" : undefined} />
          <FieldMessages id="upload-description-error" messages={fieldErrors.Description} />
        </div>
        <div className="grid gap-1">
          <label htmlFor="upload-category" className="text-sm font-medium text-slate-200">
            {t("upload.category")}
          </label>
          <select id="upload-category" name="Category" className={inputClass(Boolean(fieldErrors.Category))} aria-invalid={fieldErrors.Category ? true : undefined} aria-describedby={fieldErrors.Category ? "upload-category-error" : undefined} defaultValue={categoryOptions[0]?.id}>
            {categoryOptions.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
          <FieldMessages id="upload-category-error" messages={fieldErrors.Category} />
        </div>
        <Field name="cast" label={t("upload.cast")} errors={fieldErrors.cast} maxLength={1000} hint={t("upload.castHint")} />
        <FileField name="poster" label={t("upload.poster")} accept={accept.poster} hint={t("upload.posterHint")} errors={fieldErrors.poster} />
        <FileField name="movie" label={t("upload.movie")} accept={accept.movie} hint={t("upload.movieHint")} errors={fieldErrors.movie} required />
        {busy ? (
          <div className="grid gap-1" aria-live="polite">
            <progress max={100} value={percent} className="h-3 w-full accent-brand-500" aria-label={t("upload.progressLabel")} />
            <p className="text-sm text-slate-300" data-upload-progress={percent}>
              {state.phase === "storing" ? t("upload.storing") : t("upload.sending", { percent })}
            </p>
          </div>
        ) : null}
        <div>
          <button type="submit" disabled={busy} className="rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:cursor-wait disabled:opacity-70">
            {busy ? t("upload.uploading") : t("upload.submit")}
          </button>
        </div>
      </form>
    </section>
  );
}

const inputClass = (invalid: boolean) =>
  `rounded border bg-ink-900 px-3 py-2 text-slate-50 focus:outline-none focus:ring-2 focus:ring-brand-500 ${invalid ? "border-red-400" : "border-white/15"}`;

function FieldMessages({ id, messages }: { id: string; messages?: string[] }) {
  const { t } = useTranslation();
  if (!messages?.length) return null;
  return (
    <ul id={id} className="text-sm text-red-300">
      {messages.map((message) => (
        <li key={message}>{t(message)}</li>
      ))}
    </ul>
  );
}

function FileField({ name, label, accept, hint, errors, required }: { name: string; label: string; accept: string; hint: string; errors?: string[]; required?: boolean }) {
  const id = `upload-${name}`;
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        required={required}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${id}-hint${errors?.length ? ` ${id}-error` : ""}`}
        className="text-sm text-slate-200 file:mr-3 file:rounded file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:text-slate-100"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-400">
        {hint}
      </p>
      <FieldMessages id={`${id}-error`} messages={errors} />
    </div>
  );
}

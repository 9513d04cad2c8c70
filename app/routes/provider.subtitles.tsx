import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useEffect, useId } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider } from "~/auth/guards.server";
import { SubtitleTable } from "~/components/subtitles/subtitle-table";
import { showToast } from "~/components/ui/toaster";
import { getDb } from "~/db/client.server";
import { receiveSubtitleUpload } from "~/routes-support/upload-forms.server";
import { getRequestT } from "~/i18n/translate.server";
import { SUBTITLE_MAX_BYTES } from "~/media/subtitle-files";
import {
  deleteSubtitle,
  listSubtitles,
  titleForSubtitles,
  type SubtitleFormErrors,
  type SubtitleMessage,
} from "~/services/subtitles.server";
import { clientAddress } from "~/utils/client.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["subtitles"] };

export const meta = metaTitleMeta;

/** The languages the form offers by name; any other BCP 47 tag goes in "Other language". */
const COMMON_LANGUAGES = ["ha", "en", "fr", "ar", "ff", "yo", "ig"] as const;

function movieIdOf(request: Request): string {
  return (new URL(request.url).searchParams.get("id") ?? "").trim();
}

/** This provider's title, or the answer for someone else's (403) or none (404). */
function ownTitle(movieId: string, provider: { id: string; role: "viewer" | "provider" | "admin" }) {
  const title = titleForSubtitles(getDb(), movieId, provider, "upload");
  if (title === "notFound") throw data(null, { status: 404 });
  if (title === "forbidden") throw data(null, { status: 403 });
  return title;
}

/** /provider/subtitles?id=<movieId> — a title's subtitles: the list, and the form that adds or replaces one language. */
export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const title = ownTitle(movieIdOf(request), provider);
  const { t } = await getRequestT(request, "subtitles");
  return {
    metaTitle: t("studio.metaTitle", { name: title.name }),
    title,
    rows: listSubtitles(getDb(), title.id).map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() })),
    maxKb: Math.round(SUBTITLE_MAX_BYTES / 1024),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const provider = await requireProvider(request);
  const title = ownTitle(movieIdOf(request), provider);
  const back = `/provider/subtitles?${new URLSearchParams({ id: title.id })}`;
  const db = getDb();
  if ((request.headers.get("Content-Type") ?? "").startsWith("application/x-www-form-urlencoded")) {
    const form = await readForm(request);
    if (form.get("intent") !== "delete")
      return data<SubtitleFormErrors>({ formError: { key: "subtitles:errors.unknownAction" } }, { status: 400 });
    const outcome = deleteSubtitle(db, {
      movieId: title.id,
      language: String(form.get("language") ?? ""),
      actor: provider,
      ipAddress: clientAddress(request),
    });
    if (outcome === "forbidden") throw data(null, { status: 403 });
    return redirectWithToast(
      back,
      outcome === "deleted"
        ? { type: "success", key: "subtitles:studio.deleted" }
        : { type: "error", key: "subtitles:studio.missing" },
      { status: 303 },
    );
  }
  const result = await receiveSubtitleUpload(db, request, {
    movieId: title.id,
    actor: provider,
    ipAddress: clientAddress(request),
  });
  if (!result.ok) return data<SubtitleFormErrors>(result.errors, { status: result.status });
  return redirectWithToast(
    back,
    {
      type: "success",
      key: result.replaced ? "subtitles:studio.replaced" : "subtitles:studio.saved",
      values: { count: result.cues },
    },
    { status: 303 },
  );
}

export default function ProviderSubtitles() {
  const { t } = useTranslation("subtitles");
  const { title, rows, maxKb } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>() as SubtitleFormErrors | undefined;
  const navigation = useNavigation();
  const formAction = `/provider/subtitles?${new URLSearchParams({ id: title.id })}`;
  const uploading = navigation.state !== "idle" && navigation.formData?.get("intent") === "upload";
  useEffect(() => {
    if (!errors) return;
    for (const message of [errors.formError, ...Object.values(errors.fieldErrors ?? {})])
      if (message) showToast({ type: "error", key: message.key, values: message.values });
  }, [errors]);
  const fieldErrors = errors?.fieldErrors ?? {};

  return (
    <section className="max-w-3xl">
      <Link to="/provider/movielist" className="text-sm text-brand-300 hover:underline">
        {t("studio.back")}
      </Link>
      <h1 className="mt-2 text-3xl font-bold">{t("studio.heading", { name: title.name })}</h1>
      <p className="mt-2 text-slate-300">{t("studio.intro", { kb: maxKb })}</p>

      <SubtitleTable rows={rows} formAction={formAction} canOpen={title.ready} />

      <Form
        method="post"
        encType="multipart/form-data"
        action={formAction}
        className="mt-8 grid gap-5 rounded-lg border border-white/10 bg-ink-900/60 p-6"
        aria-labelledby="subtitle-form-title"
      >
        <div>
          <h2 id="subtitle-form-title" className="text-xl font-semibold">
            {t("studio.formTitle")}
          </h2>
          <p className="mt-1 text-sm text-slate-400">{t("studio.replaceNote")}</p>
        </div>
        {errors?.formError ? (
          <p role="alert" className="rounded border border-red-400/40 bg-red-950 px-3 py-2 text-sm text-red-50">
            {t(errors.formError.key, errors.formError.values)}
          </p>
        ) : null}
        <LanguageFields error={fieldErrors.language} />
        <TextField name="label" label={t("studio.label")} hint={t("studio.labelHint")} error={fieldErrors.label} />
        <FileField error={fieldErrors.file} />
        <div>
          <button
            type="submit"
            name="intent"
            value="upload"
            aria-disabled={uploading || undefined}
            onClick={(event) => {
              if (uploading) event.preventDefault();
            }}
            className="rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 aria-disabled:cursor-wait aria-disabled:opacity-70"
          >
            {uploading ? t("studio.submitting") : t("studio.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}

const inputClass = (invalid: boolean) =>
  `rounded border bg-ink-900 px-3 py-2 text-slate-50 focus:ring-2 focus:ring-brand-500 focus:outline-none ${invalid ? "border-red-400" : "border-white/15"}`;

function FieldError({ id, message, field }: { id: string; message?: SubtitleMessage; field: string }) {
  const { t } = useTranslation("subtitles");
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-red-300" data-field-error={field}>
      {t(message.key, message.values)}
    </p>
  );
}

function LanguageFields({ error }: { error?: SubtitleMessage }) {
  const { t } = useTranslation("subtitles");
  const id = useId();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="grid content-start gap-1">
        <label htmlFor={`${id}-language`} className="text-sm font-medium text-slate-200">
          {t("studio.language")}
        </label>
        <select
          id={`${id}-language`}
          name="language"
          defaultValue="ha"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={inputClass(Boolean(error))}
        >
          {COMMON_LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {t(`languages.${language}`)} ({language})
            </option>
          ))}
          <option value="other">{t("studio.otherOption")}</option>
        </select>
        <FieldError id={`${id}-error`} message={error} field="language" />
      </div>
      <div className="grid content-start gap-1">
        <label htmlFor={`${id}-other`} className="text-sm font-medium text-slate-200">
          {t("studio.otherLanguage")}
        </label>
        <input
          id={`${id}-other`}
          name="otherLanguage"
          maxLength={35}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-other-hint`}
          className={inputClass(false)}
        />
        <p id={`${id}-other-hint`} className="text-xs text-slate-400">
          {t("studio.otherHint")}
        </p>
      </div>
    </div>
  );
}

function TextField({
  name,
  label,
  hint,
  error,
}: {
  name: string;
  label: string;
  hint: string;
  error?: SubtitleMessage;
}) {
  const id = useId();
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        id={id}
        name={name}
        maxLength={60}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className={inputClass(Boolean(error))}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-400">
        {hint}
      </p>
      <FieldError id={`${id}-error`} message={error} field={name} />
    </div>
  );
}

function FileField({ error }: { error?: SubtitleMessage }) {
  const { t } = useTranslation("subtitles");
  const id = useId();
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {t("studio.file")}
      </label>
      <input
        id={id}
        type="file"
        name="file"
        accept=".vtt,.srt,text/vtt"
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="text-sm text-slate-200 file:mr-3 file:rounded file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:text-slate-100"
      />
      <FieldError id={`${id}-error`} message={error} field="file" />
    </div>
  );
}

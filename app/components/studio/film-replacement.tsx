import { useRevalidator } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { UnfinishedUploadActions } from "./unfinished-upload-actions";
import { useTranslation } from "~/i18n/use-translation";
import { dateFormatter } from "~/utils/dates";
import { Field, FormError, type FormErrors } from "~/components/ui/form";
import { showToast } from "~/components/ui/toaster";
import { useHydrated } from "~/components/ui/use-hydrated";
import { megabytes, UploadSubmit, wrongFileFor } from "./upload-progress";
import { TUS_ENDPOINT, useResumableUpload } from "./use-resumable-upload";

export type ReplacementView = {
  status: "processing" | "failed" | "done";
  failureReason: string | null;
  originalName: string;
  createdAt: string;
  swappedAt: string | null;
};

export type UnfinishedReplacement = { id: string; filename: string; sizeBytes: number; receivedBytes: number };

/**
 * Replacing a title's film. Without JavaScript the form posts the film in
 * one multipart request (`?part=film`); with it the film goes by the
 * resumable upload (progress, pause, survives a dropped link) with the tus
 * metadata `replaces`. Either way the current film plays on until the new one
 * is ready, and this panel says where the replacement is — and why, if it
 * failed — looking again every few seconds while it is being prepared.
 */
export function FilmReplacement({
  movieId,
  action,
  replacement,
  allowed,
  refusal,
  unfinished,
  accept,
  maxUploadBytes,
  errors,
}: {
  movieId: string;
  action: string;
  replacement: ReplacementView | null;
  allowed: boolean;
  refusal: string | null;
  unfinished: UnfinishedReplacement[];
  accept: string;
  maxUploadBytes: number;
  errors?: FormErrors | null;
}) {
  const { t, i18n } = useTranslation("studio");
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const { state, start, pause, resume } = useResumableUpload();
  const [clientErrors, setClientErrors] = useState<FormErrors | null>(null);
  const shown = clientErrors ?? errors ?? null;
  const busy = state.phase !== "idle" && state.phase !== "done";
  const preparing = replacement?.status === "processing";

  // While the new film is being prepared, look again every few seconds: the swap shows without a reload.
  useEffect(() => {
    if (!preparing) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, 4000);
    return () => window.clearInterval(timer);
  }, [preparing, revalidator]);

  const succeed = () => {
    showToast({ type: "success", key: "studio:replace.started" });
    revalidator.revalidate();
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const movie = new FormData(event.currentTarget).get("movie");
    if (!(movie instanceof File) || movie.size === 0) {
      setClientErrors({ fieldErrors: { movie: ["studio:errors.movieRequired"] } });
      return;
    }
    if (movie.size > maxUploadBytes) {
      setClientErrors({ fieldErrors: { movie: ["studio:errors.tooLarge"] } });
      return;
    }
    setClientErrors(null);
    void start({ file: movie, replaces: movieId, onSuccess: succeed, onRefused: setClientErrors });
  }

  function continueUpload(upload: UnfinishedReplacement, file: File) {
    if (busy) return;
    const wrong = wrongFileFor(upload, file, t);
    setClientErrors(wrong);
    if (wrong) return;
    void start({
      file,
      replaces: movieId,
      uploadUrl: `${TUS_ENDPOINT}/${upload.id}`,
      onSuccess: succeed,
      onRefused: setClientErrors,
    });
  }

  const dates = dateFormatter(i18n.language, "dateTime");
  return (
    <div
      className="grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-4 sm:p-5"
      data-testid="film-replacement"
    >
      <p className="text-sm text-slate-300">{t("replace.intro")}</p>
      {replacement ? (
        <p
          role="status"
          data-replacement-status={replacement.status}
          className={`rounded border px-3 py-2 text-sm ${
            replacement.status === "failed"
              ? "border-red-400/40 bg-red-950/60 text-red-100"
              : replacement.status === "processing"
                ? "border-amber-400/40 bg-amber-950/40 text-amber-100"
                : "border-emerald-400/30 bg-emerald-950/40 text-emerald-100"
          }`}
        >
          {replacement.status === "processing"
            ? t("replace.preparing", { file: replacement.originalName })
            : replacement.status === "failed"
              ? t("replace.failed", {
                  file: replacement.originalName,
                  reason: t(`list.failure.${replacement.failureReason ?? "processing"}`),
                })
              : t("replace.done", {
                  file: replacement.originalName,
                  date: dates.format(new Date(replacement.swappedAt ?? replacement.createdAt)),
                })}
        </p>
      ) : null}
      {unfinished.length > 0 ? (
        <ul className="grid gap-2" aria-label={t("upload.unfinishedTitle")}>
          {unfinished.map((upload) => (
            <li
              key={upload.id}
              className="grid gap-2 rounded border border-white/10 p-3 text-sm"
              data-unfinished-upload={upload.id}
            >
              <span>
                {t("upload.unfinishedEntry", {
                  filename: upload.filename,
                  received: megabytes(upload.receivedBytes),
                  total: megabytes(upload.sizeBytes),
                })}
              </span>
              <UnfinishedUploadActions
                uploadId={upload.id}
                busy={busy}
                hydrated={hydrated}
                onContinue={(file) => continueUpload(upload, file)}
                discardAction={`${action}?part=discard`}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {allowed ? (
        <form
          method="post"
          encType="multipart/form-data"
          action={`${action}?part=film`}
          onSubmit={onSubmit}
          noValidate
          className="grid gap-3"
          data-testid="replace-film-form"
        >
          <FormError errors={shown} />
          <Field
            type="file"
            name="movie"
            label={t("replace.file")}
            accept={accept}
            required
            hint={t("upload.movieHint")}
            errors={shown?.fieldErrors?.movie}
          />
          <UploadSubmit state={state} onPause={pause} onResume={resume} busy={busy} label={t("replace.submit")} />
        </form>
      ) : refusal ? (
        <p className="text-sm text-slate-300">{t(refusal)}</p>
      ) : null}
    </div>
  );
}

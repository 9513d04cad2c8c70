import { useTranslation } from "~/i18n/use-translation";
import type { ResumableState, UploadProgress } from "./use-resumable-upload";

const MB = 1024 * 1024;

export function megabytes(bytes: number): string {
  return (bytes / MB).toFixed(bytes >= 100 * MB ? 0 : 1);
}

function speedText(
  t: (key: string, options?: Record<string, unknown>) => string,
  bytesPerSecond: number | null,
): string {
  if (bytesPerSecond === null) return "…";
  return bytesPerSecond >= MB
    ? t("upload.speedMb", { value: (bytesPerSecond / MB).toFixed(1) })
    : t("upload.speedKb", { value: Math.round(bytesPerSecond / 1024) });
}

function timeLeftText(t: (key: string, options?: Record<string, unknown>) => string, progress: UploadProgress): string {
  if (!progress.bytesPerSecond) return "…";
  const seconds = Math.ceil((progress.total - progress.sent) / progress.bytesPerSecond);
  if (seconds < 60) return t("upload.timeLeftSeconds", { count: seconds });
  if (seconds < 3600) return t("upload.timeLeftMinutes", { count: Math.ceil(seconds / 60) });
  return t("upload.timeLeftHours", { hours: Math.floor(seconds / 3600), minutes: Math.round((seconds % 3600) / 60) });
}

/** Progress of a resumable upload: how much, how fast, how long still; pause and resume. */
export function UploadProgressPanel({
  state,
  onPause,
  onResume,
}: {
  state: ResumableState;
  onPause: () => void;
  onResume: () => void;
}) {
  const { t } = useTranslation("studio");
  if (state.phase !== "sending" && state.phase !== "paused" && state.phase !== "offline") return null;
  const { progress } = state;
  const percent = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  const finishing = state.phase === "sending" && progress.total > 0 && progress.sent >= progress.total;
  return (
    <div className="grid gap-2" aria-live="polite">
      <progress
        max={100}
        value={percent}
        className="h-3 w-full accent-brand-500"
        aria-label={t("upload.progressLabel")}
      />
      <p className="text-sm text-slate-300" data-upload-progress={percent} data-upload-phase={state.phase}>
        {state.phase === "paused"
          ? t("upload.paused", { percent })
          : state.phase === "offline"
            ? t("upload.offline", { sent: megabytes(progress.sent) })
            : finishing
              ? t("upload.storing")
              : `${t("upload.sending", { percent })} ${t("upload.sendingDetail", {
                  sent: megabytes(progress.sent),
                  total: megabytes(progress.total),
                  speed: speedText(t, progress.bytesPerSecond),
                  left: timeLeftText(t, progress),
                })}`}
      </p>
      <div>
        {state.phase === "sending" ? (
          <button
            type="button"
            onClick={onPause}
            className="rounded border border-white/20 px-4 py-1.5 text-sm text-slate-100 hover:bg-white/10"
          >
            {t("upload.pause")}
          </button>
        ) : (
          <button
            type="button"
            onClick={onResume}
            className="rounded bg-brand-600 px-4 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
          >
            {t("upload.resume")}
          </button>
        )}
      </div>
    </div>
  );
}

/** The end of an upload form: the progress while a film goes, then the button that sends it (which says it is sending). */
export function UploadSubmit({
  state,
  onPause,
  onResume,
  busy,
  label,
}: {
  state: ResumableState;
  onPause: () => void;
  onResume: () => void;
  busy: boolean;
  label: string;
}) {
  const { t } = useTranslation("studio");
  return (
    <>
      <UploadProgressPanel state={state} onPause={onPause} onResume={onResume} />
      <div>
        <button
          type="submit"
          disabled={busy}
          className="rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:cursor-wait disabled:opacity-70"
        >
          {busy ? t("upload.uploading") : label}
        </button>
      </div>
    </>
  );
}

/**
 * Continuing an unfinished upload takes the same file again: another one (a
 * different name or size) is refused before a byte goes, with what was expected.
 */
export function wrongFileFor(
  upload: { filename: string; sizeBytes: number },
  file: File,
  t: (key: string, options?: Record<string, unknown>) => string,
): { formError: string } | null {
  if (file.name === upload.filename && file.size === upload.sizeBytes) return null;
  return { formError: t("errors.wrongFile", { filename: upload.filename, mb: megabytes(upload.sizeBytes) }) };
}

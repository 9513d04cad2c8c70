import { Link } from "~/components/ui/link";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { DownloadProblem, fetchMissingChunks, onMobileData, prepareDownload } from "./downloader";
import { isComplete, missingFeatures, readRecord, storedBytes } from "./offline-store";
import { useDecodesAv1 } from "~/components/watch/av1-support";

export type DownloadOffer = { rung: number; codec: "h264" | "av1"; sizeBytes: number };

const MB = 1_000_000;
const WIFI_ONLY_KEY = "kallo-download-wifi-only";

type Phase =
  | { kind: "idle" }
  | { kind: "choosing" }
  | { kind: "running"; doneBytes: number; totalBytes: number; reconnecting?: boolean }
  | { kind: "paused"; doneBytes: number; totalBytes: number }
  | { kind: "waitingForWifi"; doneBytes: number; totalBytes: number }
  | { kind: "done" }
  | { kind: "unsupported"; what: string };

/**
 * The title page's Download button (JavaScript only: the watch page fetches
 * it, with the downloader, once it has hydrated). Picks a quality (the lowest
 * by default, each with its size), checks the space, then fetches with
 * progress, pause and resume.
 */
export function DownloadButton({
  movieId,
  offers: allOffers,
  av1Codecs = null,
  subtitleLanguage = null,
}: {
  movieId: string;
  /** Every rung the plan allows, of both families: the AV1 ones are offered where this device decodes AV1 (about half the size). */
  offers: DownloadOffer[];
  /** The exact CODECS of the title's AV1 rungs, or null. */
  av1Codecs?: string | null;
  /** The subtitles shown on the title's page: the offline player starts with them. */
  subtitleLanguage?: string | null;
}) {
  const { t } = useTranslation("downloads");
  const decodesAv1 = useDecodesAv1(av1Codecs);
  const family = decodesAv1 && allOffers.some((offer) => offer.codec === "av1") ? "av1" : "h264";
  const offers = allOffers.filter((offer) => offer.codec === family);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [rung, setRung] = useState(allOffers[0]?.rung ?? 0);
  const [wifiOnly, setWifiOnly] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [evictable, setEvictable] = useState(false);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    setWifiOnly(localStorage.getItem(WIFI_ONLY_KEY) === "1");
    const missing = missingFeatures();
    if (missing.length > 0) {
      setPhase({ kind: "unsupported", what: missing.join(", ") });
      return;
    }
    void readRecord(movieId).then((record) => {
      if (!record) return;
      if (isComplete(record)) setPhase({ kind: "done" });
      else setPhase({ kind: "paused", doneBytes: storedBytes(record), totalBytes: record.media.sizeBytes });
    });
    return () => controller.current?.abort();
  }, [movieId]);

  if (offers.length === 0) return null;

  const run = async () => {
    setMessage(null);
    const abort = new AbortController();
    controller.current = abort;
    try {
      const record = await readRecord(movieId);
      const total = record?.media.sizeBytes ?? 0;
      setPhase({ kind: "running", doneBytes: record ? storedBytes(record) : 0, totalBytes: total });
      const finished = await fetchMissingChunks(movieId, {
        signal: abort.signal,
        onProgress: (report) => setPhase({ kind: "running", ...report }),
        onConnection: (connected) =>
          setPhase((current) => (current.kind === "running" ? { ...current, reconnecting: !connected } : current)),
        waitForWifi: () =>
          new Promise<void>((resolve) => {
            setPhase((current) => ({
              kind: "waitingForWifi",
              doneBytes: "doneBytes" in current ? current.doneBytes : 0,
              totalBytes: total,
            }));
            const check = () => {
              if (onMobileData() !== true) {
                clearInterval(timer);
                setPhase((current) => ({
                  kind: "running",
                  doneBytes: "doneBytes" in current ? current.doneBytes : 0,
                  totalBytes: total,
                }));
                resolve();
              }
            };
            const timer = setInterval(check, 5_000);
          }),
      });
      if (abort.signal.aborted)
        setPhase({ kind: "paused", doneBytes: storedBytes(finished), totalBytes: finished.media.sizeBytes });
      else if (isComplete(finished)) setPhase({ kind: "done" });
    } catch (error) {
      const record = await readRecord(movieId);
      setPhase(
        record
          ? { kind: "paused", doneBytes: storedBytes(record), totalBytes: record.media.sizeBytes }
          : { kind: "idle" },
      );
      setMessage(
        error instanceof DownloadProblem
          ? t(error.key.replace(/^downloads:/, ""), error.values)
          : t("errors.failed", { reason: String(error) }),
      );
    }
  };

  const start = async () => {
    setMessage(null);
    localStorage.setItem(WIFI_ONLY_KEY, wifiOnly ? "1" : "0");
    const offer = offers.find((candidate) => candidate.rung === rung) ?? offers[0]!;
    try {
      const { persisted } = await prepareDownload(movieId, offer.rung, offer.sizeBytes, {
        wifiOnly,
        subtitleLanguage,
        codec: offer.codec,
      });
      setEvictable(persisted === false);
    } catch (error) {
      setMessage(
        error instanceof DownloadProblem
          ? t(error.key.replace(/^downloads:/, ""), error.values)
          : t("errors.failed", { reason: String(error) }),
      );
      return;
    }
    await run();
  };

  const mb = (bytes: number) => (bytes / MB).toFixed(1);
  const mobile = onMobileData();

  return (
    <section
      aria-label={t("downloadTitle")}
      data-download={phase.kind}
      className="mt-4 rounded-lg border border-white/10 bg-ink-900/60 p-4 text-sm"
    >
      {phase.kind === "unsupported" ? <p>{t("unsupported", { what: phase.what })}</p> : null}
      {phase.kind === "idle" ? (
        <button
          type="button"
          onClick={() => setPhase({ kind: "choosing" })}
          className="rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {t("download")}
        </button>
      ) : null}
      {phase.kind === "choosing" ? (
        <div className="grid gap-3">
          <fieldset>
            <legend className="font-semibold">{t("chooseQuality")}</legend>
            {offers.map((offer) => (
              <label key={offer.rung} className="mt-1 flex items-center gap-2">
                <input
                  type="radio"
                  name="download-quality"
                  value={offer.rung}
                  checked={rung === offer.rung}
                  onChange={() => setRung(offer.rung)}
                />
                {t("qualityOption", { rung: offer.rung, mb: mb(offer.sizeBytes) })}
              </label>
            ))}
          </fieldset>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={wifiOnly} onChange={(event) => setWifiOnly(event.target.checked)} />
            {t("wifiOnly")}
          </label>
          {wifiOnly && mobile === null ? <p className="text-slate-400">{t("wifiUnknown")}</p> : null}
          <p className="text-slate-400">{t("stayOpen")}</p>
          <div className="flex gap-2">
            <button
              type="button"
              onClick={() => void start()}
              className="rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
            >
              {t("start")}
            </button>
            <button
              type="button"
              onClick={() => setPhase({ kind: "idle" })}
              className="rounded border border-white/20 px-4 py-2"
            >
              {t("cancel")}
            </button>
          </div>
        </div>
      ) : null}
      {phase.kind === "running" || phase.kind === "paused" || phase.kind === "waitingForWifi" ? (
        <div className="grid gap-2">
          <progress
            className="w-full"
            max={phase.totalBytes || 1}
            value={phase.doneBytes}
            aria-label={t("downloadTitle")}
          />
          <p role="status">{t("progress", { done: mb(phase.doneBytes), total: mb(phase.totalBytes) })}</p>
          {phase.kind === "waitingForWifi" ? <p>{t("waitingForWifi")}</p> : null}
          {phase.kind === "running" && phase.reconnecting ? (
            <p data-testid="download-reconnecting">{t("reconnecting")}</p>
          ) : null}
          {phase.kind === "running" ? <p className="text-slate-400">{t("stayOpen")}</p> : null}
          <div>
            {phase.kind === "paused" ? (
              <button
                type="button"
                onClick={() => void run()}
                className="rounded bg-brand-600 px-4 py-2 font-semibold text-white"
              >
                {t("resume")}
              </button>
            ) : (
              <button
                type="button"
                onClick={() => controller.current?.abort()}
                className="rounded border border-white/20 px-4 py-2"
              >
                {t("pause")}
              </button>
            )}
          </div>
        </div>
      ) : null}
      {phase.kind === "done" ? (
        <p role="status">
          {t("complete")} ·{" "}
          <Link to="/downloads" className="underline" reloadDocument>
            {t("title")}
          </Link>
        </p>
      ) : null}
      {evictable ? <p className="mt-2 text-amber-200">{t("persistDenied")}</p> : null}
      {message ? (
        <p role="alert" className="mt-2 text-red-300">
          {message}
        </p>
      ) : null}
    </section>
  );
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { DownloadProblem, downloadCodec, fetchMissingChunks, prepareDownload } from "~/components/downloads/downloader";
import {
  isComplete,
  judgeRecord,
  keepDownloadsPageOffline,
  listRecords,
  mediaUrl,
  missingFeatures,
  posterCacheUrl,
  removeDownload,
  storageFacts,
  storedBytes,
  subtitleCacheUrl,
  updateRecord,
  type DownloadRecord,
  type StorageFacts,
} from "~/components/downloads/offline-store";
import { getRequestT } from "~/i18n/translate.server";
import { getOptionalUser } from "~/auth/guards.server";
import { dateFormatter } from "~/utils/dates";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["downloads", "subtitles"] };

export const meta = metaTitleMeta;

/**
 * /downloads — what this device keeps for offline viewing. Everything on it
 * comes from the device (Cache Storage), not the server, so the page is the
 * same for everyone: the service worker keeps a copy rendered without a
 * session and opens it with no network at all. Each profile sees only its own
 * downloads: the page learns the profile when it opens online and the device
 * remembers it for the offline copy (a children's profile never lists a film
 * another profile kept).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const [{ t }, user] = await Promise.all([getRequestT(request, "downloads"), getOptionalUser(request)]);
  return {
    metaTitle: t("metaTitle"),
    profile: user ? { id: user.profile.id, accountId: user.id } : null,
  };
}

const PROFILE_KEY = "kallo-downloads-profile";
type ShownProfile = { id: string; accountId: string };

/** The profile whose downloads are shown: the page's (remembered on the device), else the one remembered. */
function shownProfile(fromPage: ShownProfile | null): ShownProfile | null {
  try {
    if (fromPage) {
      localStorage.setItem(PROFILE_KEY, JSON.stringify(fromPage));
      return fromPage;
    }
    const kept = localStorage.getItem(PROFILE_KEY);
    return kept ? (JSON.parse(kept) as ShownProfile) : null;
  } catch {
    return fromPage;
  }
}

/** A download is its profile's; one made before profiles is the account's first profile's (which has the account's id). */
function belongsTo(record: DownloadRecord, profile: ShownProfile | null): boolean {
  if (!profile) return true;
  return (record.profileId ?? profile.accountId) === profile.id;
}

const MB = 1_000_000;
const PROGRESS_EVERY_SECONDS = 10;

/**
 * Tell the server what was watched offline, and learn which licences no longer hold.
 * Says whether the server answered (null: nothing to ask): a browser may think it is
 * online on a network that reaches nothing.
 */
async function syncWithServer(records: DownloadRecord[]): Promise<boolean | null> {
  if (!navigator.onLine || records.length === 0) return null;
  try {
    const ids = records.map((record) => record.licence.terms.id).join(",");
    const answer = await fetch(`/downloads/licences?ids=${encodeURIComponent(ids)}`, { credentials: "same-origin" });
    if (answer.ok) {
      const { standings } = (await answer.json()) as { standings: Record<string, "ok" | "revoked"> };
      for (const record of records) {
        if (standings[record.licence.terms.id] === "revoked" && !record.revoked)
          // Only the licence that was judged: one renewed meanwhile is not touched.
          await updateRecord(record.title.id, (current) =>
            current.licence.terms.id === record.licence.terms.id ? { ...current, revoked: true } : current,
          );
      }
    }
  } catch {
    // Offline after all: next time.
    return false;
  }
  for (const record of records) {
    if (record.pendingProgress.length === 0) continue;
    const body = new FormData();
    body.set("movieId", record.title.id);
    body.set("positionSeconds", String(Math.floor(record.pendingProgress[record.pendingProgress.length - 1]!)));
    body.set("event", "stop");
    try {
      const sent = await fetch("/watch-progress", { method: "POST", body, credentials: "same-origin" });
      if (sent.ok || sent.status === 404)
        await updateRecord(record.title.id, (current) => ({ ...current, pendingProgress: [] }));
    } catch {
      return false;
    }
  }
  return true;
}

export default function Downloads() {
  const { t, i18n } = useTranslation("downloads");
  const { profile } = useLoaderData<typeof loader>();
  const [records, setRecords] = useState<DownloadRecord[] | null>(null);
  const [facts, setFacts] = useState<StorageFacts | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const [online, setOnline] = useState(true);
  const [playing, setPlaying] = useState<DownloadRecord | null>(null);
  const [busy, setBusy] = useState<Record<string, { doneBytes: number; totalBytes: number }>>({});
  const [message, setMessage] = useState<string | null>(null);
  const controllers = useRef<Record<string, AbortController>>({});

  const refresh = useCallback(async () => {
    const who = shownProfile(profile);
    const list = (await listRecords()).filter((record) => belongsTo(record, who));
    setRecords(list);
    setFacts(await storageFacts());
    return list;
  }, [profile]);

  useEffect(() => {
    const running = controllers.current;
    const lacking = missingFeatures();
    setMissing(lacking);
    if (lacking.length > 0) return;
    setOnline(navigator.onLine);
    const sync = (list: DownloadRecord[]) =>
      syncWithServer(list).then((reached) => {
        if (reached !== null) setOnline(reached);
      });
    const goOnline = () => {
      setOnline(true);
      void refresh().then(sync).then(refresh);
    };
    const goOffline = () => setOnline(false);
    window.addEventListener("online", goOnline);
    window.addEventListener("offline", goOffline);
    void refresh().then(sync).then(refresh);
    // This device keeps films: the list itself must open offline too.
    void listRecords().then((list) => (list.length > 0 ? keepDownloadsPageOffline() : undefined));
    return () => {
      window.removeEventListener("online", goOnline);
      window.removeEventListener("offline", goOffline);
      Object.values(running).forEach((controller) => controller.abort());
    };
  }, [refresh]);

  const problem = (error: unknown) =>
    setMessage(
      error instanceof DownloadProblem
        ? t(error.key.replace(/^downloads:/, ""), error.values)
        : t("errors.failed", { reason: String(error) }),
    );

  const resume = async (record: DownloadRecord) => {
    const controller = new AbortController();
    controllers.current[record.title.id] = controller;
    setMessage(null);
    try {
      setBusy((current) => ({
        ...current,
        [record.title.id]: { doneBytes: storedBytes(record), totalBytes: record.media.sizeBytes },
      }));
      await fetchMissingChunks(record.title.id, {
        signal: controller.signal,
        onProgress: (report) => setBusy((current) => ({ ...current, [record.title.id]: report })),
        waitForWifi: () => new Promise<void>((resolve) => setTimeout(resolve, 5_000)),
      });
    } catch (error) {
      problem(error);
    } finally {
      setBusy((current) => {
        const next = { ...current };
        delete next[record.title.id];
        return next;
      });
      await refresh();
    }
  };

  const renew = async (record: DownloadRecord) => {
    setMessage(null);
    try {
      // The same quality: a new licence, and nothing already stored is fetched again.
      await prepareDownload(record.title.id, record.licence.terms.rung, record.media.sizeBytes, {
        wifiOnly: record.wifiOnly,
        subtitleLanguage: record.subtitleLanguage ?? null,
        codec: downloadCodec(record),
      });
      setMessage(t("renewed"));
    } catch (error) {
      problem(error);
    }
    await refresh();
  };

  const remove = async (record: DownloadRecord) => {
    if (!window.confirm(t("deleteConfirm", { name: record.title.name }))) return;
    controllers.current[record.title.id]?.abort();
    if (playing?.title.id === record.title.id) setPlaying(null);
    await removeDownload(record.title.id);
    // Frees the plan's slot; offline, the slot frees itself when the licence ends.
    void fetch(`/downloads/licences/${encodeURIComponent(record.licence.terms.id)}`, {
      method: "DELETE",
      credentials: "same-origin",
    }).catch(() => undefined);
    await refresh();
  };

  const dateFormat = dateFormatter(i18n.language, "dateTime");
  const mb = (bytes: number) => (bytes / MB).toFixed(1);

  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold">{t("title")}</h1>
      <p className="mt-2 text-slate-300">{t("intro")}</p>
      <noscript>
        <p className="mt-4 rounded border border-amber-400/40 p-3">{t("needsJavaScript")}</p>
      </noscript>
      {missing.length > 0 ? (
        <p className="mt-4 rounded border border-amber-400/40 p-3">{t("unsupported", { what: missing.join(", ") })}</p>
      ) : null}
      {!online ? (
        <p className="mt-4 rounded border border-white/20 p-3" role="status">
          {t("offline")}
        </p>
      ) : null}
      {facts ? (
        <p className="mt-4 text-sm text-slate-400" data-testid="storage">
          {t("storage", { used: mb(facts.usedBytes), free: mb(facts.freeBytes) })}{" "}
          {facts.persisted === true ? t("persisted") : facts.persisted === false ? t("persistDenied") : null}
        </p>
      ) : null}
      {message ? (
        <p role="alert" className="mt-4 text-amber-200">
          {message}
        </p>
      ) : null}

      {playing ? (
        <OfflinePlayer
          key={playing.title.id}
          record={playing}
          onClose={() => setPlaying(null)}
          onStopped={() => void refresh()}
        />
      ) : null}

      {records && records.length === 0 ? <p className="mt-6">{t("empty")}</p> : null}
      <ul className="mt-6 grid gap-4">
        {(records ?? []).map((record) => {
          const verdict = judgeRecord(record);
          const progress = busy[record.title.id];
          const terms = record.licence.terms;
          return (
            <li
              key={record.title.id}
              data-download-id={record.title.id}
              className="flex flex-wrap items-center gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-4"
            >
              <img
                src={posterCacheUrl(record.title.id)}
                alt=""
                width={150}
                height={100}
                className="h-[100px] w-[150px] rounded object-cover"
              />
              <div className="min-w-0 flex-1">
                <h2 className="text-lg font-semibold">{record.title.name}</h2>
                <p className="text-sm text-slate-300">
                  {t("quality", { rung: terms.rung })} · {t("sizeMb", { mb: mb(record.media.sizeBytes) })}
                </p>
                {progress ? (
                  <p className="text-sm" role="status">
                    <progress max={progress.totalBytes} value={progress.doneBytes} className="mr-2 align-middle" />
                    {t("progress", { done: mb(progress.doneBytes), total: mb(progress.totalBytes) })}
                  </p>
                ) : !isComplete(record) ? (
                  <p className="text-sm">
                    {t("partial", { done: mb(storedBytes(record)), total: mb(record.media.sizeBytes) })}
                  </p>
                ) : verdict.ok ? (
                  <p className="text-sm text-slate-400">
                    {record.firstPlayedAt === null
                      ? t("expiresAfterPlay", { hours: terms.playHours, date: dateFormat.format(terms.expiresAt) })
                      : t("expires", { date: dateFormat.format(verdict.until) })}
                  </p>
                ) : (
                  <p className="text-sm text-amber-200" data-refusal={verdict.reason}>
                    {verdict.reason === "clock"
                      ? t("clock")
                      : verdict.reason === "revoked" || verdict.reason === "forged"
                        ? t("revoked")
                        : t("expired")}
                  </p>
                )}
              </div>
              <div className="flex flex-wrap gap-2">
                {isComplete(record) && verdict.ok ? (
                  <button
                    type="button"
                    onClick={() => setPlaying(record)}
                    className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white"
                  >
                    {t("play")}
                  </button>
                ) : null}
                {!isComplete(record) && !progress ? (
                  <button
                    type="button"
                    onClick={() => void resume(record)}
                    className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white"
                    disabled={!online}
                  >
                    {t("resume")}
                  </button>
                ) : null}
                {progress ? (
                  <button
                    type="button"
                    onClick={() => controllers.current[record.title.id]?.abort()}
                    className="rounded border border-white/20 px-4 py-2 text-sm"
                  >
                    {t("pause")}
                  </button>
                ) : null}
                {isComplete(record) && !verdict.ok && verdict.reason !== "revoked" ? (
                  <button
                    type="button"
                    onClick={() => void renew(record)}
                    className="rounded border border-white/20 px-4 py-2 text-sm"
                    disabled={!online}
                  >
                    {t("renew")}
                  </button>
                ) : null}
                <button
                  type="button"
                  onClick={() => void remove(record)}
                  className="rounded border border-white/20 px-4 py-2 text-sm"
                >
                  {t("delete")}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * The stored film, served by the service worker from the device; resumes
 * where the viewer stopped and keeps the position. Its stored subtitles are
 * side-loaded tracks, the viewer's language shown, with a menu to change it.
 */
function OfflinePlayer({
  record,
  onClose,
  onStopped,
}: {
  record: DownloadRecord;
  onClose: () => void;
  onStopped: () => void;
}) {
  const { t } = useTranslation("downloads");
  const { t: tSubtitles } = useTranslation("subtitles");
  const video = useRef<HTMLVideoElement>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const lastSaved = useRef(0);
  const tracks = record.subtitles ?? [];
  const [subtitleLanguage, setSubtitleLanguage] = useState(record.subtitleLanguage ?? null);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    for (const track of Array.from(element.textTracks)) {
      const mode = track.language === subtitleLanguage ? "showing" : "disabled";
      if (track.mode !== mode) track.mode = mode;
    }
  }, [subtitleLanguage]);

  const chooseSubtitles = (language: string | null) => {
    setSubtitleLanguage(language);
    void updateRecord(record.title.id, (current) => ({ ...current, subtitleLanguage: language }));
  };

  const save = useCallback(async () => {
    const element = video.current;
    if (!element || !Number.isFinite(element.currentTime)) return;
    const position = element.currentTime;
    lastSaved.current = position;
    await updateRecord(record.title.id, (current) => ({
      ...current,
      positionSeconds: position,
      pendingProgress: [...current.pendingProgress.slice(-9), position],
    }));
  }, [record.title.id]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    const start = () => {
      if (record.positionSeconds > 0 && record.positionSeconds < element.duration - 5)
        element.currentTime = record.positionSeconds;
    };
    const tick = () => {
      if (Math.abs(element.currentTime - lastSaved.current) >= PROGRESS_EVERY_SECONDS) void save();
    };
    const stop = () => void save().then(onStopped);
    const failed = async () => {
      // Why the worker refused (expired, clock moved back, revoked), in the viewer's words.
      const answer = await fetch(mediaUrl(record.title.id), { headers: { Range: "bytes=0-0" } }).catch(() => null);
      const reason =
        answer && !answer.ok ? ((await answer.json().catch(() => ({}))) as { reason?: string }).reason : null;
      setRefused(
        reason === "clock"
          ? t("clock")
          : reason === "revoked" || reason === "forged"
            ? t("revoked")
            : reason === "expired"
              ? t("expired")
              : t("errors.failed", { reason: reason ?? "" }),
      );
    };
    element.addEventListener("loadedmetadata", start);
    element.addEventListener("timeupdate", tick);
    element.addEventListener("pause", stop);
    element.addEventListener("error", failed);
    return () => {
      element.removeEventListener("loadedmetadata", start);
      element.removeEventListener("timeupdate", tick);
      element.removeEventListener("pause", stop);
      element.removeEventListener("error", failed);
      void save();
    };
  }, [record, save, onStopped, t]);

  return (
    <div className="mt-6 rounded-lg border border-white/10 bg-black p-2" data-testid="offline-player">
      {refused ? (
        <p role="alert" className="p-4 text-amber-200">
          {refused}
        </p>
      ) : (
        <video
          ref={video}
          src={mediaUrl(record.title.id)}
          controls
          autoPlay
          playsInline
          className="aspect-video w-full"
          aria-label={record.title.name}
        >
          {tracks.map((track) => (
            <track
              key={track.language}
              kind="subtitles"
              src={subtitleCacheUrl(record.title.id, track.language)}
              srcLang={track.language}
              label={track.label}
              default={track.language === subtitleLanguage}
            />
          ))}
        </video>
      )}
      {tracks.length > 0 && !refused ? (
        <label className="mt-2 flex items-center gap-2 text-sm">
          {tSubtitles("menu.label")}
          <select
            value={subtitleLanguage ?? "off"}
            onChange={(event) => chooseSubtitles(event.target.value === "off" ? null : event.target.value)}
            className="rounded border border-white/15 bg-ink-900 px-2 py-1.5 text-slate-50"
            data-testid="offline-subtitles"
          >
            <option value="off">{tSubtitles("menu.off")}</option>
            {tracks.map((track) => (
              <option key={track.language} value={track.language} lang={track.language}>
                {track.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="button" onClick={onClose} className="mt-2 rounded border border-white/20 px-4 py-2 text-sm">
        {t("close")}
      </button>
    </div>
  );
}

import { useCallback, useEffect, useRef, useState } from "react";
import type { DetailedError, Upload } from "tus-js-client";
import type { FormErrors } from "~/components/ui/form";

/**
 * The upload page's resumable upload (tus): the film goes up in 8 MiB
 * requests to /provider/uploads/tus; a dropped connection is retried, and if
 * the network is gone the upload waits and goes on by itself when it is
 * back, from the last byte the server has. Picking the same file again after
 * a reload continues it too (tus-js-client remembers the upload by the file's
 * fingerprint, and the page lists unfinished uploads from the server).
 */
export const TUS_ENDPOINT = "/provider/uploads/tus";
const CHUNK_BYTES = 8 * 1024 * 1024;
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000];
/** While the network is gone, try again this often (the `online` event is not always sent). */
const OFFLINE_RETRY_MS = 15_000;
/** Speed is the bytes of the last few seconds, so time left follows the link as it is now. */
const SPEED_WINDOW_MS = 5_000;

export type UploadProgress = { sent: number; total: number; bytesPerSecond: number | null };

export type ResumableState =
  | { phase: "idle" }
  | { phase: "sending"; progress: UploadProgress }
  | { phase: "paused"; progress: UploadProgress }
  | { phase: "offline"; progress: UploadProgress }
  | { phase: "done"; movieId: string | null };

export type StartOptions = {
  file: File;
  /** The title's details, as tus metadata under the form's own names. */
  details?: {
    name: string;
    Description: string;
    Category: string;
    cast: string;
    /** G … RE, or empty: unrated (a film only; an episode carries its series'). */
    ageRating?: string;
    /** An episode's season and number (one of the provider's own seasons). */
    seasonId?: string;
    episodeNumber?: string;
  };
  /** Continue this upload (from the page's list of unfinished ones) instead of creating one. */
  uploadUrl?: string;
  /** Replace the film of this title (one of the provider's own) instead of making a new title. */
  replaces?: string;
  poster?: File | null;
  onSuccess: (movieId: string | null) => void;
  onRefused: (errors: FormErrors) => void;
};

type ErrorBody = { key?: string; fieldErrors?: FormErrors["fieldErrors"] };

function refusalOf(error: Error): { status: number; body: ErrorBody } | null {
  const response = (error as DetailedError).originalResponse;
  const status = response?.getStatus() ?? 0;
  if (!response || status === 0) return null;
  let body: ErrorBody = {};
  try {
    body = JSON.parse(response.getBody() || "{}") as ErrorBody;
  } catch {
    body = {};
  }
  return { status, body };
}

/**
 * 4xx answers are final (except a conflict or a lock, which a HEAD sorts
 * out); anything else is tried again, unless the browser knows it is offline:
 * then the upload waits for the network instead of spending its retries.
 */
function shouldRetry(error: Error): boolean {
  const status = (error as DetailedError).originalResponse?.getStatus() ?? 0;
  if (status === 0 && typeof navigator !== "undefined" && navigator.onLine === false) return false;
  return status === 0 || status >= 500 || status === 409 || status === 423;
}

async function sendPoster(uploadUrl: string, poster: File): Promise<void> {
  const body = new FormData();
  body.append("poster", poster, poster.name);
  const response = await fetch(`${uploadUrl}/poster`, {
    method: "POST",
    body,
    headers: { Accept: "application/json" },
  });
  if (!response.ok) {
    const reply = (await response.json().catch(() => ({}))) as ErrorBody;
    throw Object.assign(new Error("poster refused"), { refusal: reply });
  }
}

export function useResumableUpload() {
  const [state, setState] = useState<ResumableState>({ phase: "idle" });
  const upload = useRef<Upload | null>(null);
  const samples = useRef<Array<{ at: number; sent: number }>>([]);
  const offlineTimer = useRef<ReturnType<typeof setInterval> | null>(null);
  const progress = useRef<UploadProgress>({ sent: 0, total: 0, bytesPerSecond: null });

  const stopWaiting = useCallback(() => {
    if (offlineTimer.current) clearInterval(offlineTimer.current);
    offlineTimer.current = null;
  }, []);

  const restart = useCallback(() => {
    if (!upload.current) return;
    stopWaiting();
    samples.current = [];
    setState({ phase: "sending", progress: progress.current });
    upload.current.start();
  }, [stopWaiting]);

  // Leaving the page pauses the upload (it can be continued from the list of unfinished ones): the browser asks first.
  const sending = state.phase === "sending" || state.phase === "offline";
  useEffect(() => {
    if (!sending) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [sending]);

  useEffect(() => {
    const onOnline = () => {
      if (offlineTimer.current) restart();
    };
    window.addEventListener("online", onOnline);
    return () => {
      window.removeEventListener("online", onOnline);
      stopWaiting();
    };
  }, [restart, stopWaiting]);

  const start = useCallback(
    async (options: StartOptions) => {
      const { Upload } = await import("tus-js-client");
      let movieId: string | null = null;
      let posterSent = !options.poster;
      samples.current = [];
      progress.current = { sent: 0, total: options.file.size, bytesPerSecond: null };
      const instance: Upload = new Upload(options.file, {
        endpoint: TUS_ENDPOINT,
        uploadUrl: options.uploadUrl ?? null,
        chunkSize: CHUNK_BYTES,
        retryDelays: RETRY_DELAYS_MS,
        removeFingerprintOnSuccess: true,
        metadata: options.replaces
          ? { replaces: options.replaces, filename: options.file.name }
          : options.details
            ? { ...options.details, filename: options.file.name }
            : { filename: options.file.name },
        // A replacement is remembered apart from a new title's upload of the same file (and per title).
        ...(options.replaces
          ? {
              fingerprint: async (file: File) =>
                `replace-${options.replaces}-${file.name}-${file.type}-${file.size}-${file.lastModified}`,
            }
          : {}),
        onShouldRetry: (error) => shouldRetry(error),
        onBeforeRequest: async (request) => {
          // The poster goes up once the upload exists and before the film's bytes, so the title is made with it.
          if (posterSent || request.getMethod() !== "PATCH" || !instance.url || !options.poster) return;
          await sendPoster(instance.url, options.poster);
          posterSent = true;
        },
        onAfterResponse: (_request, response) => {
          movieId = response.getHeader("Kallo-Movie-Id") ?? movieId;
        },
        onProgress: (sent, total) => {
          const now = performance.now();
          samples.current.push({ at: now, sent });
          while (samples.current.length > 2 && now - samples.current[0].at > SPEED_WINDOW_MS) samples.current.shift();
          const first = samples.current[0];
          const elapsed = (now - first.at) / 1000;
          const bytesPerSecond = elapsed >= 1 ? (sent - first.sent) / elapsed : progress.current.bytesPerSecond;
          progress.current = { sent, total, bytesPerSecond };
          setState({ phase: "sending", progress: progress.current });
        },
        onSuccess: () => {
          stopWaiting();
          setState({ phase: "done", movieId });
          options.onSuccess(movieId);
        },
        onError: (error) => {
          const posterRefusal = (error as Error & { refusal?: ErrorBody }).refusal;
          const refusal = posterRefusal ? { status: 400, body: posterRefusal } : refusalOf(error);
          if (refusal && refusal.status < 500) {
            stopWaiting();
            upload.current = null;
            setState({ phase: "idle" });
            if (refusal.status === 401 || refusal.status === 403) {
              window.location.assign("/cp");
              return;
            }
            const fieldErrors = refusal.body.fieldErrors;
            options.onRefused({
              fieldErrors,
              formError: fieldErrors ? undefined : (refusal.body.key ?? "common:errors.serverText"),
            });
            return;
          }
          // No network (or the server is away): what arrived is kept there; go on when the link is back.
          setState({ phase: "offline", progress: progress.current });
          stopWaiting();
          offlineTimer.current = setInterval(restart, OFFLINE_RETRY_MS);
        },
      });
      upload.current = instance;
      if (!options.uploadUrl) {
        const previous = await instance.findPreviousUploads();
        if (previous.length > 0) instance.resumeFromPreviousUpload(previous[0]);
      }
      setState({ phase: "sending", progress: progress.current });
      instance.start();
    },
    [restart, stopWaiting],
  );

  const pause = useCallback(() => {
    if (!upload.current) return;
    stopWaiting();
    void upload.current.abort();
    setState({ phase: "paused", progress: progress.current });
  }, [stopWaiting]);

  return { state, start, pause, resume: restart };
}

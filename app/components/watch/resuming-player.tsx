import { useEffect, useRef, useState, type ReactNode } from "react";

/** How often a playing video reports its position. */
const PROGRESS_INTERVAL_MS = 10_000;

/** Why the server stopped this device from playing (the JSON of a 403 from the video or the progress endpoint). */
export type PlaybackRefusal = { reason: "screens" | "pass_required"; screens: number };

function readRefusal(json: unknown): PlaybackRefusal | null {
  if (!json || typeof json !== "object") return null;
  const { reason, screens } = json as { reason?: unknown; screens?: unknown };
  if (reason !== "screens" && reason !== "pass_required") return null;
  return { reason, screens: typeof screens === "number" ? screens : 1 };
}

/**
 * Report the position. "play" and "progress" reports also renew this
 * device's playback lease, and the answer says when another device has
 * taken the screen; "stop" (pause, end, leaving) frees it, as a beacon that
 * survives the page being closed.
 */
function sendProgress(movieId: string, positionSeconds: number, event: "play" | "progress" | "stop", onRefused: (refusal: PlaybackRefusal) => void) {
  if (typeof navigator === "undefined" || !Number.isFinite(positionSeconds)) return;
  const body = new FormData();
  body.set("movieId", movieId);
  body.set("positionSeconds", String(Math.floor(positionSeconds)));
  body.set("event", event);
  if (event === "stop" && typeof navigator.sendBeacon === "function" && navigator.sendBeacon("/watch-progress", body)) return;
  void fetch("/watch-progress", { method: "POST", body, keepalive: true, credentials: "same-origin" })
    .then(async (response) => {
      if (response.status !== 403) return;
      const refusal = readRefusal(await response.json());
      if (refusal) onRefused(refusal);
    })
    .catch(() => undefined);
}

/** The video failed to load: ask the server why with a one-byte request (its 403 says "screens" or "pass_required"). */
async function explainLoadError(src: string): Promise<PlaybackRefusal | null> {
  try {
    const response = await fetch(src, { headers: { Range: "bytes=0-0" }, credentials: "same-origin", cache: "no-store" });
    if (response.status !== 403) return null;
    return readRefusal(await response.json());
  } catch {
    return null;
  }
}

/**
 * The title's video. Without JavaScript it is a plain <video controls>; with
 * JavaScript it starts where the viewer stopped and reports the position every
 * 10 s while playing, on pause, and when the page is left.
 */
export function ResumingPlayer({
  movieId,
  src,
  poster,
  resumeSeconds,
  label,
  fallback,
  renderRefused,
}: {
  movieId: string;
  src: string;
  poster: string | null;
  resumeSeconds: number;
  label: string;
  fallback: string;
  /** What to show in place of the video when the server refuses this device. */
  renderRefused?: (refusal: PlaybackRefusal) => ReactNode;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [refusal, setRefusal] = useState<PlaybackRefusal | null>(null);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let started = false;
    const refuse = (reason: PlaybackRefusal) => {
      video.pause();
      setRefusal(reason);
    };
    const onError = () => {
      void explainLoadError(src).then((reason) => {
        if (reason) refuse(reason);
      });
    };
    video.addEventListener("error", onError);
    const seek = () => {
      if (resumeSeconds > 0 && video.currentTime < 0.5) video.currentTime = resumeSeconds;
    };
    // Before the metadata arrives this sets the default start position, which the element honours once it loads.
    seek();
    video.addEventListener("loadedmetadata", seek, { once: true });

    const report = (event: "play" | "progress" | "stop") => {
      if (started) sendProgress(movieId, video.currentTime, event, refuse);
    };
    const onPlay = () => {
      started = true;
      report("play");
    };
    let timer: number | undefined;
    const onPlaying = () => {
      window.clearInterval(timer);
      timer = window.setInterval(() => {
        if (!video.paused) report("progress");
      }, PROGRESS_INTERVAL_MS);
    };
    const onStop = () => {
      window.clearInterval(timer);
      report("stop");
    };
    const onPageHide = () => report("stop");
    video.addEventListener("play", onPlay);
    video.addEventListener("playing", onPlaying);
    video.addEventListener("pause", onStop);
    video.addEventListener("ended", onStop);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.clearInterval(timer);
      // Leaving through an in-app link does not fire pagehide: report here too.
      if (!video.paused) report("stop");
      video.removeEventListener("error", onError);
      video.removeEventListener("loadedmetadata", seek);
      video.removeEventListener("play", onPlay);
      video.removeEventListener("playing", onPlaying);
      video.removeEventListener("pause", onStop);
      video.removeEventListener("ended", onStop);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, [movieId, resumeSeconds, src]);

  if (refusal && renderRefused) return <div data-testid="player-refused">{renderRefused(refusal)}</div>;

  return (
    <div className="overflow-hidden rounded-lg bg-black">
      <video
        ref={videoRef}
        controls
        preload="metadata"
        poster={poster ?? undefined}
        src={src}
        aria-label={label}
        data-resume-seconds={resumeSeconds}
        className="aspect-video w-full"
      >
        {fallback}
      </video>
    </div>
  );
}

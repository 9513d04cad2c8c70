import { useEffect, useRef } from "react";

/** How often a playing video reports its position. */
const PROGRESS_INTERVAL_MS = 10_000;

function sendProgress(movieId: string, positionSeconds: number) {
  if (typeof navigator === "undefined" || !Number.isFinite(positionSeconds)) return;
  const body = new FormData();
  body.set("movieId", movieId);
  body.set("positionSeconds", String(Math.floor(positionSeconds)));
  // A beacon survives the page being closed; it carries the session cookie like any same-origin request.
  if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon("/watch-progress", body)) return;
  void fetch("/watch-progress", { method: "POST", body, keepalive: true, credentials: "same-origin" }).catch(() => undefined);
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
}: {
  movieId: string;
  src: string;
  poster: string | null;
  resumeSeconds: number;
  label: string;
  fallback: string;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let started = false;
    const seek = () => {
      if (resumeSeconds > 0 && video.currentTime < 0.5) video.currentTime = resumeSeconds;
    };
    // Before the metadata arrives this sets the default start position, which the element honours once it loads.
    seek();
    video.addEventListener("loadedmetadata", seek, { once: true });

    const report = () => {
      if (started) sendProgress(movieId, video.currentTime);
    };
    const onPlay = () => {
      started = true;
      report();
    };
    let timer: number | undefined;
    const onPlaying = () => {
      window.clearInterval(timer);
      timer = window.setInterval(() => {
        if (!video.paused) report();
      }, PROGRESS_INTERVAL_MS);
    };
    const onStop = () => {
      window.clearInterval(timer);
      report();
    };
    video.addEventListener("play", onPlay);
    video.addEventListener("playing", onPlaying);
    video.addEventListener("pause", onStop);
    video.addEventListener("ended", onStop);
    window.addEventListener("pagehide", report);
    return () => {
      window.clearInterval(timer);
      // Leaving through an in-app link does not fire pagehide: report here too.
      if (!video.paused) report();
      video.removeEventListener("loadedmetadata", seek);
      video.removeEventListener("play", onPlay);
      video.removeEventListener("playing", onPlaying);
      video.removeEventListener("pause", onStop);
      video.removeEventListener("ended", onStop);
      window.removeEventListener("pagehide", report);
    };
  }, [movieId, resumeSeconds]);

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

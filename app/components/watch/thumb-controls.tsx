import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { clockText } from "~/utils/watch-time";

/** How far the ±10 s buttons, a double tap and the arrow keys move. */
export const SKIP_SECONDS = 10;
/** Two taps on the picture within this many milliseconds are a double tap. */
const DOUBLE_TAP_MS = 300;
/** Controls fade this long after the last touch while the film plays. */
const HIDE_AFTER_MS = 3_000;

type Shown = { paused: boolean; position: number; duration: number; started: boolean; muted: boolean };

/** The element's state as the controls show it. */
function read(video: HTMLVideoElement, started: boolean): Shown {
  return {
    paused: video.paused,
    position: video.currentTime,
    duration: Number.isFinite(video.duration) ? video.duration : 0,
    started: started || !video.paused || video.played.length > 0,
    muted: video.muted,
  };
}

function Icon({ path, className = "size-7" }: { path: string; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className={`${className} fill-current`}>
      <path d={path} />
    </svg>
  );
}

const PLAY = "M8 5v14l11-7z";
const PAUSE = "M6 5h4v14H6zm8 0h4v14h-4z";
const BACK = "M11 18V6l-8.5 6zm.5-6 8.5 6V6z";
const FORWARD = "M4 18l8.5-6L4 6zm9-12v12l8.5-6z";
const DOWNLOAD = "M5 20h14v-2H5zm7-3 6-6-1.4-1.4-3.6 3.6V4h-2v9.2L7.4 9.6 6 11z";
const FULL = "M7 14H5v5h5v-2H7zm-2-4h2V7h3V5H5zm12 7h-3v2h5v-5h-2zM14 5v2h3v3h2V5z";
const SOUND = "M3 9v6h4l5 5V4L7 9zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4";
const MUTED =
  "M3 9v6h4l5 5V4L7 9zm13.6 3 2.9-2.9-1.4-1.4-2.9 2.9-2.9-2.9-1.4 1.4 2.9 2.9-2.9 2.9 1.4 1.4 2.9-2.9 2.9 2.9 1.4-1.4z";

const round = "flex items-center justify-center rounded-full bg-black/55 text-white focus-visible:outline-2";

/**
 * The player's own controls, made for a thumb, over the page's `<video>`
 * (rendered only once the page's script runs; without it the browser's own
 * controls stay): one large play/pause target, ±10 s on each side of it, a
 * double tap on the picture's left or right half to seek, a progress bar with
 * a thumb-sized handle, the time, sound and fullscreen (which turns a phone
 * sideways where the browser lets it). Before the first play a resumed title
 * offers "Resume from 14:02" and "Start over", and the clock shows where it
 * will start. Every control is a button or a slider with a label in the
 * viewer's language; Space or K plays and pauses, the arrows seek, F fills
 * the screen.
 *
 * `onPlay` starts the film (the player attaches its stream first when it has
 * to): the press is never left to an element that has no source yet.
 */
export function ThumbControls({
  videoRef,
  frameRef,
  resumeSeconds,
  durationSeconds,
  onPlay,
  onStartOver,
  onDownload,
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  /** What fullscreen fills: the player's frame (so these controls stay on it). */
  frameRef: RefObject<HTMLDivElement | null>;
  resumeSeconds: number;
  /** The title's length as the catalogue knows it, shown before the film's own metadata arrives. */
  durationSeconds: number | null;
  onPlay: () => void;
  onStartOver: () => void;
  /** Where the plan allows downloads: the Download button beside the sound (it opens the downloader under the player). */
  onDownload?: () => void;
}) {
  const { t } = useTranslation("watch");
  const [shown, setShown] = useState<Shown>({
    paused: true,
    position: resumeSeconds,
    duration: durationSeconds ?? 0,
    started: false,
    muted: false,
  });
  const [visible, setVisible] = useState(true);
  const [flash, setFlash] = useState<string | null>(null);
  const hideTimer = useRef<number | undefined>(undefined);
  const lastTap = useRef<{ at: number; x: number } | null>(null);
  const singleTap = useRef<number | undefined>(undefined);
  const startedRef = useRef(false);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const update = () => {
      const next = read(video, startedRef.current);
      startedRef.current = next.started;
      setShown((before) => ({
        ...next,
        // Before the film's own clock moves: where it will start, and the length the catalogue knows.
        position: next.started || next.position > 0 ? next.position : before.position,
        duration: next.duration || before.duration,
      }));
    };
    const names = ["play", "pause", "timeupdate", "durationchange", "seeked", "ended", "volumechange", "emptied"];
    for (const name of names) video.addEventListener(name, update);
    update();
    return () => {
      for (const name of names) video.removeEventListener(name, update);
    };
  }, [videoRef]);

  // While the film plays the controls fade after a while; paused, they stay.
  const wake = () => {
    setVisible(true);
    window.clearTimeout(hideTimer.current);
    hideTimer.current = window.setTimeout(() => {
      if (videoRef.current && !videoRef.current.paused) setVisible(false);
    }, HIDE_AFTER_MS);
  };
  useEffect(() => {
    if (shown.paused) setVisible(true);
    else wake();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- wake reads only refs
  }, [shown.paused]);
  useEffect(
    () => () => {
      window.clearTimeout(hideTimer.current);
      window.clearTimeout(singleTap.current);
    },
    [],
  );

  const video = () => videoRef.current;
  const toggle = () => {
    const element = video();
    if (!element) return;
    if (element.paused) onPlay();
    else element.pause();
  };
  const skip = (seconds: number) => {
    const element = video();
    if (!element || !startedRef.current) return;
    const end = Number.isFinite(element.duration) ? element.duration : Infinity;
    element.currentTime = Math.max(0, Math.min(end, element.currentTime + seconds));
    setFlash(seconds > 0 ? `+${seconds}` : `−${-seconds}`);
    window.setTimeout(() => setFlash(null), 600);
    wake();
  };
  const fullscreen = async () => {
    const frame = frameRef.current;
    const element = video() as (HTMLVideoElement & { webkitEnterFullscreen?: () => void }) | null;
    if (!frame || !element) return;
    if (document.fullscreenElement) {
      await document.exitFullscreen().catch(() => undefined);
      return;
    }
    if (frame.requestFullscreen) {
      await frame.requestFullscreen().catch(() => undefined);
      // A phone held upright turns the film sideways where the browser allows it.
      const orientation = screen.orientation as ScreenOrientation & { lock?: (to: string) => Promise<void> };
      await orientation?.lock?.("landscape").catch(() => undefined);
    } else element.webkitEnterFullscreen?.();
  };

  // A tap on the picture shows or hides the controls; two quick taps on a half seek 10 s that way.
  const onSurfacePointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const box = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - box.left;
    const now = performance.now();
    const before = lastTap.current;
    if (before && now - before.at < DOUBLE_TAP_MS && Math.abs(before.x - x) < box.width / 3) {
      window.clearTimeout(singleTap.current);
      lastTap.current = null;
      skip(x < box.width / 2 ? -SKIP_SECONDS : SKIP_SECONDS);
      return;
    }
    lastTap.current = { at: now, x };
    window.clearTimeout(singleTap.current);
    singleTap.current = window.setTimeout(() => {
      if (visible && !shown.paused) setVisible(false);
      else wake();
    }, DOUBLE_TAP_MS);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const onSlider = (event.target as HTMLElement).getAttribute("type") === "range";
    const key = event.key;
    if (key === " " || key === "k" || key === "K") {
      if ((event.target as HTMLElement).tagName === "BUTTON" && key === " ") return;
      toggle();
    } else if ((key === "ArrowLeft" || key === "ArrowRight") && !onSlider) {
      skip(key === "ArrowLeft" ? -SKIP_SECONDS : SKIP_SECONDS);
    } else if (key === "f" || key === "F") void fullscreen();
    else if (key === "m" || key === "M") {
      const element = video();
      if (element) element.muted = !element.muted;
    } else return;
    event.preventDefault();
    wake();
  };

  const position = clockText(shown.position);
  const length = shown.duration > 0 ? clockText(shown.duration) : "–:––";
  const offerResume = !shown.started && resumeSeconds >= 1;
  const hidden = !visible && !shown.paused;

  return (
    <div
      className={`absolute inset-0 flex flex-col justify-end text-white select-none ${hidden ? "cursor-none" : ""}`}
      data-testid="player-controls"
      data-visible={hidden ? "0" : "1"}
      onKeyDown={onKeyDown}
      onPointerMove={(event) => {
        if (event.pointerType === "mouse") wake();
      }}
    >
      <div className="absolute inset-0" onPointerUp={onSurfacePointerUp} data-testid="player-surface" />
      {flash ? (
        <p
          className="pointer-events-none absolute top-1/2 left-1/2 -translate-x-1/2 -translate-y-1/2 rounded-full bg-black/60 px-4 py-2 text-lg font-semibold"
          aria-hidden="true"
        >
          {flash}
        </p>
      ) : null}
      <div
        className={`pointer-events-none absolute inset-x-0 top-0 bottom-12 z-10 flex items-center justify-center gap-6 transition-opacity sm:gap-10 ${hidden ? "opacity-0" : "opacity-100"}`}
      >
        {shown.started ? (
          <button
            type="button"
            className={`${round} pointer-events-auto size-12`}
            aria-label={t("controls.back", { seconds: SKIP_SECONDS })}
            onClick={() => skip(-SKIP_SECONDS)}
            tabIndex={hidden ? -1 : 0}
          >
            <Icon path={BACK} />
          </button>
        ) : null}
        <div className="flex items-center gap-3">
          <button
            type="button"
            className={`${round} pointer-events-auto size-16 bg-black/65`}
            aria-label={
              shown.paused
                ? offerResume
                  ? t("controls.resumeFrom", { time: clockText(resumeSeconds) })
                  : t("controls.play")
                : t("controls.pause")
            }
            data-testid="player-play"
            onClick={toggle}
            tabIndex={hidden ? -1 : 0}
          >
            <Icon path={shown.paused ? PLAY : PAUSE} className="size-10" />
          </button>
          {offerResume ? (
            <div className="flex flex-col items-start gap-1">
              <span className="rounded bg-black/60 px-2 py-0.5 text-sm" aria-hidden="true">
                {t("controls.resumeFrom", { time: clockText(resumeSeconds) })}
              </span>
              <button
                type="button"
                className="pointer-events-auto min-h-11 rounded-full bg-black/60 px-4 text-sm font-medium underline-offset-2 hover:underline focus-visible:outline-2"
                onClick={onStartOver}
                data-testid="player-start-over"
              >
                {t("controls.startOver")}
              </button>
            </div>
          ) : null}
        </div>
        {shown.started ? (
          <button
            type="button"
            className={`${round} pointer-events-auto size-12`}
            aria-label={t("controls.forward", { seconds: SKIP_SECONDS })}
            onClick={() => skip(SKIP_SECONDS)}
            tabIndex={hidden ? -1 : 0}
          >
            <Icon path={FORWARD} />
          </button>
        ) : null}
      </div>
      <div
        className={`pointer-events-none relative bg-linear-to-t from-black/80 to-transparent px-3 pt-4 transition-opacity ${hidden ? "opacity-0" : "opacity-100 *:pointer-events-auto"}`}
      >
        <input
          type="range"
          min={0}
          max={Math.max(1, Math.round(shown.duration))}
          step={1}
          value={Math.min(Math.round(shown.position), Math.max(1, Math.round(shown.duration)))}
          disabled={!shown.started}
          onChange={(event) => {
            const element = video();
            if (element) element.currentTime = Number(event.target.value);
            setShown((before) => ({ ...before, position: Number(event.target.value) }));
            wake();
          }}
          aria-label={t("controls.position")}
          aria-valuetext={t("controls.positionOf", { time: position, length })}
          className="block h-6 w-full cursor-pointer accent-emerald-500"
          data-testid="player-seek"
          tabIndex={hidden ? -1 : 0}
        />
        <div className="flex items-center gap-2 text-sm tabular-nums">
          <span data-testid="player-time">
            {position} / {length}
          </span>
          <span className="flex-1" />
          {onDownload ? (
            <button
              type="button"
              className="flex size-11 items-center justify-center rounded-full focus-visible:outline-2"
              aria-label={t("controls.download")}
              data-testid="player-download"
              onClick={onDownload}
            >
              <Icon path={DOWNLOAD} className="size-6" />
            </button>
          ) : null}
          <button
            type="button"
            className="flex size-11 items-center justify-center rounded-full focus-visible:outline-2"
            aria-label={shown.muted ? t("controls.unmute") : t("controls.mute")}
            aria-pressed={shown.muted}
            onClick={() => {
              const element = video();
              if (element) element.muted = !element.muted;
            }}
            tabIndex={hidden ? -1 : 0}
          >
            <Icon path={shown.muted ? MUTED : SOUND} className="size-6" />
          </button>
          <button
            type="button"
            className="flex size-11 items-center justify-center rounded-full focus-visible:outline-2"
            aria-label={t("controls.fullscreen")}
            onClick={() => void fullscreen()}
            tabIndex={hidden ? -1 : 0}
          >
            <Icon path={FULL} className="size-6" />
          </button>
        </div>
      </div>
    </div>
  );
}

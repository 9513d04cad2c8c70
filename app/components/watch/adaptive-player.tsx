import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { mostPlayedRung } from "~/media/data-cost";
import { HOLD_EARLY_PLAY, MSE_TYPE } from "~/utils/hold-early-play";
import { decodesAv1 } from "./av1-support";
import { linkEstimateKbps, rememberLinkKbps, rememberPlayedRung } from "./device-link";
import type { HlsPlayer, LinkState } from "./stream-player.client";
import type { PlayerSubtitleTrack } from "./subtitle-choices";
import { whilePlaying } from "~/utils/watch-time";
import { ThumbControls } from "./thumb-controls";

/** How often a playing video reports its position. */
const PROGRESS_INTERVAL_MS = 10_000;
/** How often the bytes a native or progressive player fetched are read again (Resource Timing). */
const SPENT_INTERVAL_MS = 2_000;
/** A viewing shorter than this says little about what the device plays: not remembered. */
const REMEMBERED_VIEWING_SECONDS = 20;
const HLS_TYPE = "application/vnd.apple.mpegurl";
/** A film whose links keep failing is reloaded at most this often in RELOAD_WINDOW_MS, then said to have failed. */
const MAX_RELOADS = 3;
const RELOAD_WINDOW_MS = 60_000;
/** What shows the viewer means to play, on the player's frame: the player attaches then (the master playlist, a screen, the film). */
const INTENT_EVENTS = ["pointerenter", "pointerdown", "touchstart", "focusin", "keydown"] as const;
/** The player has been fetched once on this page: attaching it again (another title, data saver switched) costs nothing. */
let hlsFetched = false;
/** The player's chunk (the same module however often it is asked for). */
const importHlsPlayer = () => import("./stream-player.client");
/** Why the server stopped this device from playing (the JSON of a 403 from a stream or the progress endpoint). */
export type PlaybackRefusal = { reason: "screens" | "pass_required"; screens: number };

export type PlayerRung = { rung: number; width: number; height: number; bandwidth: number };

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
function sendProgress(
  movieId: string,
  positionSeconds: number,
  event: "play" | "progress" | "stop",
  onRefused: (refusal: PlaybackRefusal) => void,
  how: "answered" | "beacon" | "leaving" = "answered",
): Promise<void> {
  if (typeof navigator === "undefined" || !Number.isFinite(positionSeconds)) return Promise.resolve();
  const body = new FormData();
  body.set("movieId", movieId);
  body.set("positionSeconds", String(Math.floor(positionSeconds)));
  body.set("event", event);
  // A beacon outlives the page (closed, hidden, frozen); its answer cannot be read, which a stop does not need
  // (unless the next page waits for it: "answered").
  if (
    (event === "stop" || how === "leaving") &&
    how !== "answered" &&
    typeof navigator.sendBeacon === "function" &&
    navigator.sendBeacon("/watch-progress", body)
  )
    return Promise.resolve();
  return fetch("/watch-progress", { method: "POST", body, keepalive: true, credentials: "same-origin" })
    .then(async (response) => {
      if (response.status !== 403) return;
      const refusal = readRefusal(await response.json());
      if (refusal) onRefused(refusal);
    })
    .catch(() => undefined);
}

/** The stream failed: ask the server why (its 403 says "screens" or "pass_required"). */
async function explainLoadError(src: string): Promise<PlaybackRefusal | null> {
  try {
    const response = await fetch(src, {
      headers: { Range: "bytes=0-0" },
      credentials: "same-origin",
      cache: "no-store",
    });
    if (response.status !== 403) return null;
    return readRefusal(await response.json());
  } catch {
    return null;
  }
}

/** This title's stream and file downloads that Resource Timing reports (native HLS and the progressive MP4). */
function streamEntries(movieId: string): PerformanceResourceTiming[] {
  if (typeof performance?.getEntriesByType !== "function") return [];
  return (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
    (entry) => entry.name.includes(`/stream/${movieId}/`) || entry.name.includes(`/api/files/${movieId}.`),
  );
}

/** For native HLS: the link speed seen by this page's stream downloads (Resource Timing), in kbps. */
function measuredStreamKbps(): number | null {
  const entries = performance
    .getEntriesByType("resource")
    .filter((entry) => /\/stream\/[^/]+\/\d+p\.mp4/.test(entry.name)) as PerformanceResourceTiming[];
  const bytes = entries.reduce((sum, entry) => sum + entry.transferSize, 0);
  const seconds = entries.reduce((sum, entry) => sum + Math.max(0, entry.responseEnd - entry.requestStart), 0) / 1000;
  return bytes > 64 * 1024 && seconds > 0 ? (bytes * 8) / 1000 / seconds : null;
}

function withParams(url: string, params: Record<string, string | number | null>): string {
  const parsed = new URL(url, window.location.origin);
  for (const [key, value] of Object.entries(params)) {
    if (value === null) parsed.searchParams.delete(key);
    else parsed.searchParams.set(key, String(value));
  }
  return `${parsed.pathname}${parsed.search}`;
}

/** The rung a picture height belongs to (native HLS tells only the picture's size). */
function rungOfPicture(rungs: readonly PlayerRung[], width: number, height: number): number | null {
  if (!width || !height) return null;
  const match =
    rungs.find((rung) => rung.width === width && rung.height === height) ??
    rungs.find((rung) => rung.rung === Math.min(width, height));
  return match?.rung ?? null;
}

type Mode = "none" | "native" | "mse" | "progressive";

/** Take the rendered <source> elements out (one stream is chosen by script); the <track> elements stay. */
function removeSources(video: HTMLVideoElement) {
  for (const source of video.querySelectorAll("source")) source.remove();
}

/** Show the track in `language` (none when null) and no other. */
function showSubtitles(video: HTMLVideoElement, language: string | null) {
  for (const track of Array.from(video.textTracks)) {
    if (track.kind !== "subtitles" && track.kind !== "captions") continue;
    const mode = track.language === language ? "showing" : "disabled";
    if (track.mode !== mode) track.mode = mode;
  }
}

/**
 * The title's adaptive player. Without JavaScript it is a plain
 * `<video controls>` whose first source is the HLS master playlist (Safari,
 * iOS and current Chromium play it natively) and whose fallback is a
 * progressive MP4 of a low rung. With JavaScript it plays through the player
 * where the browser has MSE, else natively; starts on a rung chosen from the
 * link, resumes where the viewer stopped, reports the position (also on every
 * way of leaving: an in-app link, back, closing the tab, the screen going
 * off), counts the bytes it fetched, and switches quality when `quality`
 * changes. Nothing of the film is fetched until play is pressed
 * (`preload="none"`), and the player attaches only when the viewer reaches for the
 * player (pointer over it, a touch, focus, play), its code fetched then
 * (nothing of it before). Subtitles are side-loaded `<track>` elements, which every
 * mode keeps: the chosen one is `default` (shown without JavaScript), and
 * `subtitleLanguage` switches them; a choice made in the browser's own
 * controls is reported through `onSubtitleLanguageChange`.
 */
export function AdaptivePlayer({
  movieId,
  masterUrl,
  fallbackUrl,
  rungs,
  av1Codecs = null,
  quality,
  streamQuality,
  poster,
  resumeSeconds,
  durationSeconds = null,
  label,
  dataSaver = false,
  renderRefused,
  onRungChange,
  subtitles = [],
  subtitleLanguage = null,
  onSubtitleLanguageChange,
  autoStart = false,
  reportProgress = true,
  onEnded,
  onSpentChange,
  onDownload,
}: {
  movieId: string;
  /** Data saver is on: the player keeps less film ahead (what a viewer who stops has paid for and not seen). */
  dataSaver?: boolean;
  /** Null when the title has no ladder yet: the fallback MP4 plays alone. */
  masterUrl: string | null;
  fallbackUrl: string;
  rungs: readonly PlayerRung[];
  /** The exact CODECS of the title's AV1 + Opus rungs (null without them): the player asks for them where the browser decodes AV1 smoothly. */
  av1Codecs?: string | null;
  quality: "auto" | number;
  /** The quality `masterUrl` itself asks for (the page's `?quality=`). */
  streamQuality: "auto" | number;
  poster: string | null;
  resumeSeconds: number;
  /** The title's length as the catalogue knows it (the controls show it before the film's metadata arrives). */
  durationSeconds?: number | null;
  label: string;
  /** What to show in place of the video when the server refuses this device. */
  renderRefused?: (refusal: PlaybackRefusal) => ReactNode;
  onRungChange?: (rung: number | null) => void;
  subtitles?: readonly PlayerSubtitleTrack[];
  /** The language shown (a track's tag), or null for none. */
  subtitleLanguage?: string | null;
  onSubtitleLanguageChange?: (language: string | null) => void;
  /** Start playing once the stream is attached (the next episode, started by the end card). */
  autoStart?: boolean;
  /** Report the position (a viewing): off for a provider previewing their own title, which is never a view. */
  reportProgress?: boolean;
  /** The film played to its end (the next episode's card). */
  onEnded?: () => void;
  /** Bytes this player fetched so far (as they arrive through MSE; from Resource Timing otherwise). */
  onSpentChange?: (bytes: number) => void;
  /** The plan allows downloading this title: the controls' Download button. */
  onDownload?: () => void;
}) {
  const { t } = useTranslation("watch");
  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  /** The page's script runs: its own controls replace the browser's (which stay without JavaScript). */
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  /** Attaches the player now (a press on play); nothing until the stream effect has run. */
  const attachRef = useRef<() => void>(() => undefined);
  /** Where the film starts: the resume position, or 0 once "Start over" is pressed. */
  const startedOverRef = useRef(false);
  const startFromRef = useRef(resumeSeconds);
  startFromRef.current = startedOverRef.current ? 0 : resumeSeconds;
  const hlsRef = useRef<HlsPlayer | null>(null);
  const modeRef = useRef<Mode>("none");
  const [refusal, setRefusal] = useState<PlaybackRefusal | null>(null);
  const [state, setState] = useState<"idle" | "loading" | "playing" | "error">("idle");
  /** "slow": the film waits while bytes still come; "lost": nothing answers and the player keeps asking. Said plainly, cleared when it passes. */
  const [link, setLink] = useState<LinkState>("ok");
  const reconnecting = link === "lost";
  const [rung, setRung] = useState<number | null>(null);
  /** The quality the attached stream plays (the master URL's own, until the menu changes it). */
  const appliedQuality = useRef(streamQuality);
  const rungsRef = useRef(rungs);
  rungsRef.current = rungs;
  const onRungChangeRef = useRef(onRungChange);
  onRungChangeRef.current = onRungChange;
  const subtitleLanguageRef = useRef(subtitleLanguage);
  subtitleLanguageRef.current = subtitleLanguage;
  const onSubtitleChangeRef = useRef(onSubtitleLanguageChange);
  onSubtitleChangeRef.current = onSubtitleLanguageChange;
  const onEndedRef = useRef(onEnded);
  onEndedRef.current = onEnded;
  const autoStartRef = useRef(autoStart);
  autoStartRef.current = autoStart;
  const onSpentChangeRef = useRef(onSpentChange);
  onSpentChangeRef.current = onSpentChange;
  /** The rung on screen, for the rung this viewing is remembered by. */
  const rungRef = useRef<number | null>(null);
  rungRef.current = rung;

  useEffect(() => {
    onRungChangeRef.current?.(rung);
  }, [rung]);

  /** The server refused this device (another screen, no pass): stop and show why. */
  const refuse = useCallback((reason: PlaybackRefusal) => {
    videoRef.current?.pause();
    setRefusal(reason);
  }, []);

  // Attach the stream: native HLS, the player, or the progressive fallback left as rendered.
  useEffect(() => {
    const video = videoRef.current;
    const frame = frameRef.current;
    if (!video || !frame) return;
    let cancelled = false;
    const explain = () => {
      setState("error");
      void explainLoadError(masterUrl ?? fallbackUrl).then((reason) => {
        if (reason) refuse(reason);
      });
    };
    // The player gave up on a request the server would still allow (a bucket link that expired while the film
    // stood still, say): its playlists again, with fresh links, from where the film stood, a few times
    // a minute at most; a refusal (screens, a pass) or a film that keeps failing is said as before.
    const reloads: number[] = [];
    const recoverOrExplain = () => {
      void explainLoadError(masterUrl ?? fallbackUrl).then((reason) => {
        if (cancelled) return;
        if (reason) {
          setState("error");
          refuse(reason);
          return;
        }
        const now = Date.now();
        while (reloads.length > 0 && now - reloads[0]! > RELOAD_WINDOW_MS) reloads.shift();
        if (reloads.length >= MAX_RELOADS || !hlsRef.current) {
          setState("error");
          return;
        }
        reloads.push(now);
        hlsRef.current.reload();
      });
    };
    const estimate = linkEstimateKbps();
    const source = masterUrl ? withParams(masterUrl, { bw: estimate }) : null;
    const canPlayNative = Boolean(source && video.canPlayType(HLS_TYPE));
    // The MSE player wherever classic MSE plays H.264: on Chromium it starts sooner, seeks
    // in a third of the time and buffers only what we allow (decision 020).
    // Native HLS where there is no MSE (iPhone Safari), else the MP4 fallback.
    const hasMse =
      typeof window.MediaSource?.isTypeSupported === "function" && window.MediaSource.isTypeSupported(MSE_TYPE);

    // Pressed play before this script ran: the browser is already playing the rendered sources.
    const alreadyPlaying = !video.paused || video.currentTime > 0;
    // Where MSE plays, the player takes over from there: the browser's own HLS reads a byte-range rung
    // from its first byte to its last (a CDN in front of a bucket sends the whole file before the
    // first frame) and keeps no limit on what it fetches ahead. Elsewhere it is left playing.
    // A press held by HOLD_EARLY_PLAY (utils/hold-early-play.ts) is here too: the element waits, playing in name.
    const handOver = Boolean(source && hasMse && alreadyPlaying);
    const handedOverAt = handOver && video.currentTime > 0.5 ? video.currentTime : null;
    const intentEvents: Array<(typeof INTENT_EVENTS)[number]> = [];
    let loadPlayer = () => {};
    if (source && hasMse) {
      modeRef.current = "mse";
      // Started by the previous episode's end card, or already playing natively: the player plays as
      // soon as it is attached (load() below pauses the element).
      if (autoStartRef.current || handOver) video.dataset.playRequested = "1";
      if (handOver && !video.dataset.playHeld) video.dataset.playerHandedOver = "1";
      // Nothing may start natively while the player loads (load() undoes the source the parser chose);
      // a play pressed meanwhile starts once the player is attached.
      removeSources(video);
      video.removeAttribute("src");
      video.load();
      let requested = false;
      loadPlayer = () => {
        if (requested) return;
        requested = true;
        for (const name of intentEvents) frame.removeEventListener(name, loadPlayer);
        video.removeEventListener("play", loadPlayer);
        // The AV1 family where this browser decodes it smoothly (the master playlist then lists it first).
        const av1 = av1Codecs ? decodesAv1(av1Codecs) : Promise.resolve(false);
        void Promise.all([importHlsPlayer(), av1]).then(([{ createHlsPlayer }, playsAv1]) => {
          hlsFetched = true;
          if (cancelled) return;
          video.dataset.av1 = playsAv1 ? "1" : "0";
          hlsRef.current = createHlsPlayer(video, {
            source: playsAv1 ? withParams(source, { av1: 1 }) : source,
            preferAv1: playsAv1,
            startSeconds: () => handedOverAt ?? startFromRef.current,
            linkKbps: estimate,
            dataSaver,
            onRung: (value) => setRung(value),
            onFatal: recoverOrExplain,
            onLink: (state) => {
              setLink(state);
              video.dataset.link = state;
              if (state === "lost") video.dataset.reconnecting = "1";
              else video.removeAttribute("data-reconnecting");
            },
            onBandwidth: rememberLinkKbps,
            onSpent: (bytes) => {
              video.dataset.spentBytes = String(bytes);
              onSpentChangeRef.current?.(bytes);
            },
          });
          video.dataset.playerAttached = "1";
        }, explain);
      };
      // The player's code (about 6 kB, kept by the browser for as long as this build serves) is fetched
      // and attached when the viewer reaches for the player (a touch, the pointer over it, focus, play),
      // or at once for an episode that starts by itself or when the code is already here: a visitor who
      // never presses play pays nothing for it (decision 060), and a press waits for its few kilobytes.
      video.dataset.playerLoads = "on-intent";
      if (autoStartRef.current || handOver || hlsFetched) loadPlayer();
      else {
        for (const name of INTENT_EVENTS) {
          intentEvents.push(name);
          frame.addEventListener(name, loadPlayer, { passive: true });
        }
        video.addEventListener("play", loadPlayer);
        video.dataset.playerFetch = "on-intent";
      }
    } else if (source && canPlayNative && !alreadyPlaying) {
      modeRef.current = "native";
      // One source, chosen here (the rendered <source> list is for browsers without JavaScript).
      removeSources(video);
      video.src = source;
    } else {
      modeRef.current = alreadyPlaying && source && canPlayNative ? "native" : "progressive";
    }
    attachRef.current = loadPlayer;
    appliedQuality.current = streamQuality;
    video.dataset.playerMode = modeRef.current;
    if (autoStartRef.current && modeRef.current !== "mse" && video.paused) void video.play().catch(() => undefined);
    // A media error under the player is the player's to mend (a fresh MediaSource); it says when it cannot.
    const onElementError = () => {
      if (modeRef.current !== "mse" || !hlsRef.current) explain();
    };
    video.addEventListener("error", onElementError);
    return () => {
      cancelled = true;
      for (const name of intentEvents) frame.removeEventListener(name, loadPlayer);
      video.removeEventListener("play", loadPlayer);
      video.removeEventListener("error", onElementError);
      hlsRef.current?.destroy();
      hlsRef.current = null;
      delete video.dataset.playerAttached;
    };
    // The stream is attached once per title and master playlist; quality changes are applied below.
  }, [movieId, masterUrl, fallbackUrl, resumeSeconds, streamQuality, refuse, dataSaver, av1Codecs]);

  // A quality chosen in the menu: the player switches level; native HLS reloads the playlist of that rung where it was.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || appliedQuality.current === quality) return;
    appliedQuality.current = quality;
    if (modeRef.current === "mse") {
      hlsRef.current?.setRung(quality === "auto" ? null : quality);
    } else if (modeRef.current === "native" && masterUrl) {
      const position = video.currentTime;
      const wasPlaying = !video.paused;
      video.src = withParams(masterUrl, { rung: quality === "auto" ? null : quality, bw: linkEstimateKbps() });
      if (position > 0) video.currentTime = position;
      if (wasPlaying) void video.play().catch(() => undefined);
    }
  }, [quality, masterUrl]);

  // Subtitles: the chosen track shown, the others off (after the stream is attached, whatever the mode).
  useEffect(() => {
    const video = videoRef.current;
    if (video) showSubtitles(video, subtitleLanguage);
  }, [subtitleLanguage, subtitles, masterUrl, fallbackUrl]);

  // A track turned on or off in the browser's own controls: the page's menu follows.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || subtitles.length === 0) return;
    const onChange = () => {
      const showing = Array.from(video.textTracks).find((track) => track.mode === "showing");
      const language = showing?.language || null;
      if (language !== subtitleLanguageRef.current) onSubtitleChangeRef.current?.(language);
    };
    video.textTracks.addEventListener("change", onChange);
    return () => video.textTracks.removeEventListener("change", onChange);
  }, [subtitles]);

  // Resume, progress reports (on every way of leaving too), pending state, the rung on screen, bytes spent.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let started = false;
    // Where the viewer is and whether the film plays, kept from the element's events: by the time an
    // in-app navigation unmounts the page, the player's destroy has emptied the element (paused, at 0).
    let position = video.currentTime;
    let playing = !video.paused;
    const seek = () => {
      const from = startFromRef.current;
      if (from > 0 && video.currentTime < 0.5 && modeRef.current !== "mse") video.currentTime = from;
    };
    // Before the metadata arrives this sets the default start position, which the element honours once it loads.
    seek();
    video.addEventListener("loadedmetadata", seek, { once: true });

    const report = (event: "play" | "progress" | "stop", how: "beacon" | "leaving" | "answered" = "beacon") => {
      // Also when it played before this effect (re)attached its listeners, e.g. a play pressed while the page hydrated.
      started ||= playing || video.played.length > 0;
      return started && reportProgress ? sendProgress(movieId, position, event, refuse, how) : Promise.resolve();
    };
    // Leaving for a page that shows positions (Continue watching, the history): it waits for this save.
    const forgetSave = whilePlaying(() => {
      if (!playing) return Promise.resolve();
      position = video.currentTime;
      return report("stop", "answered");
    });
    // Seconds played at each rung: the rung this viewing is remembered by (what the next film's cost assumes).
    const secondsByRung = new Map<number, number>();
    let rememberedOnce = false;
    const rememberRung = () => {
      const total = [...secondsByRung.values()].reduce((sum, seconds) => sum + seconds, 0);
      const rungPlayed = mostPlayedRung(secondsByRung);
      if (total < REMEMBERED_VIEWING_SECONDS || rungPlayed === null) return;
      rememberPlayedRung(rungPlayed, rememberedOnce);
      rememberedOnce = true;
    };
    let spentReadAt = 0;
    const readSpent = (force = false) => {
      if (modeRef.current === "mse" || (!force && Date.now() - spentReadAt < SPENT_INTERVAL_MS)) return;
      spentReadAt = Date.now();
      const bytes = streamEntries(movieId).reduce((sum, entry) => sum + entry.transferSize, 0);
      if (bytes > 0) {
        video.dataset.spentBytes = String(bytes);
        onSpentChangeRef.current?.(bytes);
      }
    };
    const onTimeUpdate = () => {
      // The player is building its film again at the same place: the element reads 0 meanwhile.
      if (video.dataset.recovering) return;
      if (!video.seeking && !video.paused) {
        const step = video.currentTime - position;
        const shown = rungRef.current;
        if (shown !== null && step > 0 && step < 2) secondsByRung.set(shown, (secondsByRung.get(shown) ?? 0) + step);
      }
      position = video.currentTime;
      readSpent();
    };
    const onSeeked = () => {
      position = video.currentTime;
    };
    const onPlay = () => {
      // Pressed before the player is attached: it starts playing once it is.
      if (modeRef.current === "mse" && !hlsRef.current) video.dataset.playRequested = "1";
      started = true;
      playing = true;
      setState("loading");
      void report("play", "answered");
    };
    let timer: number | undefined;
    const onPlaying = () => {
      setState("playing");
      window.clearInterval(timer);
      timer = window.setInterval(() => {
        if (playing) void report("progress", "answered");
      }, PROGRESS_INTERVAL_MS);
    };
    const onWaiting = () => setState("loading");
    const onResize = () => {
      if (modeRef.current !== "mse") setRung(rungOfPicture(rungsRef.current, video.videoWidth, video.videoHeight));
    };
    const onEndedEvent = () => onEndedRef.current?.();
    const onStop = () => {
      position = video.currentTime;
      playing = false;
      window.clearInterval(timer);
      void report("stop");
      rememberRung();
      readSpent(true);
      if (modeRef.current === "native") {
        const kbps = measuredStreamKbps();
        if (kbps) rememberLinkKbps(kbps);
      }
    };
    /** The page goes away (closed, reloaded, left for another site) or in the background (screen off, another app). */
    const onPageHide = () => {
      // The beacon that frees the screen goes first: nothing may keep it from leaving. (A fragment
      // request still on its way after it no longer takes the screen back: playback.server.ts.)
      // A paused player already said "stop" when it paused.
      if (playing) void report("stop", "leaving");
      rememberRung();
      try {
        hlsRef.current?.stopLoad();
      } catch {
        // The page is going away: nothing more to stop.
      }
    };
    const onVisibilityChange = () => {
      // The screen went off or another app came forward: the page may never run again (a phone may end it
      // unannounced), so the position is saved now. The film may go on playing (sound in the background):
      // the screen stays taken.
      if (document.visibilityState === "hidden" && playing) {
        position = video.currentTime;
        void report("progress", "leaving");
        rememberRung();
      }
    };
    video.addEventListener("play", onPlay);
    video.addEventListener("playing", onPlaying);
    video.addEventListener("waiting", onWaiting);
    video.addEventListener("timeupdate", onTimeUpdate);
    video.addEventListener("seeked", onSeeked);
    video.addEventListener("resize", onResize);
    video.addEventListener("pause", onStop);
    video.addEventListener("ended", onStop);
    video.addEventListener("ended", onEndedEvent);
    window.addEventListener("pagehide", onPageHide);
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      window.clearInterval(timer);
      forgetSave();
      // Leaving through an in-app link or back does not fire pagehide: report here, from what the events said.
      if (playing) void report("stop", "leaving");
      rememberRung();
      video.removeEventListener("loadedmetadata", seek);
      video.removeEventListener("play", onPlay);
      video.removeEventListener("playing", onPlaying);
      video.removeEventListener("waiting", onWaiting);
      video.removeEventListener("timeupdate", onTimeUpdate);
      video.removeEventListener("seeked", onSeeked);
      video.removeEventListener("resize", onResize);
      video.removeEventListener("pause", onStop);
      video.removeEventListener("ended", onStop);
      video.removeEventListener("ended", onEndedEvent);
      window.removeEventListener("pagehide", onPageHide);
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
  }, [movieId, resumeSeconds, refuse, reportProgress]);

  /** Play, from the controls: the player attaches first where it plays (the press waits for it, never lost). */
  const play = useCallback(() => {
    const video = videoRef.current;
    if (!video) return;
    if (modeRef.current === "mse" && !hlsRef.current) {
      video.dataset.playRequested = "1";
      attachRef.current();
    }
    void video.play().catch(() => undefined);
  }, []);
  const startOver = useCallback(() => {
    startedOverRef.current = true;
    startFromRef.current = 0;
    const video = videoRef.current;
    if (video && video.currentTime > 0) video.currentTime = 0;
    play();
  }, [play]);

  if (refusal && renderRefused) return <div data-testid="player-refused">{renderRefused(refusal)}</div>;

  return (
    <div ref={frameRef} className="relative overflow-hidden rounded-lg bg-black" data-testid="player-frame">
      {masterUrl ? <script dangerouslySetInnerHTML={{ __html: HOLD_EARLY_PLAY }} /> : null}
      <video
        ref={videoRef}
        controls={!enhanced}
        preload="none"
        playsInline
        poster={poster ?? undefined}
        aria-label={label}
        data-testid="player"
        data-player-mode="none"
        data-rung={rung ?? undefined}
        data-resume-seconds={resumeSeconds}
        className="aspect-video w-full"
      >
        {masterUrl ? <source src={masterUrl} type={HLS_TYPE} /> : null}
        <source src={fallbackUrl} type="video/mp4" />
        {subtitles.map((track) => (
          <track
            key={track.language}
            kind="subtitles"
            src={track.url}
            srcLang={track.language}
            label={track.label}
            default={track.language === subtitleLanguage}
          />
        ))}
        {t("page.noVideo")}
      </video>
      {enhanced ? (
        <ThumbControls
          videoRef={videoRef}
          frameRef={frameRef}
          resumeSeconds={resumeSeconds}
          durationSeconds={durationSeconds}
          onPlay={play}
          onStartOver={startOver}
          onDownload={onDownload}
        />
      ) : null}
      {state === "loading" && !reconnecting ? (
        <p
          role="status"
          className="pointer-events-none absolute top-3 left-3 rounded bg-black/70 px-2 py-1 text-xs text-white"
          data-testid={link === "slow" ? "player-slow" : "player-loading"}
        >
          {t(link === "slow" ? "player.slow" : "player.loading")}
        </p>
      ) : null}
      {reconnecting && state !== "error" ? (
        <p
          role="status"
          className="pointer-events-none absolute inset-x-3 top-3 rounded bg-black/80 px-3 py-2 text-sm text-white"
          data-testid="player-reconnecting"
        >
          {t("player.reconnecting")}
        </p>
      ) : null}
      {state === "error" && !refusal ? (
        <p
          role="alert"
          className="absolute inset-x-3 top-3 rounded bg-red-900/90 px-3 py-2 text-sm text-white"
          data-testid="player-error"
        >
          {t("player.error")}
        </p>
      ) : null}
    </div>
  );
}

import Hls from "hls.js/light";
import type { LoadPolicy, RetryConfig } from "hls.js/light";
import { hlsBufferLimits, readAheadSeconds } from "~/media/read-ahead";
import { isPassingFailure } from "~/utils/passing-failure";

/**
 * hls.js (its light build: HLS with fMP4, no subtitles or DRM) for browsers
 * without native HLS. Imported dynamically by the watch page's player only,
 * so it is its own hashed, immutably cached chunk and no other page loads it.
 *
 * Tuned for viewers who pay per megabyte: it is loaded when the viewer
 * reaches for play, loads no film until play is pressed, holds at most the
 * read-ahead of `app/media/read-ahead.ts` (30 s, 12 s under data saver;
 * less while paused; hls.js's default buffers up to ten minutes) by every
 * limit hls.js has, starts on the rung the master playlist lists first (the
 * one the link allows, or data saver's), never picks a picture larger than
 * the player, and counts every byte it fetches.
 *
 * A lost link heals by itself: see UNTIL_BACK.
 */
/** How far past a segment's start a start or seek that lands on it moves (more than the audio's lead over the first keyframe). */
const PAST_KEYFRAME_SECONDS = 0.1;

/**
 * A fragment or playlist that fails for want of a network (no answer, a timeout, the box, the bucket or
 * the CDN answering 5xx, 408 or 429) is asked again every 1–3 s for as long as it takes, whatever
 * navigator.onLine says (a phone on a Wi-Fi without internet, or in a lift, says "online"; hls.js on its
 * own retries such a failure only when it says "offline", and gives up after a few tries): the film goes
 * on from where it stood as soon as the link is back, without a touch. A refusal (403, 404) is not retried
 * here: the page asks the server why (a screen limit, a pass, an expired link).
 */
export const UNTIL_BACK: RetryConfig = {
  maxNumRetry: Number.POSITIVE_INFINITY,
  retryDelayMs: 1000,
  maxRetryDelayMs: 3000,
  shouldRetry: (_config, _count, isTimeout, response, retry) => retry || isPassingFailure(response?.code, isTimeout),
};

function patient(maxTimeToFirstByteMs: number, maxLoadTimeMs: number): LoadPolicy {
  return { default: { maxTimeToFirstByteMs, maxLoadTimeMs, timeoutRetry: UNTIL_BACK, errorRetry: UNTIL_BACK } };
}

export type HlsPlayer = {
  /** Play one rung (a quality chosen in the menu), or null for Auto. */
  setRung: (rung: number | null) => void;
  /** Stop fetching (the page is going away); the next play starts again. */
  stopLoad: () => void;
  /** Load the playlists again (fresh links) and go on from where the film stood. */
  reload: () => void;
  /** Bytes fetched so far: playlists and film, as they arrived. */
  spentBytes: () => number;
  destroy: () => void;
};

export function createHlsPlayer(
  video: HTMLVideoElement,
  options: {
    source: string;
    /** Where the film starts when play is pressed (the resume position, or 0 for "Start over"). */
    startSeconds: () => number;
    linkKbps: number | null;
    /** Data saver is on: the shorter read-ahead. */
    dataSaver: boolean;
    onRung: (rung: number | null) => void;
    /** hls.js gave up (a refusal, an expired link, a film it cannot read): the page asks the server why. */
    onFatal: () => void;
    /** The link is lost (a fragment or playlist failed for want of a network, and is being asked again), or back. */
    onConnection: (connected: boolean) => void;
    onBandwidth: (kbps: number) => void;
    /** Called as bytes arrive, with the total so far. */
    onSpent: (bytes: number) => void;
  },
): HlsPlayer {
  const estimate = (options.linkKbps ?? 400) * 1000;
  const limitsFor = (paused: boolean) => hlsBufferLimits(readAheadSeconds({ dataSaver: options.dataSaver, paused }));
  const hls = new Hls({
    autoStartLoad: false,
    ...limitsFor(true),
    capLevelToPlayerSize: true,
    abrEwmaDefaultEstimate: estimate,
    // The master playlist already lists the start rung first; measuring with an extra segment would spend data.
    testBandwidth: false,
    enableWorker: true,
    fragLoadPolicy: patient(10_000, 120_000),
    playlistLoadPolicy: patient(10_000, 20_000),
    manifestLoadPolicy: patient(10_000, 20_000),
  });
  const rungOf = (level: number): number | null => {
    const details = hls.levels[level];
    return details ? Math.min(details.width, details.height) : null;
  };
  let loading = false;
  // Where a reload goes on from (the new media source starts at 0).
  let reloadAt: number | null = null;
  const startOnPlay = () => {
    if (loading) return;
    loading = true;
    const from = reloadAt ?? options.startSeconds();
    hls.startLoad(video.currentTime > 0 ? video.currentTime : from > 0 ? from + PAST_KEYFRAME_SECONDS : 0);
  };
  // A position a hair before a segment's first frame (audio leads the first
  // keyframe by the AAC encoder's delay, about 21 ms) belongs to the segment
  // before: starting there would fetch two segments before the first frame.
  // Resume positions are whole seconds and segments start on whole seconds,
  // so starts and seeks that land within a tenth of a second of a segment's
  // start move just past it.
  const onSeeking = () => {
    const level = hls.levels[hls.currentLevel >= 0 ? hls.currentLevel : hls.loadLevel];
    const position = video.currentTime;
    const segment = level?.details?.fragments.find(
      (fragment) =>
        fragment.start > 0 && fragment.start >= position - 0.001 && fragment.start < position + PAST_KEYFRAME_SECONDS,
    );
    if (segment) video.currentTime = segment.start + PAST_KEYFRAME_SECONDS;
  };
  video.addEventListener("seeking", onSeeking);
  // hls.js reads its limits from its config on every check: playing reads further ahead than paused.
  const applyLimits = () => Object.assign(hls.config, limitsFor(video.paused));
  video.addEventListener("play", applyLimits);
  video.addEventListener("pause", applyLimits);
  applyLimits();
  // Every byte that arrives, film and playlists (a fragment given up midway counts what came).
  let spent = 0;
  const count = (bytes: number | undefined) => {
    if (!bytes || !(bytes > 0)) return;
    spent += bytes;
    options.onSpent(spent);
  };
  hls.on(Hls.Events.MANIFEST_LOADED, (_event, data) => count(data.stats?.loaded));
  hls.on(Hls.Events.LEVEL_LOADED, (_event, data) => count(data.stats?.loaded));
  hls.on(Hls.Events.FRAG_LOADED, (_event, data) => count(data.frag.stats.loaded));
  hls.on(Hls.Events.FRAG_LOAD_EMERGENCY_ABORTED, (_event, data) => count(data.stats?.loaded));
  // A play pressed before hls.js was attached was lost in the new load: play again.
  const wantedToPlay = !video.paused || video.dataset.playRequested === "1";
  video.addEventListener("play", startOnPlay);
  // With no startLevel set, hls.js starts on the first variant of the master
  // playlist, which the server lists first because it fits this link.
  let playAfterReload = false;
  hls.on(Hls.Events.MANIFEST_PARSED, () => {
    if (reloadAt !== null) {
      loading = false;
      startOnPlay();
      video.currentTime = reloadAt;
      reloadAt = null;
      if (playAfterReload) void video.play().catch(() => undefined);
      return;
    }
    if (wantedToPlay || !video.paused) {
      startOnPlay();
      void video.play().catch(() => undefined);
    }
  });
  hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => options.onRung(rungOf(data.level)));
  hls.on(Hls.Events.FRAG_LOADED, () => {
    if (Number.isFinite(hls.bandwidthEstimate)) options.onBandwidth(hls.bandwidthEstimate / 1000);
  });
  // The link: lost when a request fails for want of a network (hls.js asks again, UNTIL_BACK), back when one arrives.
  let connected = true;
  const setConnected = (value: boolean) => {
    if (value === connected) return;
    connected = value;
    options.onConnection(value);
  };
  hls.on(Hls.Events.FRAG_LOADED, () => setConnected(true));
  hls.on(Hls.Events.LEVEL_LOADED, () => setConnected(true));
  hls.on(Hls.Events.MANIFEST_LOADED, () => setConnected(true));
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (
      data.type === Hls.ErrorTypes.NETWORK_ERROR &&
      !data.fatal &&
      isPassingFailure(data.response?.code, data.details.endsWith("TIMEOUT"))
    )
      setConnected(false);
    if (!data.fatal) return;
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
      hls.recoverMediaError();
      return;
    }
    options.onFatal();
  });
  hls.loadSource(options.source);
  hls.attachMedia(video);
  return {
    setRung: (rung) => {
      if (rung === null) {
        hls.currentLevel = -1;
        return;
      }
      const index = hls.levels.findIndex((level) => Math.min(level.width, level.height) === rung);
      if (index >= 0) hls.currentLevel = index;
    },
    stopLoad: () => {
      hls.stopLoad();
      loading = false;
    },
    reload: () => {
      reloadAt = video.currentTime;
      playAfterReload = !video.paused || video.dataset.playRequested === "1";
      loading = false;
      hls.loadSource(options.source);
    },
    spentBytes: () => spent,
    destroy: () => {
      video.removeEventListener("play", startOnPlay);
      video.removeEventListener("play", applyLimits);
      video.removeEventListener("pause", applyLimits);
      video.removeEventListener("seeking", onSeeking);
      hls.destroy();
    },
  };
}

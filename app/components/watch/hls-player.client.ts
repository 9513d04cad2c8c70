import Hls from "hls.js/light";

/**
 * hls.js (its light build: HLS with fMP4, no subtitles or DRM) for browsers
 * without native HLS. Imported dynamically by the watch page's player only,
 * so it is its own hashed, immutably cached chunk and no other page loads it.
 *
 * Tuned for viewers who pay per megabyte: it reads the playlists when the
 * page opens but loads no film until play is pressed, keeps at most the
 * player's `bufferAheadSeconds` ahead (30 s, 12 s under data saver; hls.js's
 * default buffers up to ten minutes), starts on the rung the link estimate
 * allows, and never picks a picture larger than the player.
 */
/** How far past a segment's start a start or seek that lands on it moves (more than the audio's lead over the first keyframe). */
const PAST_KEYFRAME_SECONDS = 0.1;

export type HlsPlayer = {
  /** Play one rung (a quality chosen in the menu), or null for Auto. */
  setRung: (rung: number | null) => void;
  /** Stop fetching (the page is going away); the next play starts again. */
  stopLoad: () => void;
  destroy: () => void;
};

export function createHlsPlayer(
  video: HTMLVideoElement,
  options: {
    source: string;
    startSeconds: number;
    linkKbps: number | null;
    /** At most this much film buffered ahead of the picture. */
    bufferAheadSeconds: number;
    onRung: (rung: number | null) => void;
    onFatal: () => void;
    onBandwidth: (kbps: number) => void;
  },
): HlsPlayer {
  const estimate = (options.linkKbps ?? 400) * 1000;
  const hls = new Hls({
    autoStartLoad: false,
    startPosition: options.startSeconds > 0 ? options.startSeconds : -1,
    maxBufferLength: options.bufferAheadSeconds,
    maxMaxBufferLength: options.bufferAheadSeconds * 2,
    maxBufferSize: 20 * 1000 * 1000,
    backBufferLength: 30,
    capLevelToPlayerSize: true,
    abrEwmaDefaultEstimate: estimate,
    // The master playlist already lists the start rung first; measuring with an extra segment would spend data.
    testBandwidth: false,
    enableWorker: true,
  });
  const rungOf = (level: number): number | null => {
    const details = hls.levels[level];
    return details ? Math.min(details.width, details.height) : null;
  };
  let loading = false;
  const startOnPlay = () => {
    if (loading) return;
    loading = true;
    hls.startLoad(
      video.currentTime > 0
        ? video.currentTime
        : options.startSeconds > 0
          ? options.startSeconds + PAST_KEYFRAME_SECONDS
          : -1,
    );
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
  // A play pressed before hls.js was attached was lost in the new load: play again.
  const wantedToPlay = !video.paused || video.dataset.playRequested === "1";
  video.addEventListener("play", startOnPlay);
  // With no startLevel set, hls.js starts on the first variant of the master
  // playlist, which the server lists first because it fits this link.
  hls.on(Hls.Events.MANIFEST_PARSED, () => {
    if (wantedToPlay || !video.paused) {
      startOnPlay();
      void video.play().catch(() => undefined);
    }
  });
  hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => options.onRung(rungOf(data.level)));
  hls.on(Hls.Events.FRAG_LOADED, () => {
    if (Number.isFinite(hls.bandwidthEstimate)) options.onBandwidth(hls.bandwidthEstimate / 1000);
  });
  hls.on(Hls.Events.ERROR, (_event, data) => {
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
    destroy: () => {
      video.removeEventListener("play", startOnPlay);
      video.removeEventListener("seeking", onSeeking);
      hls.destroy();
    },
  };
}

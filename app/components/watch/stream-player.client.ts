import { parseMediaPlaylist } from "~/media/hls";
import { hlsBufferLimits, readAheadSeconds } from "~/media/read-ahead";
import { isPassingFailure } from "~/utils/passing-failure";

/**
 * Kallo's own Media Source player for Kallo's own streams: VOD, one
 * fragmented MP4 file per rung (video and sound together) read by byte
 * ranges, rungs of one family on the same two-second keyframes. That is all
 * the service makes, so the player needs none of a general HLS player's
 * parts (transport-stream demuxing, remuxing, live edges, alternate audio,
 * subtitles in the stream, DRM): a few kilobytes where hls.js's light build
 * was about a hundred, which is what lets the watch page fetch it early —
 * with data saver on too — without costing a viewer who never presses play.
 *
 * Tuned for viewers who pay per megabyte, as the decision records say:
 * - nothing of the film is fetched before play; it starts on the rung the
 *   master playlist lists first (the one the link allows, or data saver's);
 * - it holds at most the read-ahead of `app/media/read-ahead.ts` (30 s, 12 s
 *   under data saver; less while paused) and keeps no more than that behind;
 * - Auto climbs to a rung whose peak fits 70 % of the measured link and keeps
 *   one whose average fits 95 % (the rules `data-cost.ts` estimates with),
 *   never above the player's size, and within the family it started in (AV1
 *   or H.264); a rung chosen in the menu is played as chosen;
 * - every byte is counted as it arrives;
 * - a request that fails for want of a network (no answer, a timeout, 5xx,
 *   408, 429) is asked again every 1–3 s for as long as it takes, and the
 *   film goes on from where it stood; a refusal (403, 404) is the page's to
 *   explain (`onFatal`).
 */

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

export type PlayerOptions = {
  source: string;
  /** Where the film starts when play is pressed (the resume position, or 0 for "Start over"). */
  startSeconds: () => number;
  linkKbps: number | null;
  /** The master lists the AV1 + Opus family first (this browser decodes it smoothly): start and stay in it. */
  preferAv1?: boolean;
  /** Data saver is on: the shorter read-ahead. */
  dataSaver: boolean;
  onRung: (rung: number | null) => void;
  /** A refusal, an expired link or a film that cannot be read: the page asks the server why. */
  onFatal: () => void;
  /** The link is lost (a request failed for want of a network, and is being asked again), or back. */
  onConnection: (connected: boolean) => void;
  onBandwidth: (kbps: number) => void;
  /** Called as bytes arrive, with the total so far. */
  onSpent: (bytes: number) => void;
};

/** How far past a segment's start a start or seek that lands on it moves (more than the audio's lead over the first keyframe). */
const PAST_KEYFRAME_SECONDS = 0.1;
/** Auto climbs to a rung whose peak fits this share of the link… */
const CLIMB_SHARE = 0.7;
/** …and keeps one whose average fits this share. */
const HOLD_SHARE = 0.95;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 3000;
/** A request with no first byte after this long is asked again (the link is as good as lost). */
const FIRST_BYTE_TIMEOUT_MS = 10_000;

type Level = {
  url: string;
  rung: number;
  width: number;
  height: number;
  bandwidth: number;
  averageBandwidth: number;
  codecs: string;
  /** "av01" or "avc1": Auto stays in one. */
  family: string;
  media: { url: string; init: { offset: number; length: number }; segments: Segment[] } | null;
  initBytes?: Uint8Array<ArrayBuffer>;
};
type Segment = { start: number; end: number; offset: number; length: number };

class Refused extends Error {}
class Stopped extends Error {}
/** A segment given up midway because the link fell: the next try is at a lower rung. */
class Abandoned extends Error {}

function attribute(line: string, name: string): string | null {
  return new RegExp(`(?:^|[:,])${name}=("[^"]*"|[^,]*)`).exec(line)?.[1]?.replace(/^"|"$/g, "") ?? null;
}

/** The variants of a master playlist, in its order, with absolute addresses. */
export function parseMasterPlaylist(text: string, base: string): Omit<Level, "media">[] {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const levels: Omit<Level, "media">[] = [];
  lines.forEach((line, index) => {
    if (!line.startsWith("#EXT-X-STREAM-INF:")) return;
    const uri = lines.slice(index + 1).find((candidate) => candidate && !candidate.startsWith("#"));
    const resolution = /^(\d+)x(\d+)$/.exec(attribute(line, "RESOLUTION") ?? "");
    const codecs = attribute(line, "CODECS") ?? "";
    if (!uri || !resolution || !codecs) return;
    const width = Number(resolution[1]);
    const height = Number(resolution[2]);
    const bandwidth = Number(attribute(line, "BANDWIDTH") ?? 0);
    levels.push({
      url: new URL(uri, base).href,
      rung: Math.min(width, height),
      width,
      height,
      bandwidth,
      averageBandwidth: Number(attribute(line, "AVERAGE-BANDWIDTH") ?? bandwidth),
      codecs,
      family: codecs.split(",")[0]!.trim().slice(0, 4),
    });
  });
  return levels;
}

const mimeOf = (level: Pick<Level, "codecs">) => `video/mp4; codecs="${level.codecs}"`;

export function createHlsPlayer(video: HTMLVideoElement, options: PlayerOptions): HlsPlayer {
  let destroyed = false;
  let loading = false;
  let spent = 0;
  let connected = true;
  let levels: Level[] = [];
  let family = "";
  let fixedRung: number | null = null;
  let current: Level | null = null;
  /**
   * The link in bits per second: two averages of the measured rates weighted by download time, one
   * quick (half of it from the last 3 s of downloading) and one slow (9 s), and the lower of the two
   * is the estimate (a dip counts at once, a burst only once it lasts). From the page's estimate until
   * the first segment arrives.
   */
  let fast = (options.linkKbps ?? 400) * 1000;
  let slow = fast;
  let estimate = fast;
  const measure = (bytes: number, seconds: number) => {
    if (!(seconds > 0) || !(bytes > 0)) return;
    const rate = (bytes * 8) / seconds;
    fast += (rate - fast) * (1 - 0.5 ** (seconds / 3));
    slow += (rate - slow) * (1 - 0.5 ** (seconds / 9));
    estimate = Math.min(fast, slow);
    options.onBandwidth(estimate / 1000);
  };
  /** Bumped by a seek or a switch: a segment asked for before it is not appended. */
  let generation = 0;
  let mediaSource: MediaSource | null = null;
  let sourceBuffer: SourceBuffer | null = null;
  let objectUrl: string | null = null;
  /** The level whose init section the buffer last had. */
  let initialised: Level | null = null;
  /** Film time the next segment starts at. */
  let nextTime = 0;
  /** Where play starts once the first segment is in (null when it has started). */
  let pendingStart: number | null = null;
  let pumping = false;
  let inflight: AbortController | null = null;
  /** Which rung each stretch of the buffer came from, to say which one plays. */
  const appended: Array<{ start: number; end: number; rung: number }> = [];
  let playingRung: number | null = null;
  let manifest: Promise<void> | null = null;

  const count = (bytes: number) => {
    if (!(bytes > 0)) return;
    spent += bytes;
    options.onSpent(spent);
  };
  const setConnected = (value: boolean) => {
    if (value === connected) return;
    connected = value;
    options.onConnection(value);
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /**
   * Fetch with the player's patience: passing failures asked again every 1–3 s for as long as it takes;
   * a refusal throws Refused; stopping (a seek, stopLoad, destroy) throws Stopped. Bytes are counted as
   * they arrive; `onProgress` sees each chunk.
   */
  async function fetchBytes(
    url: string,
    range: { offset: number; length: number } | null,
    /** Asked as bytes arrive: true gives the segment up (it will not come before the buffer runs out). */
    tooSlow?: (received: number, seconds: number) => boolean,
  ): Promise<Uint8Array<ArrayBuffer>> {
    for (let attempt = 0; ; attempt++) {
      if (destroyed) throw new Stopped();
      const controller = new AbortController();
      inflight = controller;
      let timedOut = false;
      let timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, FIRST_BYTE_TIMEOUT_MS);
      try {
        const response = await fetch(url, {
          credentials: "same-origin",
          signal: controller.signal,
          headers: range ? { Range: `bytes=${range.offset}-${range.offset + range.length - 1}` } : undefined,
        });
        if (!response.ok) {
          if (!isPassingFailure(response.status)) throw new Refused(String(response.status));
          throw new Error(`status ${response.status}`);
        }
        const chunks: Uint8Array[] = [];
        let received = 0;
        const asked = performance.now();
        const reader = response.body!.getReader();
        for (;;) {
          clearTimeout(timer);
          // Stalled mid-answer as long as before the first byte: the link is lost.
          timer = setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, FIRST_BYTE_TIMEOUT_MS);
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          received += value.byteLength;
          count(value.byteLength);
          const seconds = (performance.now() - asked) / 1000;
          if (tooSlow?.(received, seconds)) {
            // The rate this segment came at is the link now (a short sample would barely move the averages).
            const rate = (received * 8) / seconds;
            fast = Math.min(fast, rate);
            slow = Math.min(slow, rate);
            measure(received, seconds);
            clearTimeout(timer);
            controller.abort();
            throw new Abandoned();
          }
        }
        clearTimeout(timer);
        setConnected(true);
        const body = new Uint8Array(received);
        let at = 0;
        for (const chunk of chunks) {
          body.set(chunk, at);
          at += chunk.byteLength;
        }
        return body;
      } catch (error) {
        clearTimeout(timer);
        if (error instanceof Refused || error instanceof Abandoned) throw error;
        if (controller.signal.aborted && !timedOut) throw new Stopped();
        if (destroyed) throw new Stopped();
        setConnected(false);
        await sleep(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt, 2)));
        if (!loading && manifest !== null && range !== null) throw new Stopped();
      } finally {
        if (inflight === controller) inflight = null;
      }
    }
  }

  const text = async (url: string) => new TextDecoder().decode(await fetchBytes(url, null));

  async function loadManifest(): Promise<void> {
    const fresh = parseMasterPlaylist(await text(options.source), new URL(options.source, location.href).href);
    const playable = fresh.filter(
      (level) => typeof MediaSource !== "undefined" && MediaSource.isTypeSupported(mimeOf(level)),
    );
    if (playable.length === 0) throw new Refused("no playable variant");
    // A reload keeps the rung and family playing; its playlists are fetched again (fresh links).
    levels = playable.map((level) => ({ ...level, media: null }));
    if (current) current = levels.find((level) => level.url === current!.url) ?? null;
    if (initialised) initialised = levels.find((level) => level.url === initialised!.url) ?? null;
    if (!family) {
      const preferred = options.preferAv1 ? levels.find((level) => level.family === "av01") : undefined;
      family = (preferred ?? levels[0]!).family;
    }
  }

  async function ensureMedia(level: Level): Promise<NonNullable<Level["media"]>> {
    if (level.media) return level.media;
    const playlist = parseMediaPlaylist(await text(level.url));
    let start = 0;
    const segments = playlist.segments.map((segment) => {
      const entry = { start, end: start + segment.durationSeconds, offset: segment.offset, length: segment.length };
      start = entry.end;
      return entry;
    });
    level.media = { url: new URL(playlist.uri, level.url).href, init: playlist.init, segments };
    return level.media;
  }

  /** The rungs Auto may play now: this family, no larger than the player (the first at least its size). */
  function autoLevels(): Level[] {
    const inFamily = levels.filter((level) => level.family === family).sort((a, b) => a.bandwidth - b.bandwidth);
    const scale = window.devicePixelRatio || 1;
    const width = video.clientWidth * scale;
    const height = video.clientHeight * scale;
    if (!(width > 0 && height > 0)) return inFamily;
    const cap = inFamily.findIndex((level) => level.width >= width || level.height >= height);
    return cap >= 0 ? inFamily.slice(0, cap + 1) : inFamily;
  }

  function chooseLevel(): Level {
    if (fixedRung !== null) {
      const chosen =
        levels.find((level) => level.rung === fixedRung && level.family === family) ??
        levels.find((level) => level.rung === fixedRung);
      if (chosen) return chosen;
    }
    const candidates = autoLevels();
    if (!current) {
      // The first segment: the rung the master playlist lists first in this family (the server chose it
      // for this link), no larger than the player.
      const first = levels.find((level) => level.family === family) ?? levels[0]!;
      return candidates.includes(first) ? first : (candidates.at(-1) ?? first);
    }
    // Auto from where it stands (a rung chosen in the menu, or above the player's size, counts as the Auto rung below it).
    const base = candidates.includes(current)
      ? current
      : (candidates.filter((level) => level.bandwidth <= current!.bandwidth).at(-1) ?? candidates[0]!);
    const climb = candidates.filter((level) => level.bandwidth <= estimate * CLIMB_SHARE).at(-1);
    if (climb && climb.bandwidth > base.bandwidth) return climb;
    if (base.averageBandwidth <= estimate * HOLD_SHARE) return base;
    return candidates.filter((level) => level.averageBandwidth <= estimate * HOLD_SHARE).at(-1) ?? candidates[0]!;
  }

  /** Resolves once the buffer is not updating; the caller's next step must follow without another await. */
  async function whenUpdated(buffer: SourceBuffer): Promise<void> {
    while (buffer.updating)
      await new Promise<void>((resolve) => buffer.addEventListener("updateend", () => resolve(), { once: true }));
  }

  async function append(bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    const buffer = sourceBuffer!;
    await whenUpdated(buffer);
    try {
      buffer.appendBuffer(bytes);
    } catch (error) {
      if ((error as DOMException).name !== "QuotaExceededError") throw error;
      // Full: what is behind the picture goes, then once more.
      await trimBehind(2);
      buffer.appendBuffer(bytes);
    }
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        buffer.removeEventListener("error", failed);
        resolve();
      };
      const failed = () => {
        buffer.removeEventListener("updateend", done);
        reject(new Refused("the browser could not read the film"));
      };
      buffer.addEventListener("updateend", done, { once: true });
      buffer.addEventListener("error", failed, { once: true });
    });
  }

  /** Film kept behind the picture beyond `seconds` goes (it costs memory, not data). */
  async function trimBehind(seconds: number): Promise<void> {
    const buffer = sourceBuffer;
    if (!buffer || buffer.buffered.length === 0) return;
    const until = video.currentTime - seconds;
    if (buffer.buffered.start(0) >= until - 1) return;
    await whenUpdated(buffer);
    buffer.remove(0, until);
    await whenUpdated(buffer);
  }

  /** The element plays from a MediaSource from the start (a play() before any film is there waits for it). */
  function openMediaSource(): Promise<void> {
    mediaSource = new MediaSource();
    objectUrl = URL.createObjectURL(mediaSource);
    const source = mediaSource;
    const opened = new Promise<void>((resolve) =>
      source.addEventListener("sourceopen", () => resolve(), { once: true }),
    );
    video.src = objectUrl;
    return opened;
  }

  /** The segment of `level` that holds film time `time` (its last when past the end), or -1 past the film. */
  function segmentAt(media: NonNullable<Level["media"]>, time: number): number {
    return media.segments.findIndex((segment) => segment.end > time + 0.05);
  }

  function bufferedEndAt(time: number): number | null {
    const ranges = video.buffered;
    for (let index = 0; index < ranges.length; index++)
      if (ranges.start(index) <= time + 0.25 && ranges.end(index) > time) return ranges.end(index);
    return null;
  }

  async function pump(): Promise<void> {
    if (pumping || destroyed) return;
    pumping = true;
    try {
      while (loading && !destroyed) {
        if (!manifest) manifest = loadManifest();
        await manifest;
        if (!sourceBuffer) {
          await sourceOpened;
          const first = chooseLevel();
          const media = await ensureMedia(first);
          if (!sourceBuffer) {
            sourceBuffer = mediaSource!.addSourceBuffer(mimeOf(first));
            mediaSource!.duration = media.segments.at(-1)!.end;
          }
        }
        const position = pendingStart ?? video.currentTime;
        const limit = hlsBufferLimits(
          readAheadSeconds({ dataSaver: options.dataSaver, paused: video.paused }),
        ).maxBufferLength;
        const level = chooseLevel();
        const media = await ensureMedia(level);
        const index = segmentAt(media, nextTime);
        if (index < 0) {
          await whenUpdated(sourceBuffer);
          if (mediaSource!.readyState === "open") mediaSource!.endOfStream();
          return;
        }
        const segment = media.segments[index]!;
        if (segment.start - position >= limit) return;
        // Already in the buffer (a seek back, then on into what was fetched before): not fetched twice.
        if ((bufferedEndAt(segment.start + 0.1) ?? 0) >= segment.end - 0.1) {
          nextTime = segment.end;
          continue;
        }
        if (initialised !== level) {
          // A rung's init section is fetched once (a few hundred bytes, the same for every segment).
          const init = (level.initBytes ??= await fetchBytes(media.url, media.init));
          if (initialised && initialised.codecs !== level.codecs && "changeType" in sourceBuffer)
            sourceBuffer.changeType(mimeOf(level));
          await append(init);
          initialised = level;
        }
        const asked = generation;
        const started = performance.now();
        const lowest = autoLevels()[0];
        let bytes: Uint8Array<ArrayBuffer>;
        try {
          bytes = await fetchBytes(media.url, segment, (received, seconds) => {
            // Given up (hls.js's abandon rule, simply put) once half the segment's time has gone by and,
            // at the rate it comes, it would arrive after the picture has played what is buffered: a box
            // slow for a moment is not taken for a slow link at the first half second.
            if (fixedRung !== null || !lowest || level === lowest || video.paused) return false;
            if (seconds < (segment.end - segment.start) / 2 || received === 0) return false;
            const left = ((segment.length - received) * 8) / ((received * 8) / seconds);
            const ahead = (bufferedEndAt(video.currentTime) ?? video.currentTime) - video.currentTime;
            return left > ahead + 0.5;
          });
        } catch (error) {
          if (error instanceof Abandoned) continue;
          throw error;
        }
        measure(bytes.byteLength, (performance.now() - started) / 1000);
        // A seek or a switch while this came moved the next segment elsewhere: drop it.
        if (asked !== generation || segmentAt(media, nextTime) !== index) continue;
        await append(bytes);
        current = level;
        appended.push({ start: segment.start, end: segment.end, rung: level.rung });
        nextTime = segment.end;
        if (pendingStart !== null) {
          const start = pendingStart;
          pendingStart = null;
          if (start > 0) video.currentTime = start;
        }
        if (video.paused || video.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) skipGap();
        await trimBehind(hlsBufferLimits(readAheadSeconds({ dataSaver: false, paused: false })).backBufferLength);
        reportRung();
      }
    } catch (error) {
      if (error instanceof Stopped) {
        // A seek stopped a request: go on from the new place.
        if (loading && !destroyed) queueMicrotask(() => void pump());
      } else if (!destroyed) {
        loading = false;
        options.onFatal();
      }
    } finally {
      pumping = false;
    }
  }

  /**
   * The picture waits at a small hole in the buffer (the start, where the sound leads the first
   * keyframe by a few milliseconds, or between two segments whose sound and picture end a few
   * milliseconds apart): step over it. Only where the playhead is in a hole or at the very end of
   * what is buffered, with more film less than 0.6 s ahead.
   */
  function skipGap() {
    if (video.seeking) return;
    const ranges = video.buffered;
    const time = video.currentTime;
    const end = bufferedEndAt(time);
    if (end !== null && end - time > 0.1) return;
    for (let index = 0; index < ranges.length; index++) {
      const start = ranges.start(index);
      if (start > time && start - time < 0.6) {
        video.currentTime = start + 0.01;
        return;
      }
    }
  }

  // A picture that stands still while playing, at a hole: the watchdog steps over it (the browser does
  // not, and may not say "waiting" again).
  let lastTick = -1;
  const watchdog = window.setInterval(() => {
    if (destroyed || video.paused || video.seeking || !sourceBuffer) {
      lastTick = -1;
      return;
    }
    if (video.currentTime === lastTick) skipGap();
    lastTick = video.currentTime;
  }, 250);

  function reportRung() {
    const time = video.currentTime;
    let rung: number | null = null;
    for (let index = appended.length - 1; index >= 0 && rung === null; index--) {
      const entry = appended[index]!;
      if (entry.start <= time + 0.05 && entry.end > time) rung = entry.rung;
    }
    if (rung !== null && rung !== playingRung) {
      playingRung = rung;
      options.onRung(rung);
    }
  }

  const startOnPlay = () => {
    if (loading || destroyed) return;
    loading = true;
    if (!sourceBuffer) {
      const from = options.startSeconds();
      const at = video.currentTime > 0 ? video.currentTime : from > 0 ? from + PAST_KEYFRAME_SECONDS : 0;
      pendingStart = at;
      nextTime = at;
    } else nextTime = bufferedEndAt(video.currentTime) ?? video.currentTime;
    void pump();
  };

  // A seek outside what is buffered fetches from there; one that lands a hair before a segment's first
  // frame (audio leads the first keyframe by the AAC encoder's delay) moves just past it.
  const onSeeking = () => {
    if (pendingStart !== null) return;
    const position = video.currentTime;
    const media = current?.media;
    const boundary = media?.segments.find(
      (segment) =>
        segment.start > 0 && segment.start >= position - 0.001 && segment.start < position + PAST_KEYFRAME_SECONDS,
    );
    if (boundary) {
      video.currentTime = boundary.start + PAST_KEYFRAME_SECONDS;
      return;
    }
    const end = bufferedEndAt(position);
    if (end !== null) {
      nextTime = Math.max(end, nextTime > position && nextTime <= end ? nextTime : end);
      return;
    }
    generation++;
    nextTime = position;
    inflight?.abort();
    if (loading) void pump();
  };

  /**
   * A rung chosen in the menu shows at once: the film buffered after the segment playing now goes and
   * comes again at the chosen rung (as hls.js's level switch does).
   */
  async function switchNow(): Promise<void> {
    const buffer = sourceBuffer;
    const media = current?.media;
    if (!buffer || !media || !mediaSource) return;
    const playing = media.segments[segmentAt(media, video.currentTime)];
    const from = playing ? playing.end : video.currentTime;
    generation++;
    inflight?.abort();
    await whenUpdated(buffer);
    if (from < mediaSource.duration) {
      buffer.remove(from, mediaSource.duration);
      await whenUpdated(buffer);
    }
    for (let index = appended.length - 1; index >= 0; index--)
      if (appended[index]!.start >= from) appended.splice(index, 1);
    nextTime = from;
    if (loading) void pump();
  }
  const onProgress = () => {
    reportRung();
    if (loading) void pump();
  };
  const onWaiting = () => {
    skipGap();
    if (loading) void pump();
  };
  video.addEventListener("waiting", onWaiting);
  video.addEventListener("seeking", onSeeking);
  video.addEventListener("timeupdate", onProgress);
  video.addEventListener("play", startOnPlay);
  video.addEventListener("play", onProgress);
  video.addEventListener("pause", onProgress);

  // A press made before the player arrived: play as soon as the master playlist is in.
  const wantedToPlay = !video.paused || video.dataset.playRequested === "1";
  const sourceOpened = openMediaSource();
  manifest = loadManifest();
  manifest.then(
    () => {
      if (wantedToPlay || !video.paused) {
        startOnPlay();
        void video.play().catch(() => undefined);
      }
    },
    (error) => {
      if (!(error instanceof Stopped) && !destroyed) options.onFatal();
    },
  );

  return {
    setRung: (rung) => {
      fixedRung = rung;
      if (rung !== null) void switchNow().catch(() => undefined);
    },
    stopLoad: () => {
      loading = false;
      inflight?.abort();
    },
    reload: () => {
      const playAfter = !video.paused || video.dataset.playRequested === "1";
      manifest = loadManifest();
      manifest.then(
        () => {
          if (playAfter) {
            startOnPlay();
            void video.play().catch(() => undefined);
          } else if (loading) void pump();
        },
        (error) => {
          if (!(error instanceof Stopped) && !destroyed) options.onFatal();
        },
      );
    },
    spentBytes: () => spent,
    destroy: () => {
      destroyed = true;
      window.clearInterval(watchdog);
      loading = false;
      inflight?.abort();
      video.removeEventListener("seeking", onSeeking);
      video.removeEventListener("timeupdate", onProgress);
      video.removeEventListener("play", startOnPlay);
      video.removeEventListener("play", onProgress);
      video.removeEventListener("pause", onProgress);
      video.removeEventListener("waiting", onWaiting);
      if (objectUrl) {
        video.removeAttribute("src");
        video.load();
        URL.revokeObjectURL(objectUrl);
      }
    },
  };
}

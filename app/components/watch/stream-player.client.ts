import { parseMediaPlaylist } from "~/media/hls";
import { fragmentIsWhole } from "~/media/mp4-fragment";
import { hlsBufferLimits, READ_AHEAD_SECONDS, readAheadSeconds, SEGMENT_SECONDS } from "~/media/read-ahead";
import { Abandoned, appendAndWait, DroppedFrames, MediaFailed, Refused, Stopped, whenUpdated } from "./media-source";
import { firstByteTimeoutMs, LinkEstimate, mimeOf, parseMasterPlaylist, type Level } from "./stream-link";
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
 * It answers to hls.js's fault behaviour scenario by scenario
 * (`npm run bench:player-faults`, decision 060).
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
 * - every byte is counted as it arrives.
 *
 * What a Nigerian network does to it:
 * - a request that fails for want of a network (no answer, 5xx, 408, 429) is
 *   asked again every 1–3 s for as long as it takes, and the film goes on
 *   from where it stood; a refusal (403, 404) is the page's to explain
 *   (`onFatal`);
 * - a request with no first byte is given up and asked again after about
 *   twice the round trip plus a segment's time when little film is ahead,
 *   and waited for when much is;
 * - a segment whose boxes do not add up (damaged or truncated on the way) is
 *   asked again once, then skipped: the picture jumps to the next segment;
 * - a media error (the browser could not decode what it was given) builds a
 *   fresh MediaSource at the same place and plays on; a second one within a
 *   minute skips the place, and moves an AV1 device to H.264 for the rest of
 *   the film, as many dropped frames do;
 * - a picture that stands still with film ahead is nudged past the point;
 * - the page is told "slow" while the film waits and bytes still come, and
 *   "lost" only when nothing answers.
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

/** What the page says of the link: nothing, "loading slowly" (the film waits, bytes still come) or "connection lost" (nothing answers). */
export type LinkState = "ok" | "slow" | "lost";

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
  onLink: (state: LinkState) => void;
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
/** A first byte within this long is a usual round trip (slower ones take time from each segment's bytes). */
const USUAL_ROUND_TRIP_SECONDS = 0.3;
/** After a seek outside the buffer, the first segment comes at the best rung that arrives within this long. */
const SEEK_ARRIVAL_SECONDS = 1;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 3000;
/** The link is called lost once nothing has arrived for this long and the last request found no network… */
const LOST_AFTER_NETWORK_ERROR_MS = 2_500;
/** …or nothing has arrived at all for this long. */
const LOST_AFTER_SILENCE_MS = 12_000;
/** The film waits this long before the page says it loads slowly. */
const SLOW_AFTER_WAITING_MS = 1_500;
/** A picture standing still this long with film ahead is nudged. */
const STUCK_MS = 300;
/** Media errors within a minute before the page is told the film cannot be read. */
const MEDIA_ERRORS_PER_MINUTE = 6;
/** A climb replaces the lower rung buffered beyond this much film ahead (what was bought at the dip's rung). */
const REPLACE_AFTER_SECONDS = 6;

export function createHlsPlayer(video: HTMLVideoElement, options: PlayerOptions): HlsPlayer {
  let destroyed = false;
  let loading = false;
  let spent = 0;
  let levels: Level[] = [];
  let family = "";
  let fixedRung: number | null = null;
  let current: Level | null = null;
  const link = new LinkEstimate(options.linkKbps ?? 400);
  /** Bumped by a seek, a switch or a rebuild: a segment asked for before it is not appended. */
  let generation = 0;
  let mediaSource: MediaSource | null = null;
  let sourceBuffer: SourceBuffer | null = null;
  let objectUrl: string | null = null;
  let sourceOpened: Promise<void> = Promise.resolve();
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
  /** Stretches left out (a segment that came damaged twice, a place that could not be decoded): the picture jumps them. */
  const skipped: Array<{ start: number; end: number }> = [];
  /** Segments that came damaged once (asked again once before they are skipped). */
  const damagedOnce = new Set<string>();
  let playingRung: number | null = null;
  /**
   * The segments in the buffer from the picture on, as they came: a rebuild after a media error appends
   * them again instead of buying them twice (all but the one that failed). At most the read-ahead.
   */
  const held = new Map<string, { bytes: Uint8Array<ArrayBuffer>; start: number; end: number }>();
  /** The segment appended last, and when (a media error just after it is its). */
  let lastAppend: { start: number; at: number } | null = null;
  /** A seek outside the buffer waits for its first segment (which comes at a rung that arrives quickly). */
  let seeking = false;
  /** The rung a segment was last given up at (cleared once one arrives). */
  let abandoned: Level | null = null;
  let manifest: Promise<void> | null = null;
  /** The most film ahead the browser's buffer took before it said it was full (null: no limit seen). */
  let quotaAheadSeconds: number | null = null;
  let mediaErrors: Array<{ at: number; position: number }> = [];
  let lastReplaceAt = -Infinity;
  // What the page is told of the link.
  let said: LinkState = "ok";
  let lastByteAt = performance.now();
  /** Why the last request failed, until bytes come again. */
  let failure: "network" | "server" | "timeout" | null = null;
  let waitingSince: number | null = null;

  const count = (bytes: number) => {
    if (!(bytes > 0)) return;
    spent += bytes;
    lastByteAt = performance.now();
    failure = null;
    options.onSpent(spent);
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const aheadOf = (time: number) => (bufferedEndAt(time) ?? time) - time;

  function updateLink() {
    const now = performance.now();
    const silent = now - lastByteAt;
    const waiting = loading && !video.paused && !video.ended && video.readyState < HTMLMediaElement.HAVE_FUTURE_DATA;
    if (!waiting) waitingSince = null;
    else waitingSince ??= now;
    const next: LinkState =
      (failure === "network" && silent > LOST_AFTER_NETWORK_ERROR_MS) ||
      (failure !== null && silent > LOST_AFTER_SILENCE_MS)
        ? "lost"
        : waitingSince !== null && now - waitingSince > SLOW_AFTER_WAITING_MS
          ? "slow"
          : "ok";
    if (next !== said) {
      said = next;
      options.onLink(next);
    }
  }

  /**
   * Fetch with the player's patience: passing failures asked again every 1–3 s for as long as it takes,
   * a first byte that does not come in time asked again at once; a refusal throws Refused; stopping (a
   * seek, stopLoad, destroy) throws Stopped. Bytes are counted as they arrive.
   */
  async function fetchBytes(
    url: string,
    range: { offset: number; length: number } | null,
    segment?: {
      /** Seconds of film the bytes carry (the weight of their rate in the estimate). */
      seconds: number;
      /** Asked as bytes arrive: true gives the segment up (it will not come before the buffer runs out). */
      tooSlow?: (received: number, seconds: number, bodySeconds: number) => boolean;
    },
  ): Promise<Uint8Array<ArrayBuffer>> {
    let timeouts = 0;
    for (let attempt = 0; ; attempt++) {
      if (destroyed) throw new Stopped();
      const controller = new AbortController();
      inflight = controller;
      let timedOut = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => {
            timedOut = true;
            controller.abort();
          },
          firstByteTimeoutMs(aheadOf(video.currentTime), link.roundTripMs, timeouts),
        );
      };
      arm();
      const asked = performance.now();
      const usualRoundTripMs = link.roundTripMs;
      try {
        const response = await fetch(url, {
          credentials: "same-origin",
          signal: controller.signal,
          headers: range ? { Range: `bytes=${range.offset}-${range.offset + range.length - 1}` } : undefined,
        });
        if (!response.ok) {
          if (!isPassingFailure(response.status)) throw new Refused(String(response.status));
          failure = "server";
          throw new Error(`status ${response.status}`);
        }
        const answeredMs = performance.now() - asked;
        link.answeredIn(answeredMs);
        const chunks: Uint8Array[] = [];
        let received = 0;
        const reader = response.body!.getReader();
        for (;;) {
          // Stalled mid-answer as long as before the first byte: asked again.
          arm();
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          received += value.byteLength;
          count(value.byteLength);
          const seconds = (performance.now() - asked) / 1000;
          if (segment?.tooSlow?.(received, seconds, seconds - answeredMs / 1000)) {
            // The rate this segment came at is the link now (a short sample would barely move the averages).
            link.fellTo(received, seconds);
            options.onBandwidth(link.bitsPerSecond / 1000);
            clearTimeout(timer);
            controller.abort();
            throw new Abandoned();
          }
        }
        clearTimeout(timer);
        if (segment) {
          // Less the usual round trip (hls.js's way): the link's rate, not the box's answer time; a first
          // byte later than usual counts as time the bytes took.
          const loadSeconds = Math.max(
            0.05,
            (performance.now() - asked - Math.min(answeredMs, usualRoundTripMs)) / 1000,
          );
          link.measure(received, loadSeconds, segment.seconds);
          options.onBandwidth(link.bitsPerSecond / 1000);
        }
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
        if (timedOut) {
          // Nothing came in time: asked again at once (a hung request, not a lost link).
          timeouts++;
          failure ??= "timeout";
          if (!loading && manifest !== null && range !== null) throw new Stopped();
          continue;
        }
        if (failure !== "server") failure = "network";
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
    const chosen = chooseAutoLevel(candidates);
    // A segment was just given up at this rung: the next try is below it (the same rung would be given up again).
    const given = abandoned;
    if (given && chosen.family === given.family && chosen.bandwidth >= given.bandwidth)
      return candidates.filter((level) => level.bandwidth < given.bandwidth).at(-1) ?? candidates[0]!;
    if (!seeking) return chosen;
    // The first segment after a seek: the best rung whose segment arrives within a second (the picture
    // shows at once; Auto climbs again from the next).
    const inTime = (level: Level) =>
      link.answerMs / 1000 + (level.averageBandwidth * SEGMENT_SECONDS) / link.bitsPerSecond <= SEEK_ARRIVAL_SECONDS;
    return candidates.filter((level) => level.bandwidth <= chosen.bandwidth && inTime(level)).at(-1) ?? candidates[0]!;
  }

  function chooseAutoLevel(candidates: Level[]): Level {
    if (!current || current.family !== family) {
      // The first segment (or the first after a move to H.264): the rung the master playlist lists first
      // in this family (the server chose it for this link), no larger than the player.
      const first = levels.find((level) => level.family === family) ?? levels[0]!;
      return candidates.includes(first) ? first : (candidates.at(-1) ?? first);
    }
    // Auto from where it stands (a rung chosen in the menu, or above the player's size, counts as the Auto rung below it).
    const base = candidates.includes(current)
      ? current
      : (candidates.filter((level) => level.bandwidth <= current!.bandwidth).at(-1) ?? candidates[0]!);
    // A box slow to answer (a first byte later than a usual round trip) leaves less of each segment's time
    // for its bytes: segments are asked one after another.
    const waitSeconds = Math.max(0, link.answerMs / 1000 - USUAL_ROUND_TRIP_SECONDS);
    const rate = link.bitsPerSecond * Math.max(0.1, (SEGMENT_SECONDS - waitSeconds) / SEGMENT_SECONDS);
    const climb = candidates.filter((level) => level.bandwidth <= rate * CLIMB_SHARE).at(-1);
    if (climb && climb.bandwidth > base.bandwidth) return climb;
    if (base.averageBandwidth <= rate * HOLD_SHARE) return base;
    return candidates.filter((level) => level.averageBandwidth <= rate * HOLD_SHARE).at(-1) ?? candidates[0]!;
  }

  /** Append, and wait until the browser has taken it; a browser that cannot read it throws MediaFailed. */
  async function appendOnce(buffer: SourceBuffer, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    const source = mediaSource;
    await whenUpdated(buffer);
    if (buffer !== sourceBuffer) throw new Stopped();
    await appendAndWait(buffer, bytes, source);
  }

  /**
   * Append; when the browser's buffer is full (a phone with little memory), film behind the picture goes,
   * then film away from it (what lay ahead of a seek back), and the read-ahead shrinks to what fits; the
   * same bytes are tried again as the picture moves on (never fetched twice).
   */
  async function append(bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const buffer = sourceBuffer;
      if (!buffer) throw new Stopped();
      try {
        await appendOnce(buffer, bytes);
        return;
      } catch (error) {
        if ((error as DOMException).name !== "QuotaExceededError") throw error;
        const ahead = aheadOf(video.currentTime);
        quotaAheadSeconds = Math.max(SEGMENT_SECONDS * 2, Math.min(quotaAheadSeconds ?? Infinity, ahead - 1));
        await trimBehind(attempt === 0 ? 2 : 0.5);
        await dropAwayFromPicture();
        if (attempt >= 2) await sleep(1000);
        if (attempt > 30) throw new MediaFailed(mediaSource);
      }
    }
  }

  /** Film kept behind the picture beyond `seconds` goes (it costs memory, not data). */
  async function trimBehind(seconds: number): Promise<void> {
    const buffer = sourceBuffer;
    if (!buffer || buffer.buffered.length === 0) return;
    const until = video.currentTime - seconds;
    if (buffer.buffered.start(0) >= until - 0.5) return;
    await whenUpdated(buffer);
    if (buffer !== sourceBuffer) return;
    buffer.remove(0, until);
    await whenUpdated(buffer);
  }

  /** Stretches of the buffer that the picture is not in and not about to reach (left ahead of a seek back). */
  async function dropAwayFromPicture(): Promise<void> {
    const buffer = sourceBuffer;
    if (!buffer) return;
    const time = video.currentTime;
    for (let index = buffer.buffered.length - 1; index >= 0; index--) {
      const start = buffer.buffered.start(index);
      const end = buffer.buffered.end(index);
      if (start <= time + 0.5 && end > time) continue;
      if (end <= time) continue;
      await whenUpdated(buffer);
      if (buffer !== sourceBuffer) return;
      buffer.remove(start, end);
      await whenUpdated(buffer);
      for (let entry = appended.length - 1; entry >= 0; entry--)
        if (appended[entry]!.start >= start) appended.splice(entry, 1);
    }
  }

  /** Lets a pump waiting for a MediaSource that was replaced before it opened go on (to the new one). */
  let releaseOpening = () => {};
  /** The element plays from a MediaSource (a play() before any film is there waits for it). */
  function openMediaSource(): Promise<void> {
    releaseOpening();
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    const source = new MediaSource();
    mediaSource = source;
    objectUrl = URL.createObjectURL(source);
    const opened = new Promise<void>((resolve) => {
      releaseOpening = resolve;
      source.addEventListener("sourceopen", () => resolve(), { once: true });
    });
    video.src = objectUrl;
    return opened;
  }

  /**
   * The browser could not decode what it was given (or its MediaSource died): a fresh MediaSource at the
   * same place, and on. A second error within a minute near the same place skips that segment; a second
   * on AV1 moves this device to H.264 for the rest of the film; too many and the page is told.
   */
  function recoverMedia(failedSource: MediaSource | null) {
    if (destroyed || failedSource !== mediaSource) return;
    const now = performance.now();
    const position = pendingStart ?? video.currentTime;
    // Where it failed: the segment appended a moment ago (the browser decodes a little of what it is
    // given at once), else the picture's place.
    const place = lastAppend && now - lastAppend.at < 1_500 ? lastAppend.start : position;
    mediaErrors = mediaErrors.filter((entry) => now - entry.at < 60_000);
    const again = mediaErrors.some((entry) => Math.abs(entry.position - place) < SEGMENT_SECONDS / 2);
    mediaErrors.push({ at: now, position: place });
    if (mediaErrors.length > MEDIA_ERRORS_PER_MINUTE) {
      loading = false;
      options.onFatal();
      return;
    }
    const movedToH264 = family === "av01" && mediaErrors.length >= 2 && leaveAv1();
    const playAfter = !video.paused || loading;
    generation++;
    inflight?.abort();
    sourceBuffer = null;
    initialised = null;
    appended.length = 0;
    quotaAheadSeconds = null;
    let from = position;
    const segment = current?.media?.segments.find((each) => each.end > place + 0.05);
    // What failed is fetched again; the rest of what is held goes back in as it came.
    for (const [key, entry] of held) if (entry.start <= place + 0.05 && entry.end > place + 0.05) held.delete(key);
    if (again && !movedToH264 && segment) {
      // The same segment failed twice: it is left out (the picture jumps it).
      skipped.push({ start: segment.start, end: segment.end });
      if (from >= segment.start - 0.05) from = Math.max(from, segment.end + PAST_KEYFRAME_SECONDS);
    }
    pendingStart = from;
    nextTime = from;
    // The page keeps the position it had (the element reads 0 until the film is back).
    video.dataset.recovering = "1";
    sourceOpened = openMediaSource();
    if (playAfter) {
      loading = true;
      void video.play().catch(() => undefined);
    }
    void pump();
  }

  /** This device plays H.264 for the rest of the film (AV1 fails or struggles here); false when it cannot. */
  function leaveAv1(): boolean {
    if (family !== "av01" || !levels.some((level) => level.family === "avc1")) return false;
    family = "avc1";
    video.dataset.av1Left = "1";
    return true;
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

  /** The rung buffered at film time `time`, or null. */
  function rungAt(time: number): number | null {
    for (let index = appended.length - 1; index >= 0; index--) {
      const entry = appended[index]!;
      if (entry.start <= time + 0.05 && entry.end > time) return entry.rung;
    }
    return null;
  }

  /**
   * Auto climbs after a dip: the film bought at the dip's rung beyond the next few seconds goes and comes
   * again at the new one, so the picture is better within seconds of the link's return rather than after
   * the whole read-ahead has played (a few hundred kilobytes of the lowest rungs, once a climb).
   */
  async function replaceAheadFor(level: Level): Promise<void> {
    const buffer = sourceBuffer;
    const media = current?.media;
    if (!buffer || !media || !mediaSource || fixedRung !== null || video.paused) return;
    if (!current || level.family !== current.family || level.bandwidth <= current.bandwidth) return;
    if (performance.now() - lastReplaceAt < 10_000) return;
    const keep = media.segments[segmentAt(media, video.currentTime + REPLACE_AFTER_SECONDS)];
    const end = bufferedEndAt(video.currentTime);
    if (!keep || end === null || end - keep.end < SEGMENT_SECONDS * 2) return;
    const lower = rungAt(keep.end + 0.1);
    if (lower === null || lower >= level.rung) return;
    lastReplaceAt = performance.now();
    generation++;
    await whenUpdated(buffer);
    if (buffer !== sourceBuffer) return;
    buffer.remove(keep.end, mediaSource.duration);
    await whenUpdated(buffer);
    for (let index = appended.length - 1; index >= 0; index--)
      if (appended[index]!.start >= keep.end) appended.splice(index, 1);
    nextTime = keep.end;
  }

  async function pump(): Promise<void> {
    if (pumping || destroyed) return;
    pumping = true;
    try {
      while (loading && !destroyed) {
        if (!manifest) manifest = loadManifest();
        await manifest;
        if (!sourceBuffer) {
          const opened = mediaSource;
          await sourceOpened;
          const first = chooseLevel();
          const media = await ensureMedia(first);
          const source = mediaSource;
          if (!sourceBuffer && source && opened === source && source.readyState === "open") {
            sourceBuffer = source.addSourceBuffer(mimeOf(first));
            source.duration = media.segments.at(-1)!.end;
            initialised = null;
          }
          continue;
        }
        const buffer = sourceBuffer;
        const position = pendingStart ?? video.currentTime;
        let limit = hlsBufferLimits(
          readAheadSeconds({ dataSaver: options.dataSaver, paused: video.paused }),
        ).maxBufferLength;
        if (quotaAheadSeconds !== null) limit = Math.min(limit, quotaAheadSeconds);
        const level = chooseLevel();
        if (pendingStart === null) await replaceAheadFor(level);
        const media = await ensureMedia(level);
        const index = segmentAt(media, nextTime);
        if (index < 0) {
          await whenUpdated(buffer);
          if (mediaSource!.readyState === "open" && buffer === sourceBuffer) mediaSource!.endOfStream();
          return;
        }
        const segment = media.segments[index]!;
        if (segment.start - position >= limit) return;
        if (skipped.some((stretch) => stretch.start <= segment.start + 0.05 && stretch.end >= segment.end - 0.05)) {
          nextTime = segment.end;
          continue;
        }
        // Already in the buffer (a seek back, then on into what was fetched before): not fetched twice.
        if ((bufferedEndAt(segment.start + 0.1) ?? 0) >= segment.end - 0.1) {
          nextTime = segment.end;
          continue;
        }
        const asked = generation;
        if (initialised !== level) {
          // A rung's init section is fetched once (a few hundred bytes, the same for every segment).
          const init = (level.initBytes ??= await fetchBytes(media.url, media.init));
          if (asked !== generation || buffer !== sourceBuffer) continue;
          if (initialised && initialised.codecs !== level.codecs && "changeType" in buffer)
            buffer.changeType(mimeOf(level));
          await append(init);
          initialised = level;
        }
        const lowest = autoLevels()[0];
        const key = `${media.url}#${index}`;
        // Bytes already bought for this segment (appended before a rebuild): appended again, not fetched again.
        let bytes: Uint8Array<ArrayBuffer> | undefined = held.get(key)?.bytes;
        if (!bytes)
          try {
            bytes = await fetchBytes(media.url, segment, {
              seconds: segment.end - segment.start,
              tooSlow: (received, seconds, bodySeconds) => {
                // Given up (hls.js's abandon rule) once half the segment's time has gone by, when at the rate
                // it comes it would arrive after the picture has played what is buffered, and the same
                // segment a rung lower, asked now, would arrive sooner (its first byte's wait included: on a
                // box slow to answer, starting again costs more than finishing). Never the first segment: the
                // picture has not started, and what came would be paid for twice.
                if (fixedRung !== null || !lowest || level === lowest || video.paused || pendingStart !== null)
                  return false;
                const duration = segment.end - segment.start;
                if (seconds < duration / 2 || received === 0 || !(bodySeconds > 0)) return false;
                const rate = (received * 8) / bodySeconds;
                const left = ((segment.length - received) * 8) / rate;
                if (left <= aheadOf(video.currentTime) + 0.5) return false;
                const below =
                  autoLevels()
                    .filter((each) => each.bandwidth < level.bandwidth)
                    .at(-1) ?? lowest;
                return link.roundTripMs / 1000 + (below.averageBandwidth * duration) / rate < left;
              },
            });
          } catch (error) {
            if (error instanceof Abandoned) {
              abandoned = level;
              continue;
            }
            throw error;
          }
        // A seek, a switch or a rebuild while this came moved the next segment elsewhere: drop it.
        if (asked !== generation || buffer !== sourceBuffer || segmentAt(media, nextTime) !== index) continue;
        if (!fragmentIsWhole(bytes)) {
          // Damaged or cut short on the way: asked again once, then left out (the picture jumps it).
          if (!damagedOnce.has(key)) {
            damagedOnce.add(key);
            continue;
          }
          skipped.push({ start: segment.start, end: segment.end });
          nextTime = segment.end;
          if (pendingStart !== null && pendingStart < segment.end) pendingStart = segment.end + PAST_KEYFRAME_SECONDS;
          continue;
        }
        await append(bytes);
        if (asked !== generation || buffer !== sourceBuffer) continue;
        current = level;
        abandoned = null;
        seeking = false;
        lastAppend = { start: segment.start, at: performance.now() };
        held.set(key, { bytes, start: segment.start, end: segment.end });
        const now = video.currentTime;
        for (const [heldKey, entry] of held)
          if (entry.end < now - 1 || entry.start > now + READ_AHEAD_SECONDS * 2) held.delete(heldKey);
        appended.push({ start: segment.start, end: segment.end, rung: level.rung });
        nextTime = segment.end;
        if (pendingStart !== null) {
          const start = pendingStart;
          pendingStart = null;
          if (start > 0) video.currentTime = start;
          delete video.dataset.recovering;
        }
        if (video.paused || video.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) skipGap();
        await trimBehind(hlsBufferLimits(readAheadSeconds({ dataSaver: false, paused: false })).backBufferLength);
        reportRung();
      }
    } catch (error) {
      if (error instanceof Stopped) {
        // A seek stopped a request: go on from the new place.
        if (loading && !destroyed) queueMicrotask(() => void pump());
      } else if (error instanceof MediaFailed) {
        const failed = error.source;
        queueMicrotask(() => recoverMedia(failed));
      } else if (!destroyed) {
        loading = false;
        options.onFatal();
      }
    } finally {
      pumping = false;
    }
  }

  /**
   * The picture waits at a hole in the buffer (the start, where the sound leads the first keyframe by a
   * few milliseconds; between two segments whose sound and picture end a few milliseconds apart; a
   * segment left out): step over it. Only where the playhead is in a hole or at the very end of what is
   * buffered, with more film less than 0.6 s ahead, or past a stretch left out.
   */
  function skipGap() {
    if (video.seeking) return;
    const ranges = video.buffered;
    const time = video.currentTime;
    const end = bufferedEndAt(time);
    if (end !== null && end - time > 0.1) return;
    for (let index = 0; index < ranges.length; index++) {
      const start = ranges.start(index);
      const leftOut = skipped.some((stretch) => stretch.start <= time + 0.2 && stretch.end >= start - 0.2);
      if (start > time && (start - time < 0.6 || leftOut)) {
        video.currentTime = start + 0.01;
        return;
      }
    }
  }

  // Every 250 ms: the fetching goes on if it ended; while playing, a picture standing still at a hole is stepped over (the browser does not,
  // and may not say "waiting" again); one standing still with film ahead is nudged (hls.js's nudge);
  // AV1 dropping many frames is left for H.264; the link's state is said.
  let lastTick = -1;
  let stuckSince: number | null = null;
  let nudges = 0;
  /** The picture moved since the last start or seek (one that has not started yet is not stuck, only slow to start). */
  let moved = false;
  let nudgedTo = -1;
  const frames = new DroppedFrames(video);
  const watchdog = window.setInterval(() => {
    updateLink();
    // The fetching goes on from the events of a playing element; one that waits sends none (a pump that
    // ended while an event found it busy would otherwise never start again).
    if (loading && !pumping && !destroyed) void pump();
    if (destroyed || video.paused || video.seeking || !sourceBuffer) {
      lastTick = -1;
      stuckSince = null;
      return;
    }
    const now = performance.now();
    if (video.currentTime === lastTick) {
      skipGap();
      stuckSince ??= now;
      if (moved && now - stuckSince > STUCK_MS && aheadOf(video.currentTime) > 0.5) {
        nudges++;
        stuckSince = null;
        nudgedTo = video.currentTime + 0.1 * nudges;
        video.currentTime = nudgedTo;
      }
    } else {
      if (lastTick !== -1) moved = true;
      stuckSince = null;
      nudges = 0;
    }
    lastTick = video.currentTime;
    if (family === "av01" && frames.struggling(now)) {
      leaveAv1();
      void switchNow().catch(() => undefined);
    }
  }, 250);

  function reportRung() {
    const rung = rungAt(video.currentTime);
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
    if (Math.abs(video.currentTime - nudgedTo) > 0.01) moved = false;
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
      // On from the end of what is buffered, or from the next segment asked for if it starts just there
      // (the picture of a segment may end a few frames before the segment does).
      nextTime = nextTime > position && nextTime <= end + 0.5 ? Math.max(nextTime, end) : end;
      return;
    }
    generation++;
    nextTime = position;
    seeking = true;
    inflight?.abort();
    if (loading) void pump();
  };

  /**
   * A rung chosen in the menu (or a move to H.264) shows at once: the film buffered after the segment
   * playing now goes and comes again at the chosen rung (as hls.js's level switch does).
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
    if (buffer !== sourceBuffer) return;
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
  // A decode error on the element: the player's own (a fresh MediaSource), not the page's.
  const onError = () => {
    if (video.error && video.src === objectUrl) recoverMedia(mediaSource);
  };
  video.addEventListener("waiting", onWaiting);
  video.addEventListener("seeking", onSeeking);
  video.addEventListener("timeupdate", onProgress);
  video.addEventListener("play", startOnPlay);
  video.addEventListener("play", onProgress);
  video.addEventListener("pause", onProgress);
  video.addEventListener("error", onError);

  // A press made before the player arrived: play as soon as the master playlist is in.
  const wantedToPlay = !video.paused || video.dataset.playRequested === "1";
  sourceOpened = openMediaSource();
  const whenManifest = (then: () => void) =>
    manifest!.then(then, (error) => {
      if (!(error instanceof Stopped) && !destroyed) options.onFatal();
    });
  manifest = loadManifest();
  void whenManifest(() => {
    if (wantedToPlay || !video.paused) {
      startOnPlay();
      void video.play().catch(() => undefined);
    }
  });

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
      void whenManifest(() => {
        if (video.error) recoverMedia(mediaSource);
        else if (playAfter) {
          startOnPlay();
          void video.play().catch(() => undefined);
        } else if (loading) void pump();
      });
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
      video.removeEventListener("error", onError);
      if (objectUrl) {
        video.removeAttribute("src");
        video.load();
        URL.revokeObjectURL(objectUrl);
      }
    },
  };
}

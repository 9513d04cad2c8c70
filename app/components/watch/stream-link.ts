import { SEGMENT_SECONDS } from "~/media/read-ahead";

/**
 * The player's reading of the stream and of the link (`stream-player.client.ts`): the master
 * playlist's variants, how long a request may wait for its first byte, and the link's speed.
 */

/** However much film is ahead, a request with no first byte is asked again after this long. */
const MAX_FIRST_BYTE_MS = 60_000;
/** With little ahead, never less than this (a box answering slowly is not a lost link). */
const HURRIED_FIRST_BYTE_MS = 1_500;
/** Film kept in hand when waiting for a first byte: this many segments (the answer and a second try must come before the picture stops). */
const LITTLE_AHEAD_SEGMENTS = 2;

export type Level = {
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
export type Segment = { start: number; end: number; offset: number; length: number };

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

/**
 * How long a request may wait for its first byte: with little film ahead, about twice the round trip
 * plus a segment's time (then it is asked again); with much ahead, patience. Doubled for each time it
 * ran out on the same request, so a box that is only slow is never asked forever.
 */
export function firstByteTimeoutMs(aheadSeconds: number, roundTripMs: number, timeoutsSoFar: number): number {
  const hurried = Math.max(HURRIED_FIRST_BYTE_MS, 2 * roundTripMs + SEGMENT_SECONDS * 1000);
  // What is ahead less two segments' time: the answer may still come, and the next try too, before the picture stops.
  const patience = Math.max(hurried, (aheadSeconds - SEGMENT_SECONDS * LITTLE_AHEAD_SEGMENTS) * 1000);
  return Math.min(MAX_FIRST_BYTE_MS, patience * 2 ** timeoutsSoFar);
}

export const mimeOf = (level: Pick<Level, "codecs">) => `video/mp4; codecs="${level.codecs}"`;

/**
 * The link in bits per second: two averages of the measured rates, one quick (half of it from the last
 * 3 s) and one slow (9 s), and the lower of the two is the estimate (a dip counts at once, a burst only
 * once it lasts). A segment's rate weighs as much as the film it carries, or its download time when
 * longer: a link that is fast again is believed within a few segments even when the lowest rung's
 * segments take a tenth of a second each (weighed by download time alone, the estimate stayed at the
 * dip's rate for minutes). From the page's estimate until the first segment arrives. Also the time to
 * a first byte, averaged.
 */
export class LinkEstimate {
  private fast: number;
  private slow: number;
  /** Bits per second. */
  bitsPerSecond: number;
  roundTripMs = 500;
  private lastAnswerMs = 0;

  constructor(kbps: number) {
    this.fast = this.slow = this.bitsPerSecond = kbps * 1000;
  }

  /** `bytes` arrived in `seconds` (less the usual round trip), carrying `weightSeconds` of film. */
  measure(bytes: number, seconds: number, weightSeconds = seconds): void {
    if (!(seconds > 0) || !(bytes > 0)) return;
    const rate = (bytes * 8) / seconds;
    const weight = Math.max(seconds, weightSeconds);
    this.fast += (rate - this.fast) * (1 - 0.5 ** (weight / 3));
    this.slow += (rate - this.slow) * (1 - 0.5 ** (weight / 9));
    this.bitsPerSecond = Math.min(this.fast, this.slow);
  }

  /** A segment given up midway: the rate it came at is the link now (a short sample would barely move the averages). */
  fellTo(bytes: number, seconds: number): void {
    const rate = (bytes * 8) / seconds;
    this.fast = Math.min(this.fast, rate);
    this.slow = Math.min(this.slow, rate);
    this.measure(bytes, seconds);
  }

  answeredIn(milliseconds: number): void {
    this.roundTripMs += (milliseconds - this.roundTripMs) * 0.3;
    this.lastAnswerMs = milliseconds;
  }

  /** How long the box takes to answer now: the average, or the last answer when it was slower (a slow box counts at once). */
  get answerMs(): number {
    return Math.max(this.roundTripMs, this.lastAnswerMs);
  }
}

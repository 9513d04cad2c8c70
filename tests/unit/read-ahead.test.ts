import { describe, expect, it } from "vitest";
import { KEYFRAME_SECONDS } from "~/media/ladder-encode.server";
import {
  DATA_SAVER_PAUSED_READ_AHEAD_SECONDS,
  DATA_SAVER_READ_AHEAD_SECONDS,
  hlsBufferLimits,
  PAUSED_READ_AHEAD_SECONDS,
  READ_AHEAD_SECONDS,
  readAheadSeconds,
  SEGMENT_SECONDS,
} from "~/media/read-ahead";

/**
 * the player's own rule (base-stream-controller `getMaxBufferLength`, stream-controller `doTickIdle`): the
 * limit is max(maxBufferLength, 8 × maxBufferSize ÷ bitrate) capped by maxMaxBufferLength, and one more
 * segment is asked for while the buffer ahead is below it: the most it holds ahead.
 */
function mostBufferedAhead(limits: ReturnType<typeof hlsBufferLimits>, bitsPerSecond: number): number {
  const limit = Math.min(
    Math.max(limits.maxBufferLength, (8 * limits.maxBufferSize) / bitsPerSecond),
    limits.maxMaxBufferLength,
  );
  // Just below the limit, one more segment comes: the buffer ahead stays below limit + one segment.
  return limit + SEGMENT_SECONDS;
}

describe("the player's read-ahead", () => {
  it("is 30 s, 12 s under data saver, and less while paused", () => {
    expect(readAheadSeconds({ dataSaver: false, paused: false })).toBe(30);
    expect(readAheadSeconds({ dataSaver: true, paused: false })).toBe(12);
    expect(readAheadSeconds({ dataSaver: false, paused: true })).toBe(PAUSED_READ_AHEAD_SECONDS);
    expect(readAheadSeconds({ dataSaver: true, paused: true })).toBe(DATA_SAVER_PAUSED_READ_AHEAD_SECONDS);
    expect(PAUSED_READ_AHEAD_SECONDS).toBeLessThan(READ_AHEAD_SECONDS);
    expect(DATA_SAVER_PAUSED_READ_AHEAD_SECONDS).toBeLessThan(DATA_SAVER_READ_AHEAD_SECONDS);
  });

  it("counts in the encoder's segments", () => {
    expect(SEGMENT_SECONDS).toBe(KEYFRAME_SECONDS);
  });

  it("is never passed by the player, at any rung, by time or by bytes", () => {
    for (const seconds of [READ_AHEAD_SECONDS, DATA_SAVER_READ_AHEAD_SECONDS, PAUSED_READ_AHEAD_SECONDS]) {
      const limits = hlsBufferLimits(seconds);
      // 144p to 1080p with sound.
      for (const kbps of [150, 270, 550, 1000, 2100, 4100]) {
        expect(mostBufferedAhead(limits, kbps * 1000), `${seconds} s at ${kbps} kbps`).toBeLessThanOrEqual(seconds);
        expect(mostBufferedAhead(limits, kbps * 1000)).toBeGreaterThan(seconds - SEGMENT_SECONDS);
      }
      expect(limits.maxMaxBufferLength).toBe(limits.maxBufferLength);
      expect(limits.maxBufferSize).toBe(0);
    }
  });

  it("keeps the old limits' flaw out: 20 MB of bytes let 240p run to the 60 s time cap", () => {
    const old = { maxBufferLength: 30, maxMaxBufferLength: 60, maxBufferSize: 20_000_000, backBufferLength: 30 };
    expect(mostBufferedAhead(old, 270_000)).toBe(62);
    expect(mostBufferedAhead(hlsBufferLimits(30), 270_000)).toBe(30);
  });

  it("keeps a back buffer: going back a little costs no data", () => {
    expect(hlsBufferLimits(DATA_SAVER_READ_AHEAD_SECONDS).backBufferLength).toBe(READ_AHEAD_SECONDS);
  });

  it("never asks the player for less than half a segment", () => {
    expect(hlsBufferLimits(1).maxBufferLength).toBe(SEGMENT_SECONDS / 2);
  });
});

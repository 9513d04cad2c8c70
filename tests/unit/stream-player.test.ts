import { describe, expect, it } from "vitest";
import { DroppedFrames } from "~/components/watch/media-source";
import { firstByteTimeoutMs, LinkEstimate, parseMasterPlaylist } from "~/components/watch/stream-link";
import { writeMasterPlaylist } from "~/media/hls";

describe("the player's reading of a master playlist", () => {
  it("reads every variant the server writes, in its order, with absolute addresses and the family", () => {
    const text = writeMasterPlaylist([
      {
        uri: "240p-av1.m3u8",
        bandwidth: 180_000,
        averageBandwidth: 150_000,
        width: 426,
        height: 240,
        codecs: "av01.0.01M.08,opus",
      },
      {
        uri: "v2/144p.m3u8",
        bandwidth: 160_000,
        averageBandwidth: 140_000,
        width: 256,
        height: 144,
        codecs: "avc1.4d400c,mp4a.40.2",
      },
      {
        uri: "360p.m3u8",
        bandwidth: 600_000,
        averageBandwidth: 500_000,
        width: 360,
        height: 640,
        codecs: "avc1.4d401e,mp4a.40.2",
      },
    ]);
    const levels = parseMasterPlaylist(text, "https://kallo.example/stream/abc123de/master.m3u8?av1=1&bw=400");
    expect(levels).toEqual([
      {
        url: "https://kallo.example/stream/abc123de/240p-av1.m3u8",
        rung: 240,
        width: 426,
        height: 240,
        bandwidth: 180_000,
        averageBandwidth: 150_000,
        codecs: "av01.0.01M.08,opus",
        family: "av01",
      },
      expect.objectContaining({ url: "https://kallo.example/stream/abc123de/v2/144p.m3u8", rung: 144, family: "avc1" }),
      // A portrait picture is named by its short side.
      expect.objectContaining({ rung: 360, width: 360, height: 640 }),
    ]);
  });

  it("skips a variant without a picture size or CODECS, and reads nothing from a text that is no playlist", () => {
    const text = [
      "#EXTM3U",
      "#EXT-X-STREAM-INF:BANDWIDTH=100000",
      "a.m3u8",
      "#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=2x2",
      "b.m3u8",
    ].join("\n");
    expect(parseMasterPlaylist(text, "https://kallo.example/stream/x/master.m3u8")).toEqual([]);
    expect(parseMasterPlaylist("<html>", "https://kallo.example/")).toEqual([]);
  });
});

describe("the player's patience and its reading of the link", () => {
  it("gives a request with no first byte about twice the round trip plus a segment when little film is ahead, and more when much is", () => {
    expect(firstByteTimeoutMs(0, 300, 0)).toBe(2_600);
    expect(firstByteTimeoutMs(3, 300, 0)).toBe(2_600);
    // 20 s ahead: it may wait until two segments' time is left.
    expect(firstByteTimeoutMs(20, 300, 0)).toBe(16_000);
    // A box that answers slowly every time is never asked forever: each run-out doubles the patience.
    expect(firstByteTimeoutMs(0, 300, 1)).toBe(5_200);
    expect(firstByteTimeoutMs(0, 300, 10)).toBe(60_000);
  });

  /** A 2-s segment of `kbps` of film arriving at `linkKbps` (its download time from its size). */
  const segment = (estimate: LinkEstimate, kbps: number, linkKbps: number) => {
    const bytes = (kbps * 1000 * 2) / 8;
    estimate.measure(bytes, (bytes * 8) / (linkKbps * 1000), 2);
  };

  it("believes a link that is fast again within a few of the lowest rung's segments (a dip's return)", () => {
    const link = new LinkEstimate(1500);
    for (let index = 0; index < 10; index++) segment(link, 500, 1500);
    expect(link.bitsPerSecond / 1000).toBeGreaterThan(1400);
    // The dip: 144p segments (150 kbps) at 150 kbps.
    for (let index = 0; index < 10; index++) segment(link, 150, 150);
    expect(link.bitsPerSecond / 1000).toBeLessThan(200);
    // The link is back: the same small segments now take a tenth of their time.
    let segments = 0;
    while (link.bitsPerSecond * 0.7 < 700_000 && segments < 100) {
      segment(link, 150, 1500);
      segments++;
    }
    // Enough to climb to a 700 kbps rung within 8 segments (16 s of film); weighed by download time alone it took 49.
    expect(segments).toBeLessThanOrEqual(8);
  });

  it("counts a dip at once: one slow segment halves the estimate", () => {
    const link = new LinkEstimate(1500);
    for (let index = 0; index < 10; index++) segment(link, 500, 1500);
    segment(link, 500, 150);
    expect(link.bitsPerSecond / 1000).toBeLessThan(750);
  });

  it("takes a segment given up midway as the link's rate now", () => {
    const link = new LinkEstimate(1500);
    link.fellTo(10_000, 1);
    expect(link.bitsPerSecond).toBe(80_000);
  });
});

describe("a device that does not keep up with the picture", () => {
  /** A video whose playback quality reads `frames` (total, dropped), as the browser counts them. */
  function videoWith(frames: { total: number; dropped: number }) {
    return {
      getVideoPlaybackQuality: () => ({ totalVideoFrames: frames.total, droppedVideoFrames: frames.dropped }),
    } as unknown as HTMLVideoElement;
  }

  it("is struggling after two 4-s windows running with more than 30 % of frames dropped, not after one", () => {
    const frames = { total: 0, dropped: 0 };
    const watch = new DroppedFrames(videoWith(frames));
    const start = performance.now();
    frames.total = 100;
    frames.dropped = 40;
    expect(watch.struggling(start + 4_100)).toBe(false);
    frames.total = 200;
    frames.dropped = 80;
    expect(watch.struggling(start + 8_200)).toBe(true);
  });

  it("is not when a bad window is followed by a good one, nor before a window has passed", () => {
    const frames = { total: 0, dropped: 0 };
    const watch = new DroppedFrames(videoWith(frames));
    const start = performance.now();
    frames.total = 100;
    frames.dropped = 50;
    expect(watch.struggling(start + 1_000)).toBe(false);
    expect(watch.struggling(start + 4_100)).toBe(false);
    frames.total = 200;
    frames.dropped = 55;
    expect(watch.struggling(start + 8_200)).toBe(false);
    frames.total = 300;
    frames.dropped = 95;
    expect(watch.struggling(start + 12_300)).toBe(false);
  });
});

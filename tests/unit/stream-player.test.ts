import { describe, expect, it } from "vitest";
import { parseMasterPlaylist } from "~/components/watch/stream-player.client";
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

import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  codecsByUri,
  joinShortTail,
  parseMediaPlaylist,
  PlaylistError,
  playlistStats,
  writeMasterPlaylist,
  writeMediaPlaylist,
  type ByteRangeSegment,
  type MediaPlaylist,
} from "~/media/hls";

/** What ffmpeg's HLS muxer writes for one rung with `-hls_flags single_file` and fMP4 segments. */
const FFMPEG_PLAYLIST = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MAP:URI="240p.mp4",BYTERANGE="1357@0"
#EXTINF:2.000000,
#EXT-X-BYTERANGE:77733@1357
240p.mp4
#EXTINF:2.000000,
#EXT-X-BYTERANGE:86623@79090
240p.mp4
#EXTINF:2.000000,
#EXT-X-BYTERANGE:61000@165713
240p.mp4
#EXTINF:2.000000,
#EXT-X-BYTERANGE:59000@226713
240p.mp4
#EXTINF:2.000000,
#EXT-X-BYTERANGE:70000@285713
240p.mp4
#EXTINF:1.000000,
#EXT-X-BYTERANGE:46011@355713
240p.mp4
#EXT-X-ENDLIST
`;

/** ffmpeg's master playlist of a ladder run: what CODECS each rung got. */
const FFMPEG_MASTER = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-STREAM-INF:BANDWIDTH=140800,RESOLUTION=256x144,CODECS="avc1.4d400c,mp4a.40.2"
144p-ffmpeg.m3u8

#EXT-X-STREAM-INF:BANDWIDTH=281600,RESOLUTION=426x240,CODECS="avc1.4d4015,mp4a.40.2"
240p-ffmpeg.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=600000,RESOLUTION=640x360
360p-ffmpeg.m3u8
`;

const segment = (durationSeconds: number, offset: number, length: number): ByteRangeSegment => ({
  durationSeconds,
  offset,
  length,
});

describe("reading ffmpeg's media playlist", () => {
  it("reads the file, the init section and every segment's byte range", () => {
    const playlist = parseMediaPlaylist(FFMPEG_PLAYLIST);
    expect(playlist.uri).toBe("240p.mp4");
    expect(playlist.init).toEqual({ offset: 0, length: 1357 });
    expect(playlist.segments).toHaveLength(6);
    expect(playlist.segments[0]).toEqual(segment(2, 1357, 77733));
    expect(playlist.segments[1]).toEqual(segment(2, 79090, 86623));
    expect(playlist.segments.at(-1)).toEqual(segment(1, 355713, 46011));
  });

  it("takes a byte range without an offset to follow the previous one", () => {
    const text = FFMPEG_PLAYLIST.replace("#EXT-X-BYTERANGE:86623@79090", "#EXT-X-BYTERANGE:86623");
    expect(parseMediaPlaylist(text).segments[1]).toEqual(segment(2, 1357 + 77733, 86623));
    // Right after the init section too.
    const first = FFMPEG_PLAYLIST.replace("#EXT-X-BYTERANGE:77733@1357", "#EXT-X-BYTERANGE:77733");
    expect(parseMediaPlaylist(first).segments[0]).toEqual(segment(2, 1357, 77733));
  });

  it("reads Windows line ends", () => {
    expect(parseMediaPlaylist(FFMPEG_PLAYLIST.replace(/\n/g, "\r\n")).segments).toHaveLength(6);
  });

  it("refuses what is not a single-file, byte-range playlist", () => {
    const refusal = (text: string) => {
      try {
        parseMediaPlaylist(text);
      } catch (error) {
        expect(error).toBeInstanceOf(PlaylistError);
        return (error as Error).message;
      }
      throw new Error("the playlist was accepted");
    };
    expect(refusal(FFMPEG_PLAYLIST.replace(/^#EXT-X-MAP:.*\n/m, ""))).toMatch(/no init section/);
    expect(refusal(FFMPEG_PLAYLIST.replace(',BYTERANGE="1357@0"', ""))).toMatch(/init section must be a byte range/);
    // Separate segment files (no byte ranges).
    expect(refusal(FFMPEG_PLAYLIST.replace(/^#EXT-X-BYTERANGE:.*\n/gm, ""))).toMatch(/has no duration or byte range/);
    expect(
      refusal(
        FFMPEG_PLAYLIST.replace(
          "#EXTINF:2.000000,\n#EXT-X-BYTERANGE:77733@1357\n240p.mp4",
          "#EXTINF:2.000000,\n#EXT-X-BYTERANGE:77733@1357\nother.mp4",
        ),
      ),
    ).toMatch(/one file/);
    expect(refusal(FFMPEG_PLAYLIST.replace("#EXTINF:1.000000,", "#EXTINF:0,"))).toMatch(/bad segment duration/);
    expect(refusal(FFMPEG_PLAYLIST.replace("#EXTM3U\n", ""))).toMatch(/not an HLS playlist/);
    expect(refusal(FFMPEG_PLAYLIST.split("#EXTINF")[0])).toMatch(/no segments/);
  });
});

describe("the end of a film", () => {
  it("joins a last segment shorter than the limit to the one before, and nothing else", () => {
    const film = [segment(2, 1357, 1000), segment(2, 2357, 1100), segment(0.08, 3457, 300)];
    expect(joinShortTail(film, 1)).toEqual([segment(2, 1357, 1000), segment(2.08, 2357, 1400)]);
    expect(film).toHaveLength(3);
    expect(joinShortTail(film.slice(0, 2), 1)).toEqual(film.slice(0, 2));
    expect(joinShortTail([segment(0.5, 1357, 100)], 1)).toEqual([segment(0.5, 1357, 100)]);
    const apart = [segment(2, 1357, 1000), segment(0.5, 9999, 100)];
    expect(joinShortTail(apart, 1)).toEqual(apart);
  });

  it("keeps a sliver at the end from setting the rung's peak bitrate", () => {
    const film = [segment(2, 1357, 50_000), segment(2, 51_357, 52_000), segment(0.08, 103_357, 9_000)];
    const stats = (segments: ByteRangeSegment[]) =>
      playlistStats({ uri: "144p.mp4", init: { offset: 0, length: 1357 }, segments });
    expect(stats(film).bandwidth).toBe(900_000);
    expect(stats(joinShortTail(film, 1)).bandwidth).toBe(Math.ceil((61_000 * 8) / 2.08));
  });
});

describe("writing a media playlist", () => {
  const playlist: MediaPlaylist = {
    uri: "240p.mp4",
    init: { offset: 0, length: 1357 },
    segments: [
      segment(2.002, 1357, 1000),
      segment(2.002, 2357, 1200),
      segment(4.438, 3557, 5000),
      segment(1.5, 8557, 700),
    ],
  };

  it("is a VOD playlist of byte ranges of one file with its init section", () => {
    const text = writeMediaPlaylist(playlist);
    const lines = text.trim().split("\n");
    expect(lines[0]).toBe("#EXTM3U");
    expect(lines).toContain("#EXT-X-PLAYLIST-TYPE:VOD");
    expect(lines).toContain('#EXT-X-MAP:URI="240p.mp4",BYTERANGE="1357@0"');
    // The first segment says where it starts; each next one starts where the last ended, so only its length is written.
    expect(lines.filter((line) => line.startsWith("#EXT-X-BYTERANGE:"))).toEqual([
      "#EXT-X-BYTERANGE:1000@1357",
      "#EXT-X-BYTERANGE:1200",
      "#EXT-X-BYTERANGE:5000",
      "#EXT-X-BYTERANGE:700",
    ]);
    expect(lines.at(-1)).toBe("#EXT-X-ENDLIST");
    expect(lines.filter((line) => line === "240p.mp4")).toHaveLength(4);
  });

  it("gives the offset again wherever a segment does not follow on from the one before", () => {
    const gapped: MediaPlaylist = {
      ...playlist,
      segments: [segment(2, 1357, 1000), segment(2, 5000, 1200), segment(2, 6200, 800)],
    };
    const text = writeMediaPlaylist(gapped);
    expect(text.match(/^#EXT-X-BYTERANGE:.*$/gm)).toEqual([
      "#EXT-X-BYTERANGE:1000@1357",
      "#EXT-X-BYTERANGE:1200@5000",
      "#EXT-X-BYTERANGE:800",
    ]);
    expect(parseMediaPlaylist(text)).toEqual(gapped);
  });

  it("stays small for a feature film: about a hundred bytes per minute of film once compressed", () => {
    let offset = 1357;
    const segments = Array.from({ length: 1800 }, (_, index) => {
      const entry = segment(4, offset, 120_000 + ((index * 7919) % 20_000));
      offset += entry.length;
      return entry;
    });
    const compressed = gzipSync(writeMediaPlaylist({ ...playlist, segments })).length;
    expect(compressed / 120).toBeLessThan(100);
  });

  it("has a target duration no segment exceeds once rounded", () => {
    const check = (source: MediaPlaylist) => {
      const text = writeMediaPlaylist(source);
      const target = Number(/^#EXT-X-TARGETDURATION:(\d+)$/m.exec(text)?.[1]);
      const written = [...text.matchAll(/^#EXTINF:([\d.]+),$/gm)].map((match) => Number(match[1]));
      expect(written).toHaveLength(source.segments.length);
      for (const duration of written) expect(Math.round(duration), text).toBeLessThanOrEqual(target);
      return target;
    };
    expect(check(playlist)).toBe(4);
    expect(check({ ...playlist, segments: [segment(4.5, 1357, 10)] })).toBe(5);
    expect(check({ ...playlist, segments: [segment(0.2, 1357, 10)] })).toBe(1);
    // Written as 4.500, which a player rounds to 5.
    expect(check({ ...playlist, segments: [segment(4.4996, 1357, 10)] })).toBe(5);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.01, max: 12, noNaN: true }), { minLength: 1, maxLength: 12 }),
        (durations) => {
          let offset = 1357;
          const segments = durations.map((duration) => {
            const entry = segment(duration, offset, 100);
            offset += 100;
            return entry;
          });
          check({ ...playlist, segments });
        },
      ),
    );
  });

  it("reads back as what was written", () => {
    const back = parseMediaPlaylist(writeMediaPlaylist(playlist));
    expect(back.uri).toBe(playlist.uri);
    expect(back.init).toEqual(playlist.init);
    expect(back.segments).toEqual(playlist.segments);
    // ffmpeg's playlist, written again our way, reads back the same.
    const parsed = parseMediaPlaylist(FFMPEG_PLAYLIST);
    expect(parseMediaPlaylist(writeMediaPlaylist(parsed))).toEqual(parsed);
  });
});

describe("a rendition's bandwidth figures", () => {
  it("gives the peak segment as BANDWIDTH and the whole file, init section included, as AVERAGE-BANDWIDTH", () => {
    const stats = playlistStats({
      uri: "360p.mp4",
      init: { offset: 0, length: 1000 },
      segments: [segment(2, 1000, 100_000), segment(2, 101_000, 300_000), segment(1, 401_000, 50_000)],
    });
    expect(stats.durationSeconds).toBe(5);
    expect(stats.mediaBytes).toBe(450_000);
    expect(stats.bandwidth).toBe(1_200_000); // 300 000 bytes in 2 s
    expect(stats.averageBandwidth).toBe(721_600); // (450 000 + 1 000) bytes in 5 s
    expect(stats.bandwidth).toBeGreaterThanOrEqual(stats.averageBandwidth);
  });

  it("rounds up, so a player never gets less than the figure says", () => {
    const stats = playlistStats({ uri: "a.mp4", init: { offset: 0, length: 1 }, segments: [segment(3, 1, 1000)] });
    // The peak segment is 2666.7 bits/s, rounded up; the average with the init section 2670: the peak is
    // never given as less than the average.
    expect(stats.averageBandwidth).toBe(2670);
    expect(stats.bandwidth).toBe(2670);
    const longer = playlistStats({
      uri: "a.mp4",
      init: { offset: 0, length: 1 },
      segments: [segment(3, 1, 1000), segment(3, 1, 10)],
    });
    expect(longer.bandwidth).toBe(2667);
  });
});

describe("master playlists", () => {
  it("reads the CODECS ffmpeg gave each variant, by URI", () => {
    const codecs = codecsByUri(FFMPEG_MASTER);
    expect(codecs.get("144p-ffmpeg.m3u8")).toBe("avc1.4d400c,mp4a.40.2");
    expect(codecs.get("240p-ffmpeg.m3u8")).toBe("avc1.4d4015,mp4a.40.2");
    // A variant without CODECS is left out rather than guessed.
    expect(codecs.has("360p-ffmpeg.m3u8")).toBe(false);
    expect(codecs.size).toBe(2);
  });

  it("lists the variants in the order given, with their figures", () => {
    const text = writeMasterPlaylist([
      {
        uri: "240p.m3u8",
        bandwidth: 300_000,
        averageBandwidth: 250_000,
        width: 426,
        height: 240,
        codecs: "avc1.4d4015,mp4a.40.2",
      },
      {
        uri: "144p.m3u8",
        bandwidth: 150_000,
        averageBandwidth: 120_000,
        width: 256,
        height: 144,
        codecs: "avc1.4d400c,mp4a.40.2",
      },
      {
        uri: "360p.m3u8",
        bandwidth: 600_000,
        averageBandwidth: 500_000,
        width: 640,
        height: 360,
        codecs: "avc1.4d401e",
      },
    ]);
    const lines = text.trim().split("\n");
    expect(lines.slice(0, 3)).toEqual(["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]);
    expect(lines.slice(3)).toEqual([
      '#EXT-X-STREAM-INF:BANDWIDTH=300000,AVERAGE-BANDWIDTH=250000,RESOLUTION=426x240,CODECS="avc1.4d4015,mp4a.40.2"',
      "240p.m3u8",
      '#EXT-X-STREAM-INF:BANDWIDTH=150000,AVERAGE-BANDWIDTH=120000,RESOLUTION=256x144,CODECS="avc1.4d400c,mp4a.40.2"',
      "144p.m3u8",
      '#EXT-X-STREAM-INF:BANDWIDTH=600000,AVERAGE-BANDWIDTH=500000,RESOLUTION=640x360,CODECS="avc1.4d401e"',
      "360p.m3u8",
    ]);
    expect([...codecsByUri(text).keys()]).toEqual(["240p.m3u8", "144p.m3u8", "360p.m3u8"]);
  });
});

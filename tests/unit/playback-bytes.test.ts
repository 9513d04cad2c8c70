import { describe, expect, it } from "vitest";
import { accountBytes, rungMap } from "../../bench/playback-bytes";

/** A rung of four 2-s segments of 1,000 bytes each after a 100-byte init section. */
function playlist(rung: number): string {
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:7",
    "#EXT-X-TARGETDURATION:2",
    `#EXT-X-MAP:URI="${rung}p.mp4",BYTERANGE="100@0"`,
  ];
  for (let index = 0; index < 4; index++) lines.push("#EXTINF:2.000,", "#EXT-X-BYTERANGE:1000", `${rung}p.mp4`);
  lines.push("#EXT-X-ENDLIST");
  return lines.join("\n");
}
const maps = new Map([
  [144, rungMap(144, playlist(144), 8_000)],
  [240, rungMap(240, playlist(240), 16_000)],
]);

describe("the playback benchmark's byte account", () => {
  it("tells film played from film read ahead, pro rata inside the segment under the position", () => {
    const account = accountBytes(
      maps,
      [
        { rung: 144, offset: 0, bytes: 100, sentAt: 1 },
        { rung: 144, offset: 100, bytes: 3000, sentAt: 2 },
      ],
      3,
      4,
    );
    expect(account.init).toBe(100);
    expect(account.played).toBe(1500);
    expect(account.ahead).toBe(1500);
    expect(account.aheadSeconds).toBe(3);
    expect(account.refetched).toBe(0);
    // 4 s at 144p's peak of 8 kbit/s.
    expect(account.allowance).toBe(4000);
  });

  it("counts a stretch fetched at two rungs once, as the rung asked for last", () => {
    const account = accountBytes(
      maps,
      [
        { rung: 144, offset: 100, bytes: 2000, sentAt: 1 },
        { rung: 240, offset: 1100, bytes: 2000, sentAt: 2 },
      ],
      1,
      4,
    );
    // Segment 2 came at 144p, then at 240p: the 144p copy is waste.
    expect(account.refetched).toBe(1000);
    expect(account.played).toBe(500);
    expect(account.ahead).toBe(2500);
    // The rung fetched ahead sets the allowance: 4 s at 240p's peak.
    expect(account.allowance).toBe(8000);
  });

  it("adds up a segment's pieces, and counts the same bytes twice as waste", () => {
    const account = accountBytes(
      maps,
      [
        { rung: 144, offset: 100, bytes: 600, sentAt: 1 },
        { rung: 144, offset: 700, bytes: 400, sentAt: 2 },
        { rung: 144, offset: 100, bytes: 1000, sentAt: 3 },
      ],
      2,
      4,
    );
    expect(account.played).toBe(1000);
    expect(account.refetched).toBe(1000);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "~/media/ffmpeg.server";
import { parseMediaPlaylist } from "~/media/hls";
import { rungName, rungSpec, type LadderCodec } from "~/media/ladder";
import { ladderArguments } from "~/media/ladder-encode.server";
import { fragmentIsWhole } from "~/media/mp4-fragment";
import { makeVideoFixture } from "../fixtures/media";
import { scramble, scrambleMedia } from "../fixtures/media-faults";

/**
 * The player's check of a segment before it reaches the browser, on segments
 * of real ladders (both families, as the ladder job encodes them): every
 * whole one passes; a damaged, truncated or padded one does not.
 */

let dir: string;
const segmentsOf: Partial<Record<LadderCodec, Uint8Array[]>> = {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-fragment-"));
  const source = await makeVideoFixture(dir, "mp4-faststart", 6);
  for (const codec of ["h264", "av1"] as const) {
    const work = path.join(dir, codec);
    fs.mkdirSync(work);
    const spec = rungSpec(144, { width: 320, height: 240 }, codec);
    await runFfmpeg(ladderArguments(source, work, [spec], { hasAudio: true, frameRate: 25 }));
    const name = rungName(144, codec);
    const playlist = parseMediaPlaylist(fs.readFileSync(path.join(work, `${name}-ffmpeg.m3u8`), "utf8"));
    const file = fs.readFileSync(path.join(work, `${name}.mp4`));
    segmentsOf[codec] = playlist.segments.map(
      (segment) => new Uint8Array(file.subarray(segment.offset, segment.offset + segment.length)),
    );
  }
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a segment is checked before it is appended", () => {
  it.each(["h264", "av1"] as const)("every segment of a real %s rung is whole", (codec) => {
    const segments = segmentsOf[codec]!;
    expect(segments.length).toBeGreaterThanOrEqual(3);
    for (const segment of segments) expect(fragmentIsWhole(segment)).toBe(true);
  });

  it("a segment of the right length with other bytes is not", () => {
    const segment = segmentsOf.h264![1]!;
    const damaged = scramble(Buffer.from(segment));
    expect(damaged.byteLength).toBe(segment.byteLength);
    expect(fragmentIsWhole(damaged)).toBe(false);
  });

  it("a truncated segment, or one with bytes over, is not", () => {
    const segment = segmentsOf.h264![1]!;
    expect(fragmentIsWhole(segment.subarray(0, segment.byteLength - 1))).toBe(false);
    expect(fragmentIsWhole(segment.subarray(0, Math.floor(segment.byteLength / 2)))).toBe(false);
    const longer = new Uint8Array(segment.byteLength + 8);
    longer.set(segment);
    expect(fragmentIsWhole(longer)).toBe(false);
  });

  it("a segment whose sample table lists more than its media box carries is not", () => {
    const segment = segmentsOf.h264![1]!;
    // The media box (mdat) made 4 bytes shorter, its size field too: the boxes add up, the samples do not.
    const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
    const mdatAt = segment.findIndex(
      (_, index) => index >= 4 && String.fromCharCode(...segment.subarray(index, index + 4)) === "mdat",
    );
    const shorter = new Uint8Array(segment.subarray(0, segment.byteLength - 4));
    new DataView(shorter.buffer).setUint32(mdatAt - 4, view.getUint32(mdatAt - 4) - 4);
    expect(fragmentIsWhole(shorter)).toBe(false);
  });

  it("a segment whose media is scrambled in whole boxes passes (the browser's decoder finds that one)", () => {
    const segment = segmentsOf.h264![1]!;
    expect(fragmentIsWhole(scrambleMedia(Buffer.from(segment)))).toBe(true);
  });

  it("an init section or nothing at all is not a segment", () => {
    expect(fragmentIsWhole(new Uint8Array(0))).toBe(false);
    const ftyp = new Uint8Array([0, 0, 0, 16, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 0, 1]);
    expect(fragmentIsWhole(ftyp)).toBe(false);
  });
});

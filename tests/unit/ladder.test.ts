import { describe, expect, it } from "vitest";
import {
  DEFAULT_LADDER,
  firstPassRungs,
  ladderPasses,
  megabytesPerHour,
  parseLadder,
  planLadder,
  rungName,
  videoKbpsFor,
  type RungSpec,
} from "~/media/ladder";
import { parseLadderCodecs } from "~/utils/ladder-setting";
import { EnvError, parseEnv } from "~/utils/env.server";

const rungsOf = (plan: readonly RungSpec[]) => plan.map((spec) => spec.rung);
const sizesOf = (plan: readonly RungSpec[]) => plan.map((spec) => `${spec.width}x${spec.height}`);

describe("the LADDER setting", () => {
  it("defaults to 144 up to 1080 when unset or empty", () => {
    expect(DEFAULT_LADDER).toEqual([144, 240, 360, 480, 720, 1080]);
    expect(parseLadder(undefined)).toEqual({ ok: true, rungs: [144, 240, 360, 480, 720, 1080] });
    expect(parseLadder("  ")).toEqual({ ok: true, rungs: [144, 240, 360, 480, 720, 1080] });
  });

  it("reads a list, with or without the p, sorted and without repeats", () => {
    expect(parseLadder("144,240,720")).toEqual({ ok: true, rungs: [144, 240, 720] });
    expect(parseLadder("240p, 144P ,720p")).toEqual({ ok: true, rungs: [144, 240, 720] });
    expect(parseLadder("720,144,720,240")).toEqual({ ok: true, rungs: [144, 240, 720] });
  });

  it("refuses odd, too small, too large and non-numeric entries, naming the entry", () => {
    const refused = (text: string) => {
      const result = parseLadder(text);
      expect(result.ok, text).toBe(false);
      return result.ok ? "" : result.message;
    };
    expect(refused("144,241")).toMatch(/241 is odd/);
    expect(refused("94,240")).toMatch(/94 is outside 96–1080/);
    expect(refused("240,1440")).toMatch(/1440 is outside 96–1080/);
    expect(refused("240,hd")).toMatch(/"hd" is not a number/);
    expect(refused("240,,360")).toMatch(/"" is not a number/);
    expect(refused("240,-360")).toMatch(/"-360" is not a number/);
    expect(refused("2.4e2")).toMatch(/not a number/);
    // The bounds themselves are rungs.
    expect(parseLadder("96,1080")).toEqual({ ok: true, rungs: [96, 1080] });
  });

  it("stops the server start on a bad LADDER with a message naming LADDER", () => {
    expect(() => parseEnv({ LADDER: "144,241" })).toThrow(EnvError);
    try {
      parseEnv({ LADDER: "144,abc" });
      expect.unreachable("a bad LADDER must be refused");
    } catch (error) {
      expect((error as EnvError).problems.join("\n")).toMatch(/^LADDER: .*"abc" is not a number/m);
    }
    expect(parseEnv({ LADDER: "240p,144" }).ladder).toEqual([144, 240]);
    expect(parseEnv({}).ladder).toEqual([...DEFAULT_LADDER]);
  });
});

describe("planning a title's ladder", () => {
  it("never scales a picture up: a 360-line source stops at 360", () => {
    const plan = planLadder({ width: 640, height: 360 });
    expect(rungsOf(plan)).toEqual([144, 240, 360]);
    expect(sizesOf(plan)).toEqual(["256x144", "426x240", "640x360"]);
  });

  it("gives 720p sources 144 to 720, 1080p all six, and caps 4K at 1080", () => {
    expect(rungsOf(planLadder({ width: 1280, height: 720 }))).toEqual([144, 240, 360, 480, 720]);
    expect(rungsOf(planLadder({ width: 1920, height: 1080 }))).toEqual([144, 240, 360, 480, 720, 1080]);
    const uhd = planLadder({ width: 3840, height: 2160 });
    expect(rungsOf(uhd)).toEqual([144, 240, 360, 480, 720, 1080]);
    expect(uhd.at(-1)).toMatchObject({ width: 1920, height: 1080 });
  });

  it("names a portrait picture by its short side", () => {
    const plan = planLadder({ width: 720, height: 1280 });
    expect(rungsOf(plan)).toEqual([144, 240, 360, 480, 720]);
    expect(plan.find((spec) => spec.rung === 360)).toMatchObject({ width: 360, height: 640 });
    expect(plan.at(-1)).toMatchObject({ width: 720, height: 1280 });
  });

  it("adds the source's own size on top when it sits well above the highest ladder rung", () => {
    const plan = planLadder({ width: 1024, height: 576 });
    expect(rungsOf(plan)).toEqual([144, 240, 360, 480, 576]);
    expect(plan.at(-1)).toMatchObject({ width: 1024, height: 576 });
    // Just above a rung is not worth a rung of its own.
    expect(rungsOf(planLadder({ width: 660, height: 372 }))).toEqual([144, 240, 360]);
    // An odd short side is rounded down, never up.
    expect(rungsOf(planLadder({ width: 1000, height: 563 })).at(-1)).toBe(562);
  });

  it("gives a source smaller than every rung one rung at its own size", () => {
    const plan = planLadder({ width: 160, height: 90 });
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ rung: 90, width: 160, height: 90 });
  });

  it("gives nothing for a source without a known size", () => {
    expect(planLadder({ width: null, height: null })).toEqual([]);
    expect(planLadder({ width: 0, height: 360 })).toEqual([]);
  });

  it("follows the operator's LADDER: no 360 rung when it lists none", () => {
    const ladder = parseLadder("144,240,480,720");
    if (!ladder.ok) throw new Error(ladder.message);
    expect(rungsOf(planLadder({ width: 1280, height: 720 }, ladder.rungs))).toEqual([144, 240, 480, 720]);
    expect(rungsOf(planLadder({ width: 1920, height: 1080 }, ladder.rungs))).toEqual([144, 240, 480, 720]);
  });

  it("makes even sizes that keep the picture's shape", () => {
    const sources = [
      { width: 640, height: 360 },
      { width: 1920, height: 1080 },
      { width: 1440, height: 1080 },
      { width: 720, height: 1280 },
      { width: 1998, height: 1080 },
      { width: 3840, height: 2160 },
    ];
    for (const source of sources) {
      const aspect = source.width / source.height;
      for (const spec of planLadder(source)) {
        expect(spec.width % 2, `${spec.width}x${spec.height}`).toBe(0);
        expect(spec.height % 2, `${spec.width}x${spec.height}`).toBe(0);
        expect(Math.min(spec.width, spec.height)).toBe(spec.rung);
        expect(spec.width).toBeLessThanOrEqual(source.width);
        expect(spec.height).toBeLessThanOrEqual(source.height);
        // Rounding to even sizes moves the long side by at most one pixel.
        const long = Math.max(spec.width, spec.height);
        const ideal = spec.rung * Math.max(aspect, 1 / aspect);
        expect(Math.abs(long - ideal)).toBeLessThanOrEqual(1);
      }
    }
  });

  it("gives low rungs mono speech audio and the Main profile, higher rungs stereo and High", () => {
    const plan = planLadder({ width: 1920, height: 1080 });
    const byRung = new Map(plan.map((spec) => [spec.rung, spec]));
    expect(byRung.get(144)).toMatchObject({ audioKbps: 48, audioChannels: 1, profile: "main" });
    expect(byRung.get(240)).toMatchObject({ audioKbps: 48, audioChannels: 1, profile: "main" });
    expect(byRung.get(360)).toMatchObject({ audioKbps: 96, audioChannels: 2, profile: "main" });
    expect(byRung.get(480)).toMatchObject({ audioKbps: 96, audioChannels: 2, profile: "high" });
    expect(byRung.get(1080)).toMatchObject({ audioKbps: 128, audioChannels: 2, profile: "high" });
    for (const spec of plan) expect(spec.maxVideoKbps).toBeGreaterThan(spec.videoKbps);
  });
});

describe("the first pass", () => {
  it("makes the lowest rung alone", () => {
    expect(rungsOf(firstPassRungs(planLadder({ width: 1920, height: 1080 })))).toEqual([144]);
    expect(rungsOf(firstPassRungs(planLadder({ width: 160, height: 90 })))).toEqual([90]);
    expect(rungsOf(firstPassRungs(planLadder({ width: 1280, height: 720 }, [360, 720])))).toEqual([360]);
    expect(firstPassRungs([])).toEqual([]);
  });
});

describe("the order rungs are made in", () => {
  it("makes the lowest rung, then the rest a slow phone plays (to 360p), then the larger ones", () => {
    const passes = (plan: readonly RungSpec[]) => ladderPasses(plan).map(rungsOf);
    expect(passes(planLadder({ width: 1920, height: 1080 }))).toEqual([[144], [240, 360], [480, 720, 1080]]);
    expect(passes(planLadder({ width: 1280, height: 720 }))).toEqual([[144], [240, 360], [480, 720]]);
    // A small source: no empty pass.
    expect(passes(planLadder({ width: 640, height: 360 }))).toEqual([[144], [240, 360]]);
    expect(passes(planLadder({ width: 160, height: 90 }))).toEqual([[90]]);
    // An operator's ladder without the small rungs.
    expect(passes(planLadder({ width: 1280, height: 720 }, [360, 720]))).toEqual([[360], [720]]);
    expect(ladderPasses([])).toEqual([]);
  });

  it("makes every planned rung exactly once", () => {
    const plan = planLadder({ width: 3840, height: 2160 });
    expect(ladderPasses(plan).flat()).toEqual(plan);
  });
});

describe("bitrates", () => {
  it("uses the reference ladder at its rungs", () => {
    expect([144, 240, 360, 480, 720, 1080].map((rung) => videoKbpsFor(rung))).toEqual([100, 220, 450, 900, 2000, 4000]);
  });

  it("interpolates between reference rungs, never going down as the picture grows", () => {
    let previous = 0;
    for (let rung = 96; rung <= 1200; rung += 2) {
      const kbps = videoKbpsFor(rung);
      expect(kbps, `${rung}p`).toBeGreaterThanOrEqual(previous);
      previous = kbps;
    }
    expect(videoKbpsFor(576)).toBeGreaterThan(900);
    expect(videoKbpsFor(576)).toBeLessThan(2000);
    expect(videoKbpsFor(300)).toBeGreaterThan(220);
    expect(videoKbpsFor(300)).toBeLessThan(450);
    // Below the ladder: a floor; above it: the top rate.
    expect(videoKbpsFor(96)).toBe(60);
    expect(videoKbpsFor(1200)).toBe(4000);
  });

  it("turns a rendition's size and length into megabytes an hour", () => {
    expect(megabytesPerHour(1_000_000, 36)).toBe(100);
    expect(megabytesPerHour(50_000_000, 3600)).toBe(50);
    expect(megabytesPerHour(1_000_000, 0)).toBe(0);
    expect(megabytesPerHour(1_000_000, Number.NaN)).toBe(0);
  });
});

describe("the ladder's filter graph", () => {
  it("scales down step by step from the top rung and labels each output by its place in the plan", async () => {
    const { ladderFilter } = await import("~/media/ladder-encode.server");
    const plan = planLadder({ width: 1280, height: 720 }, [144, 240, 720]);
    expect(ladderFilter(plan)).toBe(
      "[0:v:0]scale=1280:720:flags=area,setsar=1,split=2[v2][c1];" +
        "[c1]scale=426:240:flags=area,setsar=1,split=2[v1][c2];" +
        "[c2]scale=256:144:flags=area,setsar=1[v0]",
    );
    expect(ladderFilter(plan.slice(0, 1))).toBe("[0:v:0]scale=256:144:flags=area,setsar=1[v0]");
  });
});

describe("the AV1 + Opus rungs", () => {
  const named = (plan: readonly RungSpec[]) => plan.map((spec) => rungName(spec.rung, spec.codec));

  it("twins the H.264 rungs up to 360p, listed after every H.264 rung", () => {
    expect(named(planLadder({ width: 1280, height: 720 }, DEFAULT_LADDER, ["h264", "av1"]))).toEqual([
      "144p",
      "240p",
      "360p",
      "480p",
      "720p",
      "144p-av1",
      "240p-av1",
      "360p-av1",
    ]);
    // A small source's own size is twinned too; a ladder without AV1 has none.
    expect(named(planLadder({ width: 400, height: 300 }, DEFAULT_LADDER, ["h264", "av1"]))).toEqual([
      "144p",
      "240p",
      "300p",
      "144p-av1",
      "240p-av1",
      "300p-av1",
    ]);
    expect(named(planLadder({ width: 1280, height: 720 }, DEFAULT_LADDER, ["h264"]))).not.toContain("240p-av1");
  });

  it("gives each AV1 rung the H.264 rung's picture for fewer bits, and Opus for AAC", () => {
    const plan = planLadder({ width: 1280, height: 720 }, [144, 240, 360], ["h264", "av1"]);
    for (const rung of [144, 240, 360]) {
      const h264 = plan.find((spec) => spec.rung === rung && spec.codec === "h264")!;
      const av1 = plan.find((spec) => spec.rung === rung && spec.codec === "av1")!;
      expect(`${av1.width}x${av1.height}`).toBe(`${h264.width}x${h264.height}`);
      expect(av1.videoKbps / h264.videoKbps).toBeGreaterThan(0.4);
      expect(av1.videoKbps / h264.videoKbps).toBeLessThan(0.75);
      expect(av1.audioKbps).toBeLessThan(h264.audioKbps);
      expect(av1.audioChannels).toBe(h264.audioChannels);
    }
    // Between reference rungs the AV1 bitrate grows with the picture, as H.264's does.
    expect(videoKbpsFor(300, "av1")).toBeGreaterThan(videoKbpsFor(240, "av1"));
    expect(videoKbpsFor(300, "av1")).toBeLessThan(videoKbpsFor(360, "av1"));
  });

  it("makes the AV1 rungs last, in one pass of their own: nothing H.264 waits for them", () => {
    const passes = ladderPasses(planLadder({ width: 1280, height: 720 }, DEFAULT_LADDER, ["h264", "av1"])).map(named);
    expect(passes).toEqual([["144p"], ["240p", "360p"], ["480p", "720p"], ["144p-av1", "240p-av1", "360p-av1"]]);
    expect(firstPassRungs(planLadder({ width: 640, height: 360 }, DEFAULT_LADDER, ["h264", "av1"]))).toHaveLength(1);
  });

  it("reads LADDER_CODECS: both by default, H.264 alone to turn AV1 off, never without H.264", () => {
    expect(parseLadderCodecs(undefined)).toEqual({ ok: true, codecs: ["h264", "av1"] });
    expect(parseLadderCodecs(" AV1 , h264 ")).toEqual({ ok: true, codecs: ["h264", "av1"] });
    expect(parseLadderCodecs("h264")).toEqual({ ok: true, codecs: ["h264"] });
    expect(parseLadderCodecs("av1")).toMatchObject({ ok: false });
    expect(parseLadderCodecs("h264,vp9")).toMatchObject({ ok: false, message: expect.stringContaining("vp9") });
    expect(() => parseEnv({ SESSION_SECRET: "x".repeat(32), LADDER_CODECS: "hevc" })).toThrow(/LADDER_CODECS/);
  });

  it("encodes AV1 with SVT-AV1 and Opus, keyframes every two seconds of the source's frames", async () => {
    const { ladderArguments } = await import("~/media/ladder-encode.server");
    const plan = planLadder({ width: 1280, height: 720 }, [144, 240], ["h264", "av1"]);
    const av1 = ladderArguments("in.mp4", "/tmp/w", plan.slice(2), { hasAudio: true, frameRate: 30000 / 1001 });
    const joined = av1.join(" ");
    expect(joined).toContain("-c:v libsvtav1");
    expect(joined).toContain("-g 60");
    expect(joined).toContain("-c:a libopus");
    expect(joined).toContain("name:144p-av1");
    expect(joined).not.toContain("libx264");
    expect(() => ladderArguments("in.mp4", "/tmp/w", plan, { hasAudio: true })).toThrow(/one family/);
  });

  it("reads the exact CODECS of an AV1 rung from its init section", async () => {
    const { av1CodecsFromInit } = await import("~/media/ladder-encode.server");
    // av1C: marker+version 0x81, profile 0 / level 8 (4.0), Main tier, 8-bit.
    const box = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from("av1C"), Buffer.from([0x81, 0x08, 0x0c, 0])]);
    expect(av1CodecsFromInit(Buffer.concat([Buffer.alloc(20), box]), true)).toBe("av01.0.08M.08,opus");
    // High tier, 10-bit, no sound.
    const high = Buffer.concat([Buffer.from("av1C"), Buffer.from([0x81, 0x05, 0xc0, 0])]);
    expect(av1CodecsFromInit(high, false)).toBe("av01.0.05H.10");
    expect(av1CodecsFromInit(Buffer.from("no box here"), false)).toBeNull();
  });
});

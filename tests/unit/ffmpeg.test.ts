import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { makeVideoFixture } from "../fixtures/media";
import {
  extractFramePng,
  findNpmBinary,
  MediaBinaryNotFoundError,
  MediaToolError,
  localInput,
  probeMedia,
  resolveMediaBinary,
  runFfmpeg,
  watchMediaTools,
} from "~/media/ffmpeg.server";

let workDir: string;
let fakeBinDir: string;
let fakeFfmpeg: string;

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-ffmpeg-"));
  fakeBinDir = path.join(workDir, "bin");
  fs.mkdirSync(fakeBinDir);
  fakeFfmpeg = path.join(fakeBinDir, "ffmpeg");
  fs.writeFileSync(fakeFfmpeg, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
});

afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("finding the ffmpeg and ffprobe binaries", () => {
  it("uses FFMPEG_PATH from the environment when it is set", async () => {
    vi.stubEnv("FFMPEG_PATH", fakeFfmpeg);
    vi.resetModules();
    // A fresh module graph, so the environment module reads the stubbed variable.
    const media = await import("~/media/ffmpeg.server");
    expect(media.mediaBinary("ffmpeg")).toEqual({ tool: "ffmpeg", path: fakeFfmpeg, source: "configured" });
  });

  it("prefers a configured path over the one on PATH", () => {
    const resolved = resolveMediaBinary("ffmpeg", { configuredPath: fakeFfmpeg, searchPath: "/usr/bin:/bin" });
    expect(resolved).toEqual({ tool: "ffmpeg", path: fakeFfmpeg, source: "configured" });
  });

  it("refuses a configured path that is not an executable file, naming the variable", () => {
    const missing = path.join(workDir, "no-such-ffmpeg");
    expect(() => resolveMediaBinary("ffmpeg", { configuredPath: missing })).toThrow(MediaBinaryNotFoundError);
    expect(() => resolveMediaBinary("ffprobe", { configuredPath: missing })).toThrow(/FFPROBE_PATH/);
    const notExecutable = path.join(workDir, "ffmpeg-not-executable");
    fs.writeFileSync(notExecutable, "", { mode: 0o644 });
    expect(() => resolveMediaBinary("ffmpeg", { configuredPath: notExecutable })).toThrow(/not an executable file/);
  });

  it("takes the system's binary from PATH when nothing is configured", () => {
    expect(
      resolveMediaBinary("ffmpeg", { searchPath: `${path.join(workDir, "empty")}${path.delimiter}${fakeBinDir}` }),
    ).toEqual({
      tool: "ffmpeg",
      path: fakeFfmpeg,
      source: "system",
    });
  });

  it("falls back to the npm packages when PATH has none", () => {
    const ffmpeg = resolveMediaBinary("ffmpeg", { searchPath: "" });
    const ffprobe = resolveMediaBinary("ffprobe", { searchPath: "" });
    expect(ffmpeg.source).toBe("npm");
    expect(ffmpeg.path).toContain("@ffmpeg-installer");
    expect(ffprobe.source).toBe("npm");
    expect(ffprobe.path).toContain("@ffprobe-installer");
    expect(findNpmBinary("ffprobe")).toBe(ffprobe.path);
    fs.accessSync(ffprobe.path, fs.constants.X_OK);
  });

  it("says what to do when no binary can be found anywhere", () => {
    expect(() => resolveMediaBinary("ffprobe", { searchPath: "", useNpmPackage: false })).toThrow(
      /ffprobe was not found.*FFPROBE_PATH/,
    );
  });
});

describe("running ffmpeg and ffprobe", () => {
  it("encodes, probes and takes a frame from a short clip", async () => {
    const clip = await makeVideoFixture(workDir, "mp4-faststart", 1.5, "320x180");
    const probe = await probeMedia(clip);
    expect(probe).toMatchObject({
      width: 320,
      height: 180,
      videoCodec: "h264",
      audioCodec: "aac",
      pixelFormat: "yuv420p",
    });
    expect(probe.formatName).toContain("mp4");
    expect(probe.durationSeconds).toBeGreaterThan(1.3);
    expect(probe.durationSeconds).toBeLessThan(1.8);
    expect(probe.sizeBytes).toBe(fs.statSync(clip).size);

    const frame = await extractFramePng(clip, 0.5);
    expect(frame.subarray(1, 4).toString("ascii")).toBe("PNG");
  });

  it("rejects with ffmpeg's own words when it fails", async () => {
    const missing = path.join(workDir, "missing.mp4");
    const failure = await runFfmpeg(["-i", missing, "-f", "null", "-"]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MediaToolError);
    expect((failure as MediaToolError).exitCode).not.toBe(0);
    expect((failure as MediaToolError).message).toMatch(/ffmpeg exited with code \d+: .*No such file or directory/s);
  });

  it("rejects for a file ffprobe cannot read", async () => {
    const notMedia = path.join(workDir, "not-media.mp4");
    fs.writeFileSync(notMedia, "this is not a video");
    await expect(probeMedia(notMedia)).rejects.toThrow(/ffprobe exited with code/);
  });

  it("reads an upload only as a local file of an accepted format: a playlist posing as an MP4 cannot pull in another file", async () => {
    // A real video elsewhere on the server, and an "upload" that is an HLS playlist naming it.
    const secret = path.join(workDir, "elsewhere.ts");
    await runFfmpeg([
      "-f",
      "lavfi",
      "-i",
      "testsrc2=s=64x64:r=25",
      "-t",
      "1",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-f",
      "mpegts",
      secret,
    ]);
    const crafted = path.join(workDir, "crafted.mp4");
    fs.writeFileSync(
      crafted,
      `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nfile:${secret}\n#EXTINF:1.0,\n${secret}\n#EXT-X-ENDLIST\n`,
    );
    await expect(probeMedia(crafted)).rejects.toThrow(MediaToolError);
    const transcoded = path.join(workDir, "out.png");
    await expect(runFfmpeg([...localInput(crafted), "-frames:v", "1", transcoded])).rejects.toThrow(MediaToolError);
    expect(fs.existsSync(transcoded)).toBe(false);
  });

  it("stops a run that takes too long", async () => {
    const failure = await runFfmpeg(
      ["-re", "-f", "lavfi", "-i", "testsrc2=s=64x64:r=25", "-t", "30", "-f", "null", "-"],
      {
        timeoutMs: 300,
      },
    ).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(/timed out after 300 ms/);
  });

  it("runs an AV1 encode at the nice value it is given, never at real-time priority (SVT-AV1 takes that where it may, as root does)", async () => {
    /** Each thread's scheduling policy (0 ordinary, 1 FIFO, 2 round robin) and nice value, from /proc. */
    const threads = (pid: number) =>
      fs.readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
        try {
          const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1].split(" ");
          // After the name: field 3 is the state; 19 the nice value, 41 the policy.
          return [{ nice: Number(fields[19 - 3]), policy: Number(fields[41 - 3]) }];
        } catch {
          return [];
        }
      });
    let seen: Array<{ nice: number; policy: number }> = [];
    const encode = watchMediaTools(
      (pid) => {
        if (pid === null) return;
        // Once SVT-AV1 has made its threads (it makes them at the encoder's start).
        const look = setInterval(() => {
          try {
            const now = threads(pid);
            if (now.length > seen.length) seen = now;
          } catch {
            clearInterval(look);
          }
        }, 100);
        setTimeout(() => clearInterval(look), 4_000);
      },
      () =>
        runFfmpeg(
          [
            "-f",
            "lavfi",
            "-i",
            "testsrc2=s=320x180:r=25",
            "-t",
            "4",
            "-c:v",
            "libsvtav1",
            "-preset",
            "8",
            "-f",
            "null",
            "-",
          ],
          { niceness: 10 },
        ),
    );
    await encode;
    expect(seen.length).toBeGreaterThan(8);
    expect(seen.filter((thread) => thread.policy !== 0)).toEqual([]);
    expect(new Set(seen.map((thread) => thread.nice))).toEqual(new Set([10]));
  });
});

import fs from "node:fs";
import path from "node:path";
import { moveIntoPlace } from "./atomic-files.server";
import { localInput, runFfmpeg } from "./ffmpeg.server";
import { codecsByUri, joinShortTail, parseMediaPlaylist, playlistStats, writeMediaPlaylist } from "./hls";
import { rungName, type RungSpec } from "./ladder";
import { renditionFileName } from "./storage.server";

/**
 * Encode rungs of the adaptive ladder in one ffmpeg run: the source is
 * decoded once and scaled down step by step, one H.264 encoder per rung, then
 * packaged by ffmpeg's HLS muxer as one fragmented MP4 file per rung.
 *
 * Keyframes fall every 2 seconds on the same timestamps in every rung (forced
 * by time, no scene-cut keyframes), so a player can switch rungs at any
 * segment boundary. ffmpeg cuts 2-second segments, which we keep (on a
 * 500 kbps link with 300 ms round trips they gave no stall and 1.6 s seeks
 * where 4-second ones stalled once and took 2.7–3 s: see the decision record)
 * and write each rung's playlist ourselves: relative file name, byte ranges
 * without repeated offsets, a sliver of a last segment joined to the one
 * before, peak and average bandwidth from the real sizes.
 */

export const KEYFRAME_SECONDS = 2;

export type EncodedRung = RungSpec & {
  bandwidth: number;
  averageBandwidth: number;
  codecs: string;
  sizeBytes: number;
  durationSeconds: number;
};

/**
 * The filter graph: the decoded picture is scaled down rung by rung, each
 * rung from the one above it (a chain of small box-filter steps costs less
 * than scaling the full picture once per rung), and each step is split off
 * to its encoder. Outputs are labelled v0… in the order of `rungs`.
 */
export function ladderFilter(rungs: readonly RungSpec[]): string {
  const order = rungs.map((spec, index) => ({ spec, index })).sort((a, b) => b.spec.rung - a.spec.rung);
  const steps = order.map(({ spec, index }, position) => {
    const input = position === 0 ? "[0:v:0]" : `[c${position}]`;
    const scaled = `${input}scale=${spec.width}:${spec.height}:flags=area,setsar=1`;
    return position === order.length - 1 ? `${scaled}[v${index}]` : `${scaled},split=2[v${index}][c${position + 1}]`;
  });
  return steps.join(";");
}

/** The encoder options of an H.264 + AAC pass. */
function h264Arguments(rungs: readonly RungSpec[], hasAudio: boolean): string[] {
  const args = [
    // veryfast with the diamond motion search: 5–9 % less CPU than veryfast's hexagon for an SSIM
    // 0.0004 lower on a 720p rung (see the decision record); the ladder is CPU-bound on 2 cores.
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-x264-params",
    "me=dia",
    "-pix_fmt",
    "yuv420p",
    "-sc_threshold",
    "0",
    "-g",
    "1000",
    "-keyint_min",
    "1",
    "-force_key_frames",
    `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`,
  ];
  rungs.forEach((spec, index) => {
    args.push(
      `-profile:v:${index}`,
      spec.profile,
      `-b:v:${index}`,
      `${spec.videoKbps}k`,
      `-maxrate:v:${index}`,
      `${spec.maxVideoKbps}k`,
      `-bufsize:v:${index}`,
      `${spec.bufferKbits}k`,
    );
    if (hasAudio) args.push(`-b:a:${index}`, `${spec.audioKbps}k`, `-ac:a:${index}`, String(spec.audioChannels));
  });
  if (hasAudio) args.push("-c:a", "aac", "-ar", "48000");
  return args;
}

/** SVT-AV1's speed: preset 8 gives H.264's SSIM at half its bitrate for about 3× the H.264 ladder's CPU at these sizes (the decision record). */
export const AV1_PRESET = 8;
/** The AV1 pass's nice value (Linux: 0 is the server's own priority, 19 the lowest). */
export const AV1_NICENESS = 10;

/**
 * The encoder options of an AV1 + Opus pass. SVT-AV1 (as ffmpeg 5.1 drives it)
 * does not take forced keyframes, so its keyframe interval is two seconds of
 * the source's frames: the same times as the H.264 rungs' at a whole frame
 * rate (25, 30), and the same among the AV1 rungs always, which is what a
 * player switching AV1 rungs needs. No scene-cut keyframes (`scd=0`).
 */
function av1Arguments(rungs: readonly RungSpec[], hasAudio: boolean, frameRate: number | null): string[] {
  const gop = Math.max(1, Math.round(KEYFRAME_SECONDS * (frameRate ?? 25)));
  const args = [
    "-c:v",
    "libsvtav1",
    "-preset",
    String(AV1_PRESET),
    "-pix_fmt",
    "yuv420p",
    "-g",
    String(gop),
    "-svtav1-params",
    "scd=0",
  ];
  rungs.forEach((spec, index) => {
    args.push(`-b:v:${index}`, `${spec.videoKbps}k`);
    if (hasAudio) args.push(`-b:a:${index}`, `${spec.audioKbps}k`, `-ac:a:${index}`, String(spec.audioChannels));
  });
  if (hasAudio) args.push("-c:a", "libopus", "-ar", "48000");
  return args;
}

export function ladderArguments(
  source: string,
  workDir: string,
  rungs: readonly RungSpec[],
  options: { hasAudio: boolean; frameRate?: number | null },
): string[] {
  const codec = rungs[0]?.codec ?? "h264";
  if (rungs.some((spec) => spec.codec !== codec)) throw new Error("one ffmpeg run makes rungs of one family");
  const filter = ladderFilter(rungs);
  const args = [...localInput(source), "-filter_complex", filter];
  rungs.forEach((_, index) => {
    args.push("-map", `[v${index}]`);
    if (options.hasAudio) args.push("-map", "0:a:0");
  });
  args.push(
    ...(codec === "av1"
      ? av1Arguments(rungs, options.hasAudio, options.frameRate ?? null)
      : h264Arguments(rungs, options.hasAudio)),
  );
  const streamMap = rungs
    .map((spec, index) => `v:${index}${options.hasAudio ? `,a:${index}` : ""},name:${rungName(spec.rung, spec.codec)}`)
    .join(" ");
  args.push(
    "-max_muxing_queue_size",
    "4096",
    "-f",
    "hls",
    "-hls_time",
    String(KEYFRAME_SECONDS),
    "-hls_playlist_type",
    "vod",
    "-hls_segment_type",
    "fmp4",
    "-hls_flags",
    "single_file+independent_segments",
    "-var_stream_map",
    streamMap,
    "-master_pl_name",
    "pass.m3u8",
    "-hls_segment_filename",
    path.join(workDir, "%v.mp4"),
    path.join(workDir, "%v-ffmpeg.m3u8"),
  );
  return args;
}

/**
 * The exact CODECS value of an AV1 rung ("av01.0.04M.08"), read from its
 * init section's AV1 configuration box (profile, level, tier, bit depth), with
 * "opus" for its sound. Null when the box is missing.
 */
export function av1CodecsFromInit(init: Buffer, hasAudio: boolean): string | null {
  const at = init.indexOf("av1C");
  if (at < 0 || at + 7 > init.length) return null;
  const first = init[at + 5];
  const second = init[at + 6];
  const profile = first >> 5;
  const level = first & 0x1f;
  const tier = second & 0x80 ? "H" : "M";
  const highBitDepth = (second & 0x40) !== 0;
  const twelveBit = (second & 0x20) !== 0;
  const depth = highBitDepth ? (profile === 2 && twelveBit ? 12 : 10) : 8;
  const video = `av01.${profile}.${String(level).padStart(2, "0")}${tier}.${String(depth).padStart(2, "0")}`;
  return hasAudio ? `${video},opus` : video;
}

function readRange(file: string, range: { offset: number; length: number }): Buffer {
  const buffer = Buffer.alloc(range.length);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, buffer, 0, range.length, range.offset);
  } finally {
    fs.closeSync(fd);
  }
  return buffer;
}

/**
 * Encode `rungs` from `source` and move each finished rung into `hlsDir`
 * (its media file first, then its playlist, so a playlist never names a
 * missing file). `workDir` must be on the same file system (STORAGE_DIR/tmp);
 * it is removed afterwards, whatever happens.
 */
export async function encodeRungs(
  source: string,
  rungs: readonly RungSpec[],
  options: { hasAudio: boolean; frameRate?: number | null; workDir: string; hlsDir: string; timeoutMs: number },
): Promise<EncodedRung[]> {
  if (rungs.length === 0) return [];
  fs.mkdirSync(options.workDir, { recursive: true });
  try {
    await runFfmpeg(ladderArguments(source, options.workDir, rungs, options), {
      timeoutMs: options.timeoutMs,
      // AV1 takes the CPU the serving and the H.264 ladder leave: it never makes a page or a film wait.
      niceness: rungs[0]?.codec === "av1" ? AV1_NICENESS : 0,
    });
    const codecs = codecsByUri(fs.readFileSync(path.join(options.workDir, "pass.m3u8"), "utf8"));
    const encoded: EncodedRung[] = [];
    for (const spec of rungs) {
      const name = rungName(spec.rung, spec.codec);
      const parsed = parseMediaPlaylist(fs.readFileSync(path.join(options.workDir, `${name}-ffmpeg.m3u8`), "utf8"));
      const mediaName = renditionFileName(spec.rung, "media", spec.codec);
      const playlist = {
        uri: mediaName,
        init: parsed.init,
        segments: joinShortTail(parsed.segments, KEYFRAME_SECONDS / 2),
      };
      const stats = playlistStats(playlist);
      const playlistFile = path.join(options.workDir, renditionFileName(spec.rung, "playlist", spec.codec));
      fs.writeFileSync(playlistFile, writeMediaPlaylist(playlist));
      const mediaFile = path.join(options.workDir, parsed.uri);
      const { size } = fs.statSync(mediaFile);
      encoded.push({
        ...spec,
        bandwidth: stats.bandwidth,
        averageBandwidth: stats.averageBandwidth,
        codecs:
          spec.codec === "av1"
            ? (av1CodecsFromInit(readRange(mediaFile, parsed.init), options.hasAudio) ??
              (options.hasAudio ? "av01.0.04M.08,opus" : "av01.0.04M.08"))
            : (codecs.get(`${name}-ffmpeg.m3u8`) ?? (options.hasAudio ? "avc1.4d401e,mp4a.40.2" : "avc1.4d401e")),
        sizeBytes: size,
        durationSeconds: stats.durationSeconds,
      });
    }
    for (const spec of rungs) {
      moveIntoPlace(
        path.join(options.workDir, `${rungName(spec.rung, spec.codec)}.mp4`),
        path.join(options.hlsDir, renditionFileName(spec.rung, "media", spec.codec)),
      );
      moveIntoPlace(
        path.join(options.workDir, renditionFileName(spec.rung, "playlist", spec.codec)),
        path.join(options.hlsDir, renditionFileName(spec.rung, "playlist", spec.codec)),
      );
    }
    return encoded;
  } finally {
    fs.rmSync(options.workDir, { recursive: true, force: true });
  }
}

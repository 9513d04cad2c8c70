import fs from "node:fs";
import path from "node:path";
import { moveIntoPlace } from "./atomic-files.server";
import { localInput, runFfmpeg } from "./ffmpeg.server";
import { codecsByUri, joinShortTail, parseMediaPlaylist, playlistStats, writeMediaPlaylist } from "./hls";
import type { RungSpec } from "./ladder";
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

export function ladderArguments(
  source: string,
  workDir: string,
  rungs: readonly RungSpec[],
  options: { hasAudio: boolean },
): string[] {
  const filter = ladderFilter(rungs);
  const args = [...localInput(source), "-filter_complex", filter];
  rungs.forEach((_, index) => {
    args.push("-map", `[v${index}]`);
    if (options.hasAudio) args.push("-map", "0:a:0");
  });
  args.push(
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
  );
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
    if (options.hasAudio)
      args.push(`-b:a:${index}`, `${spec.audioKbps}k`, `-ac:a:${index}`, String(spec.audioChannels));
  });
  if (options.hasAudio) args.push("-c:a", "aac", "-ar", "48000");
  const streamMap = rungs
    .map((spec, index) => `v:${index}${options.hasAudio ? `,a:${index}` : ""},name:${spec.rung}p`)
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
 * Encode `rungs` from `source` and move each finished rung into `hlsDir`
 * (its media file first, then its playlist, so a playlist never names a
 * missing file). `workDir` must be on the same file system (STORAGE_DIR/tmp);
 * it is removed afterwards, whatever happens.
 */
export async function encodeRungs(
  source: string,
  rungs: readonly RungSpec[],
  options: { hasAudio: boolean; workDir: string; hlsDir: string; timeoutMs: number },
): Promise<EncodedRung[]> {
  if (rungs.length === 0) return [];
  fs.mkdirSync(options.workDir, { recursive: true });
  try {
    await runFfmpeg(ladderArguments(source, options.workDir, rungs, options), { timeoutMs: options.timeoutMs });
    const codecs = codecsByUri(fs.readFileSync(path.join(options.workDir, "pass.m3u8"), "utf8"));
    const encoded: EncodedRung[] = [];
    for (const spec of rungs) {
      const name = `${spec.rung}p`;
      const parsed = parseMediaPlaylist(fs.readFileSync(path.join(options.workDir, `${name}-ffmpeg.m3u8`), "utf8"));
      const mediaName = renditionFileName(spec.rung, "media");
      const playlist = {
        uri: mediaName,
        init: parsed.init,
        segments: joinShortTail(parsed.segments, KEYFRAME_SECONDS / 2),
      };
      const stats = playlistStats(playlist);
      const playlistFile = path.join(options.workDir, renditionFileName(spec.rung, "playlist"));
      fs.writeFileSync(playlistFile, writeMediaPlaylist(playlist));
      const mediaFile = path.join(options.workDir, parsed.uri);
      const { size } = fs.statSync(mediaFile);
      encoded.push({
        ...spec,
        bandwidth: stats.bandwidth,
        averageBandwidth: stats.averageBandwidth,
        codecs: codecs.get(`${name}-ffmpeg.m3u8`) ?? (options.hasAudio ? "avc1.4d401e,mp4a.40.2" : "avc1.4d401e"),
        sizeBytes: size,
        durationSeconds: stats.durationSeconds,
      });
    }
    for (const spec of rungs) {
      moveIntoPlace(
        path.join(options.workDir, `${spec.rung}p.mp4`),
        path.join(options.hlsDir, renditionFileName(spec.rung, "media")),
      );
      moveIntoPlace(
        path.join(options.workDir, renditionFileName(spec.rung, "playlist")),
        path.join(options.hlsDir, renditionFileName(spec.rung, "playlist")),
      );
    }
    return encoded;
  } finally {
    fs.rmSync(options.workDir, { recursive: true, force: true });
  }
}

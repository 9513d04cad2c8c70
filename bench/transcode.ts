/**
 * Transcode speed: seconds of 720p video converted per second of wall time,
 * with the same ffmpeg arguments the processing job uses. `npm run bench:transcode`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mediaBinary, probeMedia, runFfmpeg } from "../app/media/ffmpeg.server";
import { transcodeArguments } from "../app/jobs/process-movie.server";

const SECONDS = Number(process.env.BENCH_TRANSCODE_SECONDS ?? 30);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-bench-transcode-"));
const source = path.join(dir, "source.avi");
await runFfmpeg([
  "-y",
  "-hide_banner",
  "-loglevel",
  "error",
  "-f",
  "lavfi",
  "-i",
  `testsrc2=size=1280x720:rate=25`,
  "-f",
  "lavfi",
  "-i",
  "sine=frequency=330:sample_rate=48000",
  "-t",
  String(SECONDS),
  "-c:v",
  "mpeg4",
  "-q:v",
  "3",
  "-c:a",
  "pcm_s16le",
  source,
]);
const probe = await probeMedia(source);
const output = path.join(dir, "video.mp4");
const started = process.hrtime.bigint();
await runFfmpeg(transcodeArguments(source, output, probe));
const wall = Number(process.hrtime.bigint() - started) / 1e9;
const result = await probeMedia(output);
console.log(
  `\nTranscode of ${SECONDS} s of 1280x720 MPEG-4 Part 2 (.avi) to H.264/AAC with ${mediaBinary("ffmpeg").source} ffmpeg`,
);
console.log(
  `  ${wall.toFixed(1)} s wall, ${(SECONDS / wall).toFixed(2)} s of video per second; output ${result.videoCodec}/${result.audioCodec} ${result.width}x${result.height}`,
);
fs.rmSync(dir, { recursive: true, force: true });

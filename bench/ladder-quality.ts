/**
 * Each rung of the ladder against its source: the picture's SSIM and the
 * encoder's CPU time, for the H.264 + AAC rungs and their AV1 + Opus twins,
 * made exactly as the ladder job makes them (`encodeRungs`, one rung per
 * run so each one's time is its own).
 *
 * Method: the first BENCH_QUALITY_SECONDS (120) of the source are cut out
 * (stream copy); each rung is encoded from that cut alone; SSIM is ffmpeg's
 * `ssim` filter ("All", luma and chroma) between the rung as a browser decodes
 * it and the source scaled down to the rung's size with the ladder's own
 * filter (area, square pixels); kbps is the rung file's average bitrate
 * (what a viewer downloads: video, sound and the MP4 boxes). CPU is the
 * user + system time of the ffmpeg child (from /proc/self/stat's cutime and
 * cstime), per minute of film.
 *
 *   npm run bench:ladder-quality [film.mp4 …]
 *
 * Without files it measures the playback bench's 720p film (made if missing)
 * and one demo film as the demo makes them. bench:playback runs it too.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { probeMedia } from "../app/media/ffmpeg.server";
import { encodeRungs } from "../app/media/ladder-encode.server";
import { DEFAULT_LADDER, planLadder, rungName, type RungSpec } from "../app/media/ladder";

const QUALITY_SECONDS = Number(process.env.BENCH_QUALITY_SECONDS ?? 120);
const FFMPEG = process.env.FFMPEG_PATH ?? "ffmpeg";

export type RungQuality = {
  rung: number;
  codec: RungSpec["codec"];
  width: number;
  height: number;
  kbps: number;
  ssim: number;
  /** Encoder CPU seconds per minute of film (this rung alone). */
  cpuPerMinute: number;
  /** Wall seconds per minute of film on this box. */
  wallPerMinute: number;
};

/** CPU seconds of this process's children that have ended (cutime + cstime). */
function childCpuSeconds(): number {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  // After "pid (comm) ", the fields start at state (3rd): cutime is the 16th field, cstime the 17th.
  const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
  return ticks / 100;
}

/** ffmpeg prints the SSIM summary on stderr (at its info level): read "All:0.98…" from it. */
function ssimOf(rungFile: string, source: string, spec: RungSpec): number {
  execFileSync(
    "sh",
    [
      "-c",
      `"$0" -hide_banner -nostdin -i "$1" -i "$2" -lavfi "$3" -f null - 2>&1 | grep -o 'All:[0-9.]*' | tail -1 > "$4"`,
      FFMPEG,
      rungFile,
      source,
      `[1:v]scale=${spec.width}:${spec.height}:flags=area,setsar=1[reference];[0:v][reference]ssim`,
      `${rungFile}.ssim`,
    ],
    { stdio: "ignore" },
  );
  return Number(fs.readFileSync(`${rungFile}.ssim`, "utf8").trim().replace("All:", ""));
}

/** Measure every rung (both families) of `film`'s ladder on its first QUALITY_SECONDS. */
export async function measureLadderQuality(film: string): Promise<{ seconds: number; rungs: RungQuality[] }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-ladder-quality-"));
  try {
    const cut = path.join(work, "source.mp4");
    execFileSync(FFMPEG, [
      "-hide_banner",
      "-nostdin",
      "-loglevel",
      "error",
      "-y",
      "-i",
      film,
      "-t",
      String(QUALITY_SECONDS),
      "-c",
      "copy",
      cut,
    ]);
    const probe = await probeMedia(cut);
    const minutes = probe.durationSeconds / 60;
    const plan = planLadder(probe, DEFAULT_LADDER, ["h264", "av1"]);
    const rungs: RungQuality[] = [];
    for (const spec of plan) {
      const hlsDir = path.join(work, `out-${rungName(spec.rung, spec.codec)}`);
      fs.mkdirSync(hlsDir);
      const cpuBefore = childCpuSeconds();
      const started = Date.now();
      const [encoded] = await encodeRungs(cut, [spec], {
        hasAudio: probe.audioCodec !== null,
        frameRate: probe.frameRate,
        workDir: path.join(work, "tmp"),
        hlsDir,
        timeoutMs: 60 * 60_000,
      });
      const wall = (Date.now() - started) / 1000;
      const cpu = childCpuSeconds() - cpuBefore;
      const file = path.join(hlsDir, `${rungName(spec.rung, spec.codec)}.mp4`);
      rungs.push({
        rung: spec.rung,
        codec: spec.codec,
        width: spec.width,
        height: spec.height,
        kbps: encoded!.averageBandwidth / 1000,
        ssim: ssimOf(file, cut, spec),
        cpuPerMinute: cpu / minutes,
        wallPerMinute: wall / minutes,
      });
    }
    return { seconds: probe.durationSeconds, rungs };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export function printLadderQuality(label: string, measured: { seconds: number; rungs: RungQuality[] }): void {
  console.log(
    `\nEach rung against the source: ${label}, its first ${measured.seconds.toFixed(0)} s, on ${os.cpus().length} cores (SSIM All vs the source scaled to the rung; kbps = the rung file's average; encoder CPU and wall per minute of film, the rung made alone)`,
  );
  console.log("      rung    size      kbps    SSIM  CPU s/min  wall s/min   AV1 vs H.264: kbps  SSIM");
  for (const rung of measured.rungs) {
    const twin =
      rung.codec === "av1"
        ? measured.rungs.find((candidate) => candidate.codec === "h264" && candidate.rung === rung.rung)
        : undefined;
    const versus = twin
      ? `   ${(rung.kbps / twin.kbps).toFixed(2)}×  ${rung.ssim >= twin.ssim ? "≥" : "<"} (${(rung.ssim - twin.ssim >= 0 ? "+" : "") + (rung.ssim - twin.ssim).toFixed(5)}) ${rung.ssim >= twin.ssim ? "✓" : "✗"}`
      : "";
    console.log(
      `  ${rungName(rung.rung, rung.codec).padStart(9)} ${`${rung.width}x${rung.height}`.padStart(9)} ${rung.kbps.toFixed(0).padStart(7)} ${rung.ssim.toFixed(5)} ${rung.cpuPerMinute.toFixed(1).padStart(9)} ${rung.wallPerMinute.toFixed(1).padStart(10)}${versus}`,
    );
  }
  const cpu = (codec: RungSpec["codec"]) =>
    measured.rungs.filter((rung) => rung.codec === codec).reduce((sum, rung) => sum + rung.cpuPerMinute, 0);
  console.log(
    `  encoder CPU per minute of film, rungs made one by one: H.264 ladder ${cpu("h264").toFixed(1)} s, AV1 + Opus rungs ${cpu("av1").toFixed(1)} s (+${((cpu("av1") / cpu("h264")) * 100).toFixed(0)} %)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    const { makeFilm } = await import("./playback-film");
    files.push(await makeFilm(Math.max(1, Math.ceil(QUALITY_SECONDS / 60))));
    // A demo film's picture (the desert title's zoom), made as the demo makes its films, a minute long.
    const demo = path.join(os.tmpdir(), "kallo-ladder-quality-demo-60s.mp4");
    if (!fs.existsSync(demo)) {
      const { writeDemoFilm } = await import("../app/demo/demo-media.server");
      const { DEMO_TITLES } = await import("../app/demo/demo-catalogue");
      const title = DEMO_TITLES.find((candidate) => candidate.id === "demomovie09")!;
      await writeDemoFilm(
        {
          title: title.name,
          subtitle: "Demo",
          accent: "#f59e0b",
          visual: title.visual,
          toneHz: title.toneHz,
          durationSeconds: 60,
        },
        demo,
        os.tmpdir(),
      );
    }
    files.push(demo);
  }
  for (const file of files) printLadderQuality(path.basename(file), await measureLadderQuality(file));
}

import { AsyncLocalStorage } from "node:async_hooks";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { getEnv } from "~/utils/env.server";

/**
 * ffmpeg and ffprobe, found once per process and always run without a shell
 * (arguments are passed as an array, so file names can never be interpreted).
 *
 * Which binary is used, in order:
 *   1. FFMPEG_PATH / FFPROBE_PATH when set (an operator's explicit choice: a wrong
 *      path is an error, never silently replaced);
 *   2. `ffmpeg` / `ffprobe` on PATH (the system's build, usually the newest);
 *   3. the binaries shipped by @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe,
 *      so `npm install` alone is enough.
 */

/**
 * H.264 as every browser plays it, at the quality Kallo keeps a film (an
 * upload's playable copy, the demo's films): CRF 23, veryfast, 4:2:0.
 */
export const BROWSER_H264_ARGS = [
  "-c:v",
  "libx264",
  "-preset",
  "veryfast",
  "-crf",
  "23",
  "-pix_fmt",
  "yuv420p",
] as const;

export type MediaTool = "ffmpeg" | "ffprobe";

export type ResolvedBinary = { tool: MediaTool; path: string; source: "configured" | "system" | "npm" };

const NPM_PACKAGES: Record<MediaTool, string> = {
  ffmpeg: "@ffmpeg-installer/ffmpeg",
  ffprobe: "@ffprobe-installer/ffprobe",
};

function binaryFileName(tool: MediaTool): string {
  return process.platform === "win32" ? `${tool}.exe` : tool;
}

function isExecutableFile(filePath: string): boolean {
  try {
    if (!fs.statSync(filePath).isFile()) return false;
    fs.accessSync(filePath, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `tool` in a PATH-style list of folders, or null. */
export function findOnPath(tool: MediaTool, searchPath = process.env.PATH ?? ""): string | null {
  for (const folder of searchPath.split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, binaryFileName(tool));
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/**
 * The binary shipped by the npm package. The packages resolve a per-platform
 * package (for example @ffprobe-installer/linux-x64); some installs leave that
 * file without its execute bit, so it is added here when missing.
 */
export function findNpmBinary(tool: MediaTool): string | null {
  const require = createRequire(import.meta.url);
  let binaryPath: string | null = null;
  try {
    binaryPath = (require(NPM_PACKAGES[tool]) as { path: string }).path;
  } catch {
    // The index module throws when it cannot find its platform package; try that package directly.
    try {
      const platformPackage = `@${tool}-installer/${process.platform}-${process.arch}`;
      binaryPath = path.join(path.dirname(require.resolve(`${platformPackage}/package.json`)), binaryFileName(tool));
    } catch {
      return null;
    }
  }
  if (!binaryPath || !fs.existsSync(binaryPath)) return null;
  if (!isExecutableFile(binaryPath)) {
    try {
      fs.chmodSync(binaryPath, 0o755);
    } catch (error) {
      console.error(`[media] ${binaryPath} is not executable and could not be made so`, error);
      return null;
    }
    if (!isExecutableFile(binaryPath)) return null;
  }
  return binaryPath;
}

export class MediaBinaryNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MediaBinaryNotFoundError";
  }
}

/** Decide which binary runs `tool`; pure apart from file-system checks, so it can be tested. */
export function resolveMediaBinary(
  tool: MediaTool,
  options: { configuredPath?: string; searchPath?: string; useNpmPackage?: boolean } = {},
): ResolvedBinary {
  const variable = tool === "ffmpeg" ? "FFMPEG_PATH" : "FFPROBE_PATH";
  if (options.configuredPath) {
    const configured = path.resolve(options.configuredPath);
    if (!isExecutableFile(configured)) {
      throw new MediaBinaryNotFoundError(`${variable} is set to ${configured}, which is not an executable file`);
    }
    return { tool, path: configured, source: "configured" };
  }
  const onPath = findOnPath(tool, options.searchPath);
  if (onPath) return { tool, path: onPath, source: "system" };
  const fromNpm = options.useNpmPackage === false ? null : findNpmBinary(tool);
  if (fromNpm) return { tool, path: fromNpm, source: "npm" };
  throw new MediaBinaryNotFoundError(
    `${tool} was not found: install it (for example \`apt-get install ffmpeg\`), set ${variable}, or reinstall ${NPM_PACKAGES[tool]}`,
  );
}

const resolved: Partial<Record<MediaTool, ResolvedBinary>> = {};

/** The binary this process uses for `tool`, resolved on first use. */
export function mediaBinary(tool: MediaTool): ResolvedBinary {
  if (!resolved[tool]) {
    const env = getEnv();
    resolved[tool] = resolveMediaBinary(tool, { configuredPath: tool === "ffmpeg" ? env.ffmpegPath : env.ffprobePath });
  }
  return resolved[tool];
}

export class MediaToolError extends Error {
  constructor(
    message: string,
    public readonly tool: MediaTool,
    public readonly exitCode: number | null,
    public readonly stderr: string,
  ) {
    super(message);
    this.name = "MediaToolError";
  }
}

export type RunOptions = {
  /** Stop the process (SIGKILL) after this many milliseconds and reject. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Run at this nice value (0–19): work that may wait for idle CPU, so pages and playback do not. */
  niceness?: number;
};

export type RunResult = { stdout: Buffer; stderr: string };

// ffmpeg can write a great deal to stderr; the end is where the reason for a failure is.
const STDERR_KEEP_BYTES = 16 * 1024;

const globalForTools = globalThis as unknown as { __kalloMediaToolsStop?: AbortController };
const stopAll = (globalForTools.__kalloMediaToolsStop ??= new AbortController());

/** End every media tool a job runs, now and from now on (a clean stop: their jobs go back in the queue). */
export function stopAllMediaTools(): void {
  stopAll.abort();
}

/* ---------- Tools never outlive the server ---------- */

/**
 * On Linux each tool is started through util-linux's `setpriv --pdeathsig KILL`,
 * so the kernel ends it the moment the server dies, even by kill -9. Where
 * setpriv is missing, the job runner's record of the tool's pid (below) lets
 * the next start end it.
 *
 * A server that may change scheduling (root, or CAP_SYS_NICE) starts its tools
 * without that right: SVT-AV1 (1.4, Debian 12's) gives each of its ~80 threads
 * real-time priority (SCHED_FIFO 99) whenever it can, which puts a background
 * AV1 encode, meant to run at nice 10 on what serving leaves, ahead of every
 * page, every stream and the server itself. Without the right it makes ordinary
 * threads, and the nice value holds.
 */
const SETPRIV = "/usr/bin/setpriv";
const CAP_SYS_NICE = 23;
type ToolWrapper = { path: string; args: string[] };
let toolWrapperFound: ToolWrapper | null | undefined;
function toolWrapper(): ToolWrapper | null {
  if (toolWrapperFound !== undefined) return toolWrapperFound;
  if (process.platform !== "linux" || !isExecutableFile(SETPRIV)) return (toolWrapperFound = null);
  const args = ["--pdeathsig", "KILL"];
  const withoutNice = [...args, "--bounding-set", "-sys_nice", "--inh-caps", "-sys_nice"];
  // Dropping the right needs another (CAP_SETPCAP): tried once, kept only where it works.
  if (mayChangeScheduling() && spawnSync(SETPRIV, [...withoutNice, "--", "true"], { stdio: "ignore" }).status === 0)
    return (toolWrapperFound = { path: SETPRIV, args: withoutNice });
  return (toolWrapperFound = { path: SETPRIV, args });
}

/** Whether this process holds CAP_SYS_NICE (the right to real-time scheduling), from /proc/self/status. */
function mayChangeScheduling(): boolean {
  try {
    const effective = /^CapEff:\s*([0-9a-f]+)$/m.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1];
    return effective !== undefined && ((BigInt(`0x${effective}`) >> BigInt(CAP_SYS_NICE)) & 1n) === 1n;
  } catch {
    return false;
  }
}

const toolWatchers = new AsyncLocalStorage<(pid: number | null) => void>();

/** Run `work`, telling `record` the pid of each media tool it starts (and null when it ends). */
export function watchMediaTools<T>(record: (pid: number | null) => void, work: () => Promise<T>): Promise<T> {
  return toolWatchers.run(record, work);
}

/** End a media tool a killed server left running, if that pid still is one of ours (checked in /proc, so a reused pid is left alone). */
export function endStaleMediaTool(pid: number): boolean {
  let commandLine: string;
  try {
    commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return false;
  }
  const program = path.basename(commandLine.split("\0")[0] ?? "");
  if (!/^(ffmpeg|ffprobe)/.test(program)) return false;
  try {
    process.kill(pid, "SIGKILL");
    console.warn(`[media] ended ${program} (pid ${pid}) left running by a stopped server`);
    return true;
  } catch {
    return false;
  }
}

/** Run a media tool with arguments (no shell), collecting stdout and the tail of stderr. */
export function runMediaTool(tool: MediaTool, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  // A clean stop ends the tools of jobs (run inside watchMediaTools; the job goes back in the queue). A request's
  // own tool — the probe of an upload's last byte — is part of its answer and ends with it, within the grace.
  if (!toolWatchers.getStore()) return runWithSignal(tool, args, options);
  const signal = options.signal ? AbortSignal.any([options.signal, stopAll.signal]) : stopAll.signal;
  return runWithSignal(tool, args, { ...options, signal });
}

function runWithSignal(tool: MediaTool, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // Inside the executor, so a missing binary rejects like any other failure.
    const binary = mediaBinary(tool).path;
    if (options.signal?.aborted) {
      reject(new MediaToolError(`${tool} was cancelled before it started`, tool, null, ""));
      return;
    }
    const wrapper = toolWrapper();
    const child = wrapper
      ? spawn(wrapper.path, [...wrapper.args, "--", binary, ...args], {
          stdio: ["ignore", "pipe", "pipe"],
          shell: false,
        })
      : spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], shell: false, windowsHide: true });
    const record = toolWatchers.getStore();
    if (child.pid) record?.(child.pid);
    // Before the tool starts its threads (they inherit it); a box that refuses leaves it as it was.
    if (child.pid && options.niceness)
      try {
        os.setPriority(child.pid, options.niceness);
      } catch {
        // Not allowed here: the tool runs at the server's own priority.
      }
    const stdoutChunks: Buffer[] = [];
    let stderr = "";
    let stopReason: string | null = null;

    child.stdout.on("data", (chunk: Buffer) => stdoutChunks.push(chunk));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      if (stderr.length > STDERR_KEEP_BYTES * 2) stderr = stderr.slice(-STDERR_KEEP_BYTES);
    });

    const stop = (reason: string) => {
      stopReason = reason;
      child.kill("SIGKILL");
    };
    const timer = options.timeoutMs
      ? setTimeout(() => stop(`timed out after ${options.timeoutMs} ms`), options.timeoutMs)
      : undefined;
    const onAbort = () => stop("was cancelled");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const cleanUp = () => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };

    child.on("error", (error) => {
      cleanUp();
      reject(new MediaToolError(`could not start ${tool} (${binary}): ${error.message}`, tool, null, stderr));
    });
    child.on("close", (code, signal) => {
      cleanUp();
      if (child.pid) record?.(null);
      const tail = stderr.trim().slice(-STDERR_KEEP_BYTES);
      if (stopReason) {
        reject(new MediaToolError(`${tool} ${stopReason}`, tool, code, tail));
      } else if (code !== 0) {
        const why = code === null ? `was killed by ${signal}` : `exited with code ${code}`;
        reject(new MediaToolError(`${tool} ${why}${tail ? `: ${lastLines(tail, 6)}` : ""}`, tool, code, tail));
      } else {
        resolve({ stdout: Buffer.concat(stdoutChunks), stderr: tail });
      }
    });
  });
}

function lastLines(text: string, count: number): string {
  return text.split("\n").slice(-count).join("\n");
}

/** Run ffmpeg quietly (errors only, never waiting for a keyboard), overwriting outputs. */
export function runFfmpeg(args: readonly string[], options?: RunOptions): Promise<RunResult> {
  return runMediaTool("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", ...args], options);
}

export function runFfprobe(args: readonly string[], options?: RunOptions): Promise<RunResult> {
  return runMediaTool("ffprobe", ["-hide_banner", "-loglevel", "error", ...args], options);
}

const probeOutputSchema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        codec_name: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        pix_fmt: z.string().optional(),
        avg_frame_rate: z.string().optional(),
        r_frame_rate: z.string().optional(),
        duration: z.string().optional(),
        disposition: z.object({ attached_pic: z.number().optional() }).partial().optional(),
      }),
    )
    .default([]),
  format: z.object({
    format_name: z.string(),
    duration: z.string().optional(),
    size: z.string().optional(),
    bit_rate: z.string().optional(),
  }),
});

export type MediaProbe = {
  durationSeconds: number;
  width: number | null;
  height: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  pixelFormat: string | null;
  /** Frames per second of the picture (its average; the nominal rate when that is unknown), or null. */
  frameRate: number | null;
  /** ffprobe's comma-separated demuxer names, for example "mov,mp4,m4a,3gp,3g2,mj2". */
  formatName: string;
  sizeBytes: number | null;
  bitRate: number | null;
};

/**
 * Files come from uploads: ffmpeg and ffprobe read them only as local files and
 * only with the demuxers of the formats we accept (MP4/MOV/3GP, Matroska, WMV, AVI, MPEG).
 * No protocol (http, tcp, concat…) and no playlist demuxer (hls, concat) can
 * make a crafted upload open another file or reach the network.
 */
export const ACCEPTED_DEMUXERS = "mov,mp4,3gp,matroska,asf,avi,mpeg,mpegvideo";
export function localInput(file: string): string[] {
  return ["-protocol_whitelist", "file", "-format_whitelist", ACCEPTED_DEMUXERS, "-i", file];
}

/** "30000/1001" as a number of frames per second; null for "0/0", nonsense or nothing. */
export function frameRateOf(text: string | undefined): number | null {
  const match = /^(\d+)(?:\/(\d+))?$/.exec(text ?? "");
  if (!match) return null;
  const rate = Number(match[1]) / Number(match[2] ?? 1);
  return Number.isFinite(rate) && rate > 0 && rate <= 1000 ? rate : null;
}

/** What a media file contains, read by ffprobe; rejects for files ffprobe cannot read. */
export async function probeMedia(file: string, options?: RunOptions): Promise<MediaProbe> {
  const { stdout } = await runFfprobe(
    [
      "-print_format",
      "json",
      "-show_format",
      "-show_streams",
      "-protocol_whitelist",
      "file",
      "-format_whitelist",
      ACCEPTED_DEMUXERS,
      file,
    ],
    options,
  );
  let parsed: z.infer<typeof probeOutputSchema>;
  try {
    parsed = probeOutputSchema.parse(JSON.parse(stdout.toString("utf8")));
  } catch (error) {
    throw new Error(
      `ffprobe gave unreadable output for ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // A cover image inside an audio or video file is a "video" stream too; it is not the picture.
  const video = parsed.streams.find((stream) => stream.codec_type === "video" && !stream.disposition?.attached_pic);
  const audio = parsed.streams.find((stream) => stream.codec_type === "audio");
  const duration = Number(parsed.format.duration ?? video?.duration ?? audio?.duration ?? 0);
  const toNumber = (value: string | undefined) =>
    value !== undefined && Number.isFinite(Number(value)) ? Number(value) : null;
  return {
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    width: video?.width ?? null,
    height: video?.height ?? null,
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    pixelFormat: video?.pix_fmt ?? null,
    frameRate: frameRateOf(video?.avg_frame_rate) ?? frameRateOf(video?.r_frame_rate),
    formatName: parsed.format.format_name,
    sizeBytes: toNumber(parsed.format.size),
    bitRate: toNumber(parsed.format.bit_rate),
  };
}

/** One frame of a video as a PNG image, taken at `atSeconds` (clamped by ffmpeg to the last frame it reaches). */
export async function extractFramePng(videoFile: string, atSeconds: number, options?: RunOptions): Promise<Buffer> {
  const { stdout } = await runFfmpeg(
    [
      "-ss",
      String(Math.max(0, atSeconds)),
      ...localInput(videoFile),
      "-frames:v",
      "1",
      "-an",
      "-f",
      "image2pipe",
      "-c:v",
      "png",
      "pipe:1",
    ],
    options,
  );
  if (stdout.length === 0) throw new Error(`ffmpeg returned no frame from ${videoFile} at ${atSeconds} s`);
  return stdout;
}

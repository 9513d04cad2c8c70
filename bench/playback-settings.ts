/** The playback bench's settings (BENCH_* variables) and the small number helpers its parts share. */
import { DATA_SAVER_READ_AHEAD_SECONDS, READ_AHEAD_SECONDS } from "../app/media/read-ahead";
import { percentile } from "./lib";
import { testChromiumPath } from "../tests/fixtures/browser";

export const FILM_MINUTES = Number(process.env.BENCH_FILM_MINUTES ?? 20);
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
export const PLAYERS = (process.env.BENCH_PLAYERS ?? "adaptive,adaptive-h264,progressive")
  .split(",")
  .map((name) => name.trim())
  .filter(Boolean);
export const SPEEDS = (process.env.BENCH_SPEEDS ?? "500,250")
  .split(",")
  .map(Number)
  .filter((kbps) => kbps > 0);
export const PLAY_SECONDS = Number(process.env.BENCH_PLAY_SECONDS ?? 120);
export const PORT = Number(process.env.BENCH_PORT ?? 3390);
export const PARALLEL = Math.max(1, Number(process.env.BENCH_PARALLEL ?? 1));
export const DATA_SAVER = process.env.BENCH_DATA_SAVER === "1";
export const KEEP = process.env.BENCH_KEEP_STORAGE;
export const VERBOSE = process.env.BENCH_VERBOSE === "1";
/** Seek to this second instead of minute 15 (BENCH_SEEK_TO). */
export const SEEK_TO = process.env.BENCH_SEEK_TO ? Number(process.env.BENCH_SEEK_TO) : null;
export const CHROMIUM = testChromiumPath() ?? "";
export const LATENCY_MS = 300;
export const SETTLE_MS = 2_000;
export const FIRST_FRAME_TIMEOUT_MS = 60_000;
export const SEEK_TIMEOUT_MS = 60_000;
export const FIGURES_FILE = "bench-playback.json";
export const PAUSE_SECONDS = Number(process.env.BENCH_PAUSE_SECONDS ?? 60);
export const [VIEW_WIDTH, VIEW_HEIGHT] = (process.env.BENCH_VIEWPORT ?? "390x844").split("x").map(Number);
/** The read-ahead the decision record states for these runs. */
export const STATED_READ_AHEAD = DATA_SAVER ? DATA_SAVER_READ_AHEAD_SECONDS : READ_AHEAD_SECONDS;
/** Bytes against film are taken after this much play (and at the end of the window, and after the pause). */
export const EARLY_CHECK_SECONDS = 30;
/** Data saver's promise: at most this many MB per hour of film. */
export const DATA_SAVER_MB_PER_HOUR = 150;

/**
 * adaptive: the watch page's player as this Chromium gets it (it decodes AV1: the AV1 + Opus family);
 * adaptive-h264: the same player in a browser that says AV1 is not smooth (H.264 only, as before AV1);
 * native: the browser's own HLS (MSE hidden); progressive: the old clients' MP4.
 */
export type PlayerName = "adaptive" | "adaptive-h264" | "native" | "progressive";
for (const player of PLAYERS) {
  if (!["adaptive", "adaptive-h264", "native", "progressive"].includes(player))
    throw new Error(`unknown player "${player}" in BENCH_PLAYERS (adaptive, adaptive-h264, native, progressive)`);
}

/** A bench rung number as a name: negative numbers are AV1 + Opus rungs (see filmRung). */
export function rungLabel(rung: number): string {
  return rung < 0 ? `${-rung}p-av1` : `${rung}p`;
}

export const seconds = (ms: number) => ms / 1000;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export function fmt(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}
export function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}
export function p50(values: number[]): number {
  return values.length === 0 ? Number.NaN : percentile(values, 50);
}
export function max(values: number[]): number {
  return values.length === 0 ? Number.NaN : Math.max(...values);
}
/** Resolve with the promise, or reject after `ms` saying what took too long. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${(ms / 1000).toFixed(0)} s`)), ms);
    }),
  ]);
}

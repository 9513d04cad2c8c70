/**
 * The adaptive ladder: which renditions ("rungs") a title gets, at what size
 * and bitrate. Pure functions, shared by the ingest job, the backfill, the
 * watch page's data figures and the tests.
 *
 * A rung is named by the short side of its picture in lines (144, 240, …),
 * so a portrait film gets the same names as a landscape one.
 */
import { DEFAULT_LADDER } from "~/utils/ladder-setting";

export { DEFAULT_LADDER, parseLadder } from "~/utils/ladder-setting";

export type RungSpec = {
  /** Short side of the picture in lines: the rung's name, "240" for 240p. */
  rung: number;
  width: number;
  height: number;
  /** Target average video bitrate, capped by VBV at `maxVideoKbps`. */
  videoKbps: number;
  maxVideoKbps: number;
  bufferKbits: number;
  audioKbps: number;
  audioChannels: 1 | 2;
  profile: "main" | "high";
};

/** The suggested ladder (kbps of video, audio): from about 100 kbps at 144p up to 1080p. */
const REFERENCE_RUNGS: ReadonlyArray<{ rung: number; videoKbps: number }> = [
  { rung: 144, videoKbps: 100 },
  { rung: 240, videoKbps: 220 },
  { rung: 360, videoKbps: 450 },
  { rung: 480, videoKbps: 900 },
  { rung: 720, videoKbps: 2000 },
  { rung: 1080, videoKbps: 4000 },
];

/** Data saver plays nothing above this rung. */
export const DATA_SAVER_MAX_RUNG = 240;
/** Rungs up to this one carry mono audio at 48 kbps; higher ones stereo. */
const MONO_AUDIO_MAX_RUNG = 240;

function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}

/** Video kbps for any rung: the reference values, interpolated by picture area between them. */
export function videoKbpsFor(rung: number): number {
  const exact = REFERENCE_RUNGS.find((entry) => entry.rung === rung);
  if (exact) return exact.videoKbps;
  const first = REFERENCE_RUNGS[0];
  const last = REFERENCE_RUNGS[REFERENCE_RUNGS.length - 1];
  if (rung < first.rung) return Math.max(60, Math.round(first.videoKbps * (rung / first.rung) ** 2));
  if (rung > last.rung) return last.videoKbps;
  const upper = REFERENCE_RUNGS.findIndex((entry) => entry.rung > rung);
  const low = REFERENCE_RUNGS[upper - 1];
  const high = REFERENCE_RUNGS[upper];
  // Log-linear in the picture area (which grows with the square of the lines).
  const position = Math.log((rung / low.rung) ** 2) / Math.log((high.rung / low.rung) ** 2);
  return Math.round(
    Math.exp(Math.log(low.videoKbps) + position * (Math.log(high.videoKbps) - Math.log(low.videoKbps))),
  );
}

export function rungSpec(rung: number, source: { width: number; height: number }): RungSpec {
  const landscape = source.width >= source.height;
  const scale = rung / Math.min(source.width, source.height);
  const width = landscape ? even(source.width * scale) : even(rung);
  const height = landscape ? even(rung) : even(source.height * scale);
  const videoKbps = videoKbpsFor(rung);
  const low = rung <= MONO_AUDIO_MAX_RUNG;
  return {
    rung,
    width,
    height,
    videoKbps,
    maxVideoKbps: Math.round(videoKbps * 1.3),
    bufferKbits: videoKbps * 2,
    // Mono speech-quality audio where every kilobit counts; stereo above.
    audioKbps: low ? 48 : rung >= 720 ? 128 : 96,
    audioChannels: low ? 1 : 2,
    profile: rung >= 480 ? "high" : "main",
  };
}

/**
 * The rungs a source gets: every ladder rung at or below its short side
 * (never upscaled), plus the source's own size when it sits well above the
 * highest of those and within the ladder's top ("up to the source"). A source
 * smaller than every rung gets one rung at its own size.
 */
export function planLadder(
  source: { width: number | null; height: number | null },
  ladder: readonly number[] = DEFAULT_LADDER,
): RungSpec[] {
  const width = source.width ?? 0;
  const height = source.height ?? 0;
  if (width <= 0 || height <= 0) return [];
  const shortSide = Math.min(width, height);
  const top = Math.max(...ladder);
  const rungs = ladder.filter((rung) => rung <= shortSide);
  // Rounded down to even lines, so the source is never scaled up, not even by one line.
  const sourceLines = Math.max(2, Math.floor(shortSide / 2) * 2);
  const sourceRung = Math.min(sourceLines, top);
  const highest = rungs.length > 0 ? Math.max(...rungs) : 0;
  if (rungs.length === 0) rungs.push(sourceLines);
  else if (sourceRung > highest * 1.1) rungs.push(sourceRung);
  return [...new Set(rungs)].sort((a, b) => a - b).map((rung) => rungSpec(rung, { width, height }));
}

/**
 * The rungs made in the first pass, before the title is listed as Ready: the
 * lowest alone. Its encode is cheap next to decoding the source, so a film
 * plays after about a tenth of its length; the rest follow.
 */
export function firstPassRungs(rungs: readonly RungSpec[]): RungSpec[] {
  return rungs.slice(0, 1);
}

/** The rungs a slow phone plays: made in a pass of their own right after the first, before the larger ones. */
export const EARLY_RUNG_MAX = 360;

/**
 * The order a title's rungs are made in, as passes (one ffmpeg run, one
 * decode of the source each): the lowest alone (before the title is listed),
 * then the other rungs a slow phone plays (240p and 360p: a release is
 * watchable at 240p a few minutes after it is listed, instead of waiting for
 * 720p and 1080p, which the same run would make at the pace of the largest),
 * then the rest. Empty passes are left out.
 */
export function ladderPasses(rungs: readonly RungSpec[]): RungSpec[][] {
  const first = firstPassRungs(rungs);
  const rest = rungs.filter((spec) => !first.includes(spec));
  const early = rest.filter((spec) => spec.rung <= EARLY_RUNG_MAX);
  const late = rest.filter((spec) => spec.rung > EARLY_RUNG_MAX);
  return [first, early, late].filter((pass) => pass.length > 0);
}

/** Megabytes an hour of a rendition costs, from its real size and length. */
export function megabytesPerHour(sizeBytes: number, durationSeconds: number): number {
  if (!(durationSeconds > 0)) return 0;
  return ((sizeBytes / durationSeconds) * 3600) / 1_000_000;
}

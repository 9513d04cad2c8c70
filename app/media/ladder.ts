/**
 * The adaptive ladder: which renditions ("rungs") a title gets, at what size
 * and bitrate. Pure functions, shared by the ingest job, the backfill, the
 * watch page's data figures and the tests.
 *
 * A rung is named by the short side of its picture in lines (144, 240, …),
 * so a portrait film gets the same names as a landscape one.
 */
import { DEFAULT_LADDER, type LadderCodec } from "~/utils/ladder-setting";

export { DEFAULT_LADDER, DEFAULT_LADDER_CODECS, parseLadder, type LadderCodec } from "~/utils/ladder-setting";

export type RungSpec = {
  /** Short side of the picture in lines: the rung's name, "240" for 240p. */
  rung: number;
  /** The family: H.264 + AAC, or AV1 + Opus (a low rung for the browsers that decode AV1). */
  codec: LadderCodec;
  width: number;
  height: number;
  /** Target average video bitrate, capped by VBV at `maxVideoKbps`. */
  videoKbps: number;
  maxVideoKbps: number;
  bufferKbits: number;
  audioKbps: number;
  audioChannels: 1 | 2;
  /** The H.264 profile (AV1 rungs are Main profile, the only one browsers decode). */
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

/**
 * The AV1 rungs' video kbps: a round bitrate whose SSIM against the source is
 * at least the H.264 rung's on both of the project's test films, with SVT-AV1
 * preset 8 (`npm run bench:ladder-quality`; decision 059). The harder film
 * (the demo's fractal zoom, new detail in every frame) sets them; on the
 * playback bench's noisy film 100 kbps at 240p and 230 at 360p would do.
 * 55–73 % of H.264's video bits, and Opus at 32 kbps for AAC's 48.
 */
const AV1_REFERENCE_RUNGS: ReadonlyArray<{ rung: number; videoKbps: number }> = [
  { rung: 144, videoKbps: 55 },
  { rung: 240, videoKbps: 160 },
  { rung: 360, videoKbps: 290 },
];

/** AV1 + Opus rungs are made up to this rung: above it the picture costs more than a phone's link carries anyway, and AV1's encode time grows with the picture. */
export const AV1_MAX_RUNG = 360;

/** Data saver plays nothing above this rung. */
export const DATA_SAVER_MAX_RUNG = 240;
/** Rungs up to this one carry mono audio at 48 kbps; higher ones stereo. */
const MONO_AUDIO_MAX_RUNG = 240;

function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}

/** Video kbps for any rung: the reference values, interpolated by picture area between them. */
export function videoKbpsFor(rung: number, codec: LadderCodec = "h264"): number {
  const table = codec === "av1" ? AV1_REFERENCE_RUNGS : REFERENCE_RUNGS;
  const exact = table.find((entry) => entry.rung === rung);
  if (exact) return exact.videoKbps;
  const first = table[0];
  const last = table[table.length - 1];
  if (rung < first.rung) return Math.max(60, Math.round(first.videoKbps * (rung / first.rung) ** 2));
  if (rung > last.rung) return last.videoKbps;
  const upper = table.findIndex((entry) => entry.rung > rung);
  const low = table[upper - 1];
  const high = table[upper];
  // Log-linear in the picture area (which grows with the square of the lines).
  const position = Math.log((rung / low.rung) ** 2) / Math.log((high.rung / low.rung) ** 2);
  return Math.round(
    Math.exp(Math.log(low.videoKbps) + position * (Math.log(high.videoKbps) - Math.log(low.videoKbps))),
  );
}

export function rungSpec(
  rung: number,
  source: { width: number; height: number },
  codec: LadderCodec = "h264",
): RungSpec {
  const landscape = source.width >= source.height;
  const scale = rung / Math.min(source.width, source.height);
  const width = landscape ? even(source.width * scale) : even(rung);
  const height = landscape ? even(rung) : even(source.height * scale);
  const videoKbps = videoKbpsFor(rung, codec);
  const low = rung <= MONO_AUDIO_MAX_RUNG;
  return {
    rung,
    codec,
    width,
    height,
    videoKbps,
    maxVideoKbps: Math.round(videoKbps * 1.3),
    bufferKbits: videoKbps * 2,
    // Mono speech-quality audio where every kilobit counts; stereo above. Opus
    // carries speech at 32 kbps as AAC-LC does at 48 (browsers have no HE-AAC encoder here).
    audioKbps: codec === "av1" ? (low ? 32 : 48) : low ? 48 : rung >= 720 ? 128 : 96,
    audioChannels: low ? 1 : 2,
    profile: rung >= 480 ? "high" : "main",
  };
}

/**
 * The rungs a source gets: every ladder rung at or below its short side
 * (never upscaled), plus the source's own size when it sits well above the
 * highest of those and within the ladder's top ("up to the source"). A source
 * smaller than every rung gets one rung at its own size. With AV1 in
 * `codecs`, the H.264 rungs up to `AV1_MAX_RUNG` get an AV1 + Opus twin of
 * the same size, listed after every H.264 rung.
 */
export function planLadder(
  source: { width: number | null; height: number | null },
  ladder: readonly number[] = DEFAULT_LADDER,
  codecs: readonly LadderCodec[] = ["h264"],
): RungSpec[] {
  const h264 = planH264Ladder(source, ladder);
  if (!codecs.includes("av1")) return h264;
  const av1 = h264
    .filter((spec) => spec.rung <= AV1_MAX_RUNG)
    .map((spec) => rungSpec(spec.rung, { width: source.width ?? 0, height: source.height ?? 0 }, "av1"));
  return [...h264, ...av1];
}

function planH264Ladder(
  source: { width: number | null; height: number | null },
  ladder: readonly number[],
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
  return [...new Set(rungs)].sort((a, b) => a - b).map((rung) => rungSpec(rung, { width, height }, "h264"));
}

/**
 * The rungs made in the first pass, before the title is listed as Ready: the
 * lowest alone. Its encode is cheap next to decoding the source, so a film
 * plays after about a tenth of its length; the rest follow.
 */
export function firstPassRungs(rungs: readonly RungSpec[]): RungSpec[] {
  return rungs.filter((spec) => spec.codec === "h264").slice(0, 1);
}

/** The rungs a slow phone plays: made in a pass of their own right after the first, before the larger ones. */
export const EARLY_RUNG_MAX = 360;

/**
 * The order a title's rungs are made in, as passes (one ffmpeg run, one
 * decode of the source each): the lowest alone (before the title is listed),
 * then the other rungs a slow phone plays (240p and 360p: a release is
 * watchable at 240p a few minutes after it is listed, instead of waiting for
 * 720p and 1080p, which the same run would make at the pace of the largest),
 * then the rest of H.264, and the AV1 rungs last, all in one run (AV1 costs
 * several times H.264's CPU: nothing H.264 waits for it). Empty passes are left out.
 */
export function ladderPasses(rungs: readonly RungSpec[]): RungSpec[][] {
  const h264 = rungs.filter((spec) => spec.codec === "h264");
  const first = firstPassRungs(h264);
  const rest = h264.filter((spec) => !first.includes(spec));
  const early = rest.filter((spec) => spec.rung <= EARLY_RUNG_MAX);
  const late = rest.filter((spec) => spec.rung > EARLY_RUNG_MAX);
  const av1 = rungs.filter((spec) => spec.codec === "av1");
  return [first, early, late, av1].filter((pass) => pass.length > 0);
}

/** A rung's name in file names and the stream's addresses: `240p` (H.264), `240p-av1`. */
export function rungName(rung: number, codec: LadderCodec = "h264"): string {
  return codec === "av1" ? `${rung}p-av1` : `${rung}p`;
}

/** Megabytes an hour of a rendition costs, from its real size and length. */
export function megabytesPerHour(sizeBytes: number, durationSeconds: number): number {
  if (!(durationSeconds > 0)) return 0;
  return ((sizeBytes / durationSeconds) * 3600) / 1_000_000;
}

/**
 * The operator's `LADDER` setting: which rungs of the adaptive ladder titles
 * get, named by the short side of the picture in lines.
 */
export const DEFAULT_LADDER: readonly number[] = [144, 240, 360, 480, 720, 1080];
export const MIN_RUNG = 96;
export const MAX_RUNG = 1080;

/**
 * Parse the operator's `LADDER` setting ("144,240,360,480,720,1080"): rungs
 * between 96 and 1080 lines, even, at least one. Returns the sorted unique
 * list, or an error message naming the bad entry.
 */
export function parseLadder(text: string | undefined): { ok: true; rungs: number[] } | { ok: false; message: string } {
  if (text === undefined || text.trim() === "") return { ok: true, rungs: [...DEFAULT_LADDER] };
  const rungs = new Set<number>();
  for (const part of text.split(",")) {
    const entry = part.trim().replace(/p$/i, "");
    if (!/^\d+$/.test(entry))
      return { ok: false, message: `"${part.trim()}" is not a number of lines (write e.g. 144,240,360,480,720,1080)` };
    const rung = Number(entry);
    if (rung < MIN_RUNG || rung > MAX_RUNG)
      return { ok: false, message: `${rung} is outside ${MIN_RUNG}–${MAX_RUNG} lines` };
    if (rung % 2 !== 0) return { ok: false, message: `${rung} is odd; H.264 in yuv420p needs even sizes` };
    rungs.add(rung);
  }
  if (rungs.size === 0) return { ok: false, message: "name at least one rung" };
  return { ok: true, rungs: [...rungs].sort((a, b) => a - b) };
}

/** The rung families a ladder can have: H.264 + AAC (always) and AV1 + Opus (the low rungs). */
export type LadderCodec = "h264" | "av1";
export const DEFAULT_LADDER_CODECS: readonly LadderCodec[] = ["h264", "av1"];

/**
 * Parse the operator's `LADDER_CODECS` setting ("h264,av1", the default):
 * H.264 is always made (every browser plays it); leaving `av1` out turns the
 * AV1 + Opus rungs off (no more are made; those made are kept and served).
 */
export function parseLadderCodecs(
  text: string | undefined,
): { ok: true; codecs: LadderCodec[] } | { ok: false; message: string } {
  if (text === undefined || text.trim() === "") return { ok: true, codecs: [...DEFAULT_LADDER_CODECS] };
  const codecs = new Set<LadderCodec>();
  for (const part of text.split(",")) {
    const entry = part.trim().toLowerCase();
    if (entry === "h264" || entry === "av1") codecs.add(entry);
    else return { ok: false, message: `"${part.trim()}" is not a codec family (write h264,av1 or h264)` };
  }
  if (!codecs.has("h264"))
    return { ok: false, message: "h264 is always made (every browser plays it): write h264,av1 or h264" };
  return { ok: true, codecs: (["h264", "av1"] as const).filter((codec) => codecs.has(codec)) };
}

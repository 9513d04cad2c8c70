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

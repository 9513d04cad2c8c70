/** 75 → "1:15", 3725 → "1:02:05": a position or a length on a clock. */
export function clockText(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** How much of a title was watched, in whole percent (0 for a title of unknown length). */
export function watchedPercent(positionSeconds: number, durationSeconds: number): number {
  return durationSeconds > 0 ? Math.min(100, Math.round((positionSeconds / durationSeconds) * 100)) : 0;
}

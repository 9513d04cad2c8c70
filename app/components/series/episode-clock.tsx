/** 75 → "1:15", 3725 → "1:02:05": a position or a length in an episode list. */
export function clockText(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function EpisodeClock({ seconds }: { seconds: number }) {
  return <time dateTime={`PT${Math.max(0, Math.floor(seconds))}S`}>{clockText(seconds)}</time>;
}

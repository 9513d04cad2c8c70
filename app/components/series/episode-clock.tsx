import { clockText } from "~/utils/watch-time";

export function EpisodeClock({ seconds }: { seconds: number }) {
  return <time dateTime={`PT${Math.max(0, Math.floor(seconds))}S`}>{clockText(seconds)}</time>;
}

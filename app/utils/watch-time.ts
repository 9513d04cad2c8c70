import type { ClientLoaderFunctionArgs } from "@remix-run/react";

/*
 * Positions in a film: written on a clock and as a share of the film, and saved before a page that shows
 * them reads them (one module: the pages that show positions load it anyway, so it costs no extra file).
 */

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

/**
 * A film playing on the page being left: its position is saved before the
 * next page's data is read, so "Continue watching", the history and a
 * series' episodes show where the viewer stopped, not the last report (up to
 * ten seconds earlier). An in-app navigation reads the next page's loaders
 * before this page unmounts, so the player's unmount report comes too late
 * for them: pages that show positions wait here first, briefly.
 */
type SavePosition = () => Promise<void>;

/** How long a page that shows positions waits for the save (a slow or lost link must not hold the page). */
const SAVE_WAIT_MS = 1_500;

let savePlaying: SavePosition | null = null;

/** The player, while a film plays: how to save its position now. Returns what forgets it again. */
export function whilePlaying(save: SavePosition): () => void {
  savePlaying = save;
  return () => {
    if (savePlaying === save) savePlaying = null;
  };
}

/** Save the playing film's position (once), waiting at most {@link SAVE_WAIT_MS}. */
export async function savePlayingPosition(): Promise<void> {
  const save = savePlaying;
  if (!save) return;
  savePlaying = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    save().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SAVE_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
}

/** The `clientLoader` of a page that shows viewing positions: the server's data, read after the save. */
export async function loadAfterPlayingSaved({ serverLoader }: ClientLoaderFunctionArgs) {
  await savePlayingPosition();
  return serverLoader();
}

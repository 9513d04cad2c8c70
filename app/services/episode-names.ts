import { movies, seasons, series } from "~/db/schema";

/**
 * How an episode is named where it stands alone, away from its series page:
 * lists (history, saved, the administrator's tables), notifications and the
 * old apps' title list. One home, so "Series — S1E2 Title" reads the same
 * everywhere. A film keeps its own name.
 */

/** "S1E2": season and episode numbers, the short code viewers know. */
export function episodeCode(seasonNumber: number, episodeNumber: number): string {
  return `S${seasonNumber}E${episodeNumber}`;
}

export type TitleNameParts = {
  name: string;
  seriesName?: string | null;
  seasonNumber?: number | null;
  episodeNumber?: number | null;
};

/** "Series — S1E2 Title" for an episode, the title's own name for a film. */
export function titleDisplayName(row: TitleNameParts): string {
  if (!row.seriesName || row.seasonNumber == null || row.episodeNumber == null) return row.name;
  return `${row.seriesName} — ${episodeCode(row.seasonNumber, row.episodeNumber)} ${row.name}`;
}

/**
 * The columns a title row needs for its display name, from
 * `.leftJoin(seasons, eq(seasons.id, movies.seasonId)).leftJoin(series, eq(series.id, seasons.seriesId))`
 * (two lookups by primary key; all null for a film).
 */
export const episodeContextColumns = {
  seriesId: series.id,
  seriesName: series.name,
  seasonNumber: seasons.number,
  episodeNumber: movies.episodeNumber,
};

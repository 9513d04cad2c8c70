import fs from "node:fs";
import path from "node:path";
import { getEnv } from "~/utils/env.server";

/**
 * Where files live under STORAGE_DIR. Every name is chosen by the server:
 *
 *   media/<movieId>/video.mp4          the browser-playable film at the source's quality (old clients, the ladder's source)
 *   media/<movieId>/hls/<rung>p.mp4    one rung of the adaptive ladder: fragmented MP4, addressed by byte ranges
 *   media/<movieId>/hls/<rung>p.m3u8   its HLS media playlist
 *   media/<movieId>/poster-<variant>.<format>   card (300×200) and hero posters, webp + jpg
 *   media/<movieId>/subtitles/<language>.vtt    subtitles, one WebVTT file per language (a canonical BCP 47 tag)
 *   media/<seriesId>/poster-<variant>.<format>  a series' own posters (ids never collide: both are server-made)
 *   categories/<categoryId>.<format>   category tiles
 *   tmp/                               uploads and jobs in progress (same file system, so rename is atomic)
 *   uploads/<uploadId>                 a resumable (tus) upload's bytes so far, and <uploadId>.json its details;
 *                                      kept across restarts until the title is made or the upload expires
 *   mail/                              messages written when no SMTP_URL is set
 */
export const POSTER_VARIANTS = {
  card: { width: 300, height: 200 },
  hero: { width: 1280, height: 720 },
} as const;
export type PosterVariant = keyof typeof POSTER_VARIANTS;
export const POSTER_FORMATS = ["webp", "jpg"] as const;
export type PosterFormat = (typeof POSTER_FORMATS)[number];

const MOVIE_ID = /^[a-z0-9]{8,32}$/;

export function storageRoot(): string {
  return getEnv().storageDir;
}

export function storagePaths(root = storageRoot()) {
  return {
    root,
    media: path.join(root, "media"),
    categories: path.join(root, "categories"),
    tmp: path.join(root, "tmp"),
    uploads: path.join(root, "uploads"),
    mail: path.join(root, "mail"),
  };
}

export function movieDir(movieId: string, root = storageRoot()): string {
  if (!MOVIE_ID.test(movieId)) throw new Error(`Invalid movie id: ${movieId}`);
  return path.join(storagePaths(root).media, movieId);
}

export function movieVideoPath(movieId: string, root = storageRoot()): string {
  return path.join(movieDir(movieId, root), "video.mp4");
}

export function movieHlsDir(movieId: string, root = storageRoot()): string {
  return path.join(movieDir(movieId, root), "hls");
}

/** A rung's file names: `240p.mp4` (the media, also playable on its own as a progressive MP4) and `240p.m3u8`. */
export function renditionFileName(rung: number, kind: "media" | "playlist"): string {
  return `${rung}p.${kind === "media" ? "mp4" : "m3u8"}`;
}

export function renditionPath(movieId: string, rung: number, kind: "media" | "playlist", root = storageRoot()): string {
  return path.join(movieHlsDir(movieId, root), renditionFileName(rung, kind));
}

/** The address a title's streams are served under: `/stream/<id>/master.m3u8`, `/stream/<id>/240p.m3u8`, `/stream/<id>/240p.mp4`. */
export function streamUrl(movieId: string, file: string): string {
  return `/stream/${movieId}/${file}`;
}

const SUBTITLE_LANGUAGE = /^[A-Za-z0-9]{1,8}(?:-[A-Za-z0-9]{1,8}){0,7}$/;

/** A title's subtitles in one language; `language` is a canonical BCP 47 tag (letters, digits, hyphens only). */
export function movieSubtitlePath(movieId: string, language: string, root = storageRoot()): string {
  if (!SUBTITLE_LANGUAGE.test(language)) throw new Error(`Invalid subtitle language: ${language}`);
  return path.join(movieDir(movieId, root), "subtitles", `${language}.vtt`);
}

/** The address a title's subtitles are served under, versioned by when they were last written: `/subtitles/<id>/ha.vtt?v=…`. */
export function subtitleUrl(movieId: string, language: string, version: number): string {
  return `/subtitles/${movieId}/${language}.vtt?v=${version.toString(36)}`;
}

export function moviePosterPath(
  movieId: string,
  variant: PosterVariant,
  format: PosterFormat,
  root = storageRoot(),
): string {
  return path.join(movieDir(movieId, root), `poster-${variant}.${format}`);
}

/** The public names the pages and the old API use for a title's files. */
export function publicVideoName(movieId: string): string {
  return `${movieId}.mp4`;
}
export function publicPosterName(
  movieId: string,
  variant: PosterVariant = "card",
  format: PosterFormat = "jpg",
): string {
  return `${movieId}-${variant}.${format}`;
}
export function posterUrl(movieId: string, variant: PosterVariant = "card", format: PosterFormat = "jpg"): string {
  return `/api/files/thumbnail/${publicPosterName(movieId, variant, format)}`;
}

/** Map a public poster name back to its file, or null: nothing outside media/ can be named. */
export function resolvePublicPoster(
  name: string,
  root = storageRoot(),
): { movieId: string; path: string; format: PosterFormat } | null {
  const match = /^([a-z0-9]{8,32})-(card|hero)\.(webp|jpg)$/.exec(name);
  if (!match) return null;
  const [, movieId, variant, format] = match;
  return {
    movieId,
    path: moviePosterPath(movieId, variant as PosterVariant, format as PosterFormat, root),
    format: format as PosterFormat,
  };
}

/** A series' poster address: `/series-poster/<seriesId>-card.jpg` (its files sit where a title's would). */
export function seriesPosterUrl(
  seriesId: string,
  variant: PosterVariant = "card",
  format: PosterFormat = "jpg",
): string {
  return `/series-poster/${publicPosterName(seriesId, variant, format)}`;
}

/** Map a series poster's public name back to its file, or null (the same names and folder rule as a title's). */
export function resolveSeriesPoster(
  name: string,
  root = storageRoot(),
): { seriesId: string; path: string; format: PosterFormat } | null {
  const poster = resolvePublicPoster(name, root);
  return poster ? { seriesId: poster.movieId, path: poster.path, format: poster.format } : null;
}

export function removeMovieFiles(movieId: string, root = storageRoot()): void {
  fs.rmSync(movieDir(movieId, root), { recursive: true, force: true });
}

/** Bytes the service may still write under `root`: what the file system has free for it, less the reserve kept for the database and the jobs. */
export function spareBytes(root = storageRoot(), reserveBytes = getEnv().diskReserveBytes): number {
  fs.mkdirSync(root, { recursive: true });
  const stats = fs.statfsSync(root);
  return Math.max(0, stats.bavail * stats.bsize - reserveBytes);
}

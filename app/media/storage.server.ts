import fs from "node:fs";
import path from "node:path";
import { getEnv } from "~/utils/env.server";
import { rungName, type LadderCodec } from "./ladder";
import {
  fixedPosterName,
  fixedPosterUrl,
  isSizedPosterWidth,
  SIZED_POSTER_VARIANTS,
  type SizedPosterFormat,
  type SizedPosterVariant,
} from "./poster-sizes";

/**
 * Where files live under STORAGE_DIR. Every name is chosen by the server:
 *
 *   media/<movieId>/video.mp4          the browser-playable film at the source's quality (old clients, the ladder's source)
 *   media/<movieId>/hls/<rung>p.mp4    one rung of the adaptive ladder: fragmented MP4, addressed by byte ranges
 *   media/<movieId>/hls/<rung>p.m3u8   its HLS media playlist
 *   media/<movieId>/v<N>/video.mp4, v<N>/hls/…   the same for the film's Nth replacement (`movies.media_version`
 *                                      says which version plays; the upload's own is version 0, above)
 *   media/<movieId>/poster-<variant>.jpg        card (300×200) and hero (1280×720) posters under the names old clients know
 *                                      (titles made before sized posters may also have a .webp of each)
 *   media/<movieId>/poster-<variant>-<width>.<avif|jpg>   the sizes the pages offer in srcset (media/poster-sizes.ts)
 *   media/<movieId>/subtitles/<language>.vtt    subtitles, one WebVTT file per language (a canonical BCP 47 tag)
 *   media/<seriesId>/poster-<variant>.<format>  a series' own posters (ids never collide: both are server-made)
 *   categories/<categoryId>.<format>   category tiles
 *   tmp/                               uploads and jobs in progress (same file system, so rename is atomic)
 *   uploads/<uploadId>                 a resumable (tus) upload's bytes so far, and <uploadId>.json its details;
 *                                      kept across restarts until the title is made or the upload expires
 *   mail/                              messages written when no SMTP_URL is set
 */
/** The fixed-size posters under their first names: JPEG for old clients (`thumbnail`) and downloads. */
export const POSTER_VARIANTS = {
  card: { width: 300, height: 200 },
  hero: { width: 1280, height: 720 },
} as const;
export type PosterVariant = keyof typeof POSTER_VARIANTS;
/** Formats of those files that may be on disk: jpg, and webp for titles made before sized posters. */
export const POSTER_FORMATS = ["webp", "jpg"] as const;
export type PosterFormat = (typeof POSTER_FORMATS)[number];
/** Every format a poster file is served in. */
export type PosterFileFormat = PosterFormat | SizedPosterFormat;

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
    /** SMS written to files when no gateway is set (SMS_PROVIDER), one a message. */
    sms: path.join(root, "sms"),
  };
}

export function movieDir(movieId: string, root = storageRoot()): string {
  if (!MOVIE_ID.test(movieId)) throw new Error(`Invalid movie id: ${movieId}`);
  return path.join(storagePaths(root).media, movieId);
}

/**
 * The folder of one version of a title's film: the title's own folder for the
 * upload's version (0), `v<N>/` inside it for the film's Nth replacement.
 * Posters and subtitles belong to the title and stay in its own folder.
 */
export function movieVersionDir(movieId: string, version = 0, root = storageRoot()): string {
  if (!Number.isSafeInteger(version) || version < 0) throw new Error(`Invalid media version: ${version}`);
  return version === 0 ? movieDir(movieId, root) : path.join(movieDir(movieId, root), `v${version}`);
}

export function movieVideoPath(movieId: string, root = storageRoot(), version = 0): string {
  return path.join(movieVersionDir(movieId, version, root), "video.mp4");
}

export function movieHlsDir(movieId: string, root = storageRoot(), version = 0): string {
  return path.join(movieVersionDir(movieId, version, root), "hls");
}

/** Remove one version's film and ladder (never the title's posters or subtitles). */
export function removeMovieVersionFiles(movieId: string, version: number, root = storageRoot()): void {
  if (version === 0) {
    fs.rmSync(movieVideoPath(movieId, root, 0), { force: true });
    fs.rmSync(movieHlsDir(movieId, root, 0), { recursive: true, force: true });
    // An upload whose processing failed left its source behind.
    const dir = movieDir(movieId, root);
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      if (/^source\.[a-z0-9]+$/.test(name)) fs.rmSync(path.join(dir, name), { force: true });
  } else {
    fs.rmSync(movieVersionDir(movieId, version, root), { recursive: true, force: true });
  }
}

/** A rung's file names: `240p.mp4` (the media, also playable on its own as a progressive MP4) and `240p.m3u8`. */
export function renditionFileName(rung: number, kind: "media" | "playlist", codec: LadderCodec = "h264"): string {
  return `${rungName(rung, codec)}.${kind === "media" ? "mp4" : "m3u8"}`;
}

export function renditionPath(
  movieId: string,
  rung: number,
  kind: "media" | "playlist",
  root = storageRoot(),
  version = 0,
  codec: LadderCodec = "h264",
): string {
  return path.join(movieHlsDir(movieId, root, version), renditionFileName(rung, kind, codec));
}

/** The address a title's streams are served under: `/stream/<id>/master.m3u8`, `/stream/<id>/240p.m3u8`, `/stream/<id>/240p.mp4`. */
export function streamUrl(movieId: string, file: string): string {
  return `/stream/${movieId}/${file}`;
}

/**
 * A rung's file as the stream route names it for one version of the film:
 * `240p.mp4` for the upload's own, `v2/240p.mp4` for the second replacement.
 * Each version has its own addresses, so a player (or a download, or a
 * browser's cache) that began on one version never gets another's bytes.
 */
export function versionedStreamFile(version: number, file: string): string {
  return version === 0 ? file : `v${version}/${file}`;
}

/** The version a stream path's folder names (`v2` → 2), or null for anything else. */
export function parseStreamVersion(segment: string): number | null {
  const match = /^v([1-9]\d{0,5})$/.exec(segment);
  return match ? Number(match[1]) : null;
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

/** One size of a variant the pages list in srcset: `poster-card-300.avif`. */
export function sizedPosterPath(
  movieId: string,
  variant: SizedPosterVariant,
  width: number,
  format: SizedPosterFormat,
  root = storageRoot(),
): string {
  return path.join(movieDir(movieId, root), `poster-${variant}-${width}.${format}`);
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
  return fixedPosterName(movieId, variant, format);
}
export function posterUrl(
  movieId: string,
  variant: PosterVariant = "card",
  format: PosterFormat = "jpg",
  version = 0,
): string {
  return fixedPosterUrl({ kind: "title", id: movieId, version }, variant, format);
}

export type ResolvedPoster = {
  movieId: string;
  path: string;
  format: PosterFileFormat;
  /** Set for the srcset sizes, which may be made on first request when a title predates them. */
  sized?: { variant: SizedPosterVariant; width: number; format: SizedPosterFormat };
};

const FIXED_POSTER_NAME = /^([a-z0-9]{8,32})-(card|hero)\.(webp|jpg)$/;
const SIZED_POSTER_NAME = new RegExp(
  `^([a-z0-9]{8,32})-(${SIZED_POSTER_VARIANTS.join("|")})-([1-9][0-9]{1,3})\\.(avif|jpg)$`,
);

/** Map a public poster name back to its file, or null: nothing outside media/ can be named, and only the listed widths. */
export function resolvePublicPoster(name: string, root = storageRoot()): ResolvedPoster | null {
  const fixed = FIXED_POSTER_NAME.exec(name);
  if (fixed) {
    const [, movieId, variant, format] = fixed;
    return {
      movieId,
      path: moviePosterPath(movieId, variant as PosterVariant, format as PosterFormat, root),
      format: format as PosterFormat,
    };
  }
  const sized = SIZED_POSTER_NAME.exec(name);
  if (!sized) return null;
  const [, movieId, variantName, widthText, formatName] = sized;
  const variant = variantName as SizedPosterVariant;
  const width = Number(widthText);
  const format = formatName as SizedPosterFormat;
  if (!isSizedPosterWidth(variant, width)) return null;
  return {
    movieId,
    path: sizedPosterPath(movieId, variant, width, format, root),
    format,
    sized: { variant, width, format },
  };
}

/** A series' fixed poster address: `/series-poster/<seriesId>-card.jpg` (its files sit where a title's would). */
export function seriesPosterUrl(
  seriesId: string,
  variant: PosterVariant = "card",
  format: PosterFormat = "jpg",
): string {
  return fixedPosterUrl({ kind: "series", id: seriesId }, variant, format);
}

/**
 * Map a series poster's public name back to its file, or null: the same names,
 * sizes and folder rule as a title's (a series' poster is written by the same
 * code, every srcset size included).
 */
export function resolveSeriesPoster(
  name: string,
  root = storageRoot(),
): (Omit<ResolvedPoster, "movieId"> & { seriesId: string }) | null {
  const poster = resolvePublicPoster(name, root);
  if (!poster) return null;
  const { movieId, ...rest } = poster;
  return { seriesId: movieId, ...rest };
}

/** Bytes the service may still write under `root`: what the file system has free for it, less the reserve kept for the database and the jobs. */
export function spareBytes(root = storageRoot(), reserveBytes = getEnv().diskReserveBytes): number {
  fs.mkdirSync(root, { recursive: true });
  const stats = fs.statfsSync(root);
  return Math.max(0, stats.bavail * stats.bsize - reserveBytes);
}

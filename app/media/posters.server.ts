import fs from "node:fs";
import type sharp from "sharp";
import { writeAtomically } from "./atomic-files.server";
import {
  SIZED_POSTER_FORMATS,
  SIZED_POSTER_VARIANTS,
  SIZED_POSTERS,
  sizedPosterHeight,
  type SizedPosterFormat,
  type SizedPosterVariant,
} from "./poster-sizes";
import { loadSharp, MAX_IMAGE_PIXELS } from "./sharp.server";
import {
  moviePosterPath,
  POSTER_VARIANTS,
  sizedPosterPath,
  storagePaths,
  storageRoot,
  type PosterFileFormat,
  type PosterVariant,
} from "./storage.server";

/**
 * A title's posters, cropped to fill each frame from one decode of the source:
 *
 * - the fixed card (300×200) and hero (1280×720) JPEGs old clients and
 *   downloads name (`<id>-card.jpg`);
 * - every width of media/poster-sizes.ts in AVIF and JPEG, which the pages
 *   offer in srcset: card (3:2), hero (16:9) and tall (4:5, the hero on phones).
 *
 * Titles made before the sized files existed get them on first request
 * (`ensureSizedPoster`), made from their 1280×720 hero.
 */

export type PosterFile = {
  /** `card.jpg` for a fixed poster, `card-300.avif` for a size. */
  key: string;
  variant: PosterVariant | SizedPosterVariant;
  format: PosterFileFormat;
  width: number;
  height: number;
  path: string;
  /** One of the srcset sizes (not a fixed poster old clients name). */
  sized: boolean;
};

export type PosterOptions = {
  root?: string;
  /**
   * Which part of the source survives the crop: "centre" for composed images
   * whose text sits in the middle, "attention" (sharp's saliency) for uploaded
   * portrait posters, where the face or title is rarely in the exact centre.
   */
  position?: "centre" | "attention";
  /** Write only these files (for example the ones that went missing, by `key`); all of them when absent. */
  only?: readonly Pick<PosterFile, "key">[];
};

// Sizes against quality: posters are photographs or gradients, where these settings show no artefacts at card size.
// AVIF at effort 1: 40 % less time than effort 2 for 1 % more bytes on our posters (effort 3 saves 10 % for 2.5× the time).
const ENCODERS: Record<PosterFileFormat, (image: sharp.Sharp) => sharp.Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 1, chromaSubsampling: "4:2:0" }),
  webp: (image) => image.webp({ quality: 80, effort: 4 }),
  jpg: (image) => image.jpeg({ quality: 82, progressive: true, mozjpeg: true }),
};
// The srcset JPEGs reach only browsers without AVIF: libjpeg-turbo, a third of mozjpeg's time for 10 % more bytes.
const SIZED_JPEG = (image: sharp.Sharp) => image.jpeg({ quality: 82, progressive: true });

export const POSTER_MIME_TYPES: Record<PosterFileFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
};

/** The poster files of `movieId` that should exist, whether or not they do. */
export function moviePosterPaths(movieId: string, root = storageRoot()): PosterFile[] {
  const fixed = (Object.entries(POSTER_VARIANTS) as [PosterVariant, { width: number; height: number }][]).map(
    ([variant, size]): PosterFile => ({
      key: `${variant}.jpg`,
      variant,
      format: "jpg",
      ...size,
      path: moviePosterPath(movieId, variant, "jpg", root),
      sized: false,
    }),
  );
  const sized = SIZED_POSTER_VARIANTS.flatMap((variant) =>
    SIZED_POSTERS[variant].widths.flatMap((width) =>
      SIZED_POSTER_FORMATS.map((format) => sizedPosterFile(movieId, variant, width, format, root)),
    ),
  );
  return [...fixed, ...sized];
}

function sizedPosterFile(
  movieId: string,
  variant: SizedPosterVariant,
  width: number,
  format: SizedPosterFormat,
  root: string,
): PosterFile {
  return {
    key: `${variant}-${width}.${format}`,
    variant,
    format,
    width,
    height: sizedPosterHeight(variant, width),
    path: sizedPosterPath(movieId, variant, width, format, root),
    sized: true,
  };
}

/** Big enough to cut every file from: 1280 wide for the hero, 900 tall for the tallest tall size. */
const WORKING_SIZE = { width: 1280, height: 900 };

/**
 * Decode the source once into pixels every file is cut from (each file would
 * otherwise decode the source again: 22 decodes of a 12-megapixel photo).
 */
async function decodePoster(movieId: string, source: string | Buffer): Promise<sharp.Sharp> {
  const sharp = await loadSharp();
  try {
    // EXIF orientation applied first, so phone photos are not sideways; failOn "error" rejects truncated files.
    const { data, info } = await sharp(source, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize({ ...WORKING_SIZE, fit: "outside", withoutEnlargement: true })
      .flatten({ background: "#000000" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  } catch (error) {
    throw new Error(
      `The poster image for ${movieId} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function writePosterFile(
  decoded: sharp.Sharp,
  file: PosterFile,
  position: "centre" | "attention",
  tmpDir: string,
): Promise<PosterFile> {
  const resized = decoded.clone().resize(file.width, file.height, {
    fit: "cover",
    // sharp's strategy by its name (sharp.strategy.attention), so this module needs no sharp loaded.
    position,
  });
  const encode = file.sized && file.format === "jpg" ? SIZED_JPEG : ENCODERS[file.format];
  return writeAtomically(file.path, tmpDir, (temporaryFile) => encode(resized).toFile(temporaryFile)).then(() => file);
}

/** Write every poster file of `movieId` from an image (a path or its bytes). Rejects if the image cannot be read. */
export async function writeMoviePosters(
  movieId: string,
  source: string | Buffer,
  options: PosterOptions = {},
): Promise<PosterFile[]> {
  const root = options.root ?? storageRoot();
  const tmpDir = storagePaths(root).tmp;
  const decoded = await decodePoster(movieId, source);
  const wanted = moviePosterPaths(movieId, root).filter(
    (file) => !options.only || options.only.some((only) => only.key === file.key),
  );
  return Promise.all(wanted.map((file) => writePosterFile(decoded, file, options.position ?? "centre", tmpDir)));
}

/** Sizes being made on request, so two requests for one file make it once (in this process). */
const making = new Map<string, Promise<string | null>>();
/** Lazy makes at a time: a page of 24 cards of an old catalogue must not take every core at once. */
const MAKING_AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  // A finished make hands its turn straight to the next in line.
  if (running >= MAKING_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/**
 * The path of one srcset size of a title's poster, made now if it is missing
 * (a title from before sized posters, or a size added since) from the title's
 * 1280×720 hero; null when the title has no poster at all. Safe to repeat and
 * to run in several processes at once: the file is written to tmp/ and renamed
 * into place, and the same source always gives the same file.
 */
export async function ensureSizedPoster(
  movieId: string,
  variant: SizedPosterVariant,
  width: number,
  format: SizedPosterFormat,
  root = storageRoot(),
): Promise<string | null> {
  const file = sizedPosterFile(movieId, variant, width, format, root);
  if (fs.existsSync(file.path)) return file.path;
  const pending = making.get(file.path);
  if (pending) return pending;
  const made = inTurn(async () => {
    if (fs.existsSync(file.path)) return file.path;
    const source = [moviePosterPath(movieId, "hero", "jpg", root), moviePosterPath(movieId, "hero", "webp", root)].find(
      (candidate) => fs.existsSync(candidate),
    );
    if (!source) return null;
    const decoded = await decodePoster(movieId, source);
    await writePosterFile(decoded, file, "centre", storagePaths(root).tmp);
    return file.path;
  }).finally(() => making.delete(file.path));
  making.set(file.path, made);
  return made;
}

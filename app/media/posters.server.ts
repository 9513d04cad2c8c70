import sharp from "sharp";
import { writeAtomically } from "./atomic-files.server";
import {
  moviePosterPath,
  POSTER_FORMATS,
  POSTER_VARIANTS,
  storagePaths,
  storageRoot,
  type PosterFormat,
  type PosterVariant,
} from "./storage.server";

/**
 * A title's posters: every variant (card 300×200, hero 1280×720) in every
 * format (webp for browsers that take it, jpg for the rest and the old API),
 * cropped to fill the frame. One decode of the source feeds all of them.
 */

export type PosterFile = { variant: PosterVariant; format: PosterFormat; path: string };

export type PosterOptions = {
  root?: string;
  /**
   * Which part of the source survives the crop: "centre" for composed images
   * whose text sits in the middle, "attention" (sharp's saliency) for uploaded
   * portrait posters, where the face or title is rarely in the exact centre.
   */
  position?: "centre" | "attention";
  /** Write only these files (for example the ones that went missing); all of them when absent. */
  only?: readonly Pick<PosterFile, "variant" | "format">[];
};

// Sizes against quality: posters are photographs or gradients, where these settings show no artefacts at card size.
const ENCODERS: Record<PosterFormat, (image: sharp.Sharp) => sharp.Sharp> = {
  webp: (image) => image.webp({ quality: 80, effort: 4 }),
  jpg: (image) => image.jpeg({ quality: 82, progressive: true, mozjpeg: true }),
};

export const POSTER_MIME_TYPES: Record<PosterFormat, string> = {
  webp: "image/webp",
  jpg: "image/jpeg",
};

/** Write every poster file of `movieId` from an image (a path or its bytes). Rejects if the image cannot be read. */
export async function writeMoviePosters(
  movieId: string,
  source: string | Buffer,
  options: PosterOptions = {},
): Promise<PosterFile[]> {
  const root = options.root ?? storageRoot();
  const tmpDir = storagePaths(root).tmp;
  // EXIF orientation applied first, so phone photos are not sideways; failOn "error" rejects truncated files.
  const decoded = sharp(source, { failOn: "error" }).rotate();
  try {
    await decoded.metadata();
  } catch (error) {
    throw new Error(
      `The poster image for ${movieId} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const position = options.position === "attention" ? sharp.strategy.attention : "centre";

  const jobs: Promise<PosterFile>[] = [];
  for (const [variant, size] of Object.entries(POSTER_VARIANTS) as [
    PosterVariant,
    { width: number; height: number },
  ][]) {
    const resized = decoded
      .clone()
      .resize(size.width, size.height, { fit: "cover", position })
      .flatten({ background: "#000000" });
    for (const format of POSTER_FORMATS) {
      if (options.only && !options.only.some((wanted) => wanted.variant === variant && wanted.format === format))
        continue;
      const destination = moviePosterPath(movieId, variant, format, root);
      jobs.push(
        writeAtomically(destination, tmpDir, (temporaryFile) =>
          ENCODERS[format](resized.clone()).toFile(temporaryFile),
        ).then(() => ({ variant, format, path: destination })),
      );
    }
  }
  return Promise.all(jobs);
}

/** The poster files of `movieId` that should exist, whether or not they do. */
export function moviePosterPaths(movieId: string, root = storageRoot()): PosterFile[] {
  return (Object.keys(POSTER_VARIANTS) as PosterVariant[]).flatMap((variant) =>
    POSTER_FORMATS.map((format) => ({ variant, format, path: moviePosterPath(movieId, variant, format, root) })),
  );
}

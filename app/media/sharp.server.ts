import type Sharp from "sharp";

/**
 * The most pixels an uploaded image may have, checked from its header before it is decoded: 40 megapixels
 * (a 7,700 × 5,200 photo). A small file can declare a huge picture (a 0.8 MB PNG of 16,000 × 16,000 px
 * would need a gigabyte decoded); past this the image is refused as unreadable.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

let loading: Promise<typeof Sharp> | null = null;

/**
 * sharp, loaded by the first image made in this process rather than by every
 * process at start: sharp and libvips add about 9 MiB to a process, and most
 * of the server's processes never make an image (the background worker makes
 * posters; a category image or a missing poster size is made where it is asked
 * for). docs/decisions/036-server-memory.md.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then((module) => module.default);
  return loading;
}

import type Sharp from "sharp";

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

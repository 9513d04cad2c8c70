import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  fixedPosterUrl,
  posterSrcSet,
  SIZED_POSTERS,
  sizedPosterUrl,
  type SizedPosterVariant,
} from "~/media/poster-sizes";
import {
  movieDir,
  movieVideoPath,
  posterUrl,
  publicPosterName,
  resolvePublicPoster,
  resolveSeriesPoster,
  seriesPosterUrl,
} from "~/media/storage.server";

const root = path.resolve("/srv/kallo-storage");
const mediaFolder = path.join(root, "media");

describe("public poster names", () => {
  it("map a valid name to the poster file inside the title's folder", () => {
    expect(resolvePublicPoster("demomovie01-card.jpg", root)).toEqual({
      movieId: "demomovie01",
      path: path.join(mediaFolder, "demomovie01", "poster-card.jpg"),
      format: "jpg",
    });
    expect(resolvePublicPoster("abcdefgh12345678-hero.webp", root)).toEqual({
      movieId: "abcdefgh12345678",
      path: path.join(mediaFolder, "abcdefgh12345678", "poster-hero.webp"),
      format: "webp",
    });
  });

  it("map the srcset sizes to their files, only at the listed widths", () => {
    expect(resolvePublicPoster("demomovie01-card-300.avif", root)).toEqual({
      movieId: "demomovie01",
      path: path.join(mediaFolder, "demomovie01", "poster-card-300.avif"),
      format: "avif",
      sized: { variant: "card", width: 300, format: "avif" },
    });
    expect(resolvePublicPoster("demomovie01-tall-720.jpg", root)?.path).toBe(
      path.join(mediaFolder, "demomovie01", "poster-tall-720.jpg"),
    );
    for (const [variant, { widths }] of Object.entries(SIZED_POSTERS) as [
      SizedPosterVariant,
      { widths: readonly number[] },
    ][])
      for (const width of widths)
        for (const format of ["avif", "jpg"] as const) {
          const url = sizedPosterUrl({ kind: "title", id: "demomovie02" }, variant, width, format);
          expect(url).toBe(`/api/files/thumbnail/demomovie02-${variant}-${width}.${format}`);
          expect(resolvePublicPoster(url.split("/").pop()!, root)?.sized).toEqual({ variant, width, format });
        }
    expect(posterSrcSet({ kind: "title", id: "demomovie02" }, "card", "avif")).toBe(
      [200, 300, 450, 600].map((width) => `/api/files/thumbnail/demomovie02-card-${width}.avif ${width}w`).join(", "),
    );
  });

  it("give a series the same sizes under /series-poster/, in its own folder", () => {
    const owner = { kind: "series", id: "demoseries01" } as const;
    expect(posterSrcSet(owner, "card", "avif")).toBe(
      [200, 300, 450, 600].map((width) => `/series-poster/demoseries01-card-${width}.avif ${width}w`).join(", "),
    );
    expect(fixedPosterUrl(owner, "hero")).toBe(seriesPosterUrl("demoseries01", "hero", "jpg"));
    expect(fixedPosterUrl({ kind: "title", id: "demomovie01" }, "card")).toBe(posterUrl("demomovie01", "card", "jpg"));
    const tall = sizedPosterUrl(owner, "tall", 540, "avif");
    expect(resolveSeriesPoster(tall.split("/").pop()!, root)).toEqual({
      seriesId: "demoseries01",
      path: path.join(mediaFolder, "demoseries01", "poster-tall-540.avif"),
      format: "avif",
      sized: { variant: "tall", width: 540, format: "avif" },
    });
    expect(resolveSeriesPoster("demoseries01-card-301.avif", root)).toBeNull();
    expect(resolveSeriesPoster("../demoseries01-card.jpg", root)).toBeNull();
  });

  it("round-trip with the names and URLs the pages use", () => {
    const name = publicPosterName("demomovie07", "hero", "webp");
    expect(name).toBe("demomovie07-hero.webp");
    expect(posterUrl("demomovie07")).toBe("/api/files/thumbnail/demomovie07-card.jpg");
    expect(resolvePublicPoster(name, root)?.path).toBe(path.join(mediaFolder, "demomovie07", "poster-hero.webp"));
  });

  it.each([
    "",
    "../data.db",
    "..%2Fdata.db",
    "../../etc/passwd",
    "/etc/passwd",
    "demomovie01-card.jpg/../../data.db",
    "demomovie01/../../data.db-card.jpg",
    "demomovie01-card.png",
    "demomovie01-card.jpeg",
    "demomovie01-thumb.jpg",
    "DEMOMOVIE01-card.jpg",
    "short-card.jpg",
    `${"a".repeat(33)}-card.jpg`,
    "demo.movie01-card.jpg",
    "demomovie01-card.jpg ",
    "demomovie01-card.jpg\0",
    "demomovie01-card.jpg\n",
    "video.mp4",
    "demomovie01-card-301.avif",
    "demomovie01-card-0300.avif",
    "demomovie01-card-300.webp",
    "demomovie01-card-300.png",
    "demomovie01-tall-1280.jpg",
    "demomovie01-wide-300.jpg",
    "demomovie01-card-.jpg",
    "demomovie01-card-300.avif/../../data.db",
  ])("refuse %j", (name) => {
    expect(resolvePublicPoster(name, root)).toBeNull();
  });

  it("never point outside the media folder", () => {
    for (const name of ["demomovie01-card.jpg", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz-hero.webp"]) {
      const resolved = resolvePublicPoster(name, root);
      expect(resolved).not.toBeNull();
      expect(path.relative(mediaFolder, resolved!.path).startsWith("..")).toBe(false);
    }
  });

  it("movie folders refuse ids that are not plain lower-case letters and digits", () => {
    expect(() => movieDir("../outside", root)).toThrow(/Invalid movie id/);
    expect(() => movieVideoPath("Demomovie01", root)).toThrow(/Invalid movie id/);
    expect(movieVideoPath("demomovie01", root)).toBe(path.join(mediaFolder, "demomovie01", "video.mp4"));
  });
});

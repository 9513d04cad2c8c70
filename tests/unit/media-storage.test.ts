import path from "node:path";
import { describe, expect, it } from "vitest";
import { movieDir, movieVideoPath, posterUrl, publicPosterName, resolvePublicPoster } from "~/media/storage.server";

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

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moviePosterPaths, writeMoviePosters } from "~/media/posters.server";
import { storagePaths } from "~/media/storage.server";

let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-posters-"));
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** A portrait image with EXIF orientation, like a phone photo of a film poster. */
function portraitPoster(): Promise<Buffer> {
  return sharp({ create: { width: 600, height: 900, channels: 3, background: "#b91c1c" } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

describe("movie posters", () => {
  it("writes the card and hero sizes in webp and jpg, cropped to fill", async () => {
    const files = await writeMoviePosters("postertest01", await portraitPoster(), { root });
    expect(files).toHaveLength(4);
    for (const file of moviePosterPaths("postertest01", root)) {
      const metadata = await sharp(file.path).metadata();
      expect(metadata.format).toBe(file.format === "jpg" ? "jpeg" : "webp");
      expect({ width: metadata.width, height: metadata.height }).toEqual(
        file.variant === "card" ? { width: 300, height: 200 } : { width: 1280, height: 720 },
      );
    }
    expect(fs.readdirSync(storagePaths(root).tmp)).toEqual([]);
  });

  it("accepts a file path and writes only the files asked for", async () => {
    const source = path.join(root, "source.png");
    await sharp({ create: { width: 1920, height: 1080, channels: 4, background: "#0ea5e9" } })
      .png()
      .toFile(source);
    const files = await writeMoviePosters("postertest02", source, {
      root,
      only: [{ variant: "hero", format: "webp" }],
    });
    expect(files.map((file) => `${file.variant}.${file.format}`)).toEqual(["hero.webp"]);
    expect(moviePosterPaths("postertest02", root).filter((file) => fs.existsSync(file.path))).toHaveLength(1);
  });

  it("rejects what is not an image, leaving no file behind", async () => {
    await expect(writeMoviePosters("postertest03", Buffer.from("not an image"), { root })).rejects.toThrow(
      /could not be read/,
    );
    expect(moviePosterPaths("postertest03", root).some((file) => fs.existsSync(file.path))).toBe(false);
    expect(fs.readdirSync(storagePaths(root).tmp)).toEqual([]);
  });
});

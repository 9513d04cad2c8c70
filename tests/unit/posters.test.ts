import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { posterFormatFor, SIZED_POSTER_FORMATS, SIZED_POSTERS, sizedPosterHeight } from "~/media/poster-sizes";
import { ensureSizedPoster, moviePosterPaths, writeMoviePosters } from "~/media/posters.server";
import { moviePosterPath, sizedPosterPath, storagePaths } from "~/media/storage.server";

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

async function sizeOf(file: string) {
  const metadata = await sharp(file).metadata();
  return { format: metadata.format, width: metadata.width, height: metadata.height };
}

describe("movie posters", () => {
  it("writes the fixed card and hero JPEGs and every srcset width in AVIF and JPEG, cropped to fill", async () => {
    const files = await writeMoviePosters("postertest01", await portraitPoster(), { root });
    const sizedCount = Object.values(SIZED_POSTERS).reduce((sum, variant) => sum + variant.widths.length, 0);
    expect(files).toHaveLength(2 + sizedCount * SIZED_POSTER_FORMATS.length);

    expect(await sizeOf(moviePosterPath("postertest01", "card", "jpg", root))).toEqual({
      format: "jpeg",
      width: 300,
      height: 200,
    });
    expect(await sizeOf(moviePosterPath("postertest01", "hero", "jpg", root))).toEqual({
      format: "jpeg",
      width: 1280,
      height: 720,
    });
    // The widths the pages list: cards 200–600 (3:2), hero 640–1280 (16:9), tall 360–720 (4:5, the hero on phones).
    expect(SIZED_POSTERS.card.widths).toEqual([200, 300, 450, 600]);
    expect(SIZED_POSTERS.hero.widths).toEqual([640, 960, 1280]);
    expect(SIZED_POSTERS.tall.widths).toEqual([360, 540, 720]);
    for (const [variant, { widths }] of Object.entries(SIZED_POSTERS) as [
      keyof typeof SIZED_POSTERS,
      { widths: readonly number[] },
    ][])
      for (const width of widths)
        for (const format of SIZED_POSTER_FORMATS)
          expect(await sizeOf(sizedPosterPath("postertest01", variant, width, format, root))).toEqual({
            format: format === "jpg" ? "jpeg" : "heif",
            width,
            height: sizedPosterHeight(variant, width),
          });
    expect(sizedPosterHeight("tall", 720)).toBe(900);
    expect(sizedPosterHeight("card", 450)).toBe(300);
    // Titles made now no longer get the WebP files the pages used before.
    expect(fs.existsSync(moviePosterPath("postertest01", "card", "webp", root))).toBe(false);
    expect(fs.readdirSync(storagePaths(root).tmp)).toEqual([]);
  });

  it("AVIF is the smaller file at every card width of a detailed image", async () => {
    const noise = Buffer.alloc(640 * 360 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const source = await sharp(noise, { raw: { width: 640, height: 360, channels: 3 } })
      .blur(1)
      .png()
      .toBuffer();
    const only = SIZED_POSTERS.card.widths.flatMap((width) => [
      { key: `card-${width}.avif` },
      { key: `card-${width}.jpg` },
    ]);
    await writeMoviePosters("postertest04", source, { root, only });
    for (const width of SIZED_POSTERS.card.widths) {
      const avif = fs.statSync(sizedPosterPath("postertest04", "card", width, "avif", root)).size;
      const jpg = fs.statSync(sizedPosterPath("postertest04", "card", width, "jpg", root)).size;
      expect(avif).toBeLessThan(jpg);
    }
  });

  it("accepts a file path and writes only the files asked for", async () => {
    const source = path.join(root, "source.png");
    await sharp({ create: { width: 1920, height: 1080, channels: 4, background: "#0ea5e9" } })
      .png()
      .toFile(source);
    const files = await writeMoviePosters("postertest02", source, {
      root,
      only: [{ key: "hero.jpg" }, { key: "tall-540.avif" }],
    });
    expect(files.map((file) => file.key)).toEqual(["hero.jpg", "tall-540.avif"]);
    expect(moviePosterPaths("postertest02", root).filter((file) => fs.existsSync(file.path))).toHaveLength(2);
  });

  it("rejects what is not an image, leaving no file behind", async () => {
    await expect(writeMoviePosters("postertest03", Buffer.from("not an image"), { root })).rejects.toThrow(
      /could not be read/,
    );
    expect(moviePosterPaths("postertest03", root).some((file) => fs.existsSync(file.path))).toBe(false);
    expect(fs.readdirSync(storagePaths(root).tmp)).toEqual([]);
  });
});

describe("srcset sizes of titles made before them", () => {
  /** A title as the previous version left it: the fixed JPEGs and WebPs only. */
  async function oldTitle(movieId: string) {
    const hero = moviePosterPath(movieId, "hero", "jpg", root);
    fs.mkdirSync(path.dirname(hero), { recursive: true });
    await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#7c3aed" } })
      .jpeg()
      .toFile(hero);
    await sharp(hero)
      .resize(300, 200)
      .jpeg()
      .toFile(moviePosterPath(movieId, "card", "jpg", root));
  }

  it("are made from the hero on first request, once, and then read from disk", async () => {
    await oldTitle("postertest05");
    const wanted = sizedPosterPath("postertest05", "tall", 540, "avif", root);
    expect(fs.existsSync(wanted)).toBe(false);
    // Several requests at once make the file once.
    const paths = await Promise.all(
      Array.from({ length: 4 }, () => ensureSizedPoster("postertest05", "tall", 540, "avif", root)),
    );
    expect(new Set(paths)).toEqual(new Set([wanted]));
    expect(await sizeOf(wanted)).toEqual({ format: "heif", width: 540, height: 675 });
    const made = fs.statSync(wanted);
    // A second pass (another request, a restart) finds it and writes nothing.
    expect(await ensureSizedPoster("postertest05", "tall", 540, "avif", root)).toBe(wanted);
    expect(fs.statSync(wanted).mtimeMs).toBe(made.mtimeMs);
    expect(fs.statSync(wanted).ino).toBe(made.ino);
    // Only what was asked for.
    expect(fs.existsSync(sizedPosterPath("postertest05", "tall", 360, "avif", root))).toBe(false);
    expect(await sizeOf((await ensureSizedPoster("postertest05", "card", 600, "jpg", root))!)).toEqual({
      format: "jpeg",
      width: 600,
      height: 400,
    });
    expect(fs.readdirSync(storagePaths(root).tmp)).toEqual([]);
  });

  it("are not made for a title without a poster", async () => {
    fs.mkdirSync(path.join(storagePaths(root).media, "postertest06"), { recursive: true });
    expect(await ensureSizedPoster("postertest06", "card", 300, "avif", root)).toBeNull();
    expect(fs.readdirSync(path.join(storagePaths(root).media, "postertest06"))).toEqual([]);
  });
});

describe("the player's poster format", () => {
  it("is AVIF only when the page's request lists image/avif", () => {
    // Chromium's and Firefox's page requests; Safari's; a script's; none.
    expect(
      posterFormatFor(
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8",
      ),
    ).toBe("avif");
    expect(posterFormatFor("text/html,application/xhtml+xml,image/avif;q=0.9,*/*;q=0.8")).toBe("avif");
    expect(posterFormatFor("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe("jpg");
    expect(posterFormatFor("*/*")).toBe("jpg");
    expect(posterFormatFor("image/avifx,text/html")).toBe("jpg");
    expect(posterFormatFor(null)).toBe("jpg");
  });
});

import { describe, expect, it } from "vitest";
import { checkUploadedFile, detectKind } from "~/media/file-types.server";

const hex = (value: string) => Buffer.from(value.replace(/\s/g, ""), "hex");
const SAMPLES = {
  mp4: Buffer.concat([hex("00000020"), Buffer.from("ftypisom"), Buffer.alloc(8)]),
  threeGp: Buffer.concat([hex("00000018"), Buffer.from("ftyp3gp4"), Buffer.alloc(8)]),
  mov: Buffer.concat([hex("00000014"), Buffer.from("ftypqt  "), Buffer.alloc(8)]),
  mkv: Buffer.concat([hex("1a45dfa3 9f 4286 81 01 42f7 81 01 42f2"), Buffer.alloc(2)]),
  wmv: hex("3026b2758e66cf11a6d900aa0062ce6c 0000"),
  avi: Buffer.concat([Buffer.from("RIFF"), hex("00100000"), Buffer.from("AVI LIST")]),
  mpeg: Buffer.concat([hex("000001ba"), Buffer.alloc(12)]),
  jpeg: Buffer.concat([hex("ffd8ffe0"), Buffer.alloc(12)]),
  png: Buffer.concat([hex("89504e470d0a1a0a"), Buffer.alloc(8)]),
  elf: Buffer.concat([hex("7f454c46"), Buffer.alloc(12)]),
  windowsExe: Buffer.concat([Buffer.from("MZ"), Buffer.alloc(14)]),
  pdf: Buffer.from("%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3"),
};

describe("recognising files by their first bytes", () => {
  it("knows every accepted format", () => {
    expect(detectKind(SAMPLES.mp4)).toBe("iso-media");
    expect(detectKind(SAMPLES.threeGp)).toBe("iso-media");
    expect(detectKind(SAMPLES.mov)).toBe("iso-media");
    expect(detectKind(SAMPLES.mkv)).toBe("matroska");
    expect(detectKind(SAMPLES.wmv)).toBe("asf");
    expect(detectKind(SAMPLES.avi)).toBe("avi");
    expect(detectKind(SAMPLES.mpeg)).toBe("mpeg-ps");
    expect(detectKind(SAMPLES.jpeg)).toBe("jpeg");
    expect(detectKind(SAMPLES.png)).toBe("png");
  });

  it("does not recognise executables, documents or too few bytes", () => {
    expect(detectKind(SAMPLES.elf)).toBeNull();
    expect(detectKind(SAMPLES.windowsExe)).toBeNull();
    expect(detectKind(SAMPLES.pdf)).toBeNull();
    expect(detectKind(Buffer.alloc(0))).toBeNull();
    expect(detectKind(hex("ffd8"))).toBeNull();
  });
});

describe("checking an upload by extension and content", () => {
  it("accepts matching pairs, any letter case", () => {
    expect(checkUploadedFile("movie", "film.MP4", SAMPLES.mp4)).toMatchObject({ ok: true, extension: ".mp4" });
    expect(checkUploadedFile("movie", "clip.3gp", SAMPLES.threeGp)).toMatchObject({ ok: true });
    expect(checkUploadedFile("movie", "old.wmv", SAMPLES.wmv)).toMatchObject({ ok: true });
    expect(checkUploadedFile("movie", "IMG_0042.MOV", SAMPLES.mov)).toMatchObject({ ok: true, extension: ".mov" });
    expect(checkUploadedFile("movie", "edit.mkv", SAMPLES.mkv)).toMatchObject({ ok: true, kind: "matroska" });
    expect(checkUploadedFile("movie", "tape.avi", SAMPLES.avi)).toMatchObject({ ok: true });
    expect(checkUploadedFile("movie", "dvd.mpeg", SAMPLES.mpeg)).toMatchObject({ ok: true });
    expect(checkUploadedFile("poster", "p.jpeg", SAMPLES.jpeg)).toMatchObject({ ok: true });
    expect(checkUploadedFile("poster", "p.JPG", SAMPLES.jpeg)).toMatchObject({ ok: true });
    expect(checkUploadedFile("poster", "p.png", SAMPLES.png)).toMatchObject({ ok: true });
  });

  it("refuses extensions that are not allowed", () => {
    expect(checkUploadedFile("movie", "film.webm", SAMPLES.mkv)).toEqual({ ok: false, reason: "wrongExtension" });
    expect(checkUploadedFile("movie", "film.flv", SAMPLES.mp4)).toEqual({ ok: false, reason: "wrongExtension" });
    expect(checkUploadedFile("movie", "film", SAMPLES.mp4)).toEqual({ ok: false, reason: "wrongExtension" });
    expect(checkUploadedFile("poster", "p.gif", SAMPLES.png)).toEqual({ ok: false, reason: "wrongExtension" });
    expect(checkUploadedFile("poster", "p.mp4", SAMPLES.mp4)).toEqual({ ok: false, reason: "wrongExtension" });
  });

  it("refuses a renamed executable and a content that does not match its name", () => {
    expect(checkUploadedFile("movie", "film.mp4", SAMPLES.elf)).toEqual({ ok: false, reason: "contentMismatch" });
    expect(checkUploadedFile("movie", "film.avi", SAMPLES.windowsExe)).toEqual({
      ok: false,
      reason: "contentMismatch",
    });
    expect(checkUploadedFile("movie", "film.avi", SAMPLES.mp4)).toEqual({ ok: false, reason: "contentMismatch" });
    expect(checkUploadedFile("movie", "film.mkv", SAMPLES.mp4)).toEqual({ ok: false, reason: "contentMismatch" });
    expect(checkUploadedFile("movie", "film.mov", SAMPLES.mkv)).toEqual({ ok: false, reason: "contentMismatch" });
    expect(checkUploadedFile("poster", "p.png", SAMPLES.jpeg)).toEqual({ ok: false, reason: "contentMismatch" });
    expect(checkUploadedFile("poster", "p.jpg", SAMPLES.pdf)).toEqual({ ok: false, reason: "contentMismatch" });
  });
});

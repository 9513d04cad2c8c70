import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  coalesceRanges,
  ifRangeAllows,
  parseRangeHeader,
  serveFileWithRanges,
  strongEtag,
} from "~/media/byte-range.server";

describe("parsing a Range header", () => {
  const size = 1000;
  it("reads single, open-ended and suffix ranges", () => {
    expect(parseRangeHeader("bytes=0-99", size)).toEqual({ kind: "ranges", ranges: [{ start: 0, end: 99 }] });
    expect(parseRangeHeader("bytes=500-", size)).toEqual({ kind: "ranges", ranges: [{ start: 500, end: 999 }] });
    expect(parseRangeHeader("bytes=-100", size)).toEqual({ kind: "ranges", ranges: [{ start: 900, end: 999 }] });
    expect(parseRangeHeader("bytes=-5000", size)).toEqual({ kind: "ranges", ranges: [{ start: 0, end: 999 }] });
    expect(parseRangeHeader("bytes=990-5000", size)).toEqual({ kind: "ranges", ranges: [{ start: 990, end: 999 }] });
    expect(parseRangeHeader(" Bytes = 1-1 ", size)).toEqual({ kind: "ranges", ranges: [{ start: 1, end: 1 }] });
  });

  it("answers unsatisfiable when no range overlaps the file", () => {
    expect(parseRangeHeader("bytes=1000-", size)).toEqual({ kind: "unsatisfiable" });
    expect(parseRangeHeader("bytes=2000-3000", size)).toEqual({ kind: "unsatisfiable" });
    expect(parseRangeHeader("bytes=-0", size)).toEqual({ kind: "unsatisfiable" });
    expect(parseRangeHeader("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });

  it("ignores garbage, other units and backwards ranges (the whole file is sent)", () => {
    for (const header of [
      "",
      "bytes",
      "bytes=",
      "bytes=abc",
      "bytes=5-2",
      "items=0-1",
      "bytes=--1",
      "bytes=1-2-3",
      "bytes=0x10-20",
      "bytes=-",
    ]) {
      expect(parseRangeHeader(header, size), header).toEqual({ kind: "none" });
    }
    expect(parseRangeHeader(null, size)).toEqual({ kind: "none" });
    expect(parseRangeHeader("bytes=99999999999999999999-", size)).toEqual({ kind: "none" });
  });

  it("keeps several ranges, merged where they overlap or touch, and ignores too many", () => {
    expect(parseRangeHeader("bytes=0-9, 20-29", size)).toEqual({
      kind: "ranges",
      ranges: [
        { start: 0, end: 9 },
        { start: 20, end: 29 },
      ],
    });
    expect(parseRangeHeader("bytes=20-29,0-9,10-15", size)).toEqual({
      kind: "ranges",
      ranges: [
        { start: 0, end: 15 },
        { start: 20, end: 29 },
      ],
    });
    expect(parseRangeHeader("bytes=0-9, 5000-6000", size)).toEqual({ kind: "ranges", ranges: [{ start: 0, end: 9 }] });
    const many = Array.from({ length: 11 }, (_, i) => `${i * 10}-${i * 10 + 1}`).join(",");
    expect(parseRangeHeader(`bytes=${many}`, size)).toEqual({ kind: "none" });
    expect(
      coalesceRanges([
        { start: 5, end: 9 },
        { start: 0, end: 4 },
      ]),
    ).toEqual([{ start: 0, end: 9 }]);
  });

  it("lets If-Range through only for the current strong ETag or date", () => {
    const modified = new Date("2026-01-01T00:00:00Z");
    expect(ifRangeAllows(null, '"a"', modified)).toBe(true);
    expect(ifRangeAllows('"a"', '"a"', modified)).toBe(true);
    expect(ifRangeAllows('"b"', '"a"', modified)).toBe(false);
    expect(ifRangeAllows('W/"a"', '"a"', modified)).toBe(false);
    expect(ifRangeAllows(modified.toUTCString(), '"a"', modified)).toBe(true);
    expect(ifRangeAllows("Tue, 01 Jan 2019 00:00:00 GMT", '"a"', modified)).toBe(false);
  });
});

describe("serving a file with ranges", () => {
  let dir: string;
  let file: string;
  const content = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-range-"));
    file = path.join(dir, "video.mp4");
    fs.writeFileSync(file, content);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const get = async (headers: Record<string, string> = {}, method = "GET") => {
    const response = await serveFileWithRanges(new Request("http://localhost/f", { method, headers }), file, {
      contentType: "video/mp4",
    });
    if (!response) throw new Error("expected a response");
    return response;
  };

  it("sends the whole file with Accept-Ranges, ETag and Last-Modified", async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("Content-Length")).toBe("4096");
    expect(response.headers.get("Content-Type")).toBe("video/mp4");
    expect(response.headers.get("ETag")).toBe(strongEtag(fs.statSync(file)));
    expect(Buffer.from(await response.arrayBuffer())).toEqual(content);
  });

  it("sends 206 with the exact bytes and Content-Range", async () => {
    const response = await get({ Range: "bytes=100-199" });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe("bytes 100-199/4096");
    expect(response.headers.get("Content-Length")).toBe("100");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(content.subarray(100, 200));
    const suffix = await get({ Range: "bytes=-10" });
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(content.subarray(4086));
  });

  it("sends 416 with bytes */size when the range is past the end", async () => {
    const response = await get({ Range: "bytes=5000-" });
    expect(response.status).toBe(416);
    expect(response.headers.get("Content-Range")).toBe("bytes */4096");
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await get({ Range: "bytes=0-9" }, "HEAD");
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Length")).toBe("10");
    expect(response.body).toBeNull();
  });

  it("answers 304 to a matching If-None-Match and ignores Range when If-Range is stale", async () => {
    const etag = strongEtag(fs.statSync(file));
    expect((await get({ "If-None-Match": etag })).status).toBe(304);
    const stale = await get({ Range: "bytes=0-9", "If-Range": '"old"' });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("Content-Length")).toBe("4096");
    const fresh = await get({ Range: "bytes=0-9", "If-Range": etag });
    expect(fresh.status).toBe(206);
  });

  it("sends several ranges as multipart/byteranges with a correct length", async () => {
    const response = await get({ Range: "bytes=0-9,100-109" });
    expect(response.status).toBe(206);
    const type = response.headers.get("Content-Type") ?? "";
    expect(type).toMatch(/^multipart\/byteranges; boundary=/);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBe(Number(response.headers.get("Content-Length")));
    const text = body.toString("latin1");
    expect(text).toContain("Content-Range: bytes 0-9/4096");
    expect(text).toContain("Content-Range: bytes 100-109/4096");
    expect(body.includes(content.subarray(100, 110))).toBe(true);
  });

  it("answers null for a missing file, so the caller can say what was not found", async () => {
    const response = await serveFileWithRanges(new Request("http://localhost/f"), path.join(dir, "nope.mp4"), {
      contentType: "video/mp4",
    });
    expect(response).toBeNull();
  });
});

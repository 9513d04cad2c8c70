import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkUploadedFile } from "~/media/file-types.server";
import { receiveMultipartUpload, UploadError } from "~/media/multipart-upload.server";

const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom"), Buffer.alloc(8)]);
const JPEG_HEAD = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(12)]);

let tmpDir: string;
beforeEach(() => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-upload-"));
});
afterEach(() => fs.rmSync(tmpDir, { recursive: true, force: true }));

function formRequest(form: FormData): Request {
  return new Request("http://localhost/upload", { method: "POST", body: form });
}

const checkFile = ({ field, originalName, head }: { field: string; originalName: string; head: Buffer }) => {
  const result = checkUploadedFile(field === "poster" ? "poster" : "movie", originalName, head);
  return result.ok ? null : result.reason;
};

/** The upload is refused with `status`, and nothing of it is left on disk. */
async function expectRefused(request: Request, maxFileBytes: number, status: number): Promise<void> {
  const error = await receiveMultipartUpload(request, { tmpDir, maxFileBytes, maxFiles: 2, checkFile }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UploadError);
  expect((error as UploadError).status).toBe(status);
  expect(fs.readdirSync(tmpDir)).toEqual([]);
}

describe("receiving a multipart upload", () => {
  it("streams files to temporary files and collects the fields", async () => {
    const form = new FormData();
    form.set("name", "Gidan Kallo");
    form.set("movie", new Blob([MP4_HEAD, Buffer.alloc(100_000, 7)]), "film.mp4");
    form.set("poster", new Blob([JPEG_HEAD, Buffer.alloc(500, 1)]), "poster.jpg");
    const upload = await receiveMultipartUpload(formRequest(form), {
      tmpDir,
      maxFileBytes: 1_000_000,
      maxFiles: 2,
      checkFile,
    });
    expect(upload.fields).toEqual({ name: "Gidan Kallo" });
    expect(upload.files.map((f) => [f.field, f.originalName, f.size])).toEqual([
      ["movie", "film.mp4", 100_020],
      ["poster", "poster.jpg", 516],
    ]);
    expect(fs.statSync(upload.files[0].tempPath).size).toBe(100_020);
    expect(upload.files[0].head.equals(MP4_HEAD.subarray(0, 16))).toBe(true);
    await upload.discard();
    expect(fs.readdirSync(tmpDir)).toEqual([]);
  });

  it("refuses a file over the limit with 413 and leaves nothing on disk", async () => {
    const form = new FormData();
    form.set("movie", new Blob([MP4_HEAD, Buffer.alloc(300_000)]), "film.mp4");
    await expectRefused(formRequest(form), 100_000, 413);
  });

  it("refuses a renamed executable with 400 and leaves nothing on disk", async () => {
    const form = new FormData();
    form.set("movie", new Blob([Buffer.from("\x7fELF"), Buffer.alloc(5000)]), "film.mp4");
    const error = await receiveMultipartUpload(formRequest(form), {
      tmpDir,
      maxFileBytes: 100_000,
      maxFiles: 2,
      checkFile,
    }).catch((e) => e);
    expect(error).toMatchObject({
      status: 400,
      code: "badFile",
      detail: { field: "movie", reason: "contentMismatch" },
    });
    expect(fs.readdirSync(tmpDir)).toEqual([]);
  });

  it("leaves nothing behind when the connection drops mid-body", async () => {
    const form = new FormData();
    form.set("name", "x");
    form.set("movie", new Blob([MP4_HEAD, Buffer.alloc(2_000_000, 3)]), "film.mp4");
    const encoded = new Request("http://localhost/", { method: "POST", body: form });
    const contentType = encoded.headers.get("Content-Type")!;
    const full = Buffer.from(await encoded.arrayBuffer());
    let sent = 0;
    const dropping = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= full.length / 2) {
          controller.error(new Error("connection reset"));
          return;
        }
        const chunk = full.subarray(sent, sent + 64 * 1024);
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://localhost/upload", {
      method: "POST",
      body: dropping,
      headers: { "Content-Type": contentType },
      duplex: "half",
    } as RequestInit);
    await expectRefused(request, 10_000_000, 400);
  });

  it("refuses a body that is not multipart", async () => {
    const request = new Request("http://localhost/upload", {
      method: "POST",
      body: "name=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    await expect(receiveMultipartUpload(request, { tmpDir, maxFileBytes: 10, maxFiles: 1 })).rejects.toMatchObject({
      status: 400,
      code: "notMultipart",
    });
  });

  it("refuses a declared length over the limit before reading", async () => {
    const form = new FormData();
    form.set("movie", new Blob([MP4_HEAD]), "film.mp4");
    const encoded = formRequest(form);
    const request = new Request(encoded.url, {
      method: "POST",
      body: await encoded.arrayBuffer(),
      headers: {
        "Content-Type": encoded.headers.get("Content-Type")!,
        "Content-Length": String(50 * 1024 * 1024 * 1024),
      },
    });
    await expect(receiveMultipartUpload(request, { tmpDir, maxFileBytes: 1000, maxFiles: 1 })).rejects.toMatchObject({
      status: 413,
    });
  });

  it("skips empty file inputs (a form sent without choosing a poster)", async () => {
    const form = new FormData();
    form.set("movie", new Blob([MP4_HEAD]), "film.mp4");
    form.set("poster", new Blob([]), "");
    const upload = await receiveMultipartUpload(formRequest(form), {
      tmpDir,
      maxFileBytes: 1000,
      maxFiles: 2,
      checkFile,
    });
    expect(upload.files.map((f) => f.field)).toEqual(["movie"]);
    await upload.discard();
  });
});

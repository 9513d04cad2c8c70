import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  classifyTitleFile,
  MAX_SIGNED_SECONDS,
  objectKey,
  SIGNING_WINDOW_SECONDS,
  signedLifetimeSeconds,
  signingTime,
} from "~/media/media-store.server";
import { cdnSignedUrl, classifyError, etagMatches, fileEtags, ObjectStore } from "~/media/object-store.server";
import { parseEnv, type EnvError } from "~/utils/env.server";
import { contentSecurityPolicy } from "~/utils/security-headers.server";

const bucketSettings = (more: Record<string, string> = {}) =>
  parseEnv({
    MEDIA_STORE: "s3",
    S3_ENDPOINT: "http://127.0.0.1:9",
    S3_BUCKET: "films",
    S3_ACCESS_KEY_ID: "AKIDEXAMPLE",
    S3_SECRET_ACCESS_KEY: "secret",
    S3_FORCE_PATH_STYLE: "1",
    ...more,
  }).s3!;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-media-store-unit-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("where each kind of file lives", () => {
  it("moves the film and the ladder to the bucket and keeps copies of what the box serves itself", () => {
    expect(classifyTitleFile("video.mp4")).toEqual({ kind: "film", moves: true });
    expect(classifyTitleFile("video.mp4", "local")).toEqual({ kind: "film", moves: false });
    expect(classifyTitleFile("hls/240p.mp4")).toEqual({ kind: "ladder", moves: true });
    expect(classifyTitleFile("hls/240p.m3u8")).toEqual({ kind: "playlist", moves: false });
    expect(classifyTitleFile("poster-card.jpg")).toEqual({ kind: "poster", moves: false });
    expect(classifyTitleFile("poster-card-600.avif")).toEqual({ kind: "poster", moves: false });
    expect(classifyTitleFile("subtitles/ha.vtt")).toEqual({ kind: "subtitle", moves: false });
  });

  it("leaves out anything that is not a finished file of the title", () => {
    for (const name of ["upload-123.part", "source.avi", "hls/240p-ffmpeg.m3u8", "../other/video.mp4", "hls/x.mp4"])
      expect(classifyTitleFile(name)).toBeNull();
  });

  it("names an object by the file's place under STORAGE_DIR, for a server-made id only", () => {
    expect(objectKey("abcdefgh12", "hls/240p.mp4")).toBe("media/abcdefgh12/hls/240p.mp4");
    expect(() => objectKey("../etc", "video.mp4")).toThrow();
  });
});

describe("signed-address lifetimes", () => {
  it("signs as of the start of a 15-minute window, so viewers in it share one address a CDN caches once", () => {
    const a = signingTime(new Date("2026-11-26T10:01:00Z"));
    const b = signingTime(new Date("2026-11-26T10:14:59Z"));
    const c = signingTime(new Date("2026-11-26T10:15:00Z"));
    expect(a.toISOString()).toBe("2026-11-26T10:00:00.000Z");
    expect(b).toEqual(a);
    expect(c.toISOString()).toBe("2026-11-26T10:15:00.000Z");
  });

  it("lasts long enough to finish the title started at the end of the window, and never past what V4 allows", () => {
    expect(signedLifetimeSeconds(0)).toBe(SIGNING_WINDOW_SECONDS + 3600);
    // A two-hour film: the window, then three times its length.
    expect(signedLifetimeSeconds(7200)).toBe(SIGNING_WINDOW_SECONDS + 3 * 7200);
    for (const duration of [60, 5400, 10_800]) {
      const signedAt = signingTime(new Date("2026-11-26T10:14:59Z")).getTime();
      const latestStart = signedAt + SIGNING_WINDOW_SECONDS * 1000 - 1;
      expect(signedAt + signedLifetimeSeconds(duration) * 1000).toBeGreaterThan(latestStart + 2 * duration * 1000);
    }
    expect(signedLifetimeSeconds(10 * 24 * 3600)).toBe(MAX_SIGNED_SECONDS);
  });

  it("gives presigned addresses that carry exactly that lifetime and the window's date", async () => {
    const store = new ObjectStore(bucketSettings());
    const signedAt = signingTime(new Date("2026-11-26T10:07:00Z"));
    const url = new URL(
      await store.signedGetUrl("media/abcdefgh12/hls/240p.mp4", signedAt, signedLifetimeSeconds(5400)),
    );
    expect(url.pathname).toBe("/films/media/abcdefgh12/hls/240p.mp4");
    expect(url.searchParams.get("X-Amz-Date")).toBe("20261126T100000Z");
    expect(url.searchParams.get("X-Amz-Expires")).toBe(String(SIGNING_WINDOW_SECONDS + 3 * 5400));
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    // The same window gives the same address: one cached copy per rung.
    expect(await store.signedGetUrl("media/abcdefgh12/hls/240p.mp4", signedAt, signedLifetimeSeconds(5400))).toBe(
      url.href,
    );
    store.client.destroy();
  });

  it("puts the CDN's host in front of the object's path when MEDIA_BASE_URL is set", async () => {
    const store = new ObjectStore(bucketSettings({ MEDIA_BASE_URL: "https://media.example.com" }));
    const url = new URL(await store.signedGetUrl("media/abcdefgh12/video.mp4", new Date(0), 60));
    expect(url.origin).toBe("https://media.example.com");
    expect(url.pathname).toBe("/media/abcdefgh12/video.mp4");
    expect(url.searchParams.has("X-Amz-Signature")).toBe(true);
    store.client.destroy();
  });

  it("signs CDN addresses the way nginx's secure_link checks them", () => {
    const key = "k".repeat(32);
    const url = new URL(
      cdnSignedUrl("https://cdn.example.com/kallo", "media/abcdefgh12/hls/240p.mp4", new Date(1_000_000_000), 600, key),
    );
    const expires = 1_000_000 + 600;
    expect(url.searchParams.get("expires")).toBe(String(expires));
    const expected = createHash("md5")
      .update(`${expires}/kallo/media/abcdefgh12/hls/240p.mp4 ${key}`)
      .digest("base64url");
    expect(url.searchParams.get("md5")).toBe(expected);
  });
});

describe("checking what the bucket holds", () => {
  it("knows the ETag of a single PUT and of a multipart upload", async () => {
    const file = path.join(dir, "film.bin");
    const bytes = Buffer.alloc(2500, 1);
    bytes.fill(2, 1000);
    fs.writeFileSync(file, bytes);
    const md5 = (buffer: Buffer) => createHash("md5").update(buffer).digest();
    const whole = md5(bytes).toString("hex");
    const single = await fileEtags(file, 4096);
    expect(single).toEqual({ whole, multipart: null });
    const parts = await fileEtags(file, 1000);
    const multipart = `${createHash("md5")
      .update(Buffer.concat([md5(bytes.subarray(0, 1000)), md5(bytes.subarray(1000, 2000)), md5(bytes.subarray(2000))]))
      .digest("hex")}-3`;
    expect(parts).toEqual({ whole, multipart });
    expect(etagMatches(multipart, parts)).toBe(true);
    expect(etagMatches(whole, parts)).toBe(true);
    expect(etagMatches(`${whole.slice(1)}0`, parts)).toBe(false);
  });

  it("tells a refused key, a timeout and a dropped connection apart", () => {
    expect(classifyError(Object.assign(new Error("x"), { name: "TimeoutError" }))).toBe("timeout");
    expect(classifyError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe("network");
  });
});

describe("the media store settings", () => {
  it("keeps the disk by default", () => {
    const env = parseEnv({});
    expect(env.mediaStore).toBe("local");
    expect(env.s3).toBeUndefined();
  });

  it("needs the bucket and its key for MEDIA_STORE=s3, naming what is missing", () => {
    try {
      parseEnv({ MEDIA_STORE: "s3", S3_BUCKET: "films" });
      expect.unreachable();
    } catch (error) {
      const problems = (error as EnvError).problems.join("\n");
      expect(problems).toMatch(/S3_ACCESS_KEY_ID is required when MEDIA_STORE=s3/);
      expect(problems).toMatch(/S3_SECRET_ACCESS_KEY is required/);
      expect(problems).not.toMatch(/S3_BUCKET is required/);
    }
  });

  it("reads every S3 setting", () => {
    const env = parseEnv({
      MEDIA_STORE: "s3",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_REGION: "auto",
      S3_BUCKET: "films",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "1",
      MEDIA_BASE_URL: "https://media.example.com/",
    });
    expect(env.s3).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      region: "auto",
      bucket: "films",
      forcePathStyle: true,
      mediaBaseUrl: "https://media.example.com",
      signing: "presign",
      keepSource: "bucket",
    });
  });

  it("lets the pages' player read from the origin the signed addresses name, and from nowhere else", () => {
    expect(bucketSettings().origin).toBe("http://127.0.0.1:9");
    expect(bucketSettings({ S3_FORCE_PATH_STYLE: "0", S3_ENDPOINT: "https://r2.example.com" }).origin).toBe(
      "https://films.r2.example.com",
    );
    expect(bucketSettings({ MEDIA_BASE_URL: "https://media.example.com/kallo" }).origin).toBe(
      "https://media.example.com",
    );
    const policy = contentSecurityPolicy("n0nce", "https://media.example.com");
    expect(policy).toContain("media-src 'self' blob: https://media.example.com;");
    expect(policy).toContain("connect-src 'self' https://media.example.com;");
    expect(contentSecurityPolicy("n0nce", undefined)).toContain("connect-src 'self';");
  });

  it("refuses CDN signing without the CDN's address and key", () => {
    expect(() => parseEnv({ MEDIA_URL_SIGNING: "cdn" })).toThrow(/MEDIA_URL_SIGNING=cdn needs MEDIA_BASE_URL/);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeMoviePosters } from "~/media/posters.server";
import { moviePosterPath, sizedPosterPath } from "~/media/storage.server";
import { migrateDatabase, openDatabase } from "~/db/client.server";
import { accounts, categories, movies } from "~/db/schema";

let storageDir: string;
let loader: (args: LoaderFunctionArgs) => Promise<Response>;

beforeAll(async () => {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-thumbnail-"));
  fs.writeFileSync(path.join(storageDir, "secret.txt"), "not for the public");
  const source = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#059669" } })
    .png()
    .toBuffer();
  await writeMoviePosters("thumbtest01", source, { root: storageDir });
  // A published title owns those posters (an unpublished one's are not public: see tests/api/abuse.test.ts).
  const db = openDatabase(path.join(storageDir, "data.db"));
  migrateDatabase(db);
  db.insert(accounts)
    .values({
      id: "thumbprovider1",
      name: "P",
      email: "p@thumb.test",
      phoneNumber: "0800",
      passwordHash: "x",
      role: "provider",
    })
    .run();
  db.insert(categories).values({ id: "thumbcategory1", name: "Drama", slug: "drama" }).run();
  db.insert(movies)
    .values({
      id: "thumbtest01",
      name: "T",
      description: "",
      categoryId: "thumbcategory1",
      providerId: "thumbprovider1",
      status: "ready",
      approved: true,
    })
    .run();
  db.$client.close();
  // The route reads STORAGE_DIR through the environment module, which caches on first use.
  vi.stubEnv("STORAGE_DIR", storageDir);
  vi.resetModules();
  ({ loader } = await import("~/routes/api.files.thumbnail.$name"));
});

afterAll(() => {
  vi.unstubAllEnvs();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

function get(name: string, init: RequestInit = {}) {
  const request = new Request(`http://localhost/api/files/thumbnail/${encodeURIComponent(name)}`, init);
  return loader({ request, params: { name }, context: {} });
}

describe("GET /api/files/thumbnail/:name", () => {
  it("streams a jpg poster with its type, length and year-long caching", async () => {
    const response = await get("thumbtest01-card.jpg");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("ETag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(response.headers.get("Last-Modified")).toMatch(/GMT$/);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(fs.readFileSync(moviePosterPath("thumbtest01", "card", "jpg", storageDir)))).toBe(true);
    expect(Number(response.headers.get("Content-Length"))).toBe(body.length);
  });

  it("serves every srcset size in AVIF and JPEG, cached like the fixed posters", async () => {
    for (const [name, type, width, height] of [
      ["thumbtest01-card-200.avif", "image/avif", 200, 133],
      ["thumbtest01-tall-720.jpg", "image/jpeg", 720, 900],
      ["thumbtest01-hero-960.avif", "image/avif", 960, 540],
    ] as const) {
      const response = await get(name);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe(type);
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect({ width: metadata.width, height: metadata.height }).toEqual({ width, height });
    }
  });

  it("makes a size on first request for a title from before sized posters, then serves the same file", async () => {
    // As the previous version left a title: the fixed JPEGs only.
    fs.rmSync(sizedPosterPath("thumbtest01", "card", 450, "avif", storageDir));
    const first = await get("thumbtest01-card-450.avif");
    expect(first.status).toBe(200);
    const body = Buffer.from(await first.arrayBuffer());
    expect((await sharp(body).metadata()).width).toBe(450);
    expect(body.equals(fs.readFileSync(sizedPosterPath("thumbtest01", "card", 450, "avif", storageDir)))).toBe(true);
    const again = await get("thumbtest01-card-450.avif", { headers: { "If-None-Match": first.headers.get("ETag")! } });
    expect(again.status).toBe(304);
  });

  it("serves the WebP posters titles made before sized posters still have", async () => {
    await sharp({ create: { width: 300, height: 200, channels: 3, background: "#059669" } })
      .webp()
      .toFile(moviePosterPath("thumbtest01", "card", "webp", storageDir));
    const response = await get("thumbtest01-card.webp");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    await response.arrayBuffer();
  });

  it("answers 304 without a body when the ETag still matches", async () => {
    const first = await get("thumbtest01-card.jpg");
    await first.arrayBuffer();
    const etag = first.headers.get("ETag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await get("thumbtest01-card.jpg", { headers: { "If-None-Match": ifNoneMatch } });
      expect(response.status).toBe(304);
      expect(response.body).toBeNull();
      expect(response.headers.get("ETag")).toBe(etag);
    }
    const changed = await get("thumbtest01-card.jpg", { headers: { "If-None-Match": '"something-else"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });

  it("answers 304 for If-Modified-Since at or after the file's time", async () => {
    const first = await get("thumbtest01-card.jpg");
    await first.arrayBuffer();
    const response = await get("thumbtest01-card.jpg", {
      headers: { "If-Modified-Since": first.headers.get("Last-Modified")! },
    });
    expect(response.status).toBe(304);
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await get("thumbtest01-card.jpg", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
    expect(Number(response.headers.get("Content-Length"))).toBeGreaterThan(0);
  });

  it.each([
    "thumbtest02-card.jpg",
    "thumbtest02-card-300.avif",
    "thumbtest01-card-301.avif",
    "thumbtest01-card-1280.avif",
    "thumbtest01-tall.jpg",
    "thumbtest01-hero-960.webp",
    "../secret.txt",
    "..%2Fsecret.txt",
    "thumbtest01-card.png",
    "secret.txt",
  ])("answers 404 JSON for %j", async (name) => {
    const response = await get(name);
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ success: false, message: "Poster not found" });
  });
});

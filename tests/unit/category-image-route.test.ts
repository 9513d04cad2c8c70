import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let storageDir: string;
let loader: (args: LoaderFunctionArgs) => Promise<Response>;
const image = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);

beforeAll(async () => {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-category-image-"));
  fs.mkdirSync(path.join(storageDir, "categories"));
  fs.writeFileSync(path.join(storageDir, "categories", "catdramaaaaa.jpg"), image);
  fs.writeFileSync(path.join(storageDir, "data.db"), "secret database");
  // The route reads STORAGE_DIR through the environment module, which caches on first use.
  vi.stubEnv("STORAGE_DIR", storageDir);
  vi.resetModules();
  ({ loader } = await import("~/routes/category-image.$name"));
});

afterAll(() => {
  vi.unstubAllEnvs();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

function get(name: string, query = "", init: RequestInit = {}) {
  const request = new Request(`http://localhost/category-image/${encodeURIComponent(name)}${query}`, init);
  return loader({ request, params: { name }, context: {} });
}

describe("GET /category-image/:name", () => {
  it("serves the image; a versioned URL is immutable, a bare one revalidates with its ETag", async () => {
    const versioned = await get("catdramaaaaa.jpg", "?v=123");
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get("Content-Type")).toBe("image/jpeg");
    expect(versioned.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await versioned.arrayBuffer())).toEqual(image);

    const bare = await get("catdramaaaaa.jpg");
    expect(bare.headers.get("Cache-Control")).toBe("public, max-age=0, must-revalidate");
    const etag = bare.headers.get("ETag");
    expect(etag).toBeTruthy();
    const again = await get("catdramaaaaa.jpg", "", { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
  });

  it("answers 404 for unknown categories and for any name that tries to leave the folder", async () => {
    for (const name of [
      "nosuchcategory.jpg",
      "../data.db",
      "..%2Fdata.db",
      "catdramaaaaa.png",
      "catdramaaaaa",
      "/etc/passwd",
      "",
    ]) {
      const response = await get(name);
      expect(response.status, name).toBe(404);
      expect(await response.text()).not.toContain("secret");
    }
  });
});

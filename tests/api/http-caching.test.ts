/**
 * Caching and compression as a browser or a proxy meets them, against the
 * production build (decision 032): signed-out pages revalidate with a weak
 * ETag and 304, pages rendered for a session are never stored anywhere, byte
 * routes keep their own rules, the build's files go out as compressed at
 * build time, films never compressed; and the pages list posters in srcset.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { movies } from "~/db/schema";
import { languageCookie } from "~/i18n/language.server";
import { writeMoviePosters } from "~/media/posters.server";
import { SIZED_POSTERS } from "~/media/poster-sizes";
import { call, login, seedAccount, seedMovie, startApiWorld } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

let world: ApiWorld;
let viewer: Credentials;
let featuredId: string;
let unpublishedId: string;

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A GET with exactly these headers (fetch would add and undo Accept-Encoding itself). */
function rawGet(pathname: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${world.url}${pathname}`, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

const cookieOf = (setCookies: string[], name: string) =>
  setCookies.find((value) => value.startsWith(`${name}=`))?.split(";")[0];

beforeAll(async () => {
  world = await startApiWorld("http-caching");
  const provider = seedAccount(world, "provider");
  viewer = await login(world, seedAccount(world, "viewer", { name: "Caching Viewer" }));
  const poster = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#aa5500" } })
    .png()
    .toBuffer();
  // A featured title with every poster file (the landing page's hero), and an unpublished one.
  featuredId = (await seedMovie(world, provider.id, { withFiles: true, name: "Featured Caching Title" })).id;
  world.db.update(movies).set({ featured: true }).where(eq(movies.id, featuredId)).run();
  await writeMoviePosters(featuredId, poster, { root: world.root });
  unpublishedId = (await seedMovie(world, provider.id, { withFiles: true, approved: false })).id;
}, 180_000);

afterAll(async () => {
  await world?.stop();
});

describe("signed-out pages", () => {
  it.each(["/", "/about", "/plans", "/terms", "/privacy", "/help", "/login"])(
    "%s is kept by the browser only, with a weak ETag, and answered 304 while unchanged",
    async (pathname) => {
      const first = await rawGet(pathname);
      expect(first.status).toBe(200);
      expect(first.headers["cache-control"]).toBe("private, no-cache");
      // Never a shared cache: the page carries a CSP nonce made for this answer alone.
      expect(first.headers["cache-control"]).not.toMatch(/public|s-maxage/);
      expect(first.headers.vary).toMatch(/Cookie/);
      expect(first.headers.vary).toMatch(/Accept-Language/);
      const etag = first.headers.etag!;
      expect(etag).toMatch(/^W\/"[\w-]{20,}"$/);
      const nonce = /script-src 'nonce-([^']+)'/.exec(String(first.headers["content-security-policy"]))![1];
      expect(first.body.toString()).toContain(`nonce="${nonce}"`);

      // Rendered again (a new nonce), the same page keeps its tag.
      const again = await rawGet(pathname);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers["content-security-policy"]).not.toBe(first.headers["content-security-policy"]);

      const revalidated = await rawGet(pathname, { "If-None-Match": etag });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(revalidated.headers.etag).toBe(etag);
      expect(revalidated.headers["cache-control"]).toBe("private, no-cache");
      // A new nonce would replace the stored page's policy and block its scripts.
      expect(revalidated.headers["content-security-policy"]).toBeUndefined();

      const stale = await rawGet(pathname, { "If-None-Match": 'W/"an-older-page"' });
      expect(stale.status).toBe(200);
      expect(stale.body.length).toBeGreaterThan(1000);
    },
  );

  it("a page in the other language is another answer with another tag", async () => {
    const english = await rawGet("/terms");
    const hausa = await rawGet("/terms", { "Accept-Language": "ha" });
    const chosen = await rawGet("/terms", { Cookie: (await languageCookie.serialize("ha")).split(";")[0]! });
    expect(english.body.toString()).toContain('<html lang="en"');
    expect(hausa.body.toString()).toContain('<html lang="ha"');
    expect(hausa.headers.etag).not.toBe(english.headers.etag);
    expect(chosen.body.toString()).toContain('<html lang="ha"');
    expect(chosen.headers.etag).not.toBe(english.headers.etag);
    expect((await rawGet("/terms", { "Accept-Language": "ha", "If-None-Match": english.headers.etag! })).status).toBe(
      200,
    );
  });

  it("a page that changes the visitor's cookies (a flash toast) is never stored", async () => {
    const choice = await call(world, "/data-saver", { form: { dataSaver: "on", redirectTo: "/terms" } });
    expect(choice.status).toBe(303);
    const cookies = choice.headers.getSetCookie();
    const toast = cookieOf(cookies, "kallo_toast");
    expect(toast).toBeDefined();
    const cookie = cookies.map((value) => value.split(";")[0]).join("; ");
    const withToast = await rawGet("/terms", { Cookie: cookie });
    expect(withToast.status).toBe(200);
    expect(withToast.headers["set-cookie"]?.some((value) => value.startsWith("kallo_toast="))).toBe(true);
    expect(withToast.headers["cache-control"]).toBe("private, no-store");
    expect(withToast.headers.etag).toBeUndefined();
  });
});

describe("pages rendered for a session", () => {
  it.each(["/", "/terms", "/plans", "/movies", `/WatchMovie?id=PLACEHOLDER`])(
    "%s is private, no-store, without a validator, even at a signed-out page's address",
    async (template) => {
      const pathname = template.replace("PLACEHOLDER", featuredId);
      const signedOut = await rawGet(pathname);
      const personal = await rawGet(pathname, {
        Cookie: viewer.cookie,
        // A browser revalidating the copy it kept while signed out.
        ...(signedOut.headers.etag ? { "If-None-Match": signedOut.headers.etag } : {}),
      });
      expect(personal.status).toBe(200);
      expect(personal.headers["cache-control"]).toBe("private, no-store");
      expect(personal.headers.etag).toBeUndefined();
      expect(personal.headers.vary).toMatch(/Cookie/);
      expect(personal.body.toString()).toContain("Caching Viewer");
    },
  );

  it("the data requests of a signed-in page are never stored either", async () => {
    const data = await rawGet("/movies.data", { Cookie: viewer.cookie });
    expect(data.status).toBe(200);
    expect(data.headers["cache-control"]).toBe("private, no-store");
  });
});

describe("byte routes keep their own rules", () => {
  it("a published title's poster sizes are public and immutable; an unpublished one's are not served", async () => {
    const poster = await rawGet(`/api/files/thumbnail/${featuredId}-card-300.avif`);
    expect(poster.status).toBe(200);
    expect(poster.headers["content-type"]).toBe("image/avif");
    expect(poster.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await rawGet(`/api/files/thumbnail/${unpublishedId}-card-300.avif`)).status).toBe(404);
    const own = await rawGet(`/api/files/thumbnail/${unpublishedId}-card.jpg`, { Cookie: viewer.cookie });
    expect(own.status).toBe(404);
  });

  it("films answer byte ranges as they are, never compressed", async () => {
    for (const pathname of [`/api/files/${featuredId}.mp4`]) {
      const range = await rawGet(pathname, {
        Cookie: viewer.cookie,
        Range: "bytes=0-9999",
        "Accept-Encoding": "br, gzip",
      });
      expect(range.status).toBe(206);
      expect(range.headers["content-encoding"]).toBeUndefined();
      expect(range.headers["content-range"]).toMatch(/^bytes 0-9999\//);
      expect(range.body.length).toBe(10_000);
    }
  });
});

describe("compression", () => {
  function builtScript(): string {
    const root = path.resolve("public/build");
    const files = fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter(
        (entry) =>
          entry.isFile() &&
          entry.name.endsWith(".js") &&
          fs.existsSync(path.join(entry.parentPath, `${entry.name}.br`)),
      )
      .map((entry) => path.join(entry.parentPath, entry.name));
    expect(files.length).toBeGreaterThan(0);
    return files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]!;
  }

  it("sends the build's files as compressed at build time, to the browsers that accept it", async () => {
    const file = builtScript();
    const url = `/build/${path.relative(path.resolve("public/build"), file).split(path.sep).join("/")}`;
    const original = fs.readFileSync(file);

    const brotli = await rawGet(url, { "Accept-Encoding": "gzip, deflate, br" });
    expect(brotli.status).toBe(200);
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["content-type"]).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // The twin made at build time (quality 11), sent as it is.
    expect(brotli.body.equals(fs.readFileSync(`${file}.br`))).toBe(true);
    expect(zlib.brotliDecompressSync(brotli.body).equals(original)).toBe(true);
    expect(brotli.body.length).toBeLessThan(original.length / 2);

    const gzip = await rawGet(url, { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).equals(original)).toBe(true);

    for (const acceptEncoding of ["identity", "br;q=0, gzip;q=0"]) {
      const plain = await rawGet(url, { "Accept-Encoding": acceptEncoding });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toMatch(/Accept-Encoding/);
      expect(plain.body.equals(original)).toBe(true);
      expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
    const none = await rawGet(url);
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(none.body.equals(original)).toBe(true);
  });

  it("compresses pages with Brotli where accepted, gzip else", async () => {
    const plain = await rawGet("/", {});
    const brotli = await rawGet("/", { "Accept-Encoding": "gzip, br" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    const page = zlib.brotliDecompressSync(brotli.body).toString();
    expect(page).toContain("<!DOCTYPE html>");
    expect(brotli.body.length).toBeLessThan(plain.body.length / 4);
    // The validator is the page's, whatever the coding.
    expect(brotli.headers.etag).toBe(plain.headers.etag);
    const gzip = await rawGet("/", { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
  });

  it("compresses a streamed signed-in page as well as the page compressed whole (gzip is what browsers ask for over plain http)", async () => {
    const plain = await rawGet("/movies", { Cookie: viewer.cookie });
    expect(plain.body.length).toBeGreaterThan(8_000); // several of React's 2 kB pieces
    const gzip = await rawGet("/movies", { Cookie: viewer.cookie, "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const page = zlib.gunzipSync(gzip.body);
    expect(page.toString()).toContain("<!DOCTYPE html>");
    // Compressed piece by piece (a flush after each) it was twice as large or more; flushed with gzip's
    // default full flush (the compressor's window reset at each) 6–10 % larger.
    expect(gzip.body.length).toBeLessThan(zlib.gzipSync(page, { level: 6 }).length * 1.02 + 64);
    const brotli = await rawGet("/movies", { Cookie: viewer.cookie, "Accept-Encoding": "br" });
    const whole = zlib.brotliCompressSync(zlib.brotliDecompressSync(brotli.body), {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    });
    expect(brotli.body.length).toBeLessThan(whole.length * 1.05 + 64);
  });
});

describe("posters in the width the screen needs", () => {
  it("the landing page lists every width of the hero (4:5 on phones) and the cards, AVIF first, JPEG as the fallback", async () => {
    const html = (await rawGet("/")).body.toString();
    const srcset = (variant: string, format: string) =>
      SIZED_POSTERS[variant as keyof typeof SIZED_POSTERS].widths
        .map((width) => `/api/files/thumbnail/${featuredId}-${variant}-${width}.${format} ${width}w`)
        .join(", ");
    // The first picture of the page is the hero's.
    const hero = /<picture[^>]*>(.*?)<\/picture>/s.exec(html)![0];
    expect(hero).toContain(
      `<source media="(max-width: 639px)" type="image/avif" srcSet="${srcset("tall", "avif")}" sizes="calc(100vw - 32px)"/>`,
    );
    expect(hero).toContain(`<source media="(max-width: 639px)" srcSet="${srcset("tall", "jpg")}"`);
    expect(hero).toContain(`<source type="image/avif" srcSet="${srcset("hero", "avif")}"`);
    expect(hero).toContain(`src="/api/files/thumbnail/${featuredId}-hero.jpg" srcSet="${srcset("hero", "jpg")}"`);
    // The first hero is the page's main image; the rest wait.
    expect(hero).toMatch(/loading="eager"[^>]*fetchpriority="high"/);
    expect(html.match(/fetchpriority="high"/g)).toHaveLength(1);

    // The landing page's cards wait for the script; without it, one plain JPEG each (not the
    // whole picture: every visitor downloads what <noscript> holds).
    const waiting = [...html.matchAll(/<noscript>(.*?)<\/noscript>/gs)].map((match) => match[1]!);
    expect(waiting.length).toBeGreaterThan(0);
    for (const image of waiting) {
      expect(image).toMatch(/^<img src="\/api\/files\/thumbnail\/\w+-(card\.jpg|hero-640\.jpg)"[^>]*loading="lazy"/);
      expect(image).not.toContain("srcSet");
    }
    expect(waiting.some((image) => image.includes(`/api/files/thumbnail/${featuredId}-card.jpg`))).toBe(true);
  });

  it("/movies lists every width of its first cards, AVIF first, JPEG as the fallback", async () => {
    const html = (await rawGet("/movies", { Cookie: viewer.cookie })).body.toString();
    const srcset = (format: string) =>
      SIZED_POSTERS.card.widths
        .map((width) => `/api/files/thumbnail/${featuredId}-card-${width}.${format} ${width}w`)
        .join(", ");
    expect(html).toContain(`<source type="image/avif" srcSet="${srcset("avif")}" sizes="`);
    expect(html).toContain(`src="/api/files/thumbnail/${featuredId}-card.jpg" srcSet="${srcset("jpg")}"`);
    expect(srcset("avif")).toContain("-card-200.avif 200w");
    expect(srcset("avif")).toContain("-card-600.avif 600w");
  });

  it("every listed size is served", async () => {
    for (const [variant, { widths }] of Object.entries(SIZED_POSTERS))
      for (const width of widths)
        for (const format of ["avif", "jpg"]) {
          const response = await rawGet(`/api/files/thumbnail/${featuredId}-${variant}-${width}.${format}`);
          expect(response.status, `${variant}-${width}.${format}`).toBe(200);
          expect((await sharp(response.body).metadata()).width).toBe(width);
        }
  });
});

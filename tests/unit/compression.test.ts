import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressAssets } from "../../scripts/compress-assets";
import { acceptedEncodings, compressResponses, IMMUTABLE_FILE, servePrecompressed } from "../../scripts/compression";

let top: string;
let folder: string;
let server: http.Server;
/** Errors the file middleware handed on (the server's last handler logs them). */
const forwarded: Error[] = [];
let base: string;
const script = `export const words = ${JSON.stringify(Array.from({ length: 800 }, (_, i) => `word${i % 50}`))};\n`;
const playlist = `#EXTM3U\n${Array.from({ length: 200 }, (_, i) => `#EXTINF:4.0,\n#EXT-X-BYTERANGE:40000@${i * 40000}\n240p.mp4\n`).join("")}`;

function get(pathname: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${base}${pathname}`, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

beforeAll(async () => {
  // Where `npm run build` puts the bundle: a folder under `.builds/`, whose dot is no reason to refuse a file.
  top = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-compression-"));
  folder = path.join(top, ".builds", "20260101-000000", "public");
  fs.mkdirSync(path.join(folder, "_shared"), { recursive: true });
  fs.writeFileSync(path.join(folder, "_shared", "chunk-ABC.js"), script);
  fs.writeFileSync(path.join(folder, "tiny-XYZ.js"), "export {};\n");
  fs.writeFileSync(path.join(folder, "logo-123.png"), Buffer.alloc(4096, 7));
  // A film, large and compressible on purpose: only the rule keeps it byte for byte.
  const film = Buffer.alloc(200_000, "a");
  const app = express();
  app.use(compressResponses());
  app.use("/build", servePrecompressed(folder));
  app.use("/build", express.static(folder, IMMUTABLE_FILE));
  app.get("/stream/abc/240p.mp4", (req, res) => {
    res.type("text/plain").send(film);
  });
  app.get("/notes.txt", (req, res) => {
    const range = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? "");
    const text = Buffer.from(script);
    if (!range) return res.type("text/plain").send(text);
    const [start, end] = [Number(range[1]), Number(range[2])];
    res.status(206).setHeader("Content-Range", `bytes ${start}-${end}/${text.length}`);
    res.type("text/plain").send(text.subarray(start, end + 1));
  });
  app.get("/stream/abc/240p.m3u8", (req, res) => {
    res.setHeader("Content-Type", "application/vnd.apple.mpegurl");
    res.send(playlist);
  });
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    forwarded.push(error);
    res.status(500).end();
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server?.close();
  fs.rmSync(top, { recursive: true, force: true });
});

describe("Accept-Encoding", () => {
  it.each([
    ["gzip, deflate, br", ["br", "deflate", "gzip"]],
    ["br;q=0, gzip;q=0.5", ["gzip"]],
    ["*", ["br", "gzip"]],
    ["*;q=1, br;q=0", ["gzip"]],
    ["identity", ["identity"]],
    ["", []],
    [undefined, []],
  ])("%j accepts %j", (header, expected) => {
    expect([...acceptedEncodings(header)].sort()).toEqual(expected);
  });
});

describe("the build's files compressed at build time", () => {
  it("get a Brotli and a gzip twin, except files under 1 kB and what does not compress", async () => {
    const summary = await compressAssets(folder);
    expect(summary.files).toBe(1);
    const file = path.join(folder, "_shared", "chunk-ABC.js");
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString()).toBe(script);
    expect(fs.statSync(`${file}.br`).size).toBeLessThan(fs.statSync(`${file}.gz`).size);
    expect(fs.existsSync(path.join(folder, "tiny-XYZ.js.br"))).toBe(false);
    expect(fs.existsSync(path.join(folder, "logo-123.png.br"))).toBe(false);
  });

  it("are made once: a second run rewrites nothing", async () => {
    const twin = path.join(folder, "_shared", "chunk-ABC.js.br");
    const before = fs.statSync(twin).mtimeMs;
    await compressAssets(folder);
    expect(fs.statSync(twin).mtimeMs).toBe(before);
  });

  it("go to the browsers that accept them, with the file's type; the plain file to the others", async () => {
    const brotli = await get("/build/_shared/chunk-ABC.js", { "Accept-Encoding": "gzip, br" });
    expect(brotli.status).toBe(200);
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(brotli.headers.vary).toBe("Accept-Encoding");
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe(script);

    const gzip = await get("/build/_shared/chunk-ABC.js", { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(script);

    const plain = await get("/build/_shared/chunk-ABC.js", { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(plain.body.toString()).toBe(script);
    // Immutable: nothing to revalidate with, so no validators' bytes.
    for (const answer of [brotli, gzip, plain]) {
      expect(answer.headers.etag).toBeUndefined();
      expect(answer.headers["last-modified"]).toBeUndefined();
    }

    const head = await new Promise<http.IncomingMessage>((resolve) =>
      http
        .request(
          `${base}/build/_shared/chunk-ABC.js`,
          { method: "HEAD", headers: { "Accept-Encoding": "br" } },
          resolve,
        )
        .end(),
    );
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBe(fs.statSync(`${folder}/_shared/chunk-ABC.js.br`).size);
  });

  it("never serve the twins by their own names, nor anything outside the folder", async () => {
    expect(
      (await get("/build/_shared/chunk-ABC.js.br", { "Accept-Encoding": "br" })).headers["content-encoding"],
    ).toBeUndefined();
    expect((await get("/build/..%2F..%2Fetc%2Fpasswd", { "Accept-Encoding": "br" })).status).toBe(404);
    expect((await get("/build/missing.js", { "Accept-Encoding": "br" })).status).toBe(404);
  });

  it("never serve a dotfile of the bundle, compressed or not", async () => {
    const hidden = path.join(folder, ".hidden.js");
    fs.writeFileSync(hidden, script);
    fs.writeFileSync(`${hidden}.br`, zlib.brotliCompressSync(script));
    try {
      // Refused (this test's last handler answers every refusal handed on with 500; the server's keeps its 403).
      expect((await get("/build/.hidden.js", { "Accept-Encoding": "br" })).status).toBeGreaterThanOrEqual(400);
      expect((await get("/build/.hidden.js", { "Accept-Encoding": "identity" })).status).toBe(404);
    } finally {
      fs.rmSync(hidden);
      fs.rmSync(`${hidden}.br`);
      // The refusal is a 403 handed on to the last handler.
      expect(forwarded.splice(0).map((error) => (error as Error & { status?: number }).status)).toEqual([403]);
    }
  });
});

describe("a client that goes away", () => {
  it("before a compressed build file is sent is no error: nothing is handed on to be logged", async () => {
    await compressAssets(folder);
    const { port } = new URL(base);
    await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<void>((resolve) => {
            const socket = net.connect(Number(port), "127.0.0.1", () => {
              socket.write("GET /build/_shared/chunk-ABC.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n");
              socket.destroy();
              resolve();
            });
            socket.on("error", () => resolve());
          }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(forwarded.map((error) => error.message)).toEqual([]);
  });
});

describe("compression as answers are sent", () => {
  it("Brotli for text, HLS playlists included", async () => {
    const text = await get("/notes.txt", { "Accept-Encoding": "br, gzip" });
    expect(text.headers["content-encoding"]).toBe("br");
    const hls = await get("/stream/abc/240p.m3u8", { "Accept-Encoding": "br, gzip" });
    expect(hls.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(hls.body).toString()).toBe(playlist);
  });

  it("never a byte range: its Content-Range counts the plain bytes", async () => {
    const range = await get("/notes.txt", { "Accept-Encoding": "br, gzip", Range: "bytes=0-1999" });
    expect(range.status).toBe(206);
    expect(range.headers["content-encoding"]).toBeUndefined();
    expect(range.body.toString()).toBe(script.slice(0, 2000));
  });

  it("never a film, whatever its type says", async () => {
    const film = await get("/stream/abc/240p.mp4", { "Accept-Encoding": "br, gzip" });
    expect(film.headers["content-encoding"]).toBeUndefined();
    expect(film.body.length).toBe(200_000);
  });
});

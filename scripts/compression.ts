/**
 * How the server compresses what it sends (decision 032), in two parts that
 * scripts/serve.ts mounts:
 *
 * - `servePrecompressed(folder)`: the browser bundle's files as
 *   `npm run build` compressed them (scripts/compress-assets.ts): the `.br`
 *   twin to a browser that accepts Brotli, else the `.gz` one, else nothing
 *   (the plain file is served by express.static after it), with the file's own
 *   Content-Type, `Vary: Accept-Encoding` and a year's immutable caching.
 * - `compressResponses()`: everything else that is text (pages, `.data`,
 *   JSON, HLS playlists) compressed as it is sent: Brotli at quality 5 (fast:
 *   about 3 ms for a 120 kB page, 10 % smaller than quality 4), gzip for the
 *   browsers without it. Never an answer to a byte-range request nor a partial
 *   answer (its Content-Range counts the file's own bytes), and never a film
 *   (a rung, an old client's MP4, a download): those go out byte for byte.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import type express from "express";

/** The codings a request accepts (q > 0), from Accept-Encoding. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  const refused = new Set<string>();
  let anything = false;
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const weight = q ? Number.parseFloat(q.slice(2)) : 1;
    const ok = Number.isFinite(weight) && weight > 0;
    if (name === "*") anything = ok;
    else if (ok) accepted.add(name);
    else refused.add(name);
  }
  if (anything) for (const name of ["br", "gzip"]) if (!refused.has(name)) accepted.add(name);
  return accepted;
}

const TWINS = [
  { encoding: "br", extension: ".br" },
  { encoding: "gzip", extension: ".gz" },
] as const;

/**
 * How a hashed build file is sent: cached for a year and never asked about
 * again (immutable), so no validators (ETag, Last-Modified): they would only
 * add their bytes to each of the twenty-odd files a first visit fetches.
 */
export const IMMUTABLE_FILE = { maxAge: "1y", immutable: true, etag: false, lastModified: false } as const;

export function servePrecompressed(folder: string): express.RequestHandler {
  const root = path.resolve(folder);
  // The bundle does not change while the server runs: which twins exist is looked up once per file.
  const twinsOf = new Map<string, Set<string>>();
  const twins = (file: string) => {
    let found = twinsOf.get(file);
    if (!found) {
      found = new Set(TWINS.filter((twin) => fs.existsSync(file + twin.extension)).map((twin) => twin.encoding));
      twinsOf.set(file, found);
    }
    return found;
  };
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = path.join(root, path.normalize(relative));
    if (relative.includes("\0") || !file.startsWith(root + path.sep) || /\.(br|gz)$/.test(file)) return next();
    const available = twins(file);
    if (available.size === 0) return next();
    // The same URL answers differently by Accept-Encoding, whichever this request gets.
    res.vary("Accept-Encoding");
    const accepted = acceptedEncodings(req.headers["accept-encoding"]);
    const twin = TWINS.find((candidate) => available.has(candidate.encoding) && accepted.has(candidate.encoding));
    if (!twin) return next();
    res.setHeader("Content-Encoding", twin.encoding);
    res.type(path.extname(file));
    // Dot files are refused in the request's part of the path only: the build itself may live under `.builds/`.
    const options = { ...IMMUTABLE_FILE, acceptRanges: false, dotfiles: "deny", root } as const;
    res.sendFile(
      path.relative(root, file) + twin.extension,
      options,
      (error?: Error & { code?: string; status?: number }) => {
        if (!error) return;
        // The client went away before the file went out: nothing to answer, nothing to log.
        if (error.code === "ECONNABORTED" || res.headersSent) return res.destroy();
        res.removeHeader("Content-Encoding");
        next(error.code === "ENOENT" || error.status === 404 ? undefined : error);
      },
    );
  };
}

/** Films go out byte for byte: the rungs of /stream, old clients' /api/files/<id>.mp4, downloads. */
const MEDIA_FILES = /^\/(stream\/[^/]+\/[^/]+\.mp4|api\/files\/[^/]+\.mp4|offline-media\/.*)$/;
/** HLS playlists are text (a long film's rung playlist lists hundreds of segments), unknown to `compressible`. */
const PLAYLIST_TYPE = /^application\/(vnd\.apple\.mpegurl|x-mpegurl)\b/i;

export function shouldCompress(req: express.Request, res: express.Response): boolean {
  if (req.headers.range || res.statusCode === 206 || res.getHeader("Content-Range")) return false;
  if (MEDIA_FILES.test(req.path)) return false;
  if (PLAYLIST_TYPE.test(String(res.getHeader("Content-Type") ?? ""))) return true;
  return compression.filter(req, res);
}

export function compressResponses(): express.RequestHandler {
  return compression({
    filter: shouldCompress,
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
}

import fs from "node:fs";
import { createReadableStreamFromReadable } from "@remix-run/node";

/**
 * A whole file from disk as an HTTP response, with validators for revalidation
 * (ETag from size and modification time, Last-Modified) and 304 answers. Files
 * are streamed, never read into memory. Byte ranges (for video) are a separate
 * concern and do not go through here.
 */

export type FileResponseOptions = {
  contentType: string;
  cacheControl: string;
};

/** A strong validator: files are replaced by rename, so a new file always has a new mtime or size. */
export function fileEtag(stats: fs.Stats): string {
  return `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

/** Whether an If-None-Match header matches `etag` (weak comparison, as RFC 9110 asks for GET and HEAD). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const value = ifNoneMatch.trim();
  if (value === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return value.split(",").some((candidate) => opaque(candidate) === opaque(etag));
}

function notModifiedSince(request: Request, stats: fs.Stats): boolean {
  const header = request.headers.get("If-Modified-Since");
  if (!header) return false;
  const since = Date.parse(header);
  // HTTP dates have whole seconds; the file's time is compared at that precision.
  return Number.isFinite(since) && Math.floor(stats.mtimeMs / 1000) * 1000 <= since;
}

/** Stat a file, or null when it does not exist (or is not a regular file). Other errors are thrown. */
export async function statFile(filePath: string): Promise<fs.Stats | null> {
  try {
    const stats = await fs.promises.stat(filePath);
    return stats.isFile() ? stats : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw error;
  }
}

/** Respond with `filePath` for a GET or HEAD request, or return null when the file does not exist. */
export async function fileResponse(request: Request, filePath: string, options: FileResponseOptions): Promise<Response | null> {
  const stats = await statFile(filePath);
  if (!stats) return null;

  const etag = fileEtag(stats);
  const headers = new Headers({
    "Cache-Control": options.cacheControl,
    ETag: etag,
    "Last-Modified": stats.mtime.toUTCString(),
    "X-Content-Type-Options": "nosniff",
  });

  // If-None-Match wins over If-Modified-Since when both are sent.
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifNoneMatch ? etagMatches(ifNoneMatch, etag) : notModifiedSince(request, stats)) {
    return new Response(null, { status: 304, headers });
  }

  headers.set("Content-Type", options.contentType);
  headers.set("Content-Length", String(stats.size));
  // HEAD gets the headers only; opening a stream nobody reads would leak a file descriptor.
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });

  const stream = fs.createReadStream(filePath);
  return new Response(createReadableStreamFromReadable(stream), { status: 200, headers });
}

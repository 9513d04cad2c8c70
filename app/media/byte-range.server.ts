import fs from "node:fs";
import { createReadableStreamFromReadable } from "@remix-run/node";

/**
 * HTTP byte ranges (RFC 9110 §14) for serving films from disk.
 *
 * `parseRangeHeader` is a pure function; `serveFileWithRanges` answers a
 * request for one file: 200, 206 (one range, or multipart/byteranges for a
 * few), 304, 416, and HEAD, reading only the bytes it sends and stopping when
 * the client goes away.
 */
export type ByteRange = { start: number; end: number }; // inclusive, as in Content-Range

export type RangeRequest =
  | { kind: "none" } // no Range header, a syntax we ignore, or a unit other than bytes: send everything
  | { kind: "unsatisfiable" }
  | { kind: "ranges"; ranges: ByteRange[] };

/** More ranges than this and we send the whole file instead (a server may ignore Range). */
export const MAX_RANGES = 10;

export function parseRangeHeader(header: string | null | undefined, size: number): RangeRequest {
  if (!header) return { kind: "none" };
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return { kind: "none" };
  const specs = match[1]
    .split(",")
    .map((spec) => spec.trim())
    .filter((spec) => spec.length > 0);
  if (specs.length === 0) return { kind: "none" };

  const ranges: ByteRange[] = [];
  for (const spec of specs) {
    const parts = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
    if (!parts || (parts[1] === "" && parts[2] === "")) return { kind: "none" }; // garbage: ignore the header
    const [, first, last] = parts;
    if (first === "") {
      // Suffix range: the last N bytes.
      const length = Number(last);
      if (!Number.isSafeInteger(length)) return { kind: "none" };
      if (length === 0 || size === 0) continue;
      ranges.push({ start: Math.max(0, size - length), end: size - 1 });
      continue;
    }
    const start = Number(first);
    const end = last === "" ? Number.MAX_SAFE_INTEGER : Number(last);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: "none" };
    if (end < start) return { kind: "none" }; // invalid spec: the header is ignored
    if (start >= size) continue; // unsatisfiable on its own
    ranges.push({ start, end: Math.min(end, size - 1) });
  }
  if (ranges.length === 0) return { kind: "unsatisfiable" };
  if (ranges.length > MAX_RANGES) return { kind: "none" };
  return { kind: "ranges", ranges: coalesceRanges(ranges) };
}

/** Merge overlapping or touching ranges, in ascending order. */
export function coalesceRanges(ranges: ByteRange[]): ByteRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: ByteRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.start <= last.end + 1) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

export function strongEtag(stat: { size: number; mtimeMs: number }): string {
  return `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === etag);
}

/** Whether a Range request is still valid for this representation (If-Range, strong comparison). */
export function ifRangeAllows(ifRange: string | null, etag: string, lastModified: Date): boolean {
  if (!ifRange) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith("W/")) return value === etag; // weak tags never match
  const date = Date.parse(value);
  return Number.isFinite(date) && Math.floor(lastModified.getTime() / 1000) === Math.floor(date / 1000);
}

export type ServeFileOptions = {
  contentType: string;
  cacheControl?: string;
  extraHeaders?: Record<string, string>;
};

/** Stat a file, or null when it does not exist (or is not a regular file). Other errors are thrown. */
export async function statFile(filePath: string): Promise<fs.Stats | null> {
  try {
    const stats = await fs.promises.stat(filePath);
    return stats.isFile() ? stats : null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/**
 * Answer a GET or HEAD for one file on disk, honouring Range, If-Range and
 * conditional headers; null when the file does not exist (the caller says
 * what was not found). Posters and films both go through here.
 */
export async function serveFileWithRanges(
  request: Request,
  filePath: string,
  options: ServeFileOptions,
): Promise<Response | null> {
  const stat = await statFile(filePath);
  if (!stat) return null;
  const size = stat.size;
  const etag = strongEtag(stat);
  const lastModified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000);
  const headers = new Headers({
    "Accept-Ranges": "bytes",
    ETag: etag,
    "Last-Modified": lastModified.toUTCString(),
    "Cache-Control": options.cacheControl ?? "private, max-age=0, must-revalidate",
    "X-Content-Type-Options": "nosniff",
    ...options.extraHeaders,
  });
  const isHead = request.method === "HEAD";

  const ifNoneMatch = request.headers.get("If-None-Match");
  const ifModifiedSince = request.headers.get("If-Modified-Since");
  if (
    ifNoneMatch
      ? etagMatches(ifNoneMatch, etag)
      : ifModifiedSince && Date.parse(ifModifiedSince) >= lastModified.getTime()
  ) {
    return new Response(null, { status: 304, headers });
  }

  const wanted = ifRangeAllows(request.headers.get("If-Range"), etag, lastModified)
    ? parseRangeHeader(request.headers.get("Range"), size)
    : ({ kind: "none" } as const);

  if (wanted.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }

  if (wanted.kind === "none") {
    headers.set("Content-Type", options.contentType);
    headers.set("Content-Length", String(size));
    return new Response(isHead || size === 0 ? null : fileStream(filePath, 0, size - 1, request.signal), {
      status: 200,
      headers,
    });
  }

  if (wanted.ranges.length === 1) {
    const [{ start, end }] = wanted.ranges;
    headers.set("Content-Type", options.contentType);
    headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
    headers.set("Content-Length", String(end - start + 1));
    return new Response(isHead ? null : fileStream(filePath, start, end, request.signal), { status: 206, headers });
  }

  const boundary = `kallo-${etag.replace(/"/g, "")}-${Date.now().toString(36)}`;
  const parts = wanted.ranges.map((range) => ({
    range,
    head: `\r\n--${boundary}\r\nContent-Type: ${options.contentType}\r\nContent-Range: bytes ${range.start}-${range.end}/${size}\r\n\r\n`,
  }));
  const tail = `\r\n--${boundary}--\r\n`;
  const length =
    parts.reduce((sum, part) => sum + Buffer.byteLength(part.head) + part.range.end - part.range.start + 1, 0) +
    Buffer.byteLength(tail);
  headers.set("Content-Type", `multipart/byteranges; boundary=${boundary}`);
  headers.set("Content-Length", String(length));
  return new Response(isHead ? null : multipartStream(filePath, parts, tail, request.signal), { status: 206, headers });
}

function fileStream(filePath: string, start: number, end: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  const stream = fs.createReadStream(filePath, { start, end, highWaterMark: 256 * 1024 });
  // Stop reading the moment the client goes away.
  const stop = () => stream.destroy();
  signal.addEventListener("abort", stop, { once: true });
  stream.once("close", () => signal.removeEventListener("abort", stop));
  return createReadableStreamFromReadable(stream);
}

function multipartStream(
  filePath: string,
  parts: Array<{ range: ByteRange; head: string }>,
  tail: string,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  async function* generate() {
    for (const part of parts) {
      yield Buffer.from(part.head);
      const stream = fs.createReadStream(filePath, {
        start: part.range.start,
        end: part.range.end,
        highWaterMark: 256 * 1024,
      });
      try {
        for await (const chunk of stream) {
          if (signal.aborted) return;
          yield chunk as Buffer;
        }
      } finally {
        stream.destroy();
      }
    }
    yield Buffer.from(tail);
  }
  const iterator = generate();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
}

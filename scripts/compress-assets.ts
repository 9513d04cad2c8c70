/**
 * Run by `npm run build` after `remix build`: every text file of the browser
 * bundle (public/build/) gets a Brotli twin (`.br`, quality 11: the smallest
 * Brotli makes, once, instead of a fast quality on every request) and a gzip
 * twin (`.gz`, level 9) for the browsers without Brotli. The server sends a
 * twin as it is to a browser that accepts it (scripts/compression.ts). Files
 * under 1 kB, and twins no smaller than their file, are left out. Safe to
 * repeat: a twin is rewritten only when older than its file.
 *
 * `node --import tsx scripts/compress-assets.ts [folder]` (default public/build).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export const COMPRESSIBLE_ASSET = /\.(js|mjs|css|json|svg|txt|map|html)$/;
const SMALLEST = 1024;

type Twin = { extension: ".br" | ".gz"; compress: (bytes: Buffer) => Promise<Buffer> };
const TWINS: Twin[] = [
  {
    extension: ".br",
    compress: (bytes) =>
      brotli(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
  },
  { extension: ".gz", compress: (bytes) => gzip(bytes, { level: 9 }) },
];

/** Every file under a folder, at any depth. */
export function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

export type CompressionSummary = { files: number; bytes: number; brotliBytes: number; gzipBytes: number };

export async function compressAssets(folder: string): Promise<CompressionSummary> {
  const summary: CompressionSummary = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for (const file of filesUnder(folder)) {
    if (!COMPRESSIBLE_ASSET.test(file)) continue;
    const stat = fs.statSync(file);
    if (stat.size < SMALLEST) continue;
    const bytes = fs.readFileSync(file);
    summary.files++;
    summary.bytes += bytes.length;
    for (const twin of TWINS) {
      const target = file + twin.extension;
      const existing = fs.statSync(target, { throwIfNoEntry: false });
      let size = existing && existing.mtimeMs >= stat.mtimeMs ? existing.size : null;
      if (size === null) {
        const compressed = await twin.compress(bytes);
        if (compressed.length >= bytes.length) {
          fs.rmSync(target, { force: true });
          size = bytes.length;
        } else {
          // Written beside and renamed: a server reading the folder never sees half a file.
          fs.writeFileSync(`${target}.tmp`, compressed);
          fs.renameSync(`${target}.tmp`, target);
          size = compressed.length;
        }
      }
      if (twin.extension === ".br") summary.brotliBytes += size;
      else summary.gzipBytes += size;
    }
  }
  return summary;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const folder = path.resolve(process.argv[2] ?? "public/build");
  const started = Date.now();
  const summary = await compressAssets(folder);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;
  console.log(
    `[compress-assets] ${summary.files} files in ${path.relative(process.cwd(), folder) || "."}: ${kb(summary.bytes)} → ${kb(summary.brotliBytes)} Brotli, ${kb(summary.gzipBytes)} gzip (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

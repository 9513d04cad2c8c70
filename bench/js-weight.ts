/**
 * How much JavaScript (and translation data) a first visit to a page makes the
 * browser download: the landing page, /movies and /WatchMovie, in English and
 * in Hausa. Starts the built server on a small catalogue, reads each page the
 * way a browser does (bench/page-assets.ts) and prints raw, gzip (level 6,
 * what the server's compression sends) and Brotli (quality 11, what a build
 * pre-compresses) kilobytes: scripts loaded before the page runs, translation
 * files, the inline scripts of the HTML, and their sum. Chunks loaded only when
 * needed (`import()`, such as the HLS player) are listed apart.
 * Run with `npm run bench:js-weight` after `npm run build`.
 */
import fs from "node:fs";
import zlib from "node:zlib";
import { seedBulkCatalogue } from "./catalogue-seed";
import { prepareStorage, signIn, startServer } from "./lib";
import { loadPageAssets } from "./page-assets";

const PORT = Number(process.env.BENCH_PORT ?? 3606);

type Sizes = { raw: number; gzip: number; brotli: number };
const NONE: Sizes = { raw: 0, gzip: 0, brotli: 0 };

function sizesOf(text: string): Sizes {
  const buffer = Buffer.from(text);
  return {
    raw: buffer.length,
    gzip: zlib.gzipSync(buffer, { level: 6 }).length,
    brotli: zlib.brotliCompressSync(buffer, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

function sum(texts: Iterable<string>): Sizes {
  let total = NONE;
  for (const text of texts) {
    const sizes = sizesOf(text);
    total = { raw: total.raw + sizes.raw, gzip: total.gzip + sizes.gzip, brotli: total.brotli + sizes.brotli };
  }
  return total;
}

if (!fs.existsSync("build/index.js")) throw new Error("Run `npm run build` first");

const { root, db } = await prepareStorage("js-weight");
const catalogue = seedBulkCatalogue(db, {
  count: 40,
  providerIds: ["benchprovider01"],
  viewerIds: ["benchviewer0001"],
});
db.$client.close();
const server = await startServer(root, PORT);

try {
  const session = await signIn(server.url, "/login", "viewer@bench.test");
  const pages = [
    { label: "/", path: "/", signedIn: false },
    { label: "/movies", path: "/movies", signedIn: true },
    { label: "/WatchMovie", path: `/WatchMovie?id=${catalogue.movieIds[0]}`, signedIn: true },
  ];
  const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(6);
  const trio = (sizes: Sizes) => `${kb(sizes.raw)} ${kb(sizes.gzip)} ${kb(sizes.brotli)}`;
  const column = (title: string) => title.padEnd(20);
  console.log("kB (1024 bytes) as raw / gzip -6 / brotli -11; [files]");
  console.log(
    `${"page".padEnd(12)} ${"lang".padEnd(4)} ${column("scripts")}     ${column("translations")}     ${column("inline scripts")} ${column("all before it runs")}`,
  );
  const lazy = new Map<string, { sizes: Sizes; pages: Set<string> }>();
  for (const page of pages) {
    for (const language of ["en", "ha"] as const) {
      const cookies = [`kallo_lang=${Buffer.from(JSON.stringify(language)).toString("base64")}`];
      if (page.signedIn) cookies.push(session);
      const assets = await loadPageAssets(`${server.url}${page.path}`, { Cookie: cookies.join("; ") });
      const scripts = sum(assets.scripts.values());
      const translations = sum(assets.translations.values());
      const inline = sum(assets.inlineScripts);
      const all = sum([...assets.scripts.values(), ...assets.translations.values(), ...assets.inlineScripts]);
      const files = (count: number) => `[${String(count).padStart(2)}]`;
      console.log(
        `${page.label.padEnd(12)} ${language.padEnd(4)} ${trio(scripts)} ${files(assets.scripts.size)} ${trio(translations)} ${files(assets.translations.size)} ${trio(inline)} ${trio(all)}`,
      );
      for (const [url, source] of assets.lazyScripts) {
        const entry = lazy.get(url) ?? { sizes: sizesOf(source), pages: new Set<string>() };
        entry.pages.add(page.label);
        lazy.set(url, entry);
      }
    }
  }
  if (lazy.size > 0) {
    console.log("\nloaded only when needed (import()):");
    for (const [url, { sizes, pages: on }] of lazy) {
      console.log(`  ${url.padEnd(52)} ${trio(sizes)}  from ${[...on].join(", ")}`);
    }
  }
} finally {
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
}

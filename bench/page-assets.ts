/**
 * What a browser downloads to run one page, read the way the browser reads it:
 * the page's HTML names module scripts, modulepreloads and translation
 * preloads (`<link rel="preload" as="fetch">`); each script names the chunks
 * it imports. Static imports load before the page runs; `import()` chunks only
 * when the page needs them. Used by `bench/js-weight.ts` and by the test that
 * keeps a page's bundle to its own language.
 */
import http from "node:http";

export type PageAssets = {
  html: string;
  /** Every script the page loads before it runs, by URL. */
  scripts: Map<string, string>;
  /** Chunks those scripts import only when needed (`import()`), by URL. */
  lazyScripts: Map<string, string>;
  /** Translation files the page preloads, by URL. */
  translations: Map<string, string>;
  /** The bodies of the page's inline scripts (Remix's context and data). */
  inlineScripts: string[];
};

/** GET without keep-alive, without compression. Throws on anything but 200. */
export function getText(url: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { headers: { "Accept-Encoding": "identity", ...headers }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
          else resolve(Buffer.concat(chunks).toString("utf8"));
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'](\/build\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\/build\/[^"']+\.js)["']\s*\)/g;

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]?.replaceAll("&amp;", "&");
}

export async function loadPageAssets(pageUrl: string, headers: Record<string, string> = {}): Promise<PageAssets> {
  const html = await getText(pageUrl, headers);
  const origin = new URL(pageUrl).origin;

  const starts = new Set<string>();
  const translationUrls = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const rel = attribute(tag, "rel");
    const href = attribute(tag, "href");
    if (!href) continue;
    if (rel === "modulepreload") starts.add(href);
    if (rel === "preload" && attribute(tag, "as") === "fetch") translationUrls.add(href);
  }
  const inlineScripts: string[] = [];
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const src = attribute(` ${attributes}`, "src");
    if (src) starts.add(src);
    if (!body.trim()) continue;
    inlineScripts.push(body);
    for (const [, imported] of body.matchAll(STATIC_IMPORT)) starts.add(imported);
  }

  const scripts = new Map<string, string>();
  const lazyUrls = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (scripts.has(url)) continue;
    const source = await getText(new URL(url, origin).href);
    scripts.set(url, source);
    for (const [, imported] of source.matchAll(STATIC_IMPORT)) queue.push(imported);
    for (const [, imported] of source.matchAll(DYNAMIC_IMPORT)) lazyUrls.add(imported);
  }
  const lazyScripts = new Map<string, string>();
  for (const url of lazyUrls) {
    if (!scripts.has(url)) lazyScripts.set(url, await getText(new URL(url, origin).href));
  }
  const translations = new Map<string, string>();
  for (const url of translationUrls) translations.set(url, await getText(new URL(url, origin).href));

  return { html, scripts, lazyScripts, translations, inlineScripts };
}

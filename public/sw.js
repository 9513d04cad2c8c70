/**
 * Kallo's service worker: keeps the app shell so the site opens on a bad connection.
 *
 * - On install it precaches the offline page, the home page, the manifest and
 *   icons, and the fingerprinted CSS/JS those pages load (read from their HTML).
 * - /build/ assets are fingerprinted, so they are served cache-first and cached
 *   on first use.
 * - Page navigations are network-first; when the network fails the last copy of
 *   that page (public pages only) is shown, or the browser is sent to the offline page.
 * - Only pages rendered without a session are stored: the server marks every
 *   answer rendered for a session `private, no-store`, and the shell is fetched
 *   without cookies. Signing out clears the stored pages all the same.
 * - Nothing else is touched: POSTs, /api/ (posters, video byte ranges), Range
 *   requests and single-fetch `.data` requests always go to the network.
 *
 * Bump VERSION when this file's behaviour changes: activate deletes older caches.
 */
const VERSION = "v2";
const SHELL_CACHE = `kallo-shell-${VERSION}`;
const ASSET_CACHE = `kallo-assets-${VERSION}`;
const PAGE_CACHE = `kallo-pages-${VERSION}`;
const CURRENT_CACHES = [SHELL_CACHE, ASSET_CACHE, PAGE_CACHE];

const OFFLINE_URL = "/offline";
const SHELL_URLS = [OFFLINE_URL, "/", "/manifest.webmanifest", "/favicon.svg", "/icons/icon-192.png", "/icons/icon-512.png"];

/** Public pages whose last copy may be shown offline. Personal pages (profile, history…) are never stored. */
const CACHEABLE_PAGES = new Set(["/", "/about", "/terms", "/plans", "/privacy", "/security", "/help", "/download", OFFLINE_URL]);

/** The /build/ files a page's HTML links to (stylesheets, module scripts, modulepreloads). */
function buildAssetsIn(html) {
  const urls = new Set();
  for (const match of html.matchAll(/(?:href|src)="(\/build\/[^"]+)"/g)) urls.add(match[1]);
  return [...urls];
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL_CACHE);
      // Without cookies: the stored home page must never be someone's signed-in page.
      await shell.addAll(SHELL_URLS.map((url) => new Request(url, { cache: "reload", credentials: "omit" })));
      const assets = new Set();
      for (const page of [OFFLINE_URL, "/"]) {
        const response = await shell.match(page);
        if (response) for (const url of buildAssetsIn(await response.text())) assets.add(url);
      }
      const assetCache = await caches.open(ASSET_CACHE);
      await assetCache.addAll([...assets]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith("kallo-") && !CURRENT_CACHES.includes(name)).map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (storable(response)) {
    const cache = await caches.open(ASSET_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

/** May this answer be kept? Never one rendered for a session (the server says `no-store`). */
function storable(response) {
  const cacheControl = response.headers.get("Cache-Control") || "";
  return response.ok && response.status === 200 && !/no-store|private/i.test(cacheControl);
}

async function networkFirstPage(request, url) {
  try {
    const response = await fetch(request);
    if (storable(response) && CACHEABLE_PAGES.has(url.pathname) && !url.search) {
      const cache = await caches.open(PAGE_CACHE);
      await cache.put(url.pathname, response.clone());
    }
    return response;
  } catch (error) {
    const cached = (await caches.match(url.pathname, { cacheName: PAGE_CACHE })) ?? (url.pathname === "/" ? await caches.match("/") : undefined);
    if (cached) return cached;
    const offline = await caches.match(OFFLINE_URL);
    if (!offline) throw error;
    // Send the browser to /offline rather than showing its HTML under another URL: the page then
    // hydrates as the offline route instead of the router looking for a route it cannot load.
    return url.pathname === OFFLINE_URL ? offline : Response.redirect(OFFLINE_URL, 302);
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Signing out (a plain form post, with or without JavaScript): forget every stored page.
  if (request.method === "POST" && (url.pathname === "/logout" || url.pathname === "/logout.data")) {
    event.waitUntil(caches.delete(PAGE_CACHE));
    return;
  }
  if (request.method !== "GET" || request.headers.has("range")) return;
  if (url.pathname.startsWith("/api/") || url.pathname.endsWith(".data")) return;

  if (url.pathname.startsWith("/build/")) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(networkFirstPage(request, url));
    return;
  }
  if (SHELL_URLS.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((cached) => cached ?? fetch(request)));
  }
});

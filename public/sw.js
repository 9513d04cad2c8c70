/**
 * Kallo's service worker: keeps the app shell so the site opens on a bad connection.
 *
 * - On install it precaches only what the offline page needs: its HTML and its
 *   stylesheet (the page works without its scripts). A first visit on a slow
 *   link pays a few kB for it, not every page's scripts.
 * - /downloads, which must open in airplane mode with its scripts (it plays the
 *   stored films), is kept once this device downloads a film: the page asks
 *   (message "keep-downloads-page") and a new worker keeps it at install when
 *   films are stored.
 * - /build/ assets and /locales/ translation files are named by their content's
 *   hash, so they are served cache-first and cached on first use.
 * - Page navigations are network-first; when the network fails the last copy of
 *   that page (public pages only) is shown, or the browser is sent to the offline page.
 * - Only pages rendered without a session are stored: the server marks every
 *   answer rendered for a session `no-store`, and the shell is fetched
 *   without cookies (and with `X-Kallo-Shell: 1`, so its top bar shows no
 *   Login and Sign up to someone signed in who opens it offline). Signing out
 *   clears the stored pages all the same.
 * - Nothing else is touched: POSTs, /api/ (posters, video byte ranges), Range
 *   requests and single-fetch `.data` requests always go to the network; the
 *   player's reports, /stream/ and /api/ do not even pass through this worker
 *   where the browser supports static routes (NETWORK_ONLY).
 *
 * Bump VERSION when this file's behaviour changes: activate deletes older caches.
 */
const VERSION = "v7";
const SHELL_CACHE = `kallo-shell-${VERSION}`;
const ASSET_CACHE = `kallo-assets-${VERSION}`;
const PAGE_CACHE = `kallo-pages-${VERSION}`;
/** Downloaded films (app/components/downloads/offline-store.ts): never versioned away. */
const DOWNLOAD_CACHE = "kallo-downloads";
const CURRENT_CACHES = [SHELL_CACHE, ASSET_CACHE, PAGE_CACHE, DOWNLOAD_CACHE];

const OFFLINE_URL = "/offline";
const DOWNLOADS_URL = "/downloads";
/** The pages the shell cache may hold (the offline page always; /downloads once films are stored). */
const SHELL_URLS = [OFFLINE_URL, DOWNLOADS_URL];

/** Public pages whose last copy may be shown offline. Personal pages (profile, history…) are never stored. */
const CACHEABLE_PAGES = new Set([
  "/",
  "/about",
  "/terms",
  "/plans",
  "/privacy",
  "/security",
  "/help",
  "/download",
  DOWNLOADS_URL,
  OFFLINE_URL,
]);

/** The hashed files a page's HTML links to (stylesheets, module scripts, modulepreloads, translations). */
function buildAssetsIn(html) {
  const urls = new Set();
  for (const match of html.matchAll(/(?:href|src)="(\/(?:build|locales)\/[^"]+)"/g)) urls.add(match[1]);
  return [...urls];
}

/** Only the stylesheets a page links to. */
function stylesheetsIn(html) {
  return buildAssetsIn(html).filter((url) => url.endsWith(".css"));
}

/**
 * Keep signed-out copies of these pages (fetched without cookies: never
 * someone's signed-in page) and the /build/ files `pick` chooses from each.
 */
async function keepPages(pages, pick) {
  const shell = await caches.open(SHELL_CACHE);
  // Marked as this device's copy: its top bar then offers what works offline rather than Login and Sign up.
  await shell.addAll(
    pages.map((url) => new Request(url, { cache: "no-cache", credentials: "omit", headers: { "X-Kallo-Shell": "1" } })),
  );
  const assets = new Set();
  for (const page of pages) {
    const response = await shell.match(page);
    if (response) for (const url of pick(await response.text())) assets.add(url);
  }
  const assetCache = await caches.open(ASSET_CACHE);
  const missing = [];
  for (const url of assets) if (!(await assetCache.match(url))) missing.push(url);
  await assetCache.addAll(missing);
}

/** Films are stored on this device (their records live in the unversioned download cache). */
async function hasDownloads() {
  const cache = await caches.open(DOWNLOAD_CACHE);
  return (await cache.keys()).length > 0;
}

/**
 * Requests this worker never answers go straight to the network where the
 * browser can be told so (Service Worker static routing; Chromium 123+):
 * without it each one waits for this worker to start and decline, and a
 * player's "stop" beacon sent as its page was left was now and then lost
 * there, keeping the viewer's screen taken for two minutes. Media segments
 * skip the wait too.
 */
const NETWORK_ONLY = [
  { condition: { urlPattern: { pathname: "/watch-progress" } }, source: "network" },
  { condition: { urlPattern: { pathname: "/stream/*" } }, source: "network" },
  { condition: { urlPattern: { pathname: "/api/*" } }, source: "network" },
];

self.addEventListener("install", (event) => {
  if (typeof event.addRoutes === "function") {
    event.waitUntil(event.addRoutes(NETWORK_ONLY).catch((error) => console.warn("Static routes refused", error)));
  }
  event.waitUntil(
    (async () => {
      await keepPages([OFFLINE_URL], stylesheetsIn);
      if (await hasDownloads()) await keepPages([DOWNLOADS_URL], buildAssetsIn);
      await self.skipWaiting();
    })(),
  );
});

// A page about to store a film asks for /downloads to be kept; the answer (on the port) says it is done.
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "keep-downloads-page") return;
  event.waitUntil(
    (async () => {
      try {
        const shell = await caches.open(SHELL_CACHE);
        if (!(await shell.match(DOWNLOADS_URL))) await keepPages([DOWNLOADS_URL], buildAssetsIn);
      } catch (error) {
        console.warn("Keeping /downloads for offline use failed", error);
      }
      if (event.ports[0]) event.ports[0].postMessage({ kept: true });
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith("kallo-") && !CURRENT_CACHES.includes(name))
          .map((name) => caches.delete(name)),
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

/**
 * May this answer be kept? Never one rendered for a session (the server says
 * `no-store`). Signed-out pages are `private` (their CSP nonce is for this
 * browser alone), which this browser's own worker may keep.
 */
function storable(response) {
  const cacheControl = response.headers.get("Cache-Control") || "";
  return response.ok && response.status === 200 && !/no-store/i.test(cacheControl);
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
    const cached =
      (await caches.match(url.pathname, { cacheName: PAGE_CACHE })) ??
      (SHELL_URLS.includes(url.pathname) ? await caches.match(url.pathname, { cacheName: SHELL_CACHE }) : undefined);
    if (cached) return cached;
    const offline = await caches.match(OFFLINE_URL);
    if (!offline) throw error;
    // Send the browser to /offline rather than showing its HTML under another URL: the page then
    // hydrates as the offline route instead of the router looking for a route it cannot load.
    return url.pathname === OFFLINE_URL ? offline : Response.redirect(OFFLINE_URL, 302);
  }
}

/* ---------- Downloaded films ---------- */

const verifiedLicences = new Map();

function base64UrlBytes(text) {
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}

/** The licence is the server's (ECDSA P-256 over its terms), not one edited on the device. */
async function licenceIsGenuine(record) {
  const { terms, signature } = record.licence;
  if (verifiedLicences.has(terms.id)) return verifiedLicences.get(terms.id);
  const message = JSON.stringify([
    terms.id,
    terms.movieId,
    terms.rung,
    terms.issuedAt,
    terms.expiresAt,
    terms.playHours,
  ]);
  let genuine = false;
  try {
    const key = await crypto.subtle.importKey("jwk", record.publicKey, { name: "ECDSA", namedCurve: "P-256" }, false, [
      "verify",
    ]);
    genuine = await crypto.subtle.verify(
      { name: "ECDSA", hash: "SHA-256" },
      key,
      base64UrlBytes(signature),
      new TextEncoder().encode(message),
    );
  } catch {
    genuine = false;
  }
  verifiedLicences.set(terms.id, genuine);
  return genuine;
}

/** The rule of offline-store.ts `judgeRecord`: complete, not revoked, clock not moved back, within the licence. */
function judge(record, now) {
  if (record.revoked) return "revoked";
  if (record.chunks * record.chunkBytes < record.media.sizeBytes) return "incomplete";
  const terms = record.licence.terms;
  if (now < record.latestSeen - 60000 || now < terms.issuedAt - 60000) return "clock";
  const until =
    record.firstPlayedAt === null
      ? terms.expiresAt
      : Math.min(terms.expiresAt, record.firstPlayedAt + terms.playHours * 3600000);
  return now < until ? null : "expired";
}

function refuse(status, reason) {
  return new Response(JSON.stringify({ reason }), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

/** The stored MP4's bytes from `start` to `end`, chunk by chunk (never the whole film in memory). */
function streamChunks(cache, movieId, chunkBytes, start, end) {
  let position = start;
  return new ReadableStream({
    async pull(controller) {
      if (position > end) {
        controller.close();
        return;
      }
      const index = Math.floor(position / chunkBytes);
      const response = await cache.match(`/offline-media/${movieId}/chunk/${index}`);
      if (!response) {
        controller.error(new Error(`chunk ${index} is missing`));
        return;
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      const from = position - index * chunkBytes;
      const to = Math.min(bytes.length, end - index * chunkBytes + 1);
      controller.enqueue(bytes.subarray(from, to));
      position = index * chunkBytes + to;
    },
  });
}

async function offlineMedia(request, url, event) {
  const match = /^\/offline-media\/([a-z0-9]{8,32})\/(video\.mp4|poster|meta|subtitles\/[A-Za-z0-9-]{2,35}\.vtt)$/.exec(
    url.pathname,
  );
  if (!match) return refuse(404, "unknown");
  const [, movieId, what] = match;
  const cache = await caches.open(DOWNLOAD_CACHE);
  if (what === "poster" || what === "meta") return (await cache.match(url.pathname)) ?? refuse(404, "unknown");
  const metaUrl = `/offline-media/${movieId}/meta`;
  const metaResponse = await cache.match(metaUrl);
  if (!metaResponse) return refuse(404, "unknown");
  const record = await metaResponse.json();
  const now = Date.now();
  if (!(await licenceIsGenuine(record))) return refuse(403, "forged");
  const refusal = judge(record, now);
  if (refusal) return refuse(403, refusal);
  // Subtitles: under the same licence as the film they go with.
  if (what !== "video.mp4") return (await cache.match(url.pathname)) ?? refuse(404, "unknown");
  // The play window starts at the first play; the latest clock reading guards against a clock moved back.
  if (record.firstPlayedAt === null || now - record.latestSeen > 30000) {
    record.firstPlayedAt = record.firstPlayedAt ?? now;
    record.latestSeen = Math.max(record.latestSeen, now);
    // Written beside the answer, not before it: the first frame does not wait for it.
    event.waitUntil(
      cache.put(metaUrl, new Response(JSON.stringify(record), { headers: { "Content-Type": "application/json" } })),
    );
  }
  const size = record.media.sizeBytes;
  let start = 0;
  let end = size - 1;
  const range = request.headers.get("range");
  if (range) {
    const parts = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (!parts || (parts[1] === "" && parts[2] === ""))
      return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
    if (parts[1] === "") start = Math.max(0, size - Number(parts[2]));
    else {
      start = Number(parts[1]);
      if (parts[2] !== "") end = Math.min(Number(parts[2]), size - 1);
    }
    if (start >= size || start > end)
      return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  }
  const headers = {
    "Content-Type": "video/mp4",
    "Content-Length": String(end - start + 1),
    "Accept-Ranges": "bytes",
    "Cache-Control": "no-store",
  };
  if (range) headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
  return new Response(streamChunks(cache, movieId, record.chunkBytes, start, end), {
    status: range ? 206 : 200,
    headers,
  });
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
  if (request.method === "GET" && url.pathname.startsWith("/offline-media/")) {
    event.respondWith(offlineMedia(request, url, event));
    return;
  }
  if (request.method !== "GET" || request.headers.has("range")) return;
  if (url.pathname.startsWith("/api/") || url.pathname.endsWith(".data")) return;

  if (url.pathname.startsWith("/build/") || url.pathname.startsWith("/locales/")) {
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

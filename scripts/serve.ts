/**
 * Kallo's HTTP server: what remix-serve does (compression, the hashed build
 * assets cached for a year, public/ for an hour, a request log, the Remix
 * request handler), on @remix-run/express, plus the control remix-serve does
 * not give:
 *
 * - No wall-clock limit on a request. Node ends any request after 300 s by
 *   default, which cut every upload over about 300 MB at 1 MB/s. Instead a
 *   connection that moves no bytes either way for UPLOAD_IDLE_SECONDS
 *   (default 60) is closed: a slow upload that keeps sending is never cut,
 *   a stalled one is, and its partial file is removed by the upload route.
 * - A clean stop: on SIGTERM/SIGINT (what `docker stop` sends) the server
 *   stops accepting connections and the media jobs at once (their encoders
 *   end, the jobs go back in the queue), lets requests under way finish for
 *   up to SHUTDOWN_GRACE_SECONDS (default 10), closes the rest and the
 *   database, and exits 0. A second signal exits at once.
 * - Who the client is and whether it came over https, decided here once:
 *   the socket's address and scheme, unless a proxy TRUST_PROXY trusts
 *   said otherwise (X-Forwarded-For, X-Forwarded-Proto); https also when
 *   PUBLIC_URL is. The app reads both from headers only this server sets
 *   (app/utils/client.server.ts), and every cookie is Secure exactly on
 *   https — so sign-in works over plain http on a LAN, and is protected
 *   behind TLS.
 *
 * - Several processes (WORKERS, default one per core): the primary
 *   (scripts/workers.ts) forks them with Node's cluster, and each runs this
 *   script, the whole server, on the shared port; WORKERS=1 serves in this
 *   one process.
 *
 * `npm start` runs it after the migrations; `node build/server/serve.js`
 * serves an existing database (the benchmarks do). Both run as `npm run build`
 * compiles them (scripts/build-server.ts); `node --import tsx scripts/serve.ts`
 * serves from the source. A process that serves loads Express, Remix and the
 * app when it starts to serve: the primary of several workers never does.
 */
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import Database from "better-sqlite3";
import type express from "express";
import {
  ARRIVED_HEADER,
  CLIENT_ADDRESS_HEADER,
  CLIENT_PROTOCOL_HEADER,
  plainAddress,
} from "../app/utils/client.server";
import { Admission, laneOf } from "./admission";
import { onWorkerNote, runsBackgroundWork } from "../app/utils/cluster.server";
import { lingerOnStream } from "../app/utils/request-body.server";
import type { Env, TrustProxy } from "../app/utils/env.server";
import { bytesStreamed, httpDuration, httpRequests, mediaKind, routeLabel } from "../app/utils/metrics.server";
import { schemaState } from "../app/db/schema-version.server";
import { readBuildInfo } from "./builds-in-use";
import { runFilePath } from "./server-control";
import { BUILD_DIR_ENV, runPrimary, SCHEMA_BEHIND_EXIT, STOP_NOTE } from "./workers";
import { takeConnections } from "./front-door";

export type ServeOptions = {
  buildPath: string;
  port: number;
  host?: string;
  trustProxy?: TrustProxy;
  publicUrl?: string;
  /** Seconds a connection may move no bytes before it is closed. */
  idleSeconds: number;
  /** How long a stop waits for requests under way. */
  stopGraceMs?: number;
  /** Print where the site is and whom it trusts once listening (a worker leaves that to its primary). */
  announce?: boolean;
  /** Name the process in every answer (`Kallo-Worker: <pid> background|serving`), for tests of several workers. */
  workerHeader?: boolean;
  /** One log line per request (LOG_LEVEL info and debug). */
  requestLog?: boolean;
  /** STORAGE_DIR: a resumable upload still sending at the stop's deadline is answered with the bytes stored there. */
  storageDir?: string;
  /** A worker of several: it does not listen, it serves the connections its primary hands it (scripts/front-door.ts). */
  fromPrimary?: boolean;
};

/**
 * The idle timeout (UPLOAD_IDLE_SECONDS) is for a client that stops sending or reading, never for the server's
 * own work: from the request's last byte until the answer starts (a sign-in waiting for its password check
 * on a busy box, say) the socket has no idle cut; it is back as soon as the answer's head is written. The
 * head also gets `X-Content-Type-Options: nosniff` where the answer did not set it.
 */
function waitForTheServerWithoutIdleCut(req: http.IncomingMessage, res: http.ServerResponse, idleMs: number): void {
  const pause = () => {
    if (!res.headersSent && !res.writableEnded) req.socket.setTimeout(0);
  };
  const bodiless = req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined;
  if (bodiless) pause();
  else req.once("end", pause);
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    req.socket.setTimeout(idleMs);
    // No answer is sniffed into another type (JSON, CSV, scripts, provider-chosen names): every answer says so, once.
    if (!this.hasHeader("X-Content-Type-Options")) this.setHeader("X-Content-Type-Options", "nosniff");
    // A 405 says what the address takes. Remix answers 405 to a write where a route has no action (it takes
    // reads) and to a read where it has no loader (it takes writes); a route that answers 405 itself says so.
    const status = typeof args[0] === "number" ? args[0] : this.statusCode;
    if (status === 405 && !this.hasHeader("Allow"))
      this.setHeader("Allow", req.method === "GET" || req.method === "HEAD" ? "POST" : "GET, HEAD");
    return writeHead.apply(this, args);
  } as typeof res.writeHead;
}

/** How long a stopping server lets kept-alive connections end with an answer before it closes the idle ones. */
const DRAIN_MS = 1_000;

export type RunningKallo = { server: http.Server; stop: () => Promise<void> };

export async function serve(options: ServeOptions): Promise<RunningKallo> {
  // Loaded here, in a process that serves: the primary of several workers never needs them.
  const [{ createRequestHandler }, { installGlobals }, { default: express }, { default: morgan }, compression] =
    await Promise.all([
      import("@remix-run/express"),
      import("@remix-run/node"),
      import("express"),
      import("morgan"),
      import("./compression"),
    ]);
  const { compressResponses, servePrecompressed } = compression;
  const build = (await import(pathToFileURL(path.resolve(options.buildPath)).href)) as ServerBuild;
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy ?? false);
  // Nothing reads Express's req.query (Remix reads the URL itself): not parsing it saves qs's work on every request.
  app.set("query parser", false);
  if (options.workerHeader) app.use(nameTheWorker);
  app.use(clientFacts({ publicHttps: options.publicUrl?.startsWith("https:") ?? false }));
  app.use(recordMetrics);
  const appModule = build.entry.module as {
    stopBackgroundWork?: () => Promise<void>;
    closeDatabase?: () => void;
    roleOfCaller?: (headers: { cookie?: string; authorization?: string }) => Promise<BodyRole | null>;
    answerDiskFullInResourceRoutes?: (routes: ServerBuild["routes"]) => number;
    busyAnswer?: (request: Request, retryAfterSeconds: number) => Promise<Response>;
  };
  // A full disk met by a resource route is a 503, as on pages (routes-support/disk-full.server.ts).
  appModule.answerDiskFullInResourceRoutes?.(build.routes);
  app.use(
    capBodies({
      roleOf: async (req) =>
        (await appModule.roleOfCaller?.({ cookie: req.headers.cookie, authorization: req.headers.authorization })) ??
        null,
    }),
  );
  app.use(sameOriginWrites({ publicUrl: options.publicUrl }));
  // Brotli for text, the build's files as compressed at build time, never a film (scripts/compression.ts).
  app.use(compressResponses());
  app.use(build.publicPath, servePrecompressed(build.assetsBuildDirectory));
  app.use(build.publicPath, express.static(build.assetsBuildDirectory, compression.IMMUTABLE_FILE));
  // While workers move to a new build, a page from one build may fetch its scripts from a worker of the other.
  app.use(
    build.publicPath,
    assetsOfOtherBuilds(build.assetsBuildDirectory, express.static, compression.IMMUTABLE_FILE),
  );
  app.use(publicFiles("public", express.static));
  if (options.requestLog ?? true) app.use(morgan("tiny"));
  app.use(admitByPriority(new Admission(), appModule.busyAnswer));
  app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));
  app.use(answerErrors({ requestLog: options.requestLog ?? true }));

  // Resumable uploads' PATCH requests under way, for the stop's deadline (answerUploadsAtDeadline).
  const patches = new Map<http.ServerResponse, string>();
  let draining = false;
  const idleMs = options.idleSeconds * 1000;
  const server = http.createServer((req, res) => {
    // Stopping: this answer ends its kept-alive connection, so the client's next request opens a new one (to another worker).
    if (draining) res.setHeader("Connection", "close");
    // A connection's first request arrived when the primary accepted it (it may have waited for a worker since).
    const accepted = handedOver?.acceptedAt(req.socket) ?? null;
    req.headers[ARRIVED_HEADER.toLowerCase()] = String(Math.min(accepted ?? Date.now(), Date.now()));
    waitForTheServerWithoutIdleCut(req, res, idleMs);
    if (!takeOriginForm(req, res)) return;
    const upload = req.method === "PATCH" ? TUS_UPLOAD_PATH.exec(req.url ?? "") : null;
    if (upload) {
      patches.set(res, upload[1]);
      res.once("close", () => patches.delete(res));
    }
    app(req, res);
  });
  server.requestTimeout = 0;
  server.timeout = options.idleSeconds * 1000;
  const handedOver = options.fromPrimary ? takeConnections(server) : null;
  if (!handedOver)
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      const ready = () => {
        server.off("error", reject);
        resolve();
      };
      if (options.host) server.listen(options.port, options.host, ready);
      else server.listen(options.port, ready);
    });
  if (options.announce ?? true) for (const line of startupLines(options)) console.log(line);

  // The app's own part of a stop (entry.server.tsx, appModule above): background work, then the database.
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      draining = true;
      // No new connections (the primary gives them to the other workers). A kept-alive connection idle now is
      // not cut at once: a client may be sending on it this very moment and would see a reset; its next answer
      // says "Connection: close" instead, and those still idle after DRAIN_MS are closed then.
      const closeIdle = server.closeIdleConnections;
      server.closeIdleConnections = () => undefined;
      const closed = handedOver ? handedOver.close() : new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections = closeIdle;
      let sweepIdle: NodeJS.Timeout | undefined;
      const drained = setTimeout(() => {
        server.closeIdleConnections();
        sweepIdle = setInterval(() => server.closeIdleConnections(), 100);
      }, DRAIN_MS);
      const grace = setTimeout(() => {
        void answerUploadsAtDeadline(patches, options.storageDir).finally(() => server.closeAllConnections());
      }, options.stopGraceMs ?? 10_000);
      const background = appModule
        .stopBackgroundWork?.()
        .catch((error: unknown) => console.error("[serve] stopping the background work failed:", error));
      await closed;
      clearTimeout(grace);
      clearTimeout(drained);
      clearInterval(sweepIdle);
      // Background work (a mail that hangs, say) gets no longer than requests did.
      await Promise.race([
        background,
        new Promise((resolve) => setTimeout(resolve, options.stopGraceMs ?? 10_000).unref()),
      ]);
      appModule.closeDatabase?.();
    })();
    return stopping;
  };
  return { server, stop };
}

/**
 * Each request waits its turn by its lane and deadline (scripts/admission.ts); one that cannot be served in
 * time is answered "busy, try again in N s" (503, Retry-After) by the app's own words for it, and what it
 * still sends is read and dropped. Turned-away requests are summed in the log, at most one line every 10 s.
 */
function admitByPriority(
  admission: Admission,
  busyAnswer: ((request: Request, retryAfterSeconds: number) => Promise<Response>) | undefined,
): express.RequestHandler {
  let turnedAway = 0;
  let saidAt = 0;
  return (req, res, next) => {
    const lane = laneOf(req.method, req.path);
    if (!lane) return next();
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    const arrived = Number(req.headers[ARRIVED_HEADER.toLowerCase()]) || Date.now();
    void admission.enter(lane, arrived, gone.signal).then(async (admitted) => {
      if (admitted.ok) {
        res.once("close", admitted.leave);
        return next();
      }
      if (res.destroyed || res.writableEnded) return;
      turnedAway += 1;
      if (Date.now() - saidAt > 10_000) {
        console.error(
          `[busy] ${turnedAway} request${turnedAway === 1 ? "" : "s"} answered 503 (busy) since the last line; last: ${req.method} ${req.path} (${lane}), ${admission.total} under way of ${admission.limit}, ${admission.waiting()} waiting`,
        );
        turnedAway = 0;
        saidAt = Date.now();
      }
      lingerOnStream(req);
      const request = new Request(`http://kallo.invalid${req.originalUrl}`, {
        method: req.method === "HEAD" ? "GET" : req.method,
        headers: { cookie: req.headers.cookie ?? "", "accept-language": req.headers["accept-language"] ?? "" },
      });
      const answer = busyAnswer
        ? await busyAnswer(request, admitted.retryAfterSeconds)
        : new Response("Busy\n", { status: 503, headers: { "Retry-After": String(admitted.retryAfterSeconds) } });
      res.status(answer.status);
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  };
}

/**
 * Every request target as a path (origin form). HTTP/1.1 servers must accept
 * the absolute form (`GET http://host/path HTTP/1.1`, RFC 9112 §3.2.2), whose
 * authority then stands for the Host header; the app only ever reads paths.
 * A target that is neither (`*`, `mailto:…`), or a Host no address can be
 * made of, is answered 400 here, before anything builds a URL from it.
 */
export function takeOriginForm(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const target = req.url ?? "/";
  let host = req.headers.host;
  if (!target.startsWith("/")) {
    const absolute = /^https?:\/\//i.test(target) ? URL.parse(target) : null;
    if (!absolute) return refuseTarget(res);
    req.url = `${absolute.pathname}${absolute.search}`;
    host = req.headers.host = absolute.host;
  }
  if (host !== undefined && URL.parse(`http://${host}/`)?.host !== host.toLowerCase()) return refuseTarget(res);
  return true;
}

function refuseTarget(res: http.ServerResponse): false {
  res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  res.end("Bad request target.\n");
  return false;
}

const TUS_UPLOAD_PATH = /^\/provider\/uploads\/tus\/([A-Za-z0-9_-]+)\/?(?:\?|$)/;

/**
 * At a stop's deadline, a resumable upload's PATCH still sending is not cut
 * without a word: its intake stops, what it sent is left a moment to reach
 * the disk, and it is answered 204 with the offset stored (the tus answer to a
 * PATCH), so its client resumes from there after the restart without asking.
 */
async function answerUploadsAtDeadline(patches: Map<http.ServerResponse, string>, storageDir?: string): Promise<void> {
  const open = [...patches].filter(([res]) => !res.headersSent && !res.destroyed);
  if (open.length === 0 || !storageDir) return;
  for (const [res] of open) res.req.socket.pause();
  await new Promise((resolve) => setTimeout(resolve, 250));
  for (const [res, id] of open) {
    if (res.headersSent || res.destroyed) continue;
    let offset = 0;
    try {
      offset = fs.statSync(path.join(storageDir, "uploads", id)).size;
    } catch {
      continue;
    }
    res.writeHead(204, {
      "Tus-Resumable": "1.0.0",
      "Upload-Offset": String(offset),
      "Cache-Control": "no-store",
      Connection: "close",
    });
    res.end();
  }
}

/** Was this error a client that went away (an aborted download, a closed tab)? Nothing to answer, nothing to fix. */
export function isClientGone(error: unknown, req: express.Request): boolean {
  const code = (error as { code?: string } | null)?.code;
  return (
    code === "ECONNABORTED" ||
    code === "ECONNRESET" ||
    code === "EPIPE" ||
    code === "ERR_STREAM_PREMATURE_CLOSE" ||
    req.destroyed ||
    req.socket.destroyed
  );
}

/**
 * The last word on an error no route answered: a client that went away is
 * one short line in the request log (no stack: nothing failed); a refusal
 * the static files made (a range past the end, a bad path) keeps its status;
 * anything else is logged with its stack and answered "Internal server error".
 */
function answerErrors(options: { requestLog: boolean }): express.ErrorRequestHandler {
  return (error: Error & { status?: number; statusCode?: number }, req, res, _next) => {
    if (isClientGone(error, req)) {
      if (options.requestLog) console.log(`${req.method} ${req.path} - client went away`);
      if (!res.headersSent) res.destroy();
      return;
    }
    const status = error.status ?? error.statusCode ?? 500;
    if (status >= 500) console.error(`[serve] ${req.method} ${req.path} failed:`, error);
    if (res.headersSent) return void res.destroy();
    res
      .status(status >= 400 && status < 600 ? status : 500)
      .type("text")
      .send(status >= 500 ? "Internal server error\n" : `${http.STATUS_CODES[status] ?? "Bad request"}\n`);
  };
}

/**
 * Mark each request with the client's address and whether it used https
 * (replacing anything a client sent under those names), and on https make
 * every cookie the app sets Secure.
 */
export function clientFacts(options: { publicHttps: boolean }): express.RequestHandler {
  return (req, res, next) => {
    const https = options.publicHttps || req.secure;
    req.headers[CLIENT_ADDRESS_HEADER.toLowerCase()] = plainAddress(req.ip ?? req.socket.remoteAddress) ?? "unknown";
    req.headers[CLIENT_PROTOCOL_HEADER.toLowerCase()] = https ? "https" : "http";
    // Browsers keep to https for a year once they have seen this over https (sent only there: they ignore it on http).
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000");
    if (https) {
      const setHeader = res.setHeader.bind(res);
      res.setHeader = ((name: string, value: number | string | readonly string[]) =>
        setHeader(name, name.toLowerCase() === "set-cookie" ? secureCookies(value) : value)) as typeof res.setHeader;
    }
    next();
  };
}

/**
 * Bodies are capped before anything reads them, for every route at once:
 * 64 kB (a form, a JSON call) everywhere, except
 * - the film uploads and a title's edit page (which also takes a new film),
 *   which keep their own limits (MAX_UPLOAD_MB, the disk) and refuse the
 *   wrong role before reading a byte;
 * - the few forms that carry a file (a category's image, a series' or a
 *   title's poster, a subtitle file, Paystack's webhook), which may send more — and only from
 *   the role they are for: anyone else sending a large body there is refused
 *   at once, as everyone is everywhere else.
 * A refused body is answered at once (413, or 403 for the wrong role), never
 * buffered, and what the client still sends is read and dropped behind the
 * answer (lingerOnStream: never `Connection: close`, which would reset a
 * client still sending before it reads the answer); once the body has ended
 * the connection carries the next request. A body of unknown length
 * (chunked) is only taken where uploads are.
 */
const UPLOAD_PATHS =
  /^\/(provider\/uploads(\/|$)|provider\/Movieupload(\.data)?$|api\/upload\/movies$|provider\/movie\/[^/]+(\.data)?$|api\/movies\/replace\/[^/]+$)/;
export const BODY_LIMIT = 64 * 1024;
export type BodyRole = "admin" | "provider" | "viewer";
const LARGER_BODIES: Array<{ path: RegExp; limit: number; roles: BodyRole[] | "anyone" }> = [
  { path: /^\/admin\/moviecategory(\.data)?$/, limit: 12 * 1024 * 1024, roles: ["admin"] },
  { path: /^\/provider\/series(\/[^/]+)?(\.data)?$/, limit: 12 * 1024 * 1024, roles: ["provider"] },
  { path: /^\/provider\/subtitles(\.data)?$/, limit: 2 * 1024 * 1024, roles: ["provider"] },
  // A title's details with a new poster (at most 10 MB): its provider's, or any administrator's.
  { path: /^\/admin\/movies\/[^/]+(\.data)?$/, limit: 12 * 1024 * 1024, roles: ["admin"] },
  { path: /^\/api\/movies\/edit\/[^/]+$/, limit: 12 * 1024 * 1024, roles: ["provider", "admin"] },
  { path: /^\/payments\/paystack\/webhook$/, limit: 256 * 1024, roles: "anyone" },
];

/** `roleOf`: the signed-in caller's role by the request's cookie or Bearer token (the app's sessions), or null. */
export function capBodies(options: { roleOf?: (req: express.Request) => Promise<BodyRole | null> } = {}) {
  return async (req: express.Request, res: express.Response, next: express.NextFunction): Promise<void> => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" || UPLOAD_PATHS.test(req.path))
      return next();
    const declared = req.headers["content-length"];
    const chunked = declared === undefined && /chunked/i.test(String(req.headers["transfer-encoding"] ?? ""));
    const size = declared === undefined ? 0 : Number(declared);
    if (!chunked && size <= BODY_LIMIT) return next();
    const larger = LARGER_BODIES.find((route) => route.path.test(req.path));
    let refusal: { status: 403 | 411 | 413; english: string; hausa: string } | null = null;
    if (chunked)
      refusal = {
        status: 411,
        english: "Send the length of the body (Content-Length).",
        hausa: "Aika tsawon abin da ake turawa (Content-Length).",
      };
    else if (!larger || size > larger.limit) {
      const limit = larger?.limit ?? BODY_LIMIT;
      const amount = limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MB` : `${limit / 1024} kB`;
      refusal = {
        status: 413,
        english: `The request is too large: the limit is ${amount}.`,
        hausa: `Abin da aka aika ya yi girma: iyaka ${amount} ne.`,
      };
    } else if (larger.roles !== "anyone") {
      let role: BodyRole | null = null;
      try {
        role = (await options.roleOf?.(req)) ?? null;
      } catch {
        role = null;
      }
      if (!role || !larger.roles.includes(role))
        refusal = {
          status: 403,
          english: "Sign in with an account that may send files here.",
          hausa: "Shiga da asusun da aka yarda ya aika fayiloli nan.",
        };
    }
    if (!refusal) return next();
    lingerOnStream(req);
    if (req.path.startsWith("/api/")) {
      res.status(refusal.status).json({ success: false, message: refusal.english });
    } else {
      res
        .status(refusal.status)
        .type("html")
        .send(
          `<!doctype html><meta charset="utf-8"><title>Kallo</title><p>${refusal.english}</p><p lang="ha">${refusal.hausa}</p>`,
        );
    }
  };
}

/**
 * One Origin check for every state-changing request, pages and resource
 * routes alike (uploads, watch progress, sign-out, language): a browser that
 * says the request comes from another site (Origin, or Sec-Fetch-Site:
 * cross-site) is answered 403 before any route runs. Scripts and apps send
 * neither and go on to their own checks. /api has its own rules (Bearer
 * callers may write from anywhere), and Paystack's webhook is server to server.
 *
 * Remix refuses any action whose Origin names another host than the one the
 * request arrived for (X-Forwarded-Host, else Host) by throwing, which would
 * be a 500: such a request is settled here first. An Origin equal to
 * PUBLIC_URL is our own site behind a proxy that did not pass the host on, so
 * Remix is told that host; a Bearer call to /api carries its own credential
 * and is not judged by its Origin; anything else is a 403 that says why, and
 * the first one a process sees is logged with the settings that explain it.
 */
export function sameOriginWrites(options: { publicUrl?: string }): express.RequestHandler {
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : null;
  let told = false;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const api = req.path.startsWith("/api/") || req.path === "/api";
    // Gateways' callbacks (Paystack's signed webhook, the SMS gateway's opt-outs with their key) come from servers.
    const serverToServer = req.path.startsWith("/payments/paystack/webhook") || req.path === "/sms/opt-out";
    const origin = req.headers.origin;
    const arrivedFor = forwardedHost(req) ?? req.headers.host;
    if (origin !== undefined && hostOfOrigin(origin) !== arrivedFor) {
      if (publicOrigin !== null && origin === publicOrigin)
        req.headers["x-forwarded-host"] = new URL(publicOrigin).host;
      else if ((api && req.headers.authorization) || serverToServer) delete req.headers.origin;
      else {
        if (!told) {
          told = true;
          console.log(
            `[origin] a write from ${JSON.stringify(origin.slice(0, 200))} reached this server for host ${JSON.stringify(arrivedFor ?? "")} and was refused (403). If that is this site's own address, set PUBLIC_URL to it, or make the proxy pass the Host header (or X-Forwarded-Host) on.`,
          );
        }
        return refuseForeignWrite(req, res, api);
      }
    }
    if (api || serverToServer) return next();
    const site = req.headers["sec-fetch-site"];
    const own = `${req.protocol}://${req.get("host")}`;
    const fromElsewhere =
      origin !== undefined ? origin !== own && origin !== publicOrigin : site === "cross-site" || site === "same-site";
    if (!fromElsewhere) return next();
    refuseForeignWrite(req, res, false);
  };
}

/** The host an Origin header names, as Remix reads it ("null" and nonsense name none). */
function hostOfOrigin(origin: string): string | null {
  if (origin === "null") return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function forwardedHost(req: express.Request): string | undefined {
  const header = req.headers["x-forwarded-host"];
  const first = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim();
  return first || undefined;
}

function refuseForeignWrite(req: express.Request, res: express.Response, api: boolean): void {
  // The (small) body is read and dropped, so the connection stays usable and the client hears the answer.
  req.resume();
  const english = "This change must be made from Kallo's own pages.";
  if (api) {
    res.status(403).json({ success: false, message: english });
    return;
  }
  res
    .status(403)
    .type("html")
    .send(
      `<!doctype html><meta charset="utf-8"><title>Kallo</title><p>${english}</p><p lang="ha">Dole a yi wannan canjin daga shafukan Kallo.</p>`,
    );
}

function nameTheWorker(_req: express.Request, res: express.Response, next: express.NextFunction): void {
  res.setHeader("Kallo-Worker", `${process.pid} ${runsBackgroundWork() ? "background" : "serving"}`);
  next();
}

/** Count every answer for /metrics: route pattern, method, status, time taken, and media bytes sent. */
function recordMetrics(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const started = process.hrtime.bigint();
  res.once("finish", () => {
    const route = routeLabel(req.path);
    httpRequests.inc({ route, method: req.method, status: String(res.statusCode) });
    httpDuration.observe({ route, method: req.method }, Number(process.hrtime.bigint() - started) / 1e9);
    const kind = mediaKind(req.path);
    const length = Number(res.getHeader("Content-Length"));
    if (kind && req.method === "GET" && Number.isFinite(length)) bytesStreamed.inc({ kind }, length);
  });
  next();
}

function secureCookies(value: number | string | readonly string[]): string[] {
  const cookies = Array.isArray(value) ? (value as string[]) : [String(value)];
  return cookies.map((cookie) => (/;\s*secure\s*(;|$)/i.test(cookie) ? cookie : `${cookie}; Secure`));
}

/** What the log says at start: where the site is, who counts as the client, when cookies are Secure; a warning for a public address on plain http. */
export function startupLines(options: Pick<ServeOptions, "port" | "host" | "trustProxy" | "publicUrl">): string[] {
  // Only addresses the server listens on: HOST alone when it is set, else this box's own and its LAN address.
  const everywhere = !options.host || options.host === "0.0.0.0" || options.host === "::";
  const lan = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && address.family === "IPv4" && !address.internal)?.address;
  const hostName = options.host?.includes(":") ? `[${options.host}]` : options.host;
  const where = everywhere
    ? `http://localhost:${options.port}${lan ? ` and http://${lan}:${options.port}` : ""}`
    : `http://${hostName}:${options.port} (HOST)`;
  const trust = options.trustProxy ?? false;
  const trusted =
    trust === false
      ? "the connection itself (TRUST_PROXY not set)"
      : `X-Forwarded-For/-Proto from ${typeof trust === "number" ? `the nearest ${trust} prox${trust === 1 ? "y" : "ies"}` : trust.join(", ")} (TRUST_PROXY)`;
  const lines = [
    `[serve] ${where}${options.publicUrl ? `; public address ${options.publicUrl}` : ""}`,
    `[serve] client address and https from ${trusted}; cookies are Secure ${options.publicUrl?.startsWith("https:") ? "always (PUBLIC_URL is https)" : "on https requests, plain on http (sign-in works on a LAN)"}`,
  ];
  if (!options.publicUrl) {
    lines.push(
      "[serve] PUBLIC_URL is not set: password-reset mails name their link's path only (a link is never built from a request's Host). Set PUBLIC_URL to the site's address.",
    );
  }
  if (options.publicUrl?.startsWith("http:")) {
    const host = new URL(options.publicUrl).hostname;
    const local =
      host === "localhost" ||
      host.endsWith(".local") ||
      host.endsWith(".lan") ||
      /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host);
    if (!local)
      lines.push(
        `[serve] warning: PUBLIC_URL ${options.publicUrl} is a public address on plain http: passwords and sessions cross the network unencrypted. Put TLS in front (README: "TLS in front with Caddy") and set PUBLIC_URL to https.`,
      );
  }
  return lines;
}

/** The server's settings as the environment gives them (`npm start` and this script alike). */
export function serveOptionsFrom(env: Env, buildPath: string): ServeOptions {
  return {
    buildPath,
    port: env.port,
    host: env.host,
    trustProxy: env.trustProxy,
    publicUrl: env.publicUrl,
    idleSeconds: env.uploadIdleSeconds,
    stopGraceMs: env.shutdownGraceSeconds * 1000,
    workerHeader: env.workerHeader,
    requestLog: env.logLevel === "info" || env.logLevel === "debug",
    storageDir: env.storageDir,
  };
}

/**
 * public/ (the service worker, the manifest, icons), for an hour. Only paths
 * under a name public/ holds reach the static server: any other request (every
 * page) would cost it a file-system look-up that fails, with an error object
 * made for it, before the page is rendered.
 */
function publicFiles(folder: string, serveStatic: typeof express.static): express.RequestHandler {
  const names = new Set(fs.existsSync(folder) ? fs.readdirSync(folder) : []);
  const files = serveStatic(folder, { maxAge: "1h" });
  return (req, res, next) => {
    const first = req.path.split("/", 2)[1] ?? "";
    if (names.has(decodeSegment(first))) files(req, res, next);
    else next();
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Stop cleanly on SIGTERM/SIGINT and exit 0; a second signal exits at once.
 * Returns the same stop for another reason (a worker told by its primary),
 * which never counts as a second signal. `quiet`: the primary speaks for it.
 */
export function stopOnSignals(running: RunningKallo, options: { quiet?: boolean } = {}): (reason: string) => void {
  let stoppingSince = 0;
  const log = (line: string) => options.quiet || console.log(line);
  const begin = (reason: string) => {
    if (stoppingSince) return;
    stoppingSince = Date.now();
    log(`[serve] ${reason}: stopping (new connections refused, requests under way may finish)`);
    void running.stop().then(() => {
      log(`[serve] stopped in ${Date.now() - stoppingSince} ms`);
      process.exit(0);
    });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince) {
      console.log(`[serve] ${signal} again: exiting now`);
      process.exit(1);
    }
    begin(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return begin;
}

/**
 * Serve in this process (WORKERS=1), or as the primary of WORKERS workers
 * (scripts/workers.ts) that each run this script; stop cleanly on
 * SIGTERM/SIGINT, then run `afterStop`.
 */
export async function runServer(
  options: ServeOptions,
  settings: { workers: number; databasePath: string; storageDir: string; afterStop?: () => Promise<void> },
): Promise<void> {
  // `build` is a link a new `npm run build` moves (scripts/build.ts): this server, and every worker it starts or
  // replaces, runs the build the link named now.
  options = { ...options, buildPath: fs.realpathSync(options.buildPath) };
  // Which build this is (its migrations and version), for this process and every worker.
  process.env[BUILD_DIR_ENV] ??= path.dirname(options.buildPath);
  if (settings.workers <= 1) {
    const running = await serve(options);
    // Who runs here, for `npm run upgrade` (one process moves to a new build only by a restart).
    const runFile = runFilePath(settings.storageDir);
    const buildDir = path.dirname(options.buildPath);
    try {
      fs.mkdirSync(settings.storageDir, { recursive: true });
      fs.writeFileSync(
        runFile,
        JSON.stringify({ pid: process.pid, workers: 1, build: buildDir, version: readBuildInfo(buildDir).version }),
      );
    } catch (error) {
      console.error(`[serve] could not write ${runFile}: ${(error as Error).message}`);
    }
    stopOnSignals({
      server: running.server,
      stop: async () => {
        fs.rmSync(runFile, { force: true });
        await running.stop();
        await settings.afterStop?.();
      },
    });
    return;
  }
  await runPrimary({
    workers: settings.workers,
    port: options.port,
    host: options.host,
    exec: fileURLToPath(import.meta.url),
    args: [options.buildPath],
    buildDir: path.dirname(options.buildPath),
    databasePath: settings.databasePath,
    runFile: runFilePath(settings.storageDir),
    stopGraceMs: options.stopGraceMs ?? 10_000,
    startupLines: startupLines(options),
    afterStop: settings.afterStop,
  });
}

/**
 * The browser files of the other kept builds (`.builds/<time>/public`): their names carry a hash of their
 * content, so a file is the same whichever build holds it. The list of builds is read again when it is older
 * than a few seconds (a new build may appear while this worker runs).
 */
export function assetsOfOtherBuilds(
  ownAssets: string,
  serveStatic: typeof express.static,
  fileOptions: Parameters<typeof express.static>[1],
): express.RequestHandler {
  const own = path.resolve(ownAssets);
  const root = path.dirname(path.dirname(own));
  let handlers: express.RequestHandler[] = [];
  let readAt = 0;
  const refresh = () => {
    if (Date.now() - readAt < 5_000) return;
    readAt = Date.now();
    try {
      handlers = fs
        .readdirSync(root)
        .map((name) => path.join(root, name, path.basename(own)))
        .filter((folder) => folder !== own && fs.existsSync(folder))
        .map((folder) => serveStatic(folder, { ...fileOptions, fallthrough: true }));
    } catch {
      handlers = [];
    }
  };
  return (req, res, next) => {
    if (path.basename(root) !== ".builds" || (req.method !== "GET" && req.method !== "HEAD")) return next();
    refresh();
    const tryFrom = (index: number): void => {
      if (index >= handlers.length) return next();
      handlers[index](req, res, () => tryFrom(index + 1));
    };
    tryFrom(0);
  };
}

/**
 * A worker never runs code newer than the database's schema: when its build carries migrations the
 * database has not taken (a reload to a build not yet migrated), it says so and ends with SCHEMA_BEHIND_EXIT.
 */
function refuseSchemaBehind(buildPath: string, env: Env): void {
  const migrations = path.join(path.dirname(buildPath), "drizzle");
  if (!fs.existsSync(migrations)) return;
  const sqlite = new Database(env.databasePath, { readonly: true, fileMustExist: true });
  try {
    const { pending } = schemaState(sqlite, migrations);
    if (pending.length === 0) return;
    console.error(
      `[serve] this build (${path.dirname(buildPath)}) needs migrations the database has not taken (${pending.map((migration) => migration.tag).join(", ")}); it does not serve. npm run upgrade migrates first.`,
    );
  } finally {
    sqlite.close();
  }
  process.exit(SCHEMA_BEHIND_EXIT);
}

/** A worker: the whole server on the shared port; it stops when the primary says so, or on a signal of its own. */
async function runWorker(buildPath: string, env: Env): Promise<void> {
  refuseSchemaBehind(buildPath, env);
  // Heard before the server is up, so a stop that comes during the start is not lost.
  let stopRequested = false;
  let beginStop: ((reason: string) => void) | null = null;
  onWorkerNote(STOP_NOTE, () => {
    stopRequested = true;
    beginStop?.("asked by the primary");
  });
  const running = await serve({ ...serveOptionsFrom(env, buildPath), announce: false, fromPrimary: true });
  beginStop = stopOnSignals(running, { quiet: true });
  if (stopRequested) beginStop("asked by the primary");
}

/** Run as a script (`node build/server/serve.js`, reached through the `build` link: Node names a module by its real path). */
function runAsScript(): boolean {
  try {
    return import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1] ?? "")).href;
  } catch {
    return false;
  }
}

if (runAsScript()) {
  process.env.NODE_ENV ??= "production";
  const { getEnv } = await import("../app/utils/env.server");
  const env = getEnv();
  if (cluster.isWorker) await runWorker(process.argv[2] ?? "build/index.js", env);
  else
    await runServer(serveOptionsFrom(env, "build/index.js"), {
      workers: env.workers,
      databasePath: env.databasePath,
      storageDir: env.storageDir,
    });
}

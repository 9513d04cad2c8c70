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
 * - A clean stop: SIGTERM/SIGINT stop accepting connections, let requests
 *   under way finish for a few seconds, then close the rest.
 *
 * `npm start` runs it in-process after the migrations; `node --import tsx
 * scripts/serve.ts` serves an existing database (the benchmarks do).
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";

export type ServeOptions = {
  buildPath: string;
  port: number;
  host?: string;
  /** Seconds a connection may move no bytes before it is closed. */
  idleSeconds: number;
  /** How long a stop waits for requests under way. */
  stopGraceMs?: number;
};

export type RunningKallo = { server: http.Server; stop: () => Promise<void> };

export async function serve(options: ServeOptions): Promise<RunningKallo> {
  const build = (await import(pathToFileURL(path.resolve(options.buildPath)).href)) as ServerBuild;
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));
  app.use(morgan("tiny"));
  app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

  const server = http.createServer(app);
  server.requestTimeout = 0;
  server.timeout = options.idleSeconds * 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    const ready = () => {
      server.off("error", reject);
      resolve();
    };
    if (options.host) server.listen(options.port, options.host, ready);
    else server.listen(options.port, ready);
  });
  const lan = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && address.family === "IPv4" && !address.internal)?.address;
  console.log(`[serve] http://localhost:${options.port}${lan ? ` (http://${lan}:${options.port})` : ""}`);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), options.stopGraceMs ?? 5000).unref();
    });
    return stopping;
  };
  return { server, stop };
}

/** Stop cleanly on SIGTERM/SIGINT, then leave. */
export function stopOnSignals(running: RunningKallo): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void running.stop().then(() => process.exit(0));
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.env.NODE_ENV ??= "production";
  const { getEnv } = await import("../app/utils/env.server");
  const env = getEnv();
  stopOnSignals(await serve({ buildPath: "build/index.js", port: env.port, host: env.host, idleSeconds: env.uploadIdleSeconds }));
}

/**
 * The floor of `bench:catalogue`: the built app's own pages — the same route
 * modules, entry.server and components — rendered by Remix from loader data
 * held in memory, behind a bare node:http server (no Express, compression,
 * static files or request log). The first request for a URL runs the real
 * loaders once; every later request for it gets their answers from memory.
 * What a request costs here is Remix rendering the document, React and the
 * translations: the least the page can cost as it is rendered today.
 *
 * Started by bench/catalogue.ts (PORT, STORAGE_DIR and SESSION_SECRET as for
 * the real server, whose database it reads for those first answers). WORKERS
 * as for the real server (default: one per core): with more than one, Node's
 * cluster forks that many processes of this script on the same port, so the
 * floor of a run with several workers is measured with as many.
 */
import cluster from "node:cluster";
import http from "node:http";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler, installGlobals, type ServerBuild } from "@remix-run/node";

type Loader = NonNullable<ServerBuild["routes"][string]["module"]["loader"]>;

const WORKERS = Number(process.env.WORKERS ?? availableParallelism());
if (cluster.isPrimary && WORKERS > 1) {
  for (let i = 0; i < WORKERS; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    cluster.on("exit", () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  });
} else {
  await serveFromMemory();
}

async function serveFromMemory(): Promise<void> {
  const build = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  const answers = new Map<string, unknown>();
  /** The route's loader, answering each URL from memory after its first call. */
  function fromMemory(routeId: string, loader: Loader): Loader {
    return async (args) => {
      const key = `${routeId} ${args.request.url}`;
      if (!answers.has(key)) answers.set(key, await loader(args));
      return answers.get(key) as Awaited<ReturnType<Loader>>;
    };
  }

  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const loader = route.module.loader;
    routes[id] = loader ? { ...route, module: { ...route.module, loader: fromMemory(id, loader) } } : route;
  }
  const handle = createRequestHandler({ ...build, routes }, "production");

  const port = Number(process.env.PORT ?? 3000);
  const server = http.createServer(async (req, res) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(name, value);
        else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      }
      const response = await handle(new Request(`http://127.0.0.1:${port}${req.url}`, { headers }));
      res.statusCode = response.status;
      for (const [name, value] of response.headers) res.appendHeader(name, value);
      if (response.body) {
        const reader = response.body.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read()) res.write(part.value);
      }
      res.end();
    } catch (error) {
      console.error(error);
      res.statusCode = 500;
      res.end();
    }
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, "127.0.0.1");
  process.on("SIGTERM", () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

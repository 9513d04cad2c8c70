/**
 * The part of `npm run build` that compiles the server itself: scripts/start.ts
 * (`npm start`), scripts/serve.ts (the server, and each cluster worker) and the
 * operator's commands, with our code they import, bundled to plain JavaScript
 * in build/server/. Node
 * then runs them without a TypeScript loader: tsx's loader thread and its
 * esbuild process cost every server process about 35 MiB and 14 MiB more
 * (docs/decisions/036-server-memory.md).
 *
 * Packages stay imports (resolved from node_modules at run time, as before),
 * and the Remix build (build/index.js) is loaded by its path, as before. The
 * two entry points share their common code in chunks; scripts/serve.ts stays
 * its own file, which the cluster's workers run.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, stop } from "esbuild";

export const SERVER_OUT_DIR = "build/server";

/** Scripts an operator runs against a live install, compiled beside the server as build/server/<name>.js. */
export const OPERATOR_COMMANDS = ["backup", "restore", "seed-demo", "prices-convert", "media-move", "media-cors"];

export async function buildServer(outdir = SERVER_OUT_DIR): Promise<string[]> {
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: {
      start: "scripts/start.ts",
      serve: "scripts/serve.ts",
      // The operator's commands, run the same way where no TypeScript loader is installed (the container's
      // `kallo <command>`): backup, restore, the demo content, prices and media in a bucket.
      ...Object.fromEntries(OPERATOR_COMMANDS.map((name) => [name, `scripts/${name}.ts`])),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    chunkNames: "chunks/[name]-[hash]",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
  });
  // esbuild's service is stopped before this process ends: left running, it can see its parent go mid-reply and
  // print "fatal error: all goroutines are asleep - deadlock!" into a build that succeeded (esbuild issue 2485).
  await stop();
  return Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js"));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = Date.now();
  const files = await buildServer();
  const bytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  console.log(
    `[build-server] ${files.length} files in ${path.normalize(SERVER_OUT_DIR)}: ${(bytes / 1024).toFixed(0)} kB (${Date.now() - started} ms)`,
  );
}

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every import in app/ points down the layers (docs/architecture.md):
 *
 *   routes, api            request handlers
 *   routes-support         glue the handlers share (form answers, account actions)
 *   jobs, demo             background work and the demo content, over the services
 *   auth                   who is calling (sessions, tokens, guards)
 *   services               the rules, one owner each
 *   db, media, i18n        storage, files and tools, translations
 *   utils                  small helpers with no knowledge of the rest
 *
 * Components (UI) may take types from services and helpers from utils/i18n.
 * Type-only imports count too: a type is part of the layer that owns it.
 */
const APP = path.resolve(__dirname, "../../app");

const RANK: Record<string, number> = {
  routes: 6,
  api: 6,
  root: 6,
  "routes-support": 5,
  jobs: 4,
  demo: 4,
  auth: 3,
  components: 3,
  services: 2,
  db: 1,
  media: 1,
  i18n: 1,
  utils: 0,
};

function layerOf(file: string): string {
  const relative = path.relative(APP, file).split(path.sep);
  return relative.length === 1 ? "root" : relative[0];
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)[^"';]*?from\s+"([^"]+)"/g)) found.push(match[1]);
  for (const match of text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) found.push(match[1]);
  return found.flatMap((specifier) => {
    if (specifier.startsWith("~/")) return [path.join(APP, specifier.slice(2))];
    if (specifier.startsWith(".")) return [path.resolve(path.dirname(file), specifier)];
    return [];
  });
}

describe("layers", () => {
  const files = sourceFiles(APP);

  it("every import in app/ points to the same layer or one below it", () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (to === from || !(from in RANK) || !(to in RANK)) continue;
        if (RANK[to] > RANK[from]) upward.push(`${path.relative(APP, file)} → ${path.relative(APP, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("knows every folder of app/ (a new folder gets a place in the layers)", () => {
    const folders = fs
      .readdirSync(APP, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in RANK))).toEqual([]);
  });

  it("has no import circle between modules", () => {
    const resolve = (target: string) =>
      [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")].find(
        (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
      );
    const graph = new Map(
      files.map((file) => [file, importsOf(file).flatMap((target) => resolve(target) ?? [])] as const),
    );
    const state = new Map<string, "open" | "done">();
    const circles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(APP, f)).join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});

import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { catalogueFile, catalogueHashes, resources } from "~/i18n/catalogues.server";
import { isNamespace, LANGUAGES, namespaceOfKey, NAMESPACES, type Namespace } from "~/i18n/config";
import { pageNamespaces, translationUrl } from "~/i18n/page-translations";
import { getPageTranslator, serverTranslationSource } from "~/i18n/translate.server";

const APP = path.resolve(__dirname, "../../app");
const ROUTES = path.join(APP, "routes");

function resolveImport(specifier: string, from: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(APP, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Modules a file imports for their values (type-only imports never reach the browser). */
function valueImports(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)(?!\s+type\b)[^"';]*?from\s+"([^"]+)"/g))
    found.push(match[1]);
  for (const match of text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) found.push(match[1]);
  return found.flatMap((specifier) => resolveImport(specifier, file) ?? []);
}

/** Namespaces a file translates with: `useTranslation("ns")` (none: common) and "ns:key" strings. */
function namespacesUsedIn(file: string): Set<Namespace> {
  const text = fs.readFileSync(file, "utf8");
  const used = new Set<Namespace>();
  for (const match of text.matchAll(/useTranslation\(\s*(?:"(\w+)")?\s*\)/g)) {
    const namespace = match[1] ?? "common";
    if (!isNamespace(namespace)) throw new Error(`${file} uses an unknown namespace "${namespace}"`);
    used.add(namespace);
  }
  for (const match of text.matchAll(new RegExp(`["'\`](${NAMESPACES.join("|")}):[A-Za-z]`, "g"))) {
    used.add(match[1] as Namespace);
  }
  return used;
}

/**
 * What a route's page can show: the route file itself (its loader and action
 * answer with keys too) and every module its browser code imports, except
 * server-only modules (what services return is covered by the page tests
 * against the build, tests/api/page-translations.test.ts).
 */
function namespacesOfPage(routeFile: string): Map<Namespace, string[]> {
  const used = new Map<Namespace, string[]>();
  const seen = new Set<string>();
  const queue = [routeFile];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file) || file.includes(`${path.sep}locales${path.sep}`)) continue;
    seen.add(file);
    for (const namespace of namespacesUsedIn(file)) used.set(namespace, [...(used.get(namespace) ?? []), file]);
    for (const imported of valueImports(file)) if (!/\.server\.tsx?$/.test(imported)) queue.push(imported);
  }
  return used;
}

function declaredIn(file: string): Namespace[] {
  const text = fs.readFileSync(file, "utf8");
  const match = /export const handle(?::[^=]+)?=\s*\{\s*i18n:\s*\[([^\]]*)\]/.exec(text);
  if (!match) return [];
  return [...match[1].matchAll(/"(\w+)"/g)].map(([, namespace]) => {
    if (!isNamespace(namespace)) throw new Error(`${file} declares an unknown namespace "${namespace}"`);
    return namespace;
  });
}

/** A flat route's parents (`admin.userlist` sits in `admin`; `reset_.$token` opts out of `reset`). */
function parentRoutes(name: string, names: Set<string>): string[] {
  const segments = name.split(".");
  const parents: string[] = [];
  for (let length = segments.length - 1; length > 0; length--) {
    const prefix = segments.slice(0, length).join(".");
    if (names.has(prefix)) parents.push(prefix);
  }
  return parents;
}

describe("each route lists the translations its page uses", () => {
  const files = fs.readdirSync(ROUTES).filter((file) => /\.tsx?$/.test(file));
  const names = new Set(files.map((file) => file.replace(/\.tsx?$/, "")));
  const fileOf = (name: string) => files.find((file) => file.replace(/\.tsx?$/, "") === name)!;
  const root = declaredIn(path.join(APP, "root.tsx"));

  it("the root lists what the frame uses (top bar, footer, toasts, error pages)", () => {
    expect(root).toEqual(["common"]);
    const frame = namespacesOfPage(path.join(APP, "root.tsx"));
    expect([...frame.keys()]).toEqual(["common"]);
  });

  it("every page's own code and components use only namespaces its route (or a parent) lists", () => {
    const missing: string[] = [];
    let pages = 0;
    for (const file of files) {
      const full = path.join(ROUTES, file);
      if (!/export default function/.test(fs.readFileSync(full, "utf8"))) continue;
      pages++;
      const name = file.replace(/\.tsx?$/, "");
      const declared = new Set([
        ...root,
        ...declaredIn(full),
        ...parentRoutes(name, names).flatMap((parent) => declaredIn(path.join(ROUTES, fileOf(parent)))),
      ]);
      for (const [namespace, where] of namespacesOfPage(full)) {
        if (!declared.has(namespace)) {
          missing.push(`${file} needs "${namespace}" (${where.map((used) => path.relative(APP, used)).join(", ")})`);
        }
      }
    }
    expect(pages).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it("reads nesting the way Remix does", () => {
    const all = new Set(["admin", "admin.userpayment", "reset", "provider"]);
    expect(parentRoutes("admin.userlist", all)).toEqual(["admin"]);
    expect(parentRoutes("admin.userpayment_.export", all)).toEqual(["admin"]);
    expect(parentRoutes("reset_.$token", all)).toEqual([]);
  });
});

describe("a page's namespaces", () => {
  it("are common, those of its matched routes and those of the toasts it shows, in one order", () => {
    const routes = (...handles: unknown[]) => handles.map((handle) => ({ handle, data: {} }));
    expect(pageNamespaces(routes({ i18n: ["common"] }, { i18n: ["plans", "pages"] }))).toEqual([
      "common",
      "pages",
      "plans",
    ]);
    expect(pageNamespaces(routes(undefined, { i18n: ["auth"] }), ["watch:dataSaver.turnedOn", "toast.close"])).toEqual([
      "common",
      "auth",
      "watch",
    ]);
    expect(pageNamespaces(routes(null, { other: true }, { i18n: "pages" }))).toEqual(["common"]);
  });

  it("leave out a namespace a route needs only with some data when its data does not have it", () => {
    const handle = { i18n: ["watch", "series"], i18nOnlyWhen: { series: (data: unknown) => data === "episode" } };
    expect(pageNamespaces([{ handle, data: "film" }])).toEqual(["common", "watch"]);
    expect(pageNamespaces([{ handle, data: "episode" }])).toEqual(["common", "watch", "series"]);
  });

  it("take a key's namespace from its prefix, else common", () => {
    expect(namespaceOfKey("billing:redeem.done")).toBe("billing");
    expect(namespaceOfKey("nav.login")).toBe("common");
    expect(namespaceOfKey("unknown:thing")).toBe("common");
  });
});

describe("the server's page translations", () => {
  afterEach(() => vi.restoreAllMocks());

  it("hold one language and only the page's namespaces, made once per set", () => {
    const translator = getPageTranslator("ha", ["common", "pages"]);
    expect(getPageTranslator("ha", ["common", "pages"])).toBe(translator);
    expect(translator.language).toBe("ha");
    expect(translator.t("nav.login")).toBe("Shiga");
    expect(translator.t("pages:home.watchNow")).toBe(resources.ha.pages.home.watchNow);
    expect(translator.hasNamespace("pages")).toBe(true);
    expect(translator.hasNamespace("auth")).toBe(false);
    // No English to fall back on: a page shows only its language.
    expect(translator.t("auth:login.title")).toBe("login.title");
  });

  it("show a key they lack as the key, and say so in the log", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const translator = getPageTranslator("en", ["common"]);
    expect(translator.t("auth:login.title")).toBe("login.title");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"auth:login.title"'));
  });

  it("preload the same files the browser will ask for", () => {
    const source = serverTranslationSource("ha");
    expect(source.fallbackLanguage).toBe("ha");
    expect(source.preloads("ha", ["common", "plans"])).toEqual([
      { language: "ha", namespace: "common", href: translationUrl("ha", "common", catalogueFile("ha", "common").hash) },
      { language: "ha", namespace: "plans", href: translationUrl("ha", "plans", catalogueFile("ha", "plans").hash) },
    ]);
  });
});

describe("the translation files", () => {
  it("are one namespace of one language as JSON, named by a hash of their content", () => {
    for (const language of LANGUAGES) {
      const hashes = catalogueHashes(language);
      expect(Object.keys(hashes)).toEqual([...NAMESPACES]);
      for (const namespace of NAMESPACES) {
        const file = catalogueFile(language, namespace);
        expect(JSON.parse(file.json)).toEqual(resources[language][namespace]);
        expect(file.hash).toMatch(/^[0-9a-f]{10}$/);
        expect(hashes[namespace]).toBe(file.hash);
      }
    }
    // Different content, different name: no two files share a hash.
    const all = LANGUAGES.flatMap((language) => NAMESPACES.map((namespace) => catalogueFile(language, namespace).hash));
    expect(new Set(all).size).toBe(all.length);
    expect(translationUrl("en", "pages", "abc123")).toBe("/locales/en/pages.abc123.json");
  });
});

export const LANGUAGES = ["en", "ha"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", ha: "Hausa" };

/**
 * Each area of the app has its own namespace: one catalogue file per language
 * (`locales/<language>/<namespace>.ts`). The server holds them all
 * (`catalogues.server.ts`); a browser gets only its reader's language, and of
 * that only the namespaces the page in front of it uses (decision 031).
 */
export const NAMESPACES = [
  "common",
  "pages",
  "info",
  "plans",
  "auth",
  "studio",
  "watch",
  "admin",
  "billing",
  "browse",
  "downloads",
  "subtitles",
  "series",
  "dashboards",
  "profiles",
] as const;
export type Namespace = (typeof NAMESPACES)[number];
export const DEFAULT_NAMESPACE: Namespace = "common";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

export function isNamespace(value: unknown): value is Namespace {
  return typeof value === "string" && (NAMESPACES as readonly string[]).includes(value);
}

/**
 * Where a key is looked up: its `namespace:` prefix and the rest, else
 * `namespace` (the page's) and the whole key. A prefix that is no namespace
 * stays part of the key.
 */
export function splitKey(key: string, namespace: Namespace = DEFAULT_NAMESPACE): { namespace: Namespace; key: string } {
  const colon = key.indexOf(":");
  const prefix = key.slice(0, colon);
  return colon > 0 && isNamespace(prefix) ? { namespace: prefix, key: key.slice(colon + 1) } : { namespace, key };
}

/** The namespace a key is looked up in: its `namespace:` prefix, else the default one. */
export function namespaceOfKey(key: string): Namespace {
  return splitKey(key).namespace;
}

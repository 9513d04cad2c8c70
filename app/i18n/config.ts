import i18next, { type i18n as I18n, type Resource } from "i18next";

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
] as const;
export type Namespace = (typeof NAMESPACES)[number];
export const DEFAULT_NAMESPACE: Namespace = "common";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

export function isNamespace(value: unknown): value is Namespace {
  return typeof value === "string" && (NAMESPACES as readonly string[]).includes(value);
}

/** The namespace a key is looked up in: its `namespace:` prefix, else the default one. */
export function namespaceOfKey(key: string): Namespace {
  const prefix = key.split(":", 2);
  return prefix.length === 2 && isNamespace(prefix[0]) ? prefix[0] : DEFAULT_NAMESPACE;
}

/**
 * A ready i18next instance over the given catalogues (synchronous: they are in
 * memory). The server's own instance holds both languages and falls back to
 * English; a page's holds one language (the Hausa catalogues are typed against
 * the English ones, so no key is missing) and says so when a key is not there.
 */
export function createI18n(
  language: Language,
  resources: Resource,
  options: { fallbackToEnglish?: boolean; onMissingKey?: (namespace: string, key: string) => void } = {},
): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: options.fallbackToEnglish ? DEFAULT_LANGUAGE : false,
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(resources[language] ?? {}),
    defaultNS: DEFAULT_NAMESPACE,
    resources,
    partialBundledLanguages: true,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
    ...(options.onMissingKey
      ? {
          saveMissing: true,
          missingKeyHandler: (_languages: readonly string[], namespace: string, key: string) =>
            options.onMissingKey!(namespace, key),
        }
      : {}),
  });
  return instance;
}

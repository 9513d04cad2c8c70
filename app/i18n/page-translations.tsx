import { createContext, useContext } from "react";
import { DEFAULT_NAMESPACE, NAMESPACES, namespaceOfKey, type Language, type Namespace } from "./config";
import type { Translator } from "./translator";

/**
 * Which translations a page carries (decision 031). Every route module names
 * the namespaces its page and components use:
 *
 *   export const handle: TranslationHandle = { i18n: ["pages", "plans"] };
 *
 * A page's namespaces are those of its matched routes, plus the namespace of
 * any flashed toast it shows, plus `common`. The server renders the page with
 * exactly those (so a namespace a route forgets shows as raw keys in every
 * test, not only after hydration), the HTML preloads them as JSON files named
 * by hash, and the browser hydrates with the same files. A client navigation to
 * a page that needs more waits (React keeps the old page on screen) until they
 * arrive.
 */
export type TranslationHandle = {
  i18n?: readonly Namespace[];
  /**
   * Namespaces of `i18n` a page needs only with some data: each is carried
   * only when its test holds for the route's loader data (the watch page's
   * `series` only for an episode). The server and the browser decide alike.
   */
  i18nOnlyWhen?: Partial<Record<Namespace, (data: unknown) => boolean>>;
};

/** A matched route as the root layout sees it: its handle and its loader data. */
export type RouteOnScreen = { handle?: unknown; data?: unknown };

/** Namespace → content hash, for one language: where its files are. */
export type TranslationHashes = Partial<Record<Namespace, string>>;

export function translationUrl(language: Language, namespace: Namespace, hash: string): string {
  return `/locales/${language}/${namespace}.${hash}.json`;
}

/** The namespaces a page needs, in a stable order. */
export function pageNamespaces(routes: ReadonlyArray<RouteOnScreen>, keys: ReadonlyArray<string> = []): Namespace[] {
  const wanted = new Set<Namespace>([DEFAULT_NAMESPACE]);
  for (const route of routes) {
    const handle = route.handle as TranslationHandle | null | undefined;
    const declared = handle?.i18n;
    if (!Array.isArray(declared)) continue;
    for (const namespace of declared as readonly Namespace[]) {
      const onlyWhen = handle?.i18nOnlyWhen?.[namespace];
      if (!onlyWhen || onlyWhen(route.data)) wanted.add(namespace);
    }
  }
  for (const key of keys) wanted.add(namespaceOfKey(key));
  return NAMESPACES.filter((namespace) => wanted.has(namespace));
}

/**
 * Where the page's translator comes from: on the server, translators over the
 * catalogues in memory; in the browser, one translator per language filled
 * with the files the pages fetched.
 */
export type TranslationSource = {
  /** The language when the root loader gave none (its error page). */
  fallbackLanguage: Language;
  /** A translator holding these namespaces of this language. In the browser it suspends while missing ones load. */
  translatorFor(language: Language, namespaces: readonly Namespace[], hashes?: TranslationHashes): Translator;
  /**
   * The files the document preloads. The server names the page's; the browser
   * keeps the ones the server named (later pages fetch theirs without a tag).
   */
  preloads(language: Language, namespaces: readonly Namespace[]): TranslationFile[];
};

export type TranslationFile = { language: Language; namespace: Namespace; href: string };

export const TranslationSourceContext = createContext<TranslationSource | null>(null);

/**
 * The page's translator and the translation files to preload, for the root
 * layout. `routes` are the matched routes (handle and data), `keys` the message keys
 * the root shows itself (toasts).
 */
export function usePageTranslations(options: {
  language: Language | undefined;
  routes: ReadonlyArray<RouteOnScreen>;
  keys: ReadonlyArray<string>;
  hashes: TranslationHashes | undefined;
}): { translator: Translator; language: Language; preloads: TranslationFile[] } {
  const source = useContext(TranslationSourceContext);
  if (!source) throw new Error("usePageTranslations needs a TranslationSourceContext (entry.server / entry.client)");
  const language = options.language ?? source.fallbackLanguage;
  const namespaces = pageNamespaces(options.routes, options.keys);
  const translator = source.translatorFor(language, namespaces, options.hashes);
  return { translator, language, preloads: source.preloads(language, namespaces) };
}

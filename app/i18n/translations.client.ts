import { DEFAULT_LANGUAGE, isLanguage, isNamespace, type Language, type Namespace } from "./config";
import { translationUrl, type TranslationFile, type TranslationSource } from "./page-translations";
import { createTranslator, type Catalogue, type Translator } from "./translator";

/**
 * The browser's side of decision 031: one translator per language,
 * filled with the namespace files the pages fetch. The first page's files are
 * named by the `<link rel="preload" data-translation>` tags the server
 * rendered (the browser has been fetching them since it read the HTML), and
 * `ready` settles when they are in; later pages' files come from the hashes
 * the root loader sends. A render that needs a file not yet here suspends: in
 * a navigation React keeps the old page on screen until it arrives.
 */
export function createBrowserTranslations(document: Document): TranslationSource & { ready: Promise<void> } {
  const translators = new Map<Language, Translator>();
  const urls = new Map<string, string>();
  const loads = new Map<string, Promise<void>>();
  const waits = new Map<string, Promise<unknown>>();

  function translator(language: Language): Translator {
    let found = translators.get(language);
    if (!found) {
      found = createTranslator(
        language,
        {},
        {
          onMissingKey: (namespace, key) => console.warn(`[i18n] no ${language} text for "${namespace}:${key}"`),
        },
      );
      translators.set(language, found);
    }
    return found;
  }

  function load(language: Language, namespace: Namespace): Promise<void> {
    const href = urls.get(`${language}:${namespace}`);
    if (!href) return Promise.reject(new Error(`no translation file known for ${language}:${namespace}`));
    let loading = loads.get(href);
    if (!loading) {
      // Same mode and credentials as the preload tag, so the browser reuses what it preloaded.
      loading = fetch(href, { credentials: "same-origin" })
        .then((response) => {
          if (!response.ok) throw new Error(`${href} answered ${response.status}`);
          return response.json() as Promise<Catalogue>;
        })
        .then((catalogue) => translator(language).addNamespace(namespace, catalogue));
      loads.set(href, loading);
    }
    return loading;
  }

  const preloaded: TranslationFile[] = [
    ...document.querySelectorAll<HTMLLinkElement>("link[data-translation]"),
  ].flatMap((link) => {
    const [language, namespace] = (link.dataset.translation ?? "").split(":");
    const href = link.getAttribute("href");
    if (!isLanguage(language) || !isNamespace(namespace) || !href) return [];
    urls.set(`${language}:${namespace}`, href);
    return [{ language, namespace, href }];
  });

  const htmlLanguage = document.documentElement.lang;
  return {
    fallbackLanguage: isLanguage(htmlLanguage) ? htmlLanguage : DEFAULT_LANGUAGE,
    ready: Promise.all(preloaded.map(({ language, namespace }) => load(language, namespace))).then(() => undefined),
    translatorFor(language, namespaces, hashes) {
      for (const [namespace, hash] of Object.entries(hashes ?? {})) {
        if (isNamespace(namespace) && hash)
          urls.set(`${language}:${namespace}`, translationUrl(language, namespace, hash));
      }
      const held = translator(language);
      const missing = namespaces.filter((namespace) => !held.hasNamespace(namespace));
      if (missing.length === 0) return held;
      const id = `${language}:${missing.join(",")}`;
      let wait = waits.get(id);
      if (!wait) {
        wait = Promise.all(missing.map((namespace) => load(language, namespace))).catch((error: unknown) => {
          // The texts cannot be fetched (offline, or a new version of the site): let the server render the page.
          console.warn("Translations could not be loaded; reloading the page", error);
          window.location.reload();
          return new Promise<never>(() => {});
        });
        waits.set(id, wait);
      }
      throw wait;
    },
    // The head keeps the tags the server rendered: hydration matches, and no navigation adds a preload.
    preloads: () => preloaded,
  };
}

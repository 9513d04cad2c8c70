import { catalogueFile, resources } from "./catalogues.server";
import { DEFAULT_LANGUAGE, DEFAULT_NAMESPACE, type Language, type Namespace } from "./config";
import { getLanguage } from "./language.server";
import { translationUrl, type TranslationSource } from "./page-translations";
import { createTranslator, type TFunction, type TranslateOptions, type Translator } from "./translator";

const translators = new Map<Language, Translator>();

/**
 * The server's own translator for one language (meta, messages in responses,
 * mail): every namespace, falling back to English. Made once and shared by
 * every request in that language, like its translate functions.
 */
export function getServerTranslator(language: Language): Translator {
  let translator = translators.get(language);
  if (!translator) {
    translator = createTranslator(language, resources[language], {
      fallback: { language: DEFAULT_LANGUAGE, catalogues: resources[DEFAULT_LANGUAGE] },
    });
    translators.set(language, translator);
  }
  return translator;
}

/** A translate function for server code (meta, messages in responses, mail). */
export function getFixedT(language: Language, namespace: Namespace = DEFAULT_NAMESPACE): TFunction {
  return getServerTranslator(language).fixedT(namespace);
}

export async function getRequestT(request: Request, namespace: Namespace = DEFAULT_NAMESPACE) {
  const language = await getLanguage(request);
  return { t: getFixedT(language, namespace), language };
}

const english = getFixedT("en", "common");

/** The English text of an i18n key ("auth:errors.blocked"): old clients and tus clients show messages verbatim. */
export function englishText(key: string, options?: TranslateOptions): string {
  return english(key, options ?? {});
}

/** Few pages and languages make few distinct sets; the bound only guards against surprises. */
const PAGE_TRANSLATOR_LIMIT = 256;
const pageTranslators = new Map<string, Translator>();

/**
 * What a page renders with: one language, only the namespaces the page
 * declares — exactly what its browser receives, so hydration sees the same
 * text. Made once per set and shared. A key it lacks is logged: a missing
 * key, or a namespace the route does not list.
 */
export function getPageTranslator(language: Language, namespaces: readonly Namespace[]): Translator {
  const id = `${language}:${namespaces.join(",")}`;
  let translator = pageTranslators.get(id);
  if (!translator) {
    const catalogues = Object.fromEntries(namespaces.map((namespace) => [namespace, resources[language][namespace]]));
    translator = createTranslator(language, catalogues, {
      onMissingKey: (namespace, key) =>
        console.warn(
          `[i18n] no ${language} text for "${namespace}:${key}" on a page with ${namespaces.join(", ")} (a missing key, or a namespace its route's handle.i18n does not list)`,
        ),
    });
    if (pageTranslators.size >= PAGE_TRANSLATOR_LIMIT) pageTranslators.clear();
    pageTranslators.set(id, translator);
  }
  return translator;
}

/** The translations of the page being rendered on the server (entry.server gives it to the root layout). */
export function serverTranslationSource(requestLanguage: Language): TranslationSource {
  return {
    fallbackLanguage: requestLanguage,
    translatorFor: (language, namespaces) => getPageTranslator(language, namespaces),
    preloads: (language, namespaces) =>
      namespaces.map((namespace) => ({
        language,
        namespace,
        href: translationUrl(language, namespace, catalogueFile(language, namespace).hash),
      })),
  };
}

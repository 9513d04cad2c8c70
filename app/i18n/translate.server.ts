import type { i18n as I18n, TFunction } from "i18next";
import { catalogueFile, resources } from "./catalogues.server";
import { createI18n, type Language, type Namespace } from "./config";
import { getLanguage } from "./language.server";
import { translationUrl, type TranslationSource } from "./page-translations";

const instances = new Map<Language, I18n>();

/**
 * The server's i18next instance for one language, made once and shared by every
 * request in that language: the server never changes an instance's language, so
 * sharing is safe and no request pays for building one.
 */
export function getServerI18n(language: Language): I18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language, resources, { fallbackToEnglish: true });
    instances.set(language, instance);
  }
  return instance;
}

/** A translate function for server code (meta, messages in responses, mail). */
export function getFixedT(language: Language, namespace = "common"): TFunction {
  return getServerI18n(language).getFixedT(language, namespace);
}

export async function getRequestT(request: Request, namespace = "common") {
  const language = await getLanguage(request);
  return { t: getFixedT(language, namespace), language };
}

const english = getFixedT("en", "common");

/** The English text of an i18n key ("auth:errors.blocked"): old clients and tus clients show messages verbatim. */
export function englishText(key: string, options?: Record<string, unknown>): string {
  return english(key, options ?? {}) as string;
}

/** Few pages and languages make few distinct sets; the bound only guards against surprises. */
const PAGE_INSTANCE_LIMIT = 256;
const pageInstances = new Map<string, I18n>();

/**
 * What a page renders with: one language, only the namespaces the page
 * declares — exactly what its browser receives, so hydration sees the same
 * text. Made once per set and shared, like the server's own instances. A key
 * it lacks is logged: a missing key, or a namespace the route does not list.
 */
export function getPageI18n(language: Language, namespaces: readonly Namespace[]): I18n {
  const id = `${language}:${namespaces.join(",")}`;
  let instance = pageInstances.get(id);
  if (!instance) {
    const catalogues = Object.fromEntries(namespaces.map((namespace) => [namespace, resources[language][namespace]]));
    instance = createI18n(
      language,
      { [language]: catalogues },
      {
        onMissingKey: (namespace, key) =>
          console.warn(
            `[i18n] no ${language} text for "${namespace}:${key}" on a page with ${namespaces.join(", ")} (a missing key, or a namespace its route's handle.i18n does not list)`,
          ),
      },
    );
    if (pageInstances.size >= PAGE_INSTANCE_LIMIT) pageInstances.clear();
    pageInstances.set(id, instance);
  }
  return instance;
}

/** The translations of the page being rendered on the server (entry.server gives it to the root layout). */
export function serverTranslationSource(requestLanguage: Language): TranslationSource {
  return {
    fallbackLanguage: requestLanguage,
    instanceFor: (language, namespaces) => getPageI18n(language, namespaces),
    preloads: (language, namespaces) =>
      namespaces.map((namespace) => ({
        language,
        namespace,
        href: translationUrl(language, namespace, catalogueFile(language, namespace).hash),
      })),
  };
}

import type { i18n as I18n, TFunction } from "i18next";
import { catalogueFile, resources } from "./catalogues.server";
import { createI18n, type Language, type Namespace } from "./config";
import { getLanguage } from "./language.server";
import { translationUrl, type TranslationSource } from "./page-translations";

const instances = new Map<Language, I18n>();

/**
 * The server's i18next instance for one language, made once and shared by every
 * request in that language: the server never changes an instance's language, so
 * sharing is safe and no request pays for building one. Its translate
 * functions remember their answers (rememberTranslations).
 */
export function getServerI18n(language: Language): I18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = rememberTranslations(createI18n(language, resources, { fallbackToEnglish: true }));
    instances.set(language, instance);
  }
  return instance;
}

/** Answers one translate function keeps before it starts again (names and counts vary: the memo stays small). */
const REMEMBERED_ANSWERS = 2_000;

/**
 * i18next's `getFixedT` makes a new function on each call, and each call of
 * that function copies the instance's forty options before it looks the key
 * up: on a page of cards (`useTranslation` in every card) that was a tenth of
 * the page's CPU and a quarter of its garbage. On the server an instance's
 * language and catalogues never change, so the same key with the same plain
 * options always gives the same text. Here `getFixedT` hands out one function
 * per language, namespace and key prefix, which remembers its answers; calls
 * with anything but plain values (an object to interpolate, a function) go to
 * i18next as before.
 */
function rememberTranslations(instance: I18n): I18n {
  const makeFixedT = instance.getFixedT.bind(instance);
  const fixed = new Map<string, TFunction>();
  instance.getFixedT = ((language: unknown, namespace: unknown, keyPrefix: unknown) => {
    const id = `${String(language ?? "")}|${String(namespace ?? "")}|${String(keyPrefix ?? "")}`;
    let t = fixed.get(id);
    if (!t) {
      t = remembering((makeFixedT as unknown as (...args: unknown[]) => TFunction)(language, namespace, keyPrefix));
      fixed.set(id, t);
    }
    return t;
  }) as I18n["getFixedT"];
  return instance;
}

type Translate = (...args: unknown[]) => unknown;

function remembering(t: TFunction): TFunction {
  const call = t as unknown as Translate;
  const answers = new Map<string, unknown>();
  const translate = (key: unknown, options?: unknown, ...rest: unknown[]) => {
    const id = typeof key === "string" && rest.length === 0 ? answerId(key, options) : null;
    if (id === null) return call(key, options, ...rest);
    let answer = answers.get(id);
    if (answer === undefined) {
      answer = call(key, options);
      if (answers.size >= REMEMBERED_ANSWERS) answers.clear();
      answers.set(id, answer);
    }
    return answer;
  };
  // The language, namespace and prefix i18next keeps on the function, for whoever reads them.
  return Object.assign(translate, t) as unknown as TFunction;
}

/** A memo key for a call with only plain values (strings, numbers, booleans), else null. */
function answerId(key: string, options: unknown): string | null {
  if (options === undefined) return key;
  if (typeof options !== "object" || options === null) return null;
  let id = key;
  for (const [name, value] of Object.entries(options)) {
    const kind = typeof value;
    if (kind !== "string" && kind !== "number" && kind !== "boolean" && value !== undefined) return null;
    id += `\u0000${name}=${kind[0]}${String(value)}`;
  }
  return id;
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
 * text. Made once per set and shared, like the server's own instances, and
 * its translate functions remember their answers (rememberTranslations). A
 * key it lacks is logged (once per translate function and call): a missing
 * key, or a namespace the route does not list.
 */
export function getPageI18n(language: Language, namespaces: readonly Namespace[]): I18n {
  const id = `${language}:${namespaces.join(",")}`;
  let instance = pageInstances.get(id);
  if (!instance) {
    const catalogues = Object.fromEntries(namespaces.map((namespace) => [namespace, resources[language][namespace]]));
    instance = rememberTranslations(
      createI18n(
        language,
        { [language]: catalogues },
        {
          onMissingKey: (namespace, key) =>
            console.warn(
              `[i18n] no ${language} text for "${namespace}:${key}" on a page with ${namespaces.join(", ")} (a missing key, or a namespace its route's handle.i18n does not list)`,
            ),
        },
      ),
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

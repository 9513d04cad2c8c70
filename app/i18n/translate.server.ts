import type { i18n as I18n, TFunction } from "i18next";
import { createI18n, type Language } from "./config";
import { getLanguage } from "./language.server";

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
    instance = rememberTranslations(createI18n(language));
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

import type { TFunction } from "i18next";
import { createI18n, type Language } from "./config";
import { getLanguage } from "./language.server";

const instances = new Map<Language, ReturnType<typeof createI18n>>();

/**
 * The server's i18next instance for one language, made once and shared by every
 * request in that language: the server never changes an instance's language, so
 * sharing is safe and no request pays for building one.
 */
export function getServerI18n(language: Language) {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language);
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

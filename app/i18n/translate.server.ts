import type { TFunction } from "i18next";
import { createI18n, type Language } from "./config";
import { getLanguage } from "./language.server";

const instances = new Map<Language, ReturnType<typeof createI18n>>();

/** A translate function for server code (meta, messages in responses, mail). */
export function getFixedT(language: Language, namespace = "common"): TFunction {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language);
    instances.set(language, instance);
  }
  return instance.getFixedT(language, namespace);
}

export async function getRequestT(request: Request, namespace = "common") {
  const language = await getLanguage(request);
  return { t: getFixedT(language, namespace), language };
}

import { createContext, useContext } from "react";
import type { Namespace } from "./config";
import type { TFunction, Translator } from "./translator";

/** The translator of the page on screen (the root layout provides it). */
export const TranslatorContext = createContext<Translator | null>(null);

/**
 * The translate function of a namespace (`common` when none is named) and the
 * page's translator (`i18n.language`). The function is made once per language
 * and namespace, so it is the same on every render.
 */
export function useTranslation(namespace?: Namespace): { t: TFunction; i18n: Translator } {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error("useTranslation needs the root layout's TranslatorContext");
  return { t: translator.fixedT(namespace), i18n: translator };
}

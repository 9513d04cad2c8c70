import i18next, { type i18n as I18n, type Resource } from "i18next";
import enAuth from "./locales/en/auth";
import enCommon from "./locales/en/common";
import enPages from "./locales/en/pages";
import enPlans from "./locales/en/plans";
import enStudio from "./locales/en/studio";
import enWatch from "./locales/en/watch";
import enAdmin from "./locales/en/admin";
import enBilling from "./locales/en/billing";
import enBrowse from "./locales/en/browse";
import enDownloads from "./locales/en/downloads";
import enSubtitles from "./locales/en/subtitles";
import enSeries from "./locales/en/series";
import haAuth from "./locales/ha/auth";
import haCommon from "./locales/ha/common";
import haPages from "./locales/ha/pages";
import haPlans from "./locales/ha/plans";
import haStudio from "./locales/ha/studio";
import haWatch from "./locales/ha/watch";
import haAdmin from "./locales/ha/admin";
import haBilling from "./locales/ha/billing";
import haBrowse from "./locales/ha/browse";
import haDownloads from "./locales/ha/downloads";
import haSubtitles from "./locales/ha/subtitles";
import haSeries from "./locales/ha/series";

export const LANGUAGES = ["en", "ha"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", ha: "Hausa" };

/**
 * Both catalogues are small and bundled, so a page renders in one pass on the
 * server and hydrates without fetching translations. Each area of the app has
 * its own namespace file; keys missing in Hausa fall back to English.
 */
export const resources = {
  en: {
    common: enCommon,
    pages: enPages,
    plans: enPlans,
    auth: enAuth,
    studio: enStudio,
    watch: enWatch,
    admin: enAdmin,
    billing: enBilling,
    browse: enBrowse,
    downloads: enDownloads,
    subtitles: enSubtitles,
    series: enSeries,
  },
  ha: {
    common: haCommon,
    pages: haPages,
    plans: haPlans,
    auth: haAuth,
    studio: haStudio,
    watch: haWatch,
    admin: haAdmin,
    billing: haBilling,
    browse: haBrowse,
    downloads: haDownloads,
    subtitles: haSubtitles,
    series: haSeries,
  },
} satisfies Resource;

export const NAMESPACES = Object.keys(resources.en) as Array<keyof (typeof resources)["en"]>;

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** A ready i18next instance for one language (synchronous: resources are in memory). */
export function createI18n(language: Language): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: NAMESPACES,
    defaultNS: "common",
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}

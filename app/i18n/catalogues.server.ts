import { createHash } from "node:crypto";
import type { Language, Namespace } from "./config";
import type { Catalogue } from "./translator";
import enAdmin from "./locales/en/admin";
import enAuth from "./locales/en/auth";
import enBilling from "./locales/en/billing";
import enBrowse from "./locales/en/browse";
import enCommon from "./locales/en/common";
import enDashboards from "./locales/en/dashboards";
import enProfiles from "./locales/en/profiles";
import enDownloads from "./locales/en/downloads";
import enSeries from "./locales/en/series";
import enSubtitles from "./locales/en/subtitles";
import enInfo from "./locales/en/info";
import enPages from "./locales/en/pages";
import enPlans from "./locales/en/plans";
import enStudio from "./locales/en/studio";
import enWatch from "./locales/en/watch";
import haAdmin from "./locales/ha/admin";
import haAuth from "./locales/ha/auth";
import haBilling from "./locales/ha/billing";
import haBrowse from "./locales/ha/browse";
import haCommon from "./locales/ha/common";
import haDashboards from "./locales/ha/dashboards";
import haProfiles from "./locales/ha/profiles";
import haDownloads from "./locales/ha/downloads";
import haSeries from "./locales/ha/series";
import haSubtitles from "./locales/ha/subtitles";
import haInfo from "./locales/ha/info";
import haPages from "./locales/ha/pages";
import haPlans from "./locales/ha/plans";
import haStudio from "./locales/ha/studio";
import haWatch from "./locales/ha/watch";

/**
 * Every catalogue of both languages. Only the server imports them: a browser
 * fetches one language's namespaces as JSON files named by their content's
 * hash (`/locales/<language>/<namespace>.<hash>.json`), which never change and
 * are cached for a year. Keys missing in Hausa fall back to English on the
 * server; the typecheck and a unit test keep the two in step.
 */
export const resources = {
  en: {
    common: enCommon,
    pages: enPages,
    info: enInfo,
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
    dashboards: enDashboards,
    profiles: enProfiles,
  },
  ha: {
    common: haCommon,
    pages: haPages,
    info: haInfo,
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
    dashboards: haDashboards,
    profiles: haProfiles,
  },
} satisfies Record<Language, Record<Namespace, Catalogue>>;

export type CatalogueFile = { json: string; hash: string };

const files = new Map<string, CatalogueFile>();

/** One namespace of one language as the browser receives it, and the hash that names it. */
export function catalogueFile(language: Language, namespace: Namespace): CatalogueFile {
  const id = `${language}/${namespace}`;
  let file = files.get(id);
  if (!file) {
    const json = JSON.stringify(resources[language][namespace]);
    file = { json, hash: createHash("sha256").update(json).digest("hex").slice(0, 10) };
    files.set(id, file);
  }
  return file;
}

/** The hash of every namespace of one language: the root loader sends them, so the browser can fetch any it needs. */
export function catalogueHashes(language: Language): Record<Namespace, string> {
  return Object.fromEntries(
    (Object.keys(resources[language]) as Namespace[]).map((namespace) => [
      namespace,
      catalogueFile(language, namespace).hash,
    ]),
  ) as Record<Namespace, string>;
}

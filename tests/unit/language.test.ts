import { describe, expect, it } from "vitest";
import { resources } from "~/i18n/catalogues.server";
import { LANGUAGES, NAMESPACES } from "~/i18n/config";
import { getLanguage, languageCookie, languageFromAcceptLanguage } from "~/i18n/language.server";
import { getFixedT, getServerTranslator } from "~/i18n/translate.server";

describe("choosing the reader's language", () => {
  it("follows Accept-Language weights and falls back past unsupported languages", () => {
    expect(languageFromAcceptLanguage("ha-NG,ha;q=0.9,en;q=0.8")).toBe("ha");
    expect(languageFromAcceptLanguage("fr-FR,fr;q=0.9,ha;q=0.5,en;q=0.4")).toBe("ha");
    expect(languageFromAcceptLanguage("en;q=0.2, ha;q=0.8")).toBe("ha");
    expect(languageFromAcceptLanguage("fr, de")).toBeUndefined();
    expect(languageFromAcceptLanguage("ha;q=0")).toBeUndefined();
    expect(languageFromAcceptLanguage(null)).toBeUndefined();
  });

  it("prefers the language cookie over the browser's header", async () => {
    const cookie = await languageCookie.serialize("ha");
    const request = new Request("http://localhost/", {
      headers: { Cookie: cookie.split(";")[0], "Accept-Language": "en" },
    });
    expect(await getLanguage(request)).toBe("ha");
    expect(await getLanguage(new Request("http://localhost/", { headers: { "Accept-Language": "ha" } }))).toBe("ha");
    expect(await getLanguage(new Request("http://localhost/"))).toBe("en");
  });
});

type Tree = { [key: string]: string | Tree };
function leafKeys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

describe("the catalogues", () => {
  it("have the same keys in English and Hausa, with no empty strings", () => {
    expect(Object.keys(resources.en)).toEqual([...NAMESPACES]);
    expect(Object.keys(resources.ha)).toEqual([...NAMESPACES]);
    for (const namespace of NAMESPACES) {
      const en = leafKeys(resources.en[namespace] as Tree).sort();
      const ha = leafKeys(resources.ha[namespace] as Tree).sort();
      expect(ha, `namespace ${namespace}`).toEqual(en);
      for (const language of LANGUAGES) {
        const t = getFixedT(language, namespace);
        for (const key of en) expect(t(key), `${language}:${namespace}:${key}`).not.toBe("");
      }
    }
  });

  it("translate a shared string into Hausa", () => {
    expect(getServerTranslator("ha").t("nav.login")).toBe("Shiga");
    expect(getServerTranslator("en").t("nav.login")).toBe("Login");
  });
});

import { describe, expect, it, vi } from "vitest";
import { resources } from "~/i18n/catalogues.server";
import { createI18n, NAMESPACES } from "~/i18n/config";
import { getPageI18n, getServerI18n } from "~/i18n/translate.server";

/**
 * The server's translate functions remember their answers (translate.server.ts),
 * the server's own and those a page renders with: they must give exactly what
 * i18next gives, in both languages, whatever the options, and the functions
 * useTranslation gets must be the same ones.
 */
function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value === "string") return [prefix.replace(/_(one|other|zero|two|few|many)$/, "")];
  if (Array.isArray(value)) return [prefix];
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
  return [];
}

describe("the server's remembered translations", () => {
  it("hand useTranslation one function per language and namespace", () => {
    const i18n = getServerI18n("ha");
    expect(i18n.getFixedT(null, "pages")).toBe(i18n.getFixedT(null, "pages"));
    expect(i18n.getFixedT(null, "pages")).not.toBe(i18n.getFixedT(null, "watch"));
    const page = getPageI18n("ha", ["common", "pages"]);
    expect(page.getFixedT(null, "pages")).toBe(page.getFixedT(null, "pages"));
  });

  it("answer every key of every namespace as i18next does, twice, in English and Hausa", () => {
    // Every key gets the same made-up options here; a page's instance logs those it finds no form for.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (const language of ["en", "ha"] as const) {
      const plain = createI18n(language, resources, { fallbackToEnglish: true });
      const remembered = getServerI18n(language);
      for (const namespace of NAMESPACES) {
        const expected = plain.getFixedT(null, namespace);
        const page = getPageI18n(language, namespace === "common" ? ["common"] : ["common", namespace]);
        for (const t of [remembered.getFixedT(null, namespace), page.getFixedT(null, namespace)]) {
          for (const key of new Set(keysOf(resources.en[namespace]))) {
            const options = { count: 3, name: "Amina", average: "4.5", returnObjects: true };
            for (let round = 0; round < 2; round++) {
              expect(t(key), `${language} ${namespace}:${key}`).toEqual(expected(key));
              expect(t(key, options), `${language} ${namespace}:${key} with options`).toEqual(expected(key, options));
            }
          }
        }
      }
    }
    warn.mockRestore();
  });

  it("tell counts apart (plurals) and values apart (interpolation)", () => {
    const t = getServerI18n("en").getFixedT(null, "pages");
    expect(t("card.ratingCount", { count: 1 })).toBe("(1 rating)");
    expect(t("card.ratingCount", { count: 2 })).toBe("(2 ratings)");
    expect(t("card.ratingCount", { count: "2" })).toBe(t("card.ratingCount", { count: "2" }));
    expect(t("card.rating", { average: "4.5", count: 1 })).toBe("Rated 4.5 out of 5 by 1 viewer");
    expect(t("card.rating", { average: "3.0", count: 1 })).toBe("Rated 3.0 out of 5 by 1 viewer");
  });

  it("pass calls with objects or functions in their options straight to i18next", () => {
    const t = getServerI18n("en").getFixedT(null, "pages");
    const first = t("card.minutes", { count: 5, postProcess: [] });
    const second = t("card.minutes", { count: 6, postProcess: [] });
    expect([first, second]).toEqual(["5 min", "6 min"]);
  });

  it("stay right after more distinct answers than they keep", () => {
    const t = getServerI18n("en").getFixedT(null, "pages");
    for (let minutes = 1; minutes <= 5_000; minutes++)
      expect(t("card.minutes", { count: minutes })).toBe(`${minutes} min`);
    expect(t("card.noRatings")).toBe("No ratings yet");
  });
});

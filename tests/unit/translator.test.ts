import { isDeepStrictEqual } from "node:util";
import i18next, { type i18n as I18n, type Resource } from "i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resources } from "~/i18n/catalogues.server";
import { LANGUAGES, NAMESPACES, type Language, type Namespace } from "~/i18n/config";
import { getFixedT, getPageTranslator, getServerTranslator } from "~/i18n/translate.server";
import { createTranslator, interpolate, type Catalogue, type Catalogues } from "~/i18n/translator";

afterEach(() => vi.restoreAllMocks());

const catalogues = {
  common: {
    hello: "Hello, {{name}}!",
    twice: "{{name}} and {{ name }} again",
    empty: "",
    minutes_one: "{{count}} minute",
    minutes_other: "{{count}} minutes",
    items_zero: "No items",
    items_one: "One item",
    items_other: "{{count}} items",
    plain: "Just text, {{count}}",
    nested: { deeper: { text: "Deep down" } },
    steps: ["First {{name}}", "Second"],
    sections: [{ heading: "About {{name}}", paragraphs: ["One", "Two"] }],
  },
  pages: { title: "Pages title", onlyInEnglish: "English only" },
} satisfies Catalogues;

const hausa = {
  common: { hello: "Sannu, {{name}}!", minutes_one: "minti {{count}}", minutes_other: "mintuna {{count}}" },
  pages: { title: "Taken shafi" },
} satisfies Catalogues;

describe("the translator", () => {
  const t = createTranslator("en", catalogues).t;

  it("fills in placeholders, every time they appear, with the values as text", () => {
    expect(t("hello", { name: "Amina" })).toBe("Hello, Amina!");
    expect(t("twice", { name: "Musa" })).toBe("Musa and Musa again");
    expect(t("hello", { name: 5 })).toBe("Hello, 5!");
    // No escaping: React escapes what it renders.
    expect(t("hello", { name: "<b>&</b>" })).toBe("Hello, <b>&</b>!");
    expect(t("hello", { name: "$& $1" })).toBe("Hello, $& $1!");
  });

  it("keeps a placeholder it has no value for, and empties one whose value is undefined or null", () => {
    expect(t("hello")).toBe("Hello, {{name}}!");
    expect(t("hello", { other: 1 })).toBe("Hello, {{name}}!");
    expect(t("hello", { name: undefined })).toBe("Hello, !");
    expect(t("hello", { name: null })).toBe("Hello, !");
    expect(interpolate("{{a}}{{b}}", { a: "{{b}}", b: "x" })).toBe("{{b}}x");
  });

  it("picks the plural form the language's rules name, _zero first for 0, else the plain key", () => {
    expect(t("minutes", { count: 1 })).toBe("1 minute");
    expect(t("minutes", { count: 0 })).toBe("0 minutes");
    expect(t("minutes", { count: 2 })).toBe("2 minutes");
    expect(t("minutes", { count: 1.5 })).toBe("1.5 minutes");
    expect(t("items", { count: 0 })).toBe("No items");
    expect(t("items", { count: 1 })).toBe("One item");
    expect(t("items", { count: 7 })).toBe("7 items");
    expect(t("plain", { count: 3 })).toBe("Just text, 3");
    // A count given as text picks no form, as with i18next.
    expect(t("minutes", { count: "2" })).toBe("minutes");
  });

  it("reads Hausa counts with Hausa's plural rules", () => {
    const ha = createTranslator("ha", hausa).t;
    expect(new Intl.PluralRules("ha").resolvedOptions().pluralCategories).toEqual(["one", "other"]);
    expect(ha("minutes", { count: 1 })).toBe("minti 1");
    expect(ha("minutes", { count: 0 })).toBe("mintuna 0");
    expect(ha("minutes", { count: 5 })).toBe("mintuna 5");
    const real = getFixedT("ha", "pages");
    expect(real("card.ratingCount", { count: 1 })).toBe(
      interpolate(resources.ha.pages.card.ratingCount_one, { count: 1 }),
    );
    expect(real("card.ratingCount", { count: 2 })).toBe(
      interpolate(resources.ha.pages.card.ratingCount_other, { count: 2 }),
    );
  });

  it("looks keys up in the function's namespace, or the one the key names, along dotted paths", () => {
    const translator = createTranslator("en", catalogues);
    expect(translator.fixedT("pages")("title")).toBe("Pages title");
    expect(translator.t("pages:title")).toBe("Pages title");
    expect(translator.fixedT("pages")("common:hello", { name: "Ali" })).toBe("Hello, Ali!");
    expect(translator.t("nested.deeper.text")).toBe("Deep down");
    expect(translator.t("empty")).toBe("");
    // A prefix that is no namespace is part of the key.
    expect(translator.t("Note: nothing")).toBe("Note: nothing");
  });

  it("gives lists and groups only when asked, their texts filled in", () => {
    expect(t("steps", { returnObjects: true, name: "Bala" })).toEqual(["First Bala", "Second"]);
    expect(t("sections", { returnObjects: true, name: "Kallo" })).toEqual([
      { heading: "About Kallo", paragraphs: ["One", "Two"] },
    ]);
    expect(t("nested", { returnObjects: true })).toEqual({ deeper: { text: "Deep down" } });
    expect(t("steps")).toBe("key 'steps (en)' returned an object instead of string.");
    expect(t("hello", { returnObjects: true, name: "A" })).toBe("Hello, A!");
  });

  it("shows a missing key as the key, without its namespace, and reports it", () => {
    const missing: string[] = [];
    const translator = createTranslator("en", catalogues, {
      onMissingKey: (namespace, key) => missing.push(`${namespace}:${key}`),
    });
    expect(translator.t("nope.never")).toBe("nope.never");
    expect(translator.t("auth:login.title")).toBe("login.title");
    expect(translator.t("steps.9")).toBe("steps.9");
    expect(translator.t("hello.name")).toBe("hello.name");
    expect(translator.t("constructor")).toBe("constructor");
    expect(translator.t("minutes", { count: 3 })).toBe("3 minutes");
    expect(missing).toEqual([
      "common:nope.never",
      "auth:login.title",
      "common:steps.9",
      "common:hello.name",
      "common:constructor",
    ]);
  });

  it("falls back to another language's text, with that language's plural forms, when given one", () => {
    const translator = createTranslator("ha", hausa, { fallback: { language: "en", catalogues } });
    expect(translator.t("hello", { name: "Amina" })).toBe("Sannu, Amina!");
    expect(translator.t("items", { count: 0 })).toBe("No items");
    expect(translator.fixedT("pages")("onlyInEnglish")).toBe("English only");
    expect(createTranslator("ha", hausa).fixedT("pages")("onlyInEnglish")).toBe("onlyInEnglish");
  });

  it("holds namespaces that arrive later, and makes one function per namespace", () => {
    const translator = createTranslator("en", {});
    expect(translator.hasNamespace("pages")).toBe(false);
    const pages = translator.fixedT("pages");
    expect(pages("title")).toBe("title");
    translator.addNamespace("pages", catalogues.pages);
    expect(translator.hasNamespace("pages")).toBe(true);
    expect(pages("title")).toBe("Pages title");
    expect(translator.fixedT("pages")).toBe(pages);
    expect(translator.fixedT()).toBe(translator.t);
    expect(translator.fixedT("watch")).not.toBe(pages);
  });
});

describe("the server's translators", () => {
  it("are made once per language, and per page's set of namespaces", () => {
    expect(getServerTranslator("ha")).toBe(getServerTranslator("ha"));
    expect(getFixedT("ha", "pages")).toBe(getServerTranslator("ha").fixedT("pages"));
    expect(getPageTranslator("en", ["common", "pages"])).toBe(getPageTranslator("en", ["common", "pages"]));
    expect(getServerTranslator("ha").t("nav.login")).toBe("Shiga");
  });
});

/**
 * The translator against i18next as the app used it (decision 007, until
 * 035): for every key of every namespace of both languages, with every count
 * a plural could take and a value for every placeholder, the same text.
 */
function i18nextOver(language: Language, resources: Resource, fallbackToEnglish: boolean): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: fallbackToEnglish ? "en" : false,
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(resources[language] ?? {}),
    defaultNS: "common",
    resources,
    partialBundledLanguages: true,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}

/** Every key a component could ask for: texts (plural forms by their base key) and lists. */
function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value === "string") return [prefix, prefix.replace(/_(zero|one|two|few|many|other)$/, "")];
  if (Array.isArray(value)) return [prefix, ...value.flatMap((item, index) => keysOf(item, `${prefix}.${index}`))];
  if (value && typeof value === "object")
    return [
      ...(prefix ? [prefix] : []),
      ...Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key)),
    ];
  return [];
}

function placeholdersIn(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/\{\{\s*([^}]+?)\s*\}\}/g)].map((match) => match[1]);
}

describe("the translator and i18next", () => {
  const names = [...new Set(LANGUAGES.flatMap((language) => placeholdersIn(resources[language])))];
  const values = Object.fromEntries(names.map((name, index) => [name, `«${name} ${index}»`]));
  /**
   * The ways a key is asked for, with a value for every placeholder its texts hold (in either language, a
   * group's texts too) — only those: i18next takes about a millisecond a call with every placeholder of the
   * app given, which made this test minutes long.
   */
  const optionSetsFor = (namespace: Namespace, key: string): Array<Record<string, unknown> | undefined> => {
    // The key itself and its plural forms (a plural's base key names none of them).
    const base = key.replace(/_(zero|one|two|few|many|other)$/, "");
    const forms = [key, ...["zero", "one", "two", "few", "many", "other"].map((form) => `${base}_${form}`)];
    const texts = LANGUAGES.flatMap((language) =>
      forms.map((form) =>
        form
          .split(".")
          .reduce<unknown>(
            (node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined),
            resources[language][namespace],
          ),
      ),
    );
    const own = Object.fromEntries(
      [...new Set(texts.flatMap((text) => (text === undefined ? [] : placeholdersIn(text))))].map((name) => [
        name,
        values[name],
      ]),
    );
    return [
      undefined,
      own,
      { returnObjects: true, ...own },
      ...[0, 1, 2, 5, 21, 1.5].map((count) => ({ ...own, count })),
      { count: 1 },
      { count: "2", name: "Amina" },
    ];
  };

  it("use placeholders i18next reads the same way (plain names, no formats, no nesting)", () => {
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) expect(name).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
    expect(JSON.stringify(resources)).not.toContain("$t(");
  });

  for (const language of LANGUAGES) {
    it(`give the same text for every key in ${language === "en" ? "English" : "Hausa"}, on the server and on a page`, () => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      const serverI18next = i18nextOver(language, resources as unknown as Resource, true);
      const server = getServerTranslator(language);
      let compared = 0;
      const differences: string[] = [];
      for (const namespace of NAMESPACES) {
        const page: Namespace[] = namespace === "common" ? ["common"] : ["common", namespace];
        const pageResources = { [language]: Object.fromEntries(page.map((name) => [name, resources[language][name]])) };
        const pageI18next = i18nextOver(language, pageResources as unknown as Resource, false);
        const pairs = [
          [server.fixedT(namespace), serverI18next.getFixedT(null, namespace)],
          [getPageTranslator(language, page).fixedT(namespace), pageI18next.getFixedT(null, namespace)],
        ] as const;
        const keys = [...new Set(keysOf(resources.en[namespace] as Catalogue)), "no.such.key", "auth:login.title"];
        for (const [ours, theirs] of pairs) {
          for (const key of keys) {
            for (const options of optionSetsFor(namespace, key)) {
              // Compared here and reported together: an expect() per comparison took most of this test's time.
              const [mine, reference] = [ours(key, options), theirs(key, options)];
              if (!isDeepStrictEqual(mine, reference))
                differences.push(
                  `${language} ${namespace}:${key} ${JSON.stringify(options)}: ${JSON.stringify(mine)}, i18next ${JSON.stringify(reference)}`,
                );
              compared++;
            }
          }
        }
      }
      expect(differences, `${differences.length} of ${compared} differ`).toEqual([]);
      expect(compared).toBeGreaterThan(10_000);
      warn.mockRestore();
      // Every key of every namespace, several ways each: tens of thousands of comparisons.
    }, 180_000);
  }
});

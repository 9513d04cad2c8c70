import { DEFAULT_NAMESPACE, splitKey, type Language, type Namespace } from "./config";

/**
 * Our own translate function (decision 035): the little of i18next the
 * catalogues use, the same code on the server and in the browser, so the text
 * a page hydrates with is the text the server rendered.
 *
 * - Keys: `group.key` in the page's namespace, or `namespace:group.key`.
 * - `{{name}}` takes the option of that name (no escaping: React escapes).
 * - A number `count` picks the plural form the language's `Intl.PluralRules`
 *   names (`key_one`, `key_other`, …; `key_zero` first for 0), else `key`.
 * - `returnObjects: true` gives a list or group as it is, its texts filled in.
 * - A key found nowhere gives the key itself (without its namespace), and is
 *   reported to `onMissingKey`.
 * Not supported: nesting (`$t(…)`), formats (`{{value, number}}`), context,
 * key prefixes, `<Trans>`; none of the catalogues uses them (a unit test
 * checks every key against i18next).
 */

/** What a catalogue holds: texts, lists and groups of them (`locales/<language>/<namespace>.ts`). */
export type CatalogueValue = string | readonly CatalogueValue[] | { readonly [key: string]: CatalogueValue };
export type Catalogue = { readonly [key: string]: CatalogueValue };
export type Catalogues = Partial<Record<Namespace, Catalogue>>;

/** Values for the text's `{{placeholders}}`; `count` also picks the plural form. */
export type TranslateOptions = Record<string, unknown>;

export interface TFunction {
  /** A list or group of texts (`returnObjects`), or the text when the key holds one. */
  (key: string, options: TranslateOptions & { returnObjects: true }): unknown;
  (key: string, options?: TranslateOptions): string;
}

/** The translations of one language that a page (or the server) renders with. */
export type Translator = {
  readonly language: Language;
  /** Translates in the default namespace (`common`). */
  readonly t: TFunction;
  /** The translate function of one namespace: made once, the same function every time. */
  fixedT(namespace?: Namespace): TFunction;
  hasNamespace(namespace: Namespace): boolean;
  /** A namespace's catalogue arrived (the browser fetches them as pages need them). */
  addNamespace(namespace: Namespace, catalogue: Catalogue): void;
};

const pluralRules = new Map<Language, Intl.PluralRules>();

function pluralRulesOf(language: Language): Intl.PluralRules {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules;
}

const own = (group: object, key: string) => Object.prototype.hasOwnProperty.call(group, key);

/** Every dotted path of a catalogue and its value (`home.hero.title`, `help.sections`, `help.sections.0`): made once per catalogue. */
const pathsOfCatalogue = new WeakMap<Catalogue, Map<string, CatalogueValue>>();

function pathsOf(catalogue: Catalogue): Map<string, CatalogueValue> {
  let paths = pathsOfCatalogue.get(catalogue);
  if (!paths) {
    const found = new Map<string, CatalogueValue>();
    const walk = (group: object, prefix: string) => {
      for (const key of Object.keys(group)) {
        const value = (group as Record<string, CatalogueValue | null>)[key];
        if (value === null || value === undefined) continue; // a null in a JSON file is no text
        const path = prefix + key;
        found.set(path, value);
        if (typeof value === "object") walk(value, `${path}.`);
      }
    };
    walk(catalogue, "");
    paths = found;
    pathsOfCatalogue.set(catalogue, paths);
  }
  return paths;
}

/** The value at a dotted path of a catalogue (`home.hero.title`, `help.sections`). */
function valueAt(catalogue: Catalogue | undefined, path: string): CatalogueValue | undefined {
  return catalogue === undefined ? undefined : pathsOf(catalogue).get(path);
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

/**
 * The text with each `{{name}}` replaced by that option as a string. A
 * placeholder without an option stays as it is, or is emptied when the
 * option is there but undefined (as i18next does).
 */
export function interpolate(text: string, values: TranslateOptions | undefined): string {
  if (!text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (placeholder, name: string) => {
    const trimmed = name.trim();
    if (!values || !own(values, trimmed)) return placeholder;
    const value = values[trimmed];
    return value === undefined || value === null ? "" : String(value);
  });
}

function fillIn(value: CatalogueValue, values: TranslateOptions | undefined): unknown {
  if (typeof value === "string") return interpolate(value, values);
  if (Array.isArray(value)) return value.map((item: CatalogueValue) => fillIn(item, values));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillIn(item, values)]));
}

/**
 * A translator over one language's catalogues. `fallback` (the server's own
 * translator: English) is searched when the language lacks a key; a page's
 * translator has none, so a key or namespace it lacks shows, and is reported.
 */
export function createTranslator(
  language: Language,
  catalogues: Catalogues,
  options: {
    fallback?: { language: Language; catalogues: Catalogues };
    onMissingKey?: (namespace: Namespace, key: string) => void;
  } = {},
): Translator {
  const held: Catalogues = { ...catalogues };
  const searched: Array<{ language: Language; catalogues: Catalogues }> = [{ language, catalogues: held }];
  if (options.fallback && options.fallback.language !== language) searched.push(options.fallback);

  function lookUp(namespace: Namespace, key: string, count: unknown): CatalogueValue | undefined {
    const plural = count !== undefined && typeof count !== "string";
    // Each language with its own plural rules, all of its forms before the next language.
    for (const searching of searched) {
      const catalogue = searching.catalogues[namespace];
      if (!catalogue) continue;
      const keys = plural
        ? [
            ...(count === 0 ? [`${key}_zero`] : []),
            `${key}_${pluralRulesOf(searching.language).select(count as number)}`,
            key,
          ]
        : [key];
      for (const candidate of keys) {
        const value = valueAt(catalogue, candidate);
        if (value !== undefined) return value;
      }
    }
    return undefined;
  }

  function translate(defaultNamespace: Namespace, fullKey: string, values?: TranslateOptions): unknown {
    // Keys also come from loader data and stored notifications, where one may be absent.
    if (fullKey === undefined || fullKey === null) return "";
    const { namespace, key } = splitKey(String(fullKey), defaultNamespace);
    const value = lookUp(namespace, key, values?.count);
    if (value === undefined) {
      options.onMissingKey?.(namespace, key);
      return interpolate(key, values);
    }
    if (typeof value === "string") return interpolate(value, values);
    if (values?.returnObjects) return fillIn(value, values);
    return `key '${key} (${language})' returned an object instead of string.`;
  }

  const fixed = new Map<Namespace, TFunction>();
  function fixedT(namespace: Namespace = DEFAULT_NAMESPACE): TFunction {
    let t = fixed.get(namespace);
    if (!t) {
      t = ((key: string, values?: TranslateOptions) => translate(namespace, key, values)) as TFunction;
      fixed.set(namespace, t);
    }
    return t;
  }

  return {
    language,
    t: fixedT(DEFAULT_NAMESPACE),
    fixedT,
    hasNamespace: (namespace) => held[namespace] !== undefined,
    addNamespace(namespace, catalogue) {
      held[namespace] = catalogue;
    },
  };
}

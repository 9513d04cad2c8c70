/**
 * Language tags (BCP 47) as subtitles use them: checked and put in their
 * canonical form by the platform's own Intl (so `HA` and `ha` are one
 * language, `en-gb` is `en-GB`), limited to the letters, digits and hyphens a
 * tag is made of, so a tag is also a safe file name and path segment.
 */
const TAG_SHAPE = /^[A-Za-z0-9]{1,8}(?:-[A-Za-z0-9]{1,8}){0,7}$/;
export const LANGUAGE_TAG_MAX_LENGTH = 35;

/** The canonical form of a well-formed BCP 47 language tag, or null. */
export function canonicalLanguageTag(input: unknown): string | null {
  if (typeof input !== "string") return null;
  const value = input.trim();
  if (value.length < 2 || value.length > LANGUAGE_TAG_MAX_LENGTH || !TAG_SHAPE.test(value)) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    return canonical && canonical.length <= LANGUAGE_TAG_MAX_LENGTH && TAG_SHAPE.test(canonical) ? canonical : null;
  } catch {
    return null;
  }
}

/** A language's name in that language ("Hausa", "English", "français"), first letter capitalised; the tag when unknown. */
export function languageAutonym(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: "language", fallback: "code" }).of(tag);
    if (!name) return tag;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return tag;
  }
}

/**
 * Which of `available` tags to show for a viewer who prefers `preferred`:
 * the same tag, else one of the same language (`en` finds `en-GB` and the
 * other way round), else none.
 */
export function matchLanguage(available: readonly string[], preferred: string | null | undefined): string | null {
  if (!preferred) return null;
  const wanted = preferred.toLowerCase();
  const exact = available.find((tag) => tag.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split("-")[0];
  return available.find((tag) => tag.toLowerCase().split("-")[0] === primary) ?? null;
}

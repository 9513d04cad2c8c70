import { createCookie } from "@remix-run/node";
import { DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, isLanguage, type Language } from "./config";

export const languageCookie = createCookie("kallo_lang", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 60 * 60 * 24 * 365,
});

/** Pick the best supported language from an Accept-Language header (RFC 9110 weights). */
export function languageFromAcceptLanguage(header: string | null): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, position) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, position };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.position - b.position);
  for (const { tag } of ranked) {
    const base = tag.split("-")[0];
    if (isLanguage(base)) return base;
  }
  return undefined;
}

/** The reader's language: the cookie they chose, else their browser's preference, else English. */
export async function getLanguage(request: Request): Promise<Language> {
  const chosen = await languageCookie.parse(request.headers.get("Cookie"));
  if (isLanguage(chosen)) return chosen;
  return languageFromAcceptLanguage(request.headers.get("Accept-Language")) ?? DEFAULT_LANGUAGE;
}

export { LANGUAGES, LANGUAGE_NAMES, isLanguage };

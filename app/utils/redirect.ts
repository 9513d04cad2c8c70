/**
 * A same-site path to send someone to, or the fallback. Refuses absolute URLs,
 * protocol-relative `//host` and backslash tricks, so a `redirectTo` in a link
 * can never take a person off the site.
 */
export function safeRedirectPath(target: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0) return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters in a path are refused on purpose
  if (/[\u0000-\u001f\\]/.test(target)) return fallback;
  return target;
}

/**
 * Whether a sign-in name is written as a phone number rather than an email: no @, only digits and the
 * usual separators. Kept apart from numbers.ts (and its metadata) so forms in the browser can ask too.
 */
export function looksLikePhoneNumber(identifier: string): boolean {
  return !identifier.includes("@") && /^\+?[\d\s().-]{7,30}$/.test(identifier.trim());
}

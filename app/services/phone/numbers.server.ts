import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";

/**
 * Phone numbers as people write them — 0803 123 4567, +234 803 123 4567,
 * 2348031234567 — read by libphonenumber-js (Google's metadata, full
 * patterns) and kept in E.164. Only mobile numbers of the countries the
 * operator allows get a code: premium-rate and other paid numbers are what
 * SMS pumping asks codes for.
 */
export type PhoneReading =
  { ok: true; e164: string; country: string } | { ok: false; reason: "invalid" | "country" | "notMobile" };

const MOBILE_TYPES = new Set(["MOBILE", "FIXED_LINE_OR_MOBILE"]);

export function readPhoneNumber(input: string, allowedCountries: readonly string[]): PhoneReading {
  const written = input.trim();
  if (!/^\+?[\d\s().-]{7,30}$/.test(written)) return { ok: false, reason: "invalid" };
  const digits = written.replace(/\D/g, "");
  const home = (allowedCountries[0] ?? "NG") as CountryCode;
  // "234803…" without its + is an international number written the way SMS gateways print them.
  const parsed = written.startsWith("+")
    ? parsePhoneNumberFromString(written)
    : (parsePhoneNumberFromString(`+${digits}`) ?? undefined)?.isValid()
      ? parsePhoneNumberFromString(`+${digits}`)
      : parsePhoneNumberFromString(written, home);
  if (!parsed?.isValid() || !parsed.country) return { ok: false, reason: "invalid" };
  if (!allowedCountries.includes(parsed.country)) return { ok: false, reason: "country" };
  if (!MOBILE_TYPES.has(parsed.getType() ?? "")) return { ok: false, reason: "notMobile" };
  return { ok: true, e164: parsed.number, country: parsed.country };
}

export { looksLikePhoneNumber } from "./phone-shape";

/** A number as the code page shows it: enough to recognise, not to read it off the screen. +234 803 ••• 4567 */
export function maskPhoneNumber(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  const international = parsed?.formatInternational() ?? e164;
  const groups = international.split(" ");
  if (groups.length < 3) return `${e164.slice(0, 4)}•••${e164.slice(-4)}`;
  const shownFrom = groups.length >= 4 ? 2 : 1;
  return groups
    .map((group, index) => (index >= shownFrom && index < groups.length - 1 ? "•".repeat(group.length) : group))
    .join(" ");
}

/** A number written for people: +234 803 123 4567. */
export function formatPhoneNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

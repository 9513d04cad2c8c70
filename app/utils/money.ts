/**
 * Money: amounts are whole minor units (kobo, pesewas, cents) of the
 * operator's currency (`CURRENCY`). One formatter for every page, the same on
 * the server and in the browser: it uses no locale data of the runtime (whose
 * symbols and separators differ between ICU versions), only the table below.
 *
 * English readers write ₦1,500.50; Hausa readers ₦1.500,50.
 */

export const CURRENCIES = {
  NGN: { symbol: "₦", digits: 2 },
  GHS: { symbol: "GH₵", digits: 2 },
  KES: { symbol: "KSh", digits: 2 },
  ZAR: { symbol: "R", digits: 2 },
  USD: { symbol: "$", digits: 2 },
} as const;

export type Currency = keyof typeof CURRENCIES;
export const CURRENCY_CODES = Object.keys(CURRENCIES) as Currency[];
export const DEFAULT_CURRENCY: Currency = "NGN";

export function isCurrency(code: unknown): code is Currency {
  return typeof code === "string" && Object.hasOwn(CURRENCIES, code);
}

/** How many minor-unit digits a currency has (2 for every currency Kallo charges in). */
export function minorUnitDigits(currency: string): number {
  return isCurrency(currency) ? CURRENCIES[currency].digits : 2;
}

/** The grouping and decimal marks a reader of this language writes. */
function marks(language: string): { group: string; decimal: string } {
  return language === "ha" ? { group: ".", decimal: "," } : { group: ",", decimal: "." };
}

function groupDigits(digits: string, group: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, group);
}

/**
 * A number of major units written as the reader writes it, without a symbol:
 * "1,500" or "1,500.50" (English), "1.500" or "1.500,50" (Hausa). The
 * fraction shows only when the amount is not whole, unless `cents` is "always".
 */
export function formatAmount(
  amountMinor: number,
  currency: string,
  language: string,
  options: { cents?: "auto" | "always"; grouping?: boolean } = {},
): string {
  const digits = minorUnitDigits(currency);
  const { group, decimal } = marks(language);
  const negative = amountMinor < 0;
  const minor = Math.abs(Math.round(amountMinor));
  const scale = 10 ** digits;
  const whole = Math.floor(minor / scale);
  const fraction = minor % scale;
  const wholeText = options.grouping === false ? String(whole) : groupDigits(String(whole), group);
  const showFraction = digits > 0 && (fraction !== 0 || options.cents === "always");
  const text = showFraction ? `${wholeText}${decimal}${String(fraction).padStart(digits, "0")}` : wholeText;
  return negative ? `-${text}` : text;
}

/** "₦1,500" in English, "₦1.500" in Hausa; "KSh 250" where the symbol ends in a letter. */
export function formatMoney(
  amountMinor: number,
  currency: string,
  language: string,
  options: { cents?: "auto" | "always" } = {},
): string {
  const symbol = isCurrency(currency) ? CURRENCIES[currency].symbol : currency;
  const amount = formatAmount(amountMinor, currency, language, options);
  const negative = amount.startsWith("-");
  const spacer = /\p{L}$/u.test(symbol) ? "\u00a0" : "";
  return `${negative ? "-" : ""}${symbol}${spacer}${negative ? amount.slice(1) : amount}`;
}

/** The most a price may be, in major units. */
export const MAX_PRICE_MAJOR = 10_000_000;

export type ParsedAmount = { ok: true; value: number } | { ok: false; reason: "format" | "digits" | "range" };

/**
 * A price typed in major units, read as the reader of `language` writes it
 * (English 1,500.50; Hausa 1.500,50; spaces ignored), as whole minor units.
 * Never negative, never more fraction digits than the currency has.
 */
export function parseAmount(raw: string, currency: string, language: string): ParsedAmount {
  const { group, decimal } = marks(language);
  const g = group === "." ? "\\." : group;
  const d = decimal === "." ? "\\." : decimal;
  // Plain digits, or digits grouped in threes by the reader's mark ("1,500" / "1.500"); "1.5" in Hausa is neither.
  const match = new RegExp(`^(\\d+|\\d{1,3}(?:${g}\\d{3})+)(?:${d}(\\d+))?$`).exec(raw.replace(/[\s\u00a0]/g, ""));
  if (!match) return { ok: false, reason: "format" };
  const digits = minorUnitDigits(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return { ok: false, reason: "digits" };
  const wholeDigits = match[1].split(group).join("");
  if (wholeDigits.length > 9) return { ok: false, reason: "range" };
  const major = Number(wholeDigits);
  if (major > MAX_PRICE_MAJOR) return { ok: false, reason: "range" };
  return { ok: true, value: major * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0") };
}

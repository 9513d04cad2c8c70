/**
 * Money: amounts are whole minor units (kobo, pesewas, cents) of the
 * operator's currency (`CURRENCY`). One formatter for every price, earning,
 * chart axis and CSV, the same on the server and in the browser: the
 * platform's `Intl.NumberFormat` with Nigerian English's marks, which every
 * runtime carries, and the symbols of the table below (the runtime's own
 * currency symbols differ between ICU versions and would break hydration).
 *
 * Nigerians write ₦1,800.50 in English and in Hausa alike (so does CLDR's
 * Hausa format): a comma groups thousands, a point starts the kobo. Written
 * the continental way, "₦35.000" would read as thirty-five naira.
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

/** The locale whose marks money is written with, in every language of the site. */
const MONEY_LOCALE = "en-NG";
const formatters = new Map<string, Intl.NumberFormat>();

/** The platform's number formatter for `digits` fraction digits, made once. */
function numberFormat(digits: number, grouping: boolean): Intl.NumberFormat {
  const key = `${digits}:${grouping}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(MONEY_LOCALE, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: grouping,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * A number of major units as Nigerians write it, without a symbol: "1,500"
 * or "1,500.50", in either language (`_language` is kept so a language that
 * writes money otherwise can be added in one place). The fraction shows only
 * when the amount is not whole, unless `cents` is "always".
 */
export function formatAmount(
  amountMinor: number,
  currency: string,
  _language: string,
  options: { cents?: "auto" | "always"; grouping?: boolean } = {},
): string {
  const digits = minorUnitDigits(currency);
  const negative = amountMinor < 0;
  const minor = Math.abs(Math.round(amountMinor));
  const scale = 10 ** digits;
  const showFraction = digits > 0 && (minor % scale !== 0 || options.cents === "always");
  const text = numberFormat(showFraction ? digits : 0, options.grouping !== false).format(
    showFraction ? minor / scale : Math.floor(minor / scale),
  );
  return negative ? `-${text}` : text;
}

/** "₦1,500" or "₦1,500.50" in both languages; "KSh 250" where the symbol ends in a letter. */
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

/** An amount for a CSV cell: "1500.50", no symbol and no grouping, so a spreadsheet reads it as a number. */
export function csvAmount(amountMinor: number, currency: string): string {
  return formatAmount(amountMinor, currency, "en", { cents: "always", grouping: false });
}

/** The most a price may be, in major units. */
export const MAX_PRICE_MAJOR = 10_000_000;

export type ParsedAmount = { ok: true; value: number } | { ok: false; reason: "format" | "digits" | "range" };

/**
 * A price typed in major units, read as it is written (1,500.50 in either
 * language, as formatAmount writes it; spaces ignored), as whole minor units.
 * Never negative, never more fraction digits than the currency has: "1.500"
 * (a thousand and a half written the continental way) is refused for its
 * three kobo digits rather than read as ₦1.50.
 */
export function parseAmount(raw: string, currency: string, _language: string): ParsedAmount {
  const group = ",";
  // Plain digits, or digits grouped in threes by commas ("1500" / "1,500"), then an optional ".50".
  const match = /^(\d+|\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/.exec(raw.replace(/[\s\u00a0]/g, ""));
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

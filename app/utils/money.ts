/**
 * Money is stored in the currency's minor unit (cents, kobo). These helpers are
 * shared by server and browser code, and always format with the same locale so
 * the server-rendered HTML and the hydrated page agree.
 */

const formats = new Map<string, Intl.NumberFormat>();

/** A number format, made once per currency and shape (making one costs far more than using it). */
function numberFormat(currency: string, fractionDigits?: number): Intl.NumberFormat {
  const key = `${currency} ${fractionDigits ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format =
      fractionDigits === undefined
        ? new Intl.NumberFormat("en", { style: "currency", currency })
        : new Intl.NumberFormat("en", {
            style: "currency",
            currency,
            currencyDisplay: "narrowSymbol",
            minimumFractionDigits: fractionDigits,
            maximumFractionDigits: fractionDigits,
          });
    formats.set(key, format);
  }
  return format;
}

/** How many minor-unit digits a currency has (USD 2, NGN 2, JPY 0). */
export function minorUnitDigits(currency: string): number {
  return numberFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * "$14" for a whole amount, "$10.99" otherwise; `{ cents: "always" }` gives "$14.00".
 * Uses the narrow symbol (₦, $) so prices read the same in English and Hausa.
 */
export function formatPrice(
  amountMinor: number,
  currency: string,
  options: { cents?: "auto" | "always" } = {},
): string {
  const digits = minorUnitDigits(currency);
  const amount = amountMinor / 10 ** digits;
  const whole = Number.isInteger(amount);
  const fractionDigits = options.cents === "always" || !whole ? digits : 0;
  return numberFormat(currency, fractionDigits).format(amount);
}

/**
 * Twelve months with the annual discount taken off, in whole minor units
 * (rounded half up, so a price never carries a fraction of a cent).
 */
export function annualPriceMinor(monthlyPriceMinor: number, annualDiscountPercent: number): number {
  const discount = Math.min(100, Math.max(0, annualDiscountPercent));
  return Math.round((monthlyPriceMinor * 12 * (100 - discount)) / 100);
}

export type Billing = "monthly" | "annual";

/** `?billing=annual` selects annual prices; anything else is monthly. */
export function parseBilling(value: string | null | undefined): Billing {
  return value === "annual" ? "annual" : "monthly";
}

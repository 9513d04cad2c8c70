import { formatPrice } from "~/utils/money";

/**
 * Money on the dashboards and in their CSV, in one place: today the site's
 * price format; a currency formatter that follows the reader's language
 * replaces this one line.
 */
export function formatMoney(amountMinor: number, currency: string, _language: string): string {
  return formatPrice(amountMinor, currency);
}

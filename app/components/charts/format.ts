import { formatNumber } from "~/utils/dates";

/** Numbers on the charts in the reader's language: the same text on server and browser (utils/dates.ts). */
export function numberFormat(_language: string, maximumFractionDigits = 0): { format(value: number): string } {
  return { format: (value: number) => formatNumber(value, { maximumFractionDigits }) };
}

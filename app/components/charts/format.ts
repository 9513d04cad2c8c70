import { localeFor } from "~/utils/dates";

const formats = new Map<string, Intl.NumberFormat>();

/** Numbers on the charts in the reader's language (the same on server and browser), made once per shape. */
export function numberFormat(language: string, maximumFractionDigits = 0): Intl.NumberFormat {
  const key = `${language} ${maximumFractionDigits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(localeFor(language), { maximumFractionDigits });
    formats.set(key, format);
  }
  return format;
}

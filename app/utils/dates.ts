/**
 * Dates and times as people read them, in one place: the reader's language,
 * and one zone (West Africa Time) on server and client alike, so a page
 * renders the same on both and hydrates without a mismatch whatever zone the
 * phone is set to.
 */
export const DISPLAY_TIME_ZONE = "Africa/Lagos";

export type DateStyle = "date" | "dateTime" | "dateTimeSeconds" | "time" | "dayMonth";

const STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "medium" },
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  dateTimeSeconds: { dateStyle: "medium", timeStyle: "medium" },
  time: { timeStyle: "short" },
  /** "3 Jun": a chart's day labels. */
  dayMonth: { day: "numeric", month: "short" },
};

export function localeFor(language: string): string {
  return language === "ha" ? "ha-NG" : "en-GB";
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter for a language and style: made once (making one costs far more than using it) and shared. */
export function dateFormatter(language: string, style: DateStyle = "date"): Intl.DateTimeFormat {
  const locale = localeFor(language);
  const key = `${locale} ${style}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone: DISPLAY_TIME_ZONE });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Dates and times as people read them, in one place, and the same text on the
 * server and in the browser.
 *
 * The words and patterns are ours (below), not the runtime's: Node carries
 * every language's data, but a browser may not — Chromium has no Hausa, so
 * `Intl` there fell back to English ("Nov 26, 2026, 3:46 PM" where the server
 * wrote "26 Nuw, 2026, 15:46"), and React threw the server's HTML away. The
 * patterns are CLDR's for en-GB and ha-NG (a unit test compares them with
 * Node's ICU).
 *
 * One zone for everyone: West Africa Time (Africa/Lagos, UTC+1 all year: no
 * daylight saving since 1919), so the time a page shows does not depend on the
 * zone the phone or the server is set to.
 */
/** The languages pages are written in (i18n/config.ts lists the same two; utils sits below i18n). */
type Language = "en" | "ha";

export const DISPLAY_TIME_ZONE = "Africa/Lagos";
const DISPLAY_OFFSET_MS = 60 * 60 * 1000;

export type DateStyle = "date" | "dateTime" | "dateTimeSeconds" | "time" | "dayMonth";

/** Formats a date (or milliseconds since 1970) in one language and style. */
export type DateFormat = { format(date: Date | number): string };

const MONTHS: Record<Language, readonly string[]> = {
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"],
  ha: ["Jan", "Fab", "Mar", "Afi", "May", "Yun", "Yul", "Agu", "Sat", "Okt", "Nuw", "Dis"],
};

const two = (value: number) => String(value).padStart(2, "0");

function parts(date: Date | number) {
  const local = new Date((typeof date === "number" ? date : date.getTime()) + DISPLAY_OFFSET_MS);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth(),
    day: local.getUTCDate(),
    hours: two(local.getUTCHours()),
    minutes: two(local.getUTCMinutes()),
    seconds: two(local.getUTCSeconds()),
  };
}

/** "23 Nov 2026" in English, "23 Nuw, 2026" in Hausa. */
function dayText(language: Language, date: Date | number): string {
  const { year, month, day } = parts(date);
  const name = MONTHS[language][month];
  return language === "ha" ? `${day} ${name}, ${year}` : `${day} ${name} ${year}`;
}

function formatIn(language: Language, style: DateStyle, date: Date | number): string {
  if (typeof date === "number" ? !Number.isFinite(date) : Number.isNaN(date.getTime())) return "";
  const { hours, minutes, seconds } = parts(date);
  switch (style) {
    case "date":
      return dayText(language, date);
    case "dayMonth": {
      // A chart's day labels: "3 Jun" in English, "Yun 3" in Hausa.
      const { month, day } = parts(date);
      return language === "ha" ? `${MONTHS.ha[month]} ${day}` : `${day} ${MONTHS.en[month]}`;
    }
    case "time":
      return `${hours}:${minutes}`;
    case "dateTime":
      return `${dayText(language, date)}, ${hours}:${minutes}`;
    case "dateTimeSeconds":
      return `${dayText(language, date)}, ${hours}:${minutes}:${seconds}`;
  }
}

const formatters = new Map<string, DateFormat>();

/** The formatter for a language (English for any other) and style, shared by every page. */
export function dateFormatter(language: string, style: DateStyle = "date"): DateFormat {
  const chosen: Language = language === "ha" ? "ha" : "en";
  const key = `${chosen} ${style}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = { format: (date) => formatIn(chosen, style, date) };
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * A whole number or one with a few decimals, grouped by thousands: "12,345",
 * "1,234.5". English and Hausa write numbers alike (CLDR: "," groups, "."
 * before the decimals), so this is the same text on server and browser.
 */
export function formatNumber(value: number, options: { maximumFractionDigits?: number } = {}): string {
  if (!Number.isFinite(value)) return "";
  const digits = Math.max(0, Math.min(6, options.maximumFractionDigits ?? 0));
  const negative = value < 0;
  const [whole, fraction = ""] = Math.abs(value).toFixed(digits).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const decimals = fraction.replace(/0+$/, "");
  return `${negative && (Number(whole) > 0 || decimals) ? "-" : ""}${grouped}${decimals ? `.${decimals}` : ""}`;
}

import { describe, expect, it } from "vitest";
import { dateFormatter, DISPLAY_TIME_ZONE, formatNumber, type DateStyle } from "~/utils/dates";

const STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "medium" },
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  dateTimeSeconds: { dateStyle: "medium", timeStyle: "medium" },
  time: { timeStyle: "short" },
  dayMonth: { day: "numeric", month: "short" },
};

describe("dates on pages", () => {
  it("read the same whatever zone the machine is on (West Africa Time), in the reader's language", () => {
    const instant = new Date(Date.UTC(2026, 10, 23, 13, 5, 9));
    const before = process.env.TZ;
    const readings: string[] = [];
    for (const zone of ["UTC", "America/New_York", "Asia/Tokyo"]) {
      process.env.TZ = zone;
      readings.push(dateFormatter("en", "dateTime").format(instant));
      readings.push(dateFormatter("ha", "dateTime").format(instant));
    }
    process.env.TZ = before;
    expect(new Set(readings)).toEqual(new Set(["23 Nov 2026, 14:05", "23 Nuw, 2026, 14:05"]));
    expect(dateFormatter("en").format(instant)).toBe("23 Nov 2026");
    expect(dateFormatter("en", "dateTimeSeconds").format(instant)).toBe("23 Nov 2026, 14:05:09");
    expect(dateFormatter("en", "time").format(instant)).toBe("14:05");
    expect(dateFormatter("ha", "date").format(instant)).toBe("23 Nuw, 2026");
    expect(dateFormatter("ha", "dateTimeSeconds").format(instant.getTime())).toBe("23 Nuw, 2026, 14:05:09");
  });

  it("write Hausa dates from our own data, not the runtime's (a browser may have none for Hausa)", () => {
    const original = Intl.DateTimeFormat;
    // A browser without Hausa: Intl answers in English whatever it is asked.
    Intl.DateTimeFormat = function (_locale?: string | string[], options?: Intl.DateTimeFormatOptions) {
      return new original("en-US", options);
    } as unknown as typeof Intl.DateTimeFormat;
    try {
      expect(dateFormatter("ha", "dateTime").format(new Date(Date.UTC(2026, 10, 26, 14, 46)))).toBe(
        "26 Nuw, 2026, 15:46",
      );
    } finally {
      Intl.DateTimeFormat = original;
    }
  });

  it("agree with CLDR (Node's full ICU) for English and Hausa, every month, around midnight and the new year", () => {
    const instants: Date[] = [];
    for (let month = 0; month < 12; month++) {
      instants.push(new Date(Date.UTC(2025, month, 1, 22, 59, 59)), new Date(Date.UTC(2026, month, 28, 23, 0, 1)));
    }
    instants.push(new Date(Date.UTC(2026, 11, 31, 23, 30)), new Date(Date.UTC(1999, 0, 1, 0, 0)));
    for (const [language, locale] of [
      ["en", "en-GB"],
      ["ha", "ha-NG"],
    ] as const)
      for (const style of Object.keys(STYLES) as DateStyle[]) {
        const icu = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone: DISPLAY_TIME_ZONE });
        for (const instant of instants)
          expect(dateFormatter(language, style).format(instant), `${language} ${style} ${instant.toISOString()}`).toBe(
            icu.format(instant),
          );
      }
  });

  it("take any other language as English and show nothing for an invalid date", () => {
    const instant = new Date(Date.UTC(2026, 0, 5, 8, 0));
    expect(dateFormatter("fr").format(instant)).toBe("5 Jan 2026");
    expect(dateFormatter("en").format(new Date(Number.NaN))).toBe("");
  });
});

describe("numbers on pages", () => {
  it("group thousands and keep as many decimals as asked, the same in both languages", () => {
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(999)).toBe("999");
    expect(formatNumber(1234)).toBe("1,234");
    expect(formatNumber(1234567.891, { maximumFractionDigits: 1 })).toBe("1,234,567.9");
    expect(formatNumber(12.5)).toBe("13");
    expect(formatNumber(2.0, { maximumFractionDigits: 2 })).toBe("2");
    expect(formatNumber(-4321.25, { maximumFractionDigits: 2 })).toBe("-4,321.25");
    expect(formatNumber(-0.01)).toBe("0");
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe("");
    for (const value of [0, 7, 1000, 98765.4, 1e9 + 0.5])
      expect(formatNumber(value, { maximumFractionDigits: 1 })).toBe(
        new Intl.NumberFormat("ha-NG", { maximumFractionDigits: 1 }).format(value),
      );
  });
});

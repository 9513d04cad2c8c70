import { describe, expect, it } from "vitest";
import { dateFormatter } from "~/utils/dates";

describe("dates on pages", () => {
  it("read the same whatever zone the machine is on (West Africa Time), in the reader's language", () => {
    const instant = new Date(Date.UTC(2026, 10, 23, 13, 5, 9));
    const before = process.env.TZ;
    const readings: string[] = [];
    for (const zone of ["UTC", "America/New_York", "Asia/Tokyo"]) {
      process.env.TZ = zone;
      readings.push(dateFormatter("en", "dateTime").format(instant));
    }
    process.env.TZ = before;
    expect(new Set(readings).size).toBe(1);
    expect(readings[0]).toBe("23 Nov 2026, 14:05");
    expect(dateFormatter("en").format(instant)).toBe("23 Nov 2026");
    expect(dateFormatter("en", "dateTimeSeconds").format(instant)).toBe("23 Nov 2026, 14:05:09");
    expect(dateFormatter("en", "time").format(instant)).toBe("14:05");
    expect(dateFormatter("ha", "date").format(instant)).toMatch(/2026/);
  });
});

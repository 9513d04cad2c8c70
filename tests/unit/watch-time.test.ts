import { describe, expect, it } from "vitest";
import { clockText, watchedPercent } from "~/utils/watch-time";

describe("clockText", () => {
  it("writes minutes and seconds, and hours only past an hour", () => {
    expect(clockText(0)).toBe("0:00");
    expect(clockText(75)).toBe("1:15");
    expect(clockText(3599)).toBe("59:59");
    expect(clockText(3725)).toBe("1:02:05");
  });

  it("counts whole seconds and never goes below zero", () => {
    expect(clockText(75.9)).toBe("1:15");
    expect(clockText(-4)).toBe("0:00");
  });
});

describe("watchedPercent", () => {
  it("is whole percent, at most 100, and 0 for a title of unknown length", () => {
    expect(watchedPercent(30, 120)).toBe(25);
    expect(watchedPercent(1, 3)).toBe(33);
    expect(watchedPercent(200, 120)).toBe(100);
    expect(watchedPercent(30, 0)).toBe(0);
  });
});

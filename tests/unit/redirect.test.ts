import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/redirect";

describe("safe redirects", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirectPath("/WatchMovie?id=abc")).toBe("/WatchMovie?id=abc");
    expect(safeRedirectPath("/movies")).toBe("/movies");
  });

  it("refuses anything that could leave the site", () => {
    for (const target of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "movies", "/a\nb", "/x\\y"]) {
      expect(safeRedirectPath(target, "/home")).toBe("/home");
    }
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath("")).toBe("/");
  });
});

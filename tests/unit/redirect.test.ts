import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/redirect";

describe("safe redirects after sign-in", () => {
  it.each([
    ["/profile", "/profile"],
    ["/WatchMovie?id=abc", "/WatchMovie?id=abc"],
    ["/admin/providerslist", "/admin/providerslist"],
  ])("keeps the same-site path %s", (target, expected) => {
    expect(safeRedirectPath(target, "/movies")).toBe(expected);
  });

  it.each([
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "profile",
    "/pro\nfile",
    "/a\\b",
    "",
  ])("refuses %j and uses the fallback", (target) => {
    expect(safeRedirectPath(target, "/movies")).toBe("/movies");
  });

  it("uses the fallback for missing values and files", () => {
    expect(safeRedirectPath(null, "/movies")).toBe("/movies");
    expect(safeRedirectPath(undefined)).toBe("/");
    expect(safeRedirectPath(new File(["x"], "x.txt"), "/movies")).toBe("/movies");
  });
});

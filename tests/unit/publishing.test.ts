import { describe, expect, it } from "vitest";
import { publishingChange, publishingToggles, publishingVerb } from "~/services/publishing";

describe("an administrator's publishing changes", () => {
  it("maps each intent to its change, and nothing else to any change", () => {
    expect(publishingChange("approve")).toEqual({ approved: true });
    expect(publishingChange("premium")).toEqual({ access: "premium" });
    for (const other of ["", "delete", "toString", "constructor", "__proto__", "hasOwnProperty"]) {
      expect(publishingChange(other), other).toBeNull();
    }
  });

  it("offers each row the three changes that turn its settings the other way", () => {
    expect(publishingToggles({ approved: false, featured: true, access: "free" })).toEqual([
      "approve",
      "unfeature",
      "premium",
    ]);
    expect(publishingToggles({ approved: true, featured: false, access: "premium" })).toEqual([
      "unapprove",
      "feature",
      "free",
    ]);
  });

  it("names each change for the audit log", () => {
    expect(publishingVerb({ approved: false })).toBe("unapprove");
    expect(publishingVerb({ featured: true })).toBe("feature");
    expect(publishingVerb({ access: "free" })).toBe("access");
  });
});

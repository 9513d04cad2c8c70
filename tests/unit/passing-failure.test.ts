import { describe, expect, it } from "vitest";
import { isPassingFailure } from "~/utils/passing-failure";

describe("isPassingFailure", () => {
  it("asks again for no answer, a timeout and a server down or busy; never for a refusal", () => {
    for (const status of [0, 408, 429, 500, 502, 503, 504]) expect(isPassingFailure(status), String(status)).toBe(true);
    expect(isPassingFailure(undefined, true)).toBe(true);
    for (const status of [400, 401, 403, 404, 410, 416]) expect(isPassingFailure(status), String(status)).toBe(false);
    expect(isPassingFailure(undefined)).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { consumeRateLimit, RATE_LIMITS, refundRateLimit } from "~/services/rate-limit.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
beforeEach(() => {
  testDb = createTestDatabase();
});
afterEach(() => testDb.close());

describe("rate limits on the account forms", () => {
  it("allows 10 sign-in tries a minute per address, then answers with a wait", async () => {
    expect(RATE_LIMITS.signIn).toEqual({ points: 10, duration: 60 });
    for (let i = 0; i < 10; i++) {
      expect(await consumeRateLimit("signIn", { address: "203.0.113.7" }, testDb.db)).toEqual({ ok: true });
    }
    const refused = await consumeRateLimit("signIn", { address: "203.0.113.7" }, testDb.db);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Another address is not affected.
    expect(await consumeRateLimit("signIn", { address: "203.0.113.8" }, testDb.db)).toEqual({ ok: true });
  });

  it("counts per account across addresses, case-insensitively", async () => {
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await consumeRateLimit(
            "signIn",
            { address: `198.51.100.${i}`, account: i % 2 ? "Amina@Example.com" : "amina@example.com" },
            testDb.db,
          )
        ).ok,
      ).toBe(true);
    }
    expect(
      (await consumeRateLimit("signIn", { address: "198.51.100.99", account: "AMINA@example.com" }, testDb.db)).ok,
    ).toBe(false);
  });

  it("keeps separate budgets per form", async () => {
    for (let i = 0; i < 10; i++) await consumeRateLimit("register", { address: "192.0.2.1" }, testDb.db);
    expect((await consumeRateLimit("register", { address: "192.0.2.1" }, testDb.db)).ok).toBe(false);
    expect((await consumeRateLimit("passwordReset", { address: "192.0.2.1" }, testDb.db)).ok).toBe(true);
  });

  it("gives back the try of a successful sign-in", async () => {
    for (let i = 0; i < 10; i++) {
      await consumeRateLimit("signIn", { address: "192.0.2.5", account: "x@example.com" }, testDb.db);
      await refundRateLimit("signIn", { address: "192.0.2.5", account: "x@example.com" }, testDb.db);
    }
    expect((await consumeRateLimit("signIn", { address: "192.0.2.5", account: "x@example.com" }, testDb.db)).ok).toBe(
      true,
    );
  });

  it("keeps counting across connections to the same file (restarts)", async () => {
    for (let i = 0; i < 10; i++) await consumeRateLimit("signIn", { address: "192.0.2.9" }, testDb.db);
    const second = openDatabase(`${testDb.dir}/data.db`);
    try {
      expect((await consumeRateLimit("signIn", { address: "192.0.2.9" }, second)).ok).toBe(false);
    } finally {
      second.$client.close();
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import {
  consumeRateLimit,
  enterFailureLimit,
  FAILURE_LIMITS,
  networkOf,
  RATE_LIMITS,
  recordFailure,
  refundRateLimit,
  serviceWideBrake,
} from "~/services/rate-limit.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
beforeEach(() => {
  testDb = createTestDatabase();
});
afterEach(() => testDb.close());

const rows = () => testDb.db.$client.prepare("select count(*) as n from rate_limits").get() as { n: number };

describe("failure limits (sign-in, registration's 'email taken')", () => {
  it("lets a crowd behind one address in: tries under way are not failures, and a success writes nothing", async () => {
    // 200 at once, from an address with a few failures of its own: every one gets through the gate.
    for (let i = 0; i < 10; i++) await recordFailure("signIn", "203.0.113.7", testDb.db);
    const crowd = await Promise.all(
      Array.from({ length: 200 }, () => enterFailureLimit("signIn", "203.0.113.7", testDb.db)),
    );
    expect(crowd.filter((gate) => gate.ok)).toHaveLength(200);
    for (const gate of crowd) if (gate.ok) gate.leave();
    testDb.db.$client.prepare("delete from rate_limits").run();
    const gates = await Promise.all(
      Array.from({ length: 50 }, () => enterFailureLimit("signIn", "203.0.113.7", testDb.db)),
    );
    expect(gates.every((gate) => gate.ok)).toBe(true);
    for (const gate of gates) if (gate.ok) gate.leave();
    expect(rows().n).toBe(0);
    // Again and again: nothing piles up.
    for (let round = 0; round < 20; round++) {
      const gate = await enterFailureLimit("signIn", "203.0.113.7", testDb.db);
      expect(gate.ok).toBe(true);
      if (gate.ok) gate.leave();
    }
  });

  it("refuses an address once its failures and tries under way reach the limit, with a wait; others go on", async () => {
    const { points, duration } = FAILURE_LIMITS.signIn;
    for (let i = 0; i < points - 1; i++) await recordFailure("signIn", "198.51.100.4", testDb.db);
    const last = await enterFailureLimit("signIn", "198.51.100.4", testDb.db);
    expect(last.ok).toBe(true);
    // One try under way and 99 failures: a parallel guess waits for its outcome.
    const parallel = await enterFailureLimit("signIn", "198.51.100.4", testDb.db);
    expect(parallel.ok).toBe(false);
    if (last.ok) last.leave();
    await recordFailure("signIn", "198.51.100.4", testDb.db);
    const refused = await enterFailureLimit("signIn", "198.51.100.4", testDb.db);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(duration);
    }
    expect((await enterFailureLimit("signIn", "198.51.100.5", testDb.db)).ok).toBe(true);
    // Each limit counts its own failures.
    expect((await enterFailureLimit("register", "198.51.100.4", testDb.db)).ok).toBe(true);
  });

  it("counts an IPv6 address's whole /64 as one network, an IPv4 address alone", async () => {
    expect(networkOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(networkOf("2001:0db8:0001:0002:ffff:0:0:9")).toBe("2001:db8:1:2::/64");
    expect(networkOf("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(networkOf("198.51.100.7")).toBe("198.51.100.7");
    const { points } = FAILURE_LIMITS.signIn;
    // One home's /64, a different address for every guess.
    for (let i = 0; i < points; i++) await recordFailure("signIn", `2001:db8:1:2::${(i + 1).toString(16)}`, testDb.db);
    expect((await enterFailureLimit("signIn", "2001:db8:1:2:dead:beef::1", testDb.db)).ok).toBe(false);
    expect((await enterFailureLimit("signIn", "2001:db8:1:3::1", testDb.db)).ok).toBe(true);
  });

  it("brakes the whole service's failed sign-ins: stuffing from many addresses fills it", async () => {
    expect((await serviceWideBrake(testDb.db)).ok).toBe(true);
    // 600 failures from 240 addresses, each far under its own limit.
    for (let i = 0; i < 600; i++) await recordFailure("signIn", `10.0.${(i % 240) >> 8}.${i % 240}`, testDb.db);
    expect((await enterFailureLimit("signIn", "10.0.0.7", testDb.db)).ok).toBe(true);
    const braked = await serviceWideBrake(testDb.db);
    expect(braked.ok).toBe(false);
    if (!braked.ok) expect(braked.retryAfterSeconds).toBeLessThanOrEqual(600);
  });

  it("keeps counting across connections to the same file (restarts)", async () => {
    for (let i = 0; i < FAILURE_LIMITS.register.points; i++) await recordFailure("register", "192.0.2.9", testDb.db);
    const second = openDatabase(`${testDb.dir}/data.db`);
    try {
      expect((await enterFailureLimit("register", "192.0.2.9", second)).ok).toBe(false);
    } finally {
      second.$client.close();
    }
  });
});

describe("try limits (reset, comments, vouchers, current password)", () => {
  it("allows 10 reset requests a minute per address, then answers with a wait", async () => {
    expect(RATE_LIMITS.passwordReset).toEqual({ points: 10, duration: 60 });
    for (let i = 0; i < 10; i++) {
      expect(await consumeRateLimit("passwordReset", { address: "203.0.113.7" }, testDb.db)).toEqual({ ok: true });
    }
    const refused = await consumeRateLimit("passwordReset", { address: "203.0.113.7" }, testDb.db);
    expect(refused.ok).toBe(false);
    expect(await consumeRateLimit("passwordReset", { address: "203.0.113.8" }, testDb.db)).toEqual({ ok: true });
    expect((await consumeRateLimit("comment", { address: "203.0.113.7" }, testDb.db)).ok).toBe(true);
  });

  it("counts per account across addresses, case-insensitively, and gives back a try that succeeded", async () => {
    for (let i = 0; i < 5; i++) {
      const keys = { address: `198.51.100.${i}`, account: i % 2 ? "Amina@Example.com" : "amina@example.com" };
      expect((await consumeRateLimit("currentPassword", keys, testDb.db)).ok).toBe(true);
    }
    expect(
      (await consumeRateLimit("currentPassword", { address: "198.51.100.99", account: "AMINA@example.com" }, testDb.db))
        .ok,
    ).toBe(false);
    for (let i = 0; i < 10; i++) {
      await consumeRateLimit("currentPassword", { address: "192.0.2.5", account: "x@example.com" }, testDb.db);
      await refundRateLimit("currentPassword", { address: "192.0.2.5", account: "x@example.com" }, testDb.db);
    }
    expect(
      (await consumeRateLimit("currentPassword", { address: "192.0.2.5", account: "x@example.com" }, testDb.db)).ok,
    ).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase } from "~/db/client.server";
import {
  claimSignInTry,
  delayAfterFailures,
  FAILURE_MEMORY_SECONDS,
  MAX_DELAY_SECONDS,
  recordSignInFailure,
} from "~/services/sign-in-delay.server";

describe("the delay between sign-in tries to one account", () => {
  it("is none for the first five failures, then doubles, and never passes the cap", () => {
    expect([0, 4].map(delayAfterFailures)).toEqual([0, 0]);
    expect([5, 6, 7, 8].map(delayAfterFailures)).toEqual([2, 4, 8, 16]);
    expect(delayAfterFailures(40)).toBe(MAX_DELAY_SECONDS);
  });

  it("claims the try before the password is checked, so parallel tries wait too; old failures are forgotten", () => {
    const db = openDatabase(":memory:");
    migrateDatabase(db);
    const t0 = 1_000_000_000_000;
    for (let i = 0; i < 6; i++) recordSignInFailure(db, "Owner@Example.com", t0);
    expect(claimSignInTry(db, "owner@example.com", t0 + 1000)).toEqual({ ok: false, retryAfterSeconds: 3 });
    expect(claimSignInTry(db, "owner@example.com", t0 + 4000)).toEqual({ ok: true });
    // The claim moved the clock on: a second try at the same moment waits the whole delay again.
    expect(claimSignInTry(db, "owner@example.com", t0 + 4000)).toEqual({ ok: false, retryAfterSeconds: 4 });
    expect(claimSignInTry(db, "owner@example.com", t0 + 4000 + FAILURE_MEMORY_SECONDS * 1000 + 1)).toEqual({
      ok: true,
    });
    expect(claimSignInTry(db, "owner@example.com", t0 + 4000 + FAILURE_MEMORY_SECONDS * 1000 + 1)).toEqual({
      ok: true,
    });
    db.$client.close();
  });
});

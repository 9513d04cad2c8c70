import { describe, expect, it } from "vitest";

/** A burst of sign-ins hashes one at a time here (PASSWORD_HASH_CONCURRENCY=1), the rest wait their turn. */
describe("password hashing under a burst", () => {
  it("runs at most PASSWORD_HASH_CONCURRENCY hashes at once, and every one still finishes", async () => {
    process.env.PASSWORD_HASH_CONCURRENCY = "1";
    const { hashPassword, passwordHashQueue, verifyPassword } = await import("~/services/passwords.server");
    const hashes = Promise.all(
      ["one-password", "two-password", "three-password"].map((password) => hashPassword(password)),
    );
    expect(passwordHashQueue()).toEqual({ running: 1, waiting: 2 });
    const [first] = await hashes;
    expect(passwordHashQueue()).toEqual({ running: 0, waiting: 0 });
    expect(await verifyPassword("one-password", first)).toBe(true);
  });
});

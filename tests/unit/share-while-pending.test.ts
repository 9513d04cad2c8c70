import { describe, expect, it } from "vitest";
import { shareWhilePending } from "~/utils/share-while-pending";

describe("shareWhilePending", () => {
  it("shares a read under way with whoever asks for the same key, and forgets it once settled", async () => {
    const pending = new Map<string, Promise<string>>();
    let reads = 0;
    let finish: (value: string) => void = () => {};
    const read = () => {
      reads++;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = shareWhilePending(pending, "cookie-a", read);
    const second = shareWhilePending(pending, "cookie-a", read);
    expect(second).toBe(first);
    expect(reads).toBe(1);
    finish("account");
    expect(await first).toBe("account");
    expect(pending.size).toBe(0);
    const later = shareWhilePending(pending, "cookie-a", read);
    expect(reads).toBe(2);
    finish("changed");
    expect(await later).toBe("changed");
  });

  it("keeps keys apart and forgets a failed read too", async () => {
    const pending = new Map<string, Promise<string>>();
    const failing = shareWhilePending(pending, "cookie-a", () => Promise.reject(new Error("db closed")));
    const other = shareWhilePending(pending, "cookie-b", () => Promise.resolve("b"));
    expect(other).not.toBe(failing);
    await expect(failing).rejects.toThrow("db closed");
    expect(await other).toBe("b");
    expect(pending.size).toBe(0);
    expect(await shareWhilePending(pending, "cookie-a", () => Promise.resolve("a"))).toBe("a");
  });
});

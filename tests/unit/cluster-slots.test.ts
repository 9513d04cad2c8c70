import { describe, expect, it } from "vitest";
import { SharedSlots } from "~/utils/cluster.server";
import { restartDelayMs } from "../../scripts/workers";

/** The primary's bookkeeping of what the workers share (upload locks, password-hash slots), and its restart waits. */
function keeper() {
  const told: string[] = [];
  const slots = new SharedSlots((owner, message) =>
    told.push(`${owner}:${message.kallo}:${"id" in message ? message.id : ""}`),
  );
  return { slots, told };
}

describe("shared slots kept by the primary", () => {
  it("lets one worker hold a lock, tells it when another waits, and hands the lock on when it is given back", () => {
    const { slots, told } = keeper();
    slots.take(1, 10, "upload:a", 1);
    expect(told).toEqual(["1:slot.granted:10"]);
    slots.take(2, 20, "upload:a", 1);
    // The waiter is not granted; the holder hears that it is wanted.
    expect(told).toEqual(["1:slot.granted:10", "1:slot.wanted:10"]);
    // Another name is free.
    slots.take(2, 21, "upload:b", 1);
    expect(told.at(-1)).toBe("2:slot.granted:21");
    slots.give(1, 10);
    expect(told.at(-1)).toBe("2:slot.granted:20");
    expect(slots.state("upload:a")).toEqual({ holders: [{ owner: 2, id: 20 }], waiting: [] });
  });

  it("runs at most `limit` at once, first come first served", () => {
    const { slots, told } = keeper();
    for (const [owner, id] of [
      [1, 1],
      [2, 2],
      [1, 3],
      [2, 4],
    ])
      slots.take(owner, id, "password-hash", 2);
    expect(told.filter((line) => line.includes("granted"))).toEqual(["1:slot.granted:1", "2:slot.granted:2"]);
    slots.give(2, 2);
    slots.give(1, 1);
    expect(told.filter((line) => line.includes("granted"))).toEqual([
      "1:slot.granted:1",
      "2:slot.granted:2",
      "1:slot.granted:3",
      "2:slot.granted:4",
    ]);
  });

  it("forgets a waiter that gave up, and frees everything of a worker that died", () => {
    const { slots, told } = keeper();
    slots.take(1, 1, "upload:a", 1);
    slots.take(2, 2, "upload:a", 1);
    slots.take(3, 3, "upload:a", 1);
    slots.give(2, 2); // timed out waiting
    slots.forget(1); // the holder's worker was killed
    expect(told.filter((line) => line.includes("granted"))).toEqual(["1:slot.granted:1", "3:slot.granted:3"]);
    slots.give(3, 3);
    expect(slots.state("upload:a")).toEqual({ holders: [], waiting: [] });
    // Giving back twice, or what was never taken, changes nothing.
    slots.give(3, 3);
    slots.give(9, 9);
    expect(slots.state("upload:a")).toEqual({ holders: [], waiting: [] });
  });
});

describe("replacing a worker that ended", () => {
  it("starts the new one at once after a long life, and waits longer each time it keeps ending soon after starting", () => {
    expect([0, 1, 2, 3, 4, 7, 20].map(restartDelayMs)).toEqual([0, 1000, 2000, 4000, 8000, 60_000, 60_000]);
  });
});

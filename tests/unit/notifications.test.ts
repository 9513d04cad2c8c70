import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { notifications } from "~/db/schema";
import { registerViewer } from "~/services/accounts.server";
import { countUnreadNotifications, listNotifications, markNotificationsRead } from "~/services/notifications.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let mine: string;
let theirs: string;

beforeEach(async () => {
  testDb = createTestDatabase();
  const base = { name: "N", phoneNumber: "08031234567", password: "password-1", password2: "password-1" };
  const a = await registerViewer(testDb.db, { ...base, email: "a@example.com" });
  const b = await registerViewer(testDb.db, { ...base, email: "b@example.com" });
  if (!a.ok || !b.ok) throw new Error();
  mine = a.value.id;
  theirs = b.value.id;
  for (const [id, accountId] of [["n1", mine], ["n2", mine], ["n3", theirs]] as const) {
    testDb.db.insert(notifications).values({ id, accountId, kind: "new_title", messageKey: "auth:notifications.title" }).run();
  }
});
afterEach(() => testDb.close());

describe("notifications", () => {
  it("lists and counts only the person's own", () => {
    expect(listNotifications(testDb.db, mine).map((n) => n.id).sort()).toEqual(["n1", "n2"]);
    expect(countUnreadNotifications(testDb.db, mine)).toBe(2);
  });

  it("marks one read, never someone else's, then all", () => {
    expect(markNotificationsRead(testDb.db, mine, "n3")).toBe(0);
    expect(countUnreadNotifications(testDb.db, theirs)).toBe(1);
    expect(markNotificationsRead(testDb.db, mine, "n1")).toBe(1);
    expect(countUnreadNotifications(testDb.db, mine)).toBe(1);
    expect(markNotificationsRead(testDb.db, mine)).toBe(1);
    expect(countUnreadNotifications(testDb.db, mine)).toBe(0);
  });
});

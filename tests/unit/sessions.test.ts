import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDatabaseSessionStorage, deleteExpiredSessions, SESSION_TTL_SECONDS } from "~/auth/session.server";
import { sessions } from "~/db/schema";
import { blockAccount } from "~/services/account-status.server";
import { registerViewer } from "~/services/accounts.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let accountId: string;

beforeEach(async () => {
  testDb = createTestDatabase();
  const result = await registerViewer(testDb.db, {
    name: "Musa",
    email: "musa@example.com",
    phoneNumber: "08031234567",
    password: "password-1",
    password2: "password-1",
  });
  if (!result.ok) throw new Error("registration failed");
  accountId = result.value.id;
});
afterEach(() => testDb.close());

const storageFor = (secrets = ["current-secret"], secure = true) =>
  createDatabaseSessionStorage(() => testDb.db, { secure, secrets });

async function signedInCookie(storage = storageFor()) {
  const session = await storage.getSession();
  session.set("accountId", accountId);
  const setCookie = await storage.commitSession(session);
  return { setCookie, cookie: setCookie.split(";")[0] };
}

describe("database sessions", () => {
  it("keeps only a random id in an HttpOnly, SameSite=Lax, Secure cookie and the account in the row", async () => {
    const { setCookie, cookie } = await signedInCookie();
    expect(setCookie).toMatch(/^kallo_session=/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Secure");
    expect(setCookie).toContain(`Max-Age=${SESSION_TTL_SECONDS}`);
    expect(decodeURIComponent(cookie)).not.toContain(accountId);

    const rows = testDb.db.select().from(sessions).all();
    expect(rows).toHaveLength(1);
    expect(rows[0].accountId).toBe(accountId);
    const days = (rows[0].expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const session = await storageFor().getSession(cookie);
    expect(session.get("accountId")).toBe(accountId);
  });

  it("ignores and removes an expired row", async () => {
    const { cookie } = await signedInCookie();
    testDb.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .run();
    const session = await storageFor().getSession(cookie);
    expect(session.get("accountId")).toBeUndefined();
    expect(testDb.db.select().from(sessions).all()).toHaveLength(0);
  });

  it("sweeps expired rows when a new session starts", async () => {
    await signedInCookie();
    testDb.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .run();
    await signedInCookie();
    expect(testDb.db.select().from(sessions).all()).toHaveLength(1);
    testDb.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .run();
    expect(deleteExpiredSessions(testDb.db)).toBe(1);
  });

  it("refuses a cookie signed with an unknown secret, and accepts an older one during rotation", async () => {
    const { cookie } = await signedInCookie(storageFor(["old-secret"]));
    expect((await storageFor(["another-secret"]).getSession(cookie)).get("accountId")).toBeUndefined();
    expect((await storageFor(["new-secret", "old-secret"]).getSession(cookie)).get("accountId")).toBe(accountId);
  });

  it("ends on logout: the row is deleted", async () => {
    const storage = storageFor();
    const { cookie } = await signedInCookie(storage);
    const session = await storage.getSession(cookie);
    const cleared = await storage.destroySession(session);
    expect(cleared).toContain("Expires=Thu, 01 Jan 1970");
    expect(testDb.db.select().from(sessions).where(eq(sessions.accountId, accountId)).all()).toHaveLength(0);
    expect((await storage.getSession(cookie)).get("accountId")).toBeUndefined();
  });

  it("ends when the account is blocked", async () => {
    const { cookie } = await signedInCookie();
    await signedInCookie();
    blockAccount(testDb.db, accountId, { actorId: accountId });
    expect(testDb.db.select().from(sessions).all()).toHaveLength(0);
    expect((await storageFor().getSession(cookie)).get("accountId")).toBeUndefined();
  });
});

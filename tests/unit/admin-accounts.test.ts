import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accounts, auditLog } from "~/db/schema";
import { registerViewer } from "~/services/accounts.server";
import {
  BLOCK_REASON_TOO_LONG,
  LAST_ADMIN,
  SELF_BLOCK,
  activeAdminCount,
  cleanBlockReason,
  setAccountBlocked,
} from "~/services/account-status.server";
import { listAudit } from "~/services/audit.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
beforeEach(() => {
  testDb = createTestDatabase();
});
afterEach(() => testDb.close());

async function account(email: string, role: "viewer" | "admin" = "viewer") {
  const result = await registerViewer(testDb.db, {
    name: email,
    email,
    phoneNumber: "08031234567",
    password: "password-1",
    password2: "password-1",
  });
  if (!result.ok) throw new Error("registration failed");
  if (role === "admin") testDb.db.update(accounts).set({ role: "admin" }).where(eq(accounts.id, result.value.id)).run();
  return result.value.id;
}

describe("administrators blocking accounts", () => {
  it("blocks and unblocks a viewer, with both actions audited", async () => {
    const admin = await account("admin@example.com", "admin");
    const viewer = await account("viewer@example.com");
    const blocked = setAccountBlocked(testDb.db, viewer, true, { actorId: admin });
    expect(blocked.ok && blocked.account.blocked).toBe(true);
    const unblocked = setAccountBlocked(testDb.db, viewer, false, { actorId: admin });
    expect(unblocked.ok && unblocked.account.blocked).toBe(false);
    const actions = testDb.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.actorId, admin))
      .all()
      .map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["account.block", "account.unblock"]));
    expect(listAudit(testDb.db, { action: "account.block", actorEmail: "ADMIN@example.com" }).total).toBe(1);
  });

  it("keeps the reason and the confirmation of a block in the audit log, for the log's readers", async () => {
    const admin = await account("admin@example.com", "admin");
    const viewer = await account("viewer@example.com");
    setAccountBlocked(testDb.db, viewer, true, { actorId: admin }, { reason: "Resold vouchers", confirmed: true });
    const [entry] = listAudit(testDb.db, { action: "account.block" }).rows;
    expect(entry).toMatchObject({ targetId: viewer, note: "Resold vouchers · confirmed" });
    expect(cleanBlockReason("  spam \n in   comments ")).toEqual({ ok: true, reason: "spam in comments" });
    expect(cleanBlockReason("   ")).toEqual({ ok: true, reason: null });
    expect(cleanBlockReason("x".repeat(501))).toEqual({ ok: false, error: BLOCK_REASON_TOO_LONG });
  });

  it("refuses an administrator blocking themselves", async () => {
    const admin = await account("admin@example.com", "admin");
    await account("other-admin@example.com", "admin");
    expect(setAccountBlocked(testDb.db, admin, true, { actorId: admin })).toEqual({ ok: false, error: SELF_BLOCK });
  });

  it("never blocks the last administrator who can sign in", async () => {
    const first = await account("first@example.com", "admin");
    const second = await account("second@example.com", "admin");
    expect(setAccountBlocked(testDb.db, second, true, { actorId: first }).ok).toBe(true);
    expect(activeAdminCount(testDb.db)).toBe(1);
    // Whoever asks (a script acting as the blocked one, the API), the last one stays.
    expect(setAccountBlocked(testDb.db, first, true, { actorId: second })).toEqual({ ok: false, error: LAST_ADMIN });
    expect(activeAdminCount(testDb.db)).toBe(1);
  });
});

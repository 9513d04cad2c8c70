import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditLog } from "~/db/schema";
import { approveProviderApplication, blockAccount, unblockAccount } from "~/services/account-status.server";
import {
  applyAsProvider,
  authenticateAtDoor,
  changePassword,
  listAccounts,
  registerViewer,
  updateProfile,
} from "~/services/accounts.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
beforeEach(() => {
  testDb = createTestDatabase();
});
afterEach(() => testDb.close());

const viewer = {
  name: "Hauwa",
  email: "hauwa@example.com",
  phoneNumber: "08031234567",
  password: "password-1",
  password2: "password-1",
};
const provider = {
  providerName: "Arewa Films",
  email: "arewa@example.com",
  phoneNumber: "08031234568",
  password: "password-2",
  password2: "password-2",
};

describe("accounts", () => {
  it("refuses a second registration with the same email, whatever its case", async () => {
    expect((await registerViewer(testDb.db, viewer)).ok).toBe(true);
    const again = await registerViewer(testDb.db, { ...viewer, email: "hauwa@example.com" });
    expect(again).toEqual({ ok: false, fieldErrors: { email: ["auth:validation.emailTaken"] } });
  });

  it("signs viewers in at /login only, providers at /cp only", async () => {
    await registerViewer(testDb.db, viewer);
    const application = await applyAsProvider(testDb.db, provider);
    if (!application.ok) throw new Error();
    approveProviderApplication(testDb.db, application.value.id, { actorId: application.value.id });
    expect(
      (await authenticateAtDoor(testDb.db, { email: viewer.email, password: viewer.password, door: "member" })).ok,
    ).toBe(true);
    expect(
      await authenticateAtDoor(testDb.db, { email: viewer.email, password: viewer.password, door: "provider" }),
    ).toEqual({ ok: false, reason: "invalid" });
    expect(
      (await authenticateAtDoor(testDb.db, { email: provider.email, password: provider.password, door: "provider" }))
        .ok,
    ).toBe(true);
    expect(
      await authenticateAtDoor(testDb.db, { email: provider.email, password: provider.password, door: "member" }),
    ).toEqual({ ok: false, reason: "invalid" });
  });

  it("never says which part was wrong", async () => {
    await registerViewer(testDb.db, viewer);
    expect(
      await authenticateAtDoor(testDb.db, { email: viewer.email, password: "wrong-password", door: "member" }),
    ).toEqual({ ok: false, reason: "invalid" });
    expect(
      await authenticateAtDoor(testDb.db, { email: "nobody@example.com", password: viewer.password, door: "member" }),
    ).toEqual({ ok: false, reason: "invalid" });
  });

  it("keeps a provider application waiting until it is approved", async () => {
    const application = await applyAsProvider(testDb.db, provider);
    if (!application.ok) throw new Error();
    expect(application.value).toMatchObject({ role: "provider", providerStatus: "pending", blocked: true });
    expect(
      await authenticateAtDoor(testDb.db, { email: provider.email, password: provider.password, door: "provider" }),
    ).toEqual({ ok: false, reason: "pending" });
    approveProviderApplication(testDb.db, application.value.id, { actorId: application.value.id });
    expect(
      (await authenticateAtDoor(testDb.db, { email: provider.email, password: provider.password, door: "provider" }))
        .ok,
    ).toBe(true);
  });

  it("blocks and unblocks, raising the token version and writing the audit log", async () => {
    const created = await registerViewer(testDb.db, viewer);
    if (!created.ok) throw new Error();
    const id = created.value.id;
    const blocked = blockAccount(testDb.db, id, { actorId: id });
    expect(blocked).toMatchObject({ blocked: true, tokenVersion: 1 });
    expect(
      await authenticateAtDoor(testDb.db, { email: viewer.email, password: viewer.password, door: "member" }),
    ).toEqual({ ok: false, reason: "blocked" });
    expect(unblockAccount(testDb.db, id, { actorId: id })).toMatchObject({ blocked: false });
    expect(
      (await authenticateAtDoor(testDb.db, { email: viewer.email, password: viewer.password, door: "member" })).ok,
    ).toBe(true);
    const actions = testDb.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetId, id))
      .all()
      .map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "account.register",
        "account.block",
        "account.unblock",
        "auth.sign_in",
        "auth.sign_in_failed",
      ]),
    );
  });

  it("updates the profile, refusing an email someone else uses", async () => {
    const first = await registerViewer(testDb.db, viewer);
    await registerViewer(testDb.db, { ...viewer, email: "other@example.com" });
    if (!first.ok) throw new Error();
    expect(
      updateProfile(testDb.db, first.value.id, {
        name: "Hauwa Sani",
        email: "hauwa@example.com",
        phoneNumber: "0803 000 0000",
      }),
    ).toMatchObject({ ok: true, value: { name: "Hauwa Sani" } });
    expect(
      updateProfile(testDb.db, first.value.id, {
        name: "Hauwa Sani",
        email: "other@example.com",
        phoneNumber: "0803 000 0000",
      }),
    ).toEqual({ ok: false, fieldErrors: { email: ["auth:validation.emailTaken"] } });
  });

  it("changes the password only with the current one", async () => {
    const created = await registerViewer(testDb.db, viewer);
    if (!created.ok) throw new Error();
    expect(
      await changePassword(testDb.db, created.value.id, { currentPassword: "nope-nope", password: "new-password" }),
    ).toEqual({
      ok: false,
      fieldErrors: { currentPassword: ["auth:validation.currentPasswordWrong"] },
    });
    expect(
      (
        await changePassword(testDb.db, created.value.id, {
          currentPassword: viewer.password,
          password: "new-password",
        })
      ).ok,
    ).toBe(true);
    expect(
      (await authenticateAtDoor(testDb.db, { email: viewer.email, password: "new-password", door: "member" })).ok,
    ).toBe(true);
  });

  it("stops guessing the current password after five wrong tries in 15 minutes, even from several addresses", async () => {
    const created = await registerViewer(testDb.db, { ...viewer, email: "guess@example.com" });
    if (!created.ok) throw new Error();
    const wrong = [];
    for (let i = 0; i < 5; i++)
      wrong.push(
        await changePassword(
          testDb.db,
          created.value.id,
          { currentPassword: `guess-${i}`, password: "new-password" },
          { ipAddress: `192.0.2.${i}` },
        ),
      );
    expect(
      wrong.every(
        (result) => !result.ok && result.fieldErrors.currentPassword?.[0] === "auth:validation.currentPasswordWrong",
      ),
    ).toBe(true);
    // Even the right one now waits: the guesser learns nothing more.
    expect(
      await changePassword(
        testDb.db,
        created.value.id,
        { currentPassword: viewer.password, password: "new-password" },
        { ipAddress: "192.0.2.99" },
      ),
    ).toEqual({
      ok: false,
      fieldErrors: { currentPassword: ["auth:validation.currentPasswordTooMany"] },
    });
  });

  it("lists accounts of a role with search and paging", async () => {
    await registerViewer(testDb.db, viewer);
    await registerViewer(testDb.db, { ...viewer, name: "Bala", email: "bala@example.com" });
    await applyAsProvider(testDb.db, provider);
    expect(listAccounts(testDb.db, { role: "viewer" }).total).toBe(2);
    expect(listAccounts(testDb.db, { role: "viewer", search: "bala" }).rows.map((row) => row.email)).toEqual([
      "bala@example.com",
    ]);
    expect(listAccounts(testDb.db, { role: "provider", providerStatus: "pending" }).total).toBe(1);
    expect(listAccounts(testDb.db, { role: "viewer", pageSize: 1, page: 2 }).rows).toHaveLength(1);
    expect(listAccounts(testDb.db, { role: "viewer", search: "100%_" }).total).toBe(0);
  });
});

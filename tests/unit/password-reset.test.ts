import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accounts, passwordResets, sessions } from "~/db/schema";
import { blockAccount } from "~/services/account-status.server";
import { authenticateAtDoor, changePassword, registerViewer } from "~/services/accounts.server";
import type { OutgoingMail } from "~/services/mail.server";
import {
  checkResetToken,
  hashResetToken,
  requestPasswordReset,
  resetPasswordWithToken,
  RESET_TOKEN_TTL_MS,
} from "~/services/password-reset.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let accountId: string;
let sent: OutgoingMail[];
const deliver = async (mail: OutgoingMail) => {
  sent.push(mail);
};

beforeEach(async () => {
  testDb = createTestDatabase();
  sent = [];
  const result = await registerViewer(testDb.db, {
    name: "Zainab",
    email: "zainab@example.com",
    phoneNumber: "08031234567",
    password: "old-password",
    password2: "old-password",
  });
  if (!result.ok) throw new Error("registration failed");
  accountId = result.value.id;
});
afterEach(() => testDb.close());

describe("password reset links", () => {
  it("mails a link whose token is stored only as its SHA-256", async () => {
    const issued = await requestPasswordReset(testDb.db, "Zainab@Example.com", {
      baseUrl: "https://kallo.example/",
      deliver,
    });
    expect(issued).not.toBeNull();
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe("zainab@example.com");
    expect(sent[0].text).toContain(`https://kallo.example/reset/${issued!.token}`);
    const row = testDb.db.select().from(passwordResets).get()!;
    expect(row.tokenHash).toBe(hashResetToken(issued!.token));
    expect(row.tokenHash).not.toContain(issued!.token);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(RESET_TOKEN_TTL_MS);
  });

  it("sends nothing for an unknown email, and says nothing about it", async () => {
    expect(await requestPasswordReset(testDb.db, "nobody@example.com", { baseUrl: "http://x", deliver })).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it("works once, sets the password and ends every session", async () => {
    const { token } = (await requestPasswordReset(testDb.db, "zainab@example.com", { baseUrl: "http://x", deliver }))!;
    testDb.db
      .insert(sessions)
      .values({ id: "s1", accountId, expiresAt: new Date(Date.now() + 60_000) })
      .run();
    const before = testDb.db
      .select({ v: accounts.tokenVersion })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .get()!.v;

    expect(checkResetToken(testDb.db, token).valid).toBe(true);
    expect(await resetPasswordWithToken(testDb.db, token, "brand-new-password")).toEqual({ ok: true, accountId });
    expect(testDb.db.select().from(sessions).all()).toHaveLength(0);
    expect(
      testDb.db.select({ v: accounts.tokenVersion }).from(accounts).where(eq(accounts.id, accountId)).get()!.v,
    ).toBe(before + 1);
    expect(
      (
        await authenticateAtDoor(testDb.db, {
          email: "zainab@example.com",
          password: "brand-new-password",
          door: "member",
        })
      ).ok,
    ).toBe(true);
    expect(
      (await authenticateAtDoor(testDb.db, { email: "zainab@example.com", password: "old-password", door: "member" }))
        .ok,
    ).toBe(false);

    // The same link again: refused.
    expect(checkResetToken(testDb.db, token).valid).toBe(false);
    expect(await resetPasswordWithToken(testDb.db, token, "another-password")).toEqual({ ok: false });
  });

  it("expires after one hour", async () => {
    const issuedAt = new Date("2026-01-01T10:00:00Z");
    const { token } = (await requestPasswordReset(testDb.db, "zainab@example.com", {
      baseUrl: "http://x",
      deliver,
      now: issuedAt,
    }))!;
    const justBefore = new Date(issuedAt.getTime() + RESET_TOKEN_TTL_MS - 1000);
    const justAfter = new Date(issuedAt.getTime() + RESET_TOKEN_TTL_MS + 1000);
    expect(checkResetToken(testDb.db, token, justBefore).valid).toBe(true);
    expect(checkResetToken(testDb.db, token, justAfter).valid).toBe(false);
    expect(await resetPasswordWithToken(testDb.db, token, "brand-new-password", { now: justAfter })).toEqual({
      ok: false,
    });
  });

  it("using one link retires the account's other open links", async () => {
    const first = (await requestPasswordReset(testDb.db, "zainab@example.com", { baseUrl: "http://x", deliver }))!;
    const second = (await requestPasswordReset(testDb.db, "zainab@example.com", { baseUrl: "http://x", deliver }))!;
    expect((await resetPasswordWithToken(testDb.db, second.token, "brand-new-password")).ok).toBe(true);
    expect(checkResetToken(testDb.db, first.token).valid).toBe(false);
  });

  it("never puts a host it was not given in the mail: without the site's address the mail names the path only", async () => {
    const issued = (await requestPasswordReset(testDb.db, "zainab@example.com", { baseUrl: null, deliver }))!;
    expect(sent[0].text).toContain(`the page /reset/${issued.token} of the Kallo site you use`);
    expect(sent[0].text).not.toMatch(/https?:\/\//);
  });

  it("a password change or a block retires every open link", async () => {
    const beforeChange = (await requestPasswordReset(testDb.db, "zainab@example.com", {
      baseUrl: "http://x",
      deliver,
    }))!;
    expect(
      (await changePassword(testDb.db, accountId, { currentPassword: "old-password", password: "changed-password" }))
        .ok,
    ).toBe(true);
    expect(checkResetToken(testDb.db, beforeChange.token).valid).toBe(false);
    const beforeBlock = (await requestPasswordReset(testDb.db, "zainab@example.com", {
      baseUrl: "http://x",
      deliver,
    }))!;
    blockAccount(testDb.db, accountId, { actorId: accountId });
    expect(checkResetToken(testDb.db, beforeBlock.token).valid).toBe(false);
  });

  it("refuses made-up tokens", async () => {
    expect(checkResetToken(testDb.db, "made-up").valid).toBe(false);
    expect(checkResetToken(testDb.db, "").valid).toBe(false);
  });
});

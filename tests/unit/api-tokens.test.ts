import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as ClientModule from "~/db/client.server";
import type { DB } from "~/db/client.server";
import { accounts } from "~/db/schema";
import {
  approveProviderApplication,
  blockAccount,
  rejectProviderApplication,
  unblockAccount,
} from "~/services/account-status.server";
import { setPassword } from "~/services/accounts.server";
import { parseEnv } from "~/utils/env.server";
import { createTestDatabase } from "./helpers/test-db";

let db: DB;
let close: () => void;

vi.mock("~/db/client.server", async (original) => {
  const actual = await original<typeof ClientModule>();
  return { ...actual, getDb: () => db };
});

const { API_TOKEN_TTL_SECONDS, accountFromApiToken, createApiToken } = await import("~/auth/api-tokens.server");

beforeAll(() => {
  ({ db, close } = createTestDatabase());
  db.insert(accounts)
    .values([
      { id: "viewer000001", name: "Amina", email: "v@t.test", phoneNumber: "1", passwordHash: "x" },
      { id: "admin0000001", name: "Admin", email: "a@t.test", phoneNumber: "1", passwordHash: "x", role: "admin" },
      {
        id: "provider0001",
        name: "Studio",
        email: "p@t.test",
        phoneNumber: "1",
        passwordHash: "x",
        role: "provider",
        providerStatus: "approved",
      },
    ])
    .run();
});
afterAll(() => close());

const account = () => ({
  id: "viewer000001",
  role: "viewer" as const,
  tokenVersion: db
    .select()
    .from(accounts)
    .all()
    .find((row) => row.id === "viewer000001")!.tokenVersion,
});

describe("API tokens", () => {
  it("carry userId, exp in seconds and the role flags, and verify back to the account", async () => {
    const token = await createApiToken(account(), Date.UTC(2026, 10, 22));
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ userId: "viewer000001", isUser: true, isAdmin: false, isCp: false, ver: 0 });
    expect(claims.exp).toBe(Date.UTC(2026, 10, 22) / 1000 + API_TOKEN_TTL_SECONDS);
    expect((await accountFromApiToken(await createApiToken(account())))?.id).toBe("viewer000001");
  });

  it("refuse an expired token, another algorithm's or key's signature, and garbage", async () => {
    const expired = await createApiToken(account(), Date.now() - (API_TOKEN_TTL_SECONDS + 60) * 1000);
    expect(await accountFromApiToken(expired)).toBeNull();
    const otherKey = await new SignJWT({ userId: "viewer000001", ver: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("some-other-secret-of-enough-length-000"));
    expect(await accountFromApiToken(otherKey)).toBeNull();
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify({ userId: "admin0000001", ver: 0, exp: 9e9 })).toString("base64url")}.`;
    expect(await accountFromApiToken(unsigned)).toBeNull();
    expect(await accountFromApiToken("")).toBeNull();
    expect(await accountFromApiToken("a.b.c")).toBeNull();
  });

  it("stop working when the account is blocked (even after unblocking) or its password changes", async () => {
    const before = await createApiToken(account());
    blockAccount(db, "viewer000001", { actorId: "admin0000001" });
    expect(await accountFromApiToken(before)).toBeNull();
    unblockAccount(db, "viewer000001", { actorId: "admin0000001" });
    expect(await accountFromApiToken(before)).toBeNull();
    const fresh = await createApiToken(account());
    expect(await accountFromApiToken(fresh)).not.toBeNull();
    await setPassword(db, "viewer000001", "a-new-password-1", { action: "account.password_change" });
    expect(await accountFromApiToken(fresh)).toBeNull();
  });

  it("stop working when a provider is rejected, as when blocked; approval alone does not end them", async () => {
    const provider = () => ({
      id: "provider0001",
      role: "provider" as const,
      tokenVersion: db
        .select()
        .from(accounts)
        .all()
        .find((row) => row.id === "provider0001")!.tokenVersion,
    });
    const token = await createApiToken(provider());
    approveProviderApplication(db, "provider0001", { actorId: "admin0000001" });
    expect(await accountFromApiToken(token)).not.toBeNull();
    rejectProviderApplication(db, "provider0001", { actorId: "admin0000001" });
    expect(await accountFromApiToken(token)).toBeNull();
  });
});

describe("the token secret", () => {
  it("is JWT_SECRET when set, else derived from the session secret (never equal to it)", () => {
    const derived = parseEnv({ SESSION_SECRET: "session-secret-one" });
    expect(derived.jwtSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(derived.jwtSecret).not.toBe("session-secret-one");
    expect(parseEnv({ SESSION_SECRET: "session-secret-two" }).jwtSecret).not.toBe(derived.jwtSecret);
    expect(parseEnv({ SESSION_SECRET: "s", JWT_SECRET: "j".repeat(40) }).jwtSecret).toBe("j".repeat(40));
    expect(() => parseEnv({ JWT_SECRET: "too-short" })).toThrow(/JWT_SECRET/);
  });
});

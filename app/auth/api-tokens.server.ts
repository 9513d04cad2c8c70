import { createHash, randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { getDb } from "~/db/client.server";
import type { Account } from "~/services/accounts.server";
import { getEnv } from "~/utils/env.server";
import { asProfile, getOptionalUser, type SignedInAccount } from "./guards.server";
import { accountAndProfile } from "~/services/profiles.server";
import { getDeviceId } from "./session.server";

/**
 * Tokens for the old clients of /api: HS256 JWTs signed with the server's
 * secret. The payload keeps the original's names (`userId`, `exp` in seconds,
 * `isUser`, `isAdmin`, `isCp`) and adds `ver`, the account's token version.
 * Blocking an account, changing or resetting its password raise that version
 * (services/accounts.server.ts), so every token issued before stops working.
 * See docs/decisions/017-api-tokens.md.
 */
export const API_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
const ALGORITHM = "HS256";

/** `pid`: the profile the token watches as (absent: the account's first). */
type TokenClaims = { userId: string; isUser: boolean; isAdmin: boolean; isCp: boolean; ver: number; pid?: string };

let cachedKey: { secret: string; key: Uint8Array } | undefined;
function signingKey(): Uint8Array {
  const secret = getEnv().jwtSecret;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: new TextEncoder().encode(secret) };
  return cachedKey.key;
}

export function roleFlags(role: Account["role"]) {
  return { isUser: role === "viewer", isAdmin: role === "admin", isCp: role === "provider" };
}

export async function createApiToken(
  account: Pick<Account, "id" | "role" | "tokenVersion">,
  now = Date.now(),
  profileId?: string,
): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  const claims: TokenClaims = {
    userId: account.id,
    ...roleFlags(account.role),
    ver: account.tokenVersion,
    ...(profileId ? { pid: profileId } : {}),
  };
  return (
    new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
      .setSubject(account.id)
      // Unique per sign-in, so two logins in one second are two devices.
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + API_TOKEN_TTL_SECONDS)
      .sign(signingKey())
  );
}

/** The account a token speaks for, or null: bad signature, expired, blocked, or issued before the last block or password change. */
export async function accountFromApiToken(token: string): Promise<SignedInAccount | null> {
  if (!token || token.length > 4096) return null;
  let claims: Partial<TokenClaims>;
  try {
    const verified = await jwtVerify(token, signingKey(), { algorithms: [ALGORITHM] });
    claims = verified.payload as Partial<TokenClaims>;
  } catch {
    return null;
  }
  if (typeof claims.userId !== "string" || typeof claims.ver !== "number") return null;
  // A token made for a profile since deleted is the account's first profile's, as a session's would be.
  const found = accountAndProfile(getDb(), claims.userId, typeof claims.pid === "string" ? claims.pid : null);
  if (!found || found.account.blocked || found.account.tokenVersion !== claims.ver) return null;
  return asProfile(found.account, found.profile, null);
}

/**
 * `deviceId` names the sign-in the call comes from, for the screens limit: the
 * page session for the cookie, the token itself for a Bearer caller (each
 * /api login is one device).
 */
export type ApiCaller = { account: SignedInAccount; via: "bearer" | "cookie"; deviceId: string | null };

/**
 * Who is calling an /api path: the Bearer token when an Authorization header
 * is sent (a bad token is not rescued by a cookie), else the page session
 * cookie. Used by the /api router and by the video route, so `<video src>`
 * works by cookie and a mobile app by token.
 */
export async function getApiCaller(request: Request): Promise<ApiCaller | null> {
  const authorization = request.headers.get("Authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const account = match ? await accountFromApiToken(match[1]) : null;
    return account ? { account, via: "bearer", deviceId: deviceIdForToken(match![1]) } : null;
  }
  const account = await getOptionalUser(request);
  return account ? { account, via: "cookie", deviceId: await getDeviceId(request) } : null;
}

export function deviceIdForToken(token: string): string {
  return createHash("sha256").update(`device-token:${token}`).digest("hex").slice(0, 32);
}

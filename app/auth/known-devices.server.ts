import { createCookie } from "@remix-run/node";
import { accountKey } from "~/services/sign-in-delay.server";
import { getEnv } from "~/utils/env.server";

/**
 * Known devices: a browser that signed in to an account before carries a
 * signed cookie that says so, and a known device is not slowed by the
 * account's failed tries (services/sign-in-delay.server.ts keeps those).
 */

export const KNOWN_DEVICE_COOKIE = "kallo_known";
const KNOWN_ACCOUNTS_KEPT = 5;

let cookie: ReturnType<typeof createCookie> | undefined;
function knownDeviceCookie() {
  // Not Secure here: the server marks every cookie Secure exactly when the request came over https (scripts/serve.ts).
  cookie ??= createCookie(KNOWN_DEVICE_COOKIE, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secrets: getEnv().sessionSecrets,
    maxAge: 60 * 60 * 24 * 365,
  });
  return cookie;
}

async function knownAccountKeys(request: Request): Promise<string[]> {
  const value = await knownDeviceCookie().parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Did this browser sign in to this account before? (A signed cookie: it cannot be made up.) */
export async function isKnownDevice(request: Request, email: string): Promise<boolean> {
  return (await knownAccountKeys(request)).includes(accountKey(email));
}

/** The Set-Cookie value that remembers, on this browser, a good sign-in to this account. */
export async function rememberDevice(request: Request, email: string): Promise<string> {
  const key = accountKey(email);
  const keys = [key, ...(await knownAccountKeys(request)).filter((item) => item !== key)].slice(0, KNOWN_ACCOUNTS_KEPT);
  return knownDeviceCookie().serialize(keys);
}

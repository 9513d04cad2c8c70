import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import type { DB } from "~/db/client.server";
import { passwordHashBySignInName, signInKey } from "~/services/accounts.server";
import { accountKey } from "~/services/sign-in-delay.server";
import { getEnv } from "~/utils/env.server";

/**
 * Known devices: a browser that signed in to an account before carries a signed cookie that says so, and
 * a known device is not held by failures other devices made (the network's, the service's brake, the
 * account's delay). What it says is bound to the account's password as it was then: a password change
 * ends every device's standing, and the cookie is no licence to guess — a known device's own wrong
 * passwords are counted for it alone (rate-limit.server.ts, KNOWN_DEVICE_FAILURES), and past a few it is
 * a new device like any other. Its wrong guesses never slow the owner's other devices.
 */

export const KNOWN_DEVICE_COOKIE = "kallo_known";
const KNOWN_ACCOUNTS_KEPT = 5;

type KnownValue = { device: string; accounts: string[] };

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

async function readKnown(request: Request): Promise<KnownValue | null> {
  const value = (await knownDeviceCookie().parse(request.headers.get("Cookie"))) as unknown;
  // The cookie of earlier versions (a bare list, not bound to passwords) makes no device known.
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const { device, accounts: list } = value as Partial<KnownValue>;
  if (typeof device !== "string" || !Array.isArray(list)) return null;
  return { device, accounts: list.filter((item): item is string => typeof item === "string") };
}

/** The account and the password it has now, as one short mark (a new password, a new mark). */
function standing(email: string, passwordHash: string): string {
  const tag = createHash("sha256").update(`known-device:${passwordHash}`).digest("hex").slice(0, 16);
  return `${accountKey(signInKey(email))}.${tag}`;
}

/**
 * This browser's id when it signed in to this account before with the password the account has now (a
 * signed cookie: it cannot be made up), else null.
 */
export async function knownDeviceId(db: DB, request: Request, email: string): Promise<string | null> {
  const known = await readKnown(request);
  if (!known) return null;
  const hash = passwordHashBySignInName(db, email);
  return hash && known.accounts.includes(standing(email, hash)) ? known.device : null;
}

/** The Set-Cookie value that remembers, on this browser, a good sign-in to this account with its password now. */
export async function rememberDevice(db: DB, request: Request, email: string): Promise<string | null> {
  const hash = passwordHashBySignInName(db, email);
  if (!hash) return null;
  const known = await readKnown(request);
  const mark = standing(email, hash);
  const key = accountKey(signInKey(email));
  const others = (known?.accounts ?? []).filter((item) => !item.startsWith(`${key}.`));
  return knownDeviceCookie().serialize({
    device: known?.device ?? randomBytes(12).toString("base64url"),
    accounts: [mark, ...others].slice(0, KNOWN_ACCOUNTS_KEPT),
  } satisfies KnownValue);
}

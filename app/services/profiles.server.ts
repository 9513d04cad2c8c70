import { and, asc, count, eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { accounts, profiles, sessions } from "~/db/schema";
import { PROFILE_AVATARS, type ProfileAvatar } from "~/db/age-ratings";
import { createId } from "~/utils/ids.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { recordAudit } from "./audit.server";
import { accountColumns, type Account } from "./accounts.server";
import { qualified } from "~/db/sql";
import { consumeRateLimit, refundRateLimit } from "./rate-limit.server";

/**
 * Profiles: who is watching on an account. Each has its own history, Continue
 * watching, lists and downloads; a children's profile sees only G and PG titles
 * (catalogue.server.ts, childrenOnly). The account's first profile has the
 * account's id and is made with it (drizzle/0023's trigger). A device keeps the
 * chosen profile on its session row; an API token carries it.
 *
 * The PIN (four digits, one per account, hashed as passwords are) guards leaving
 * a children's profile and opening a locked one. PIN_TRIES wrong PINs in a row
 * hold it for PIN_HOLD_MS; the owner resets it with the password (or an SMS code).
 */
export const PROFILES_MAX = 5;
export const PROFILE_NAME_MAX = 30;
export const PIN_TRIES = 5;
export const PIN_HOLD_MS = 15 * 60 * 1000;

export type Profile = {
  id: string;
  accountId: string;
  name: string;
  avatar: ProfileAvatar;
  language: string | null;
  dataSaver: boolean | null;
  children: boolean;
  locked: boolean;
};

const columns = {
  id: profiles.id,
  accountId: profiles.accountId,
  name: profiles.name,
  avatar: profiles.avatar,
  language: profiles.language,
  dataSaver: profiles.dataSaver,
  children: profiles.children,
  locked: profiles.locked,
};

export function isProfileAvatar(value: unknown): value is ProfileAvatar {
  return typeof value === "string" && (PROFILE_AVATARS as readonly string[]).includes(value);
}

// Read on every signed-in request: prepared once.
const accountProfiles = preparedQuery((db) =>
  db
    .select(columns)
    .from(profiles)
    .where(eq(profiles.accountId, sql.placeholder("accountId")))
    .orderBy(asc(profiles.createdAt), asc(profiles.id))
    .prepare(),
);

/** An account's profiles, oldest first. */
export function listProfiles(db: DB, accountId: string): Profile[] {
  return accountProfiles(db).all({ accountId });
}

/**
 * A signed-in account with the profile its device uses (the one it chose while
 * it exists, else the account's first), in one statement: every signed-in page
 * reads it. Undefined when there is no such account.
 */
const accountWithProfile = preparedQuery((db) =>
  db
    .select({
      ...accountColumns,
      profile: columns,
    })
    .from(accounts)
    .leftJoin(
      profiles,
      sql`${profiles.id} = coalesce(
        (SELECT chosen.id FROM profiles AS chosen WHERE chosen.id = ${sql.placeholder("chosen")} AND chosen.account_id = ${qualified(accounts.id)}),
        (SELECT first.id FROM profiles AS first WHERE first.account_id = ${qualified(accounts.id)} ORDER BY first.created_at, first.id LIMIT 1))`,
    )
    .where(eq(accounts.id, sql.placeholder("id")))
    .prepare(),
);

export function accountAndProfile(
  db: DB,
  accountId: string,
  chosenId: string | null | undefined,
): { account: Account; profile: Profile } | undefined {
  const row = accountWithProfile(db).get({ id: accountId, chosen: chosenId ?? "" });
  if (!row) return undefined;
  const { profile, ...account } = row;
  // The statement already chose (the device's profile, else the first): nothing left to look for.
  return { account, profile: profile ?? profileless(accountId) };
}

/**
 * What a device watches as when the account has no profile row at all (never, while the trigger makes
 * one with every account and the last is never deleted): the account's own id, as its first would have.
 */
function profileless(accountId: string): Profile {
  return {
    id: accountId,
    accountId,
    name: "",
    avatar: "sun",
    language: null,
    dataSaver: null,
    children: false,
    locked: false,
  };
}

export function getProfile(db: DB, accountId: string, profileId: string): Profile | undefined {
  return db
    .select(columns)
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.accountId, accountId)))
    .get();
}

export type ProfileInput = {
  name: string;
  avatar: ProfileAvatar;
  language: string | null;
  dataSaver: boolean | null;
  children: boolean;
  locked: boolean;
};

export type ProfileRefusal = "tooMany" | "last" | "notFound" | "pinNeeded";

/** A new profile (at most PROFILES_MAX); a children's or locked one needs the account's PIN set first. */
export function createProfile(
  db: DB,
  accountId: string,
  input: ProfileInput,
): { ok: true; profile: Profile } | { ok: false; reason: ProfileRefusal } {
  if ((input.children || input.locked) && !hasPin(db, accountId)) return { ok: false, reason: "pinNeeded" };
  const id = createId();
  const made = db.transaction((tx) => {
    const [{ n }] = tx.select({ n: count() }).from(profiles).where(eq(profiles.accountId, accountId)).all();
    if (n >= PROFILES_MAX) return false;
    tx.insert(profiles)
      .values({ id, accountId, ...input })
      .run();
    recordAudit(tx, { actorId: accountId, action: "profile.create", targetType: "profile", targetId: id });
    return true;
  });
  if (!made) return { ok: false, reason: "tooMany" };
  return { ok: true, profile: getProfile(db, accountId, id)! };
}

export function updateProfileSettings(
  db: DB,
  accountId: string,
  profileId: string,
  input: ProfileInput,
): { ok: true } | { ok: false; reason: ProfileRefusal } {
  if ((input.children || input.locked) && !hasPin(db, accountId)) return { ok: false, reason: "pinNeeded" };
  const changed = db
    .update(profiles)
    .set(input)
    .where(and(eq(profiles.id, profileId), eq(profiles.accountId, accountId)))
    .run().changes;
  return changed ? { ok: true } : { ok: false, reason: "notFound" };
}

/** Delete a profile and what was only its own (lists, dismissals); its viewings stay, nameless, in the counts. Never the last. */
export function deleteProfile(
  db: DB,
  accountId: string,
  profileId: string,
): { ok: true } | { ok: false; reason: ProfileRefusal } {
  return db.transaction((tx) => {
    const [{ n }] = tx.select({ n: count() }).from(profiles).where(eq(profiles.accountId, accountId)).all();
    const target = tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.id, profileId), eq(profiles.accountId, accountId)))
      .get();
    if (!target) return { ok: false as const, reason: "notFound" as const };
    if (n <= 1) return { ok: false as const, reason: "last" as const };
    tx.delete(profiles).where(eq(profiles.id, profileId)).run();
    recordAudit(tx, { actorId: accountId, action: "profile.delete", targetType: "profile", targetId: profileId });
    return { ok: true as const };
  });
}

/** This device now watches as `profileId` (the caller has checked the PIN where one is needed). */
export function chooseProfile(db: DB, sessionId: string, profileId: string): void {
  db.update(sessions).set({ profileId }).where(eq(sessions.id, sessionId)).run();
}

/** Whether moving from `current` to `next` asks the PIN: leaving a children's profile, or opening a locked one. */
export function switchNeedsPin(
  current: Pick<Profile, "id" | "children"> | null,
  next: Pick<Profile, "id" | "locked">,
): boolean {
  if (current && current.id === next.id) return false;
  return Boolean(current?.children) || next.locked;
}

const pinState = preparedQuery((db) =>
  db
    .select({ hash: accounts.profilePinHash, failures: accounts.pinFailures, lockedUntil: accounts.pinLockedUntil })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder("accountId")))
    .prepare(),
);

export function hasPin(db: DB, accountId: string): boolean {
  return Boolean(pinState(db).get({ accountId })?.hash);
}

export const PIN_PATTERN = /^\d{4}$/;

export function isPin(value: unknown): value is string {
  return typeof value === "string" && PIN_PATTERN.test(value);
}

/** Set (or replace) the account's PIN; the count of wrong tries starts again. */
export async function setPin(db: DB, accountId: string, pin: string): Promise<void> {
  if (!isPin(pin)) throw new Error("A PIN is four digits");
  const hash = await hashPassword(pin);
  db.update(accounts)
    .set({ profilePinHash: hash, pinFailures: 0, pinLockedUntil: null })
    .where(eq(accounts.id, accountId))
    .run();
  recordAudit(db, { actorId: accountId, action: "profile.pin_set", targetType: "account", targetId: accountId });
}

export type PinCheck =
  | { ok: true }
  | { ok: false; reason: "wrong"; triesLeft: number }
  | { ok: false; reason: "held"; retryAfterSeconds: number }
  | { ok: false; reason: "noPin" };

/**
 * Check a PIN. A try is counted before the hash is compared (in one statement,
 * so parallel guesses each count); a right PIN starts the count again.
 */
export async function checkPin(db: DB, accountId: string, pin: string, now = new Date()): Promise<PinCheck> {
  const state = pinState(db).get({ accountId });
  if (!state?.hash) return { ok: false, reason: "noPin" };
  if (state.lockedUntil && state.lockedUntil.getTime() > now.getTime())
    return {
      ok: false,
      reason: "held",
      retryAfterSeconds: Math.ceil((state.lockedUntil.getTime() - now.getTime()) / 1000),
    };
  const counted = db.$client
    .prepare(
      `UPDATE accounts SET pin_failures = pin_failures + 1,
         pin_locked_until = CASE WHEN pin_failures + 1 >= ? THEN ? ELSE NULL END
       WHERE id = ? AND (pin_locked_until IS NULL OR pin_locked_until <= ?) RETURNING pin_failures AS failures`,
    )
    .get(PIN_TRIES, now.getTime() + PIN_HOLD_MS, accountId, now.getTime()) as { failures: number } | undefined;
  if (!counted) return { ok: false, reason: "held", retryAfterSeconds: Math.ceil(PIN_HOLD_MS / 1000) };
  if (isPin(pin) && (await verifyPassword(pin, state.hash))) {
    db.update(accounts).set({ pinFailures: 0, pinLockedUntil: null }).where(eq(accounts.id, accountId)).run();
    return { ok: true };
  }
  if (counted.failures >= PIN_TRIES)
    return { ok: false, reason: "held", retryAfterSeconds: Math.ceil(PIN_HOLD_MS / 1000) };
  return { ok: false, reason: "wrong", triesLeft: PIN_TRIES - counted.failures };
}

/** Who a per-person service reads and writes for: the account (what it owns) and the profile watching (whose it is). */
export type Viewer = { id: string; profile: Pick<Profile, "id" | "children"> };

/** A viewer as the watching services take it for what they write (a viewing, a comment, a rating). */
export function byProfile(viewer: Viewer): { accountId: string; profileId: string; children: boolean } {
  return { accountId: viewer.id, profileId: viewer.profile.id, children: viewer.profile.children };
}

/**
 * Where a fresh sign-in goes: "Who's watching?" first when the account has two
 * profiles or more (and uses the viewer's pages), then on to `target`.
 */
export function afterSignInPath(db: DB, account: { id: string; role: string }, target: string): string {
  if (account.role === "provider" || listProfiles(db, account.id).length < 2) return target;
  return `/profiles?${new URLSearchParams({ who: "1", redirectTo: target })}`;
}

/** Keep a language with the profile watching (the language switch): it speaks it when chosen again. */
export function setProfileLanguage(db: DB, profileId: string, language: string): void {
  db.update(profiles).set({ language }).where(eq(profiles.id, profileId)).run();
}

/** Keep the profile's data-saver choice. */
export function setProfileDataSaver(db: DB, profileId: string, on: boolean): void {
  db.update(profiles).set({ dataSaver: on }).where(eq(profiles.id, profileId)).run();
}

export type PinSetting = { ok: true } | { ok: false; field: "pin" | "password"; key: string };

/**
 * The owner sets (or, having forgotten it, replaces) the PIN by proving the
 * account's password: tries are bounded as a password change's are.
 */
export async function setPinWithPassword(
  db: DB,
  accountId: string,
  input: { pin: string; password: string },
  context: { ipAddress?: string | null } = {},
): Promise<PinSetting> {
  if (!isPin(input.pin)) return { ok: false, field: "pin", key: "profiles:errors.pinFormat" };
  const keys = { address: context.ipAddress ?? "unknown", account: accountId };
  const limit = await consumeRateLimit("currentPassword", keys, db);
  if (!limit.ok) return { ok: false, field: "password", key: "auth:validation.currentPasswordTooMany" };
  const row = db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, accountId)).get();
  if (!row || !input.password || !(await verifyPassword(input.password.slice(0, 200), row.hash)))
    return { ok: false, field: "password", key: "profiles:errors.passwordWrong" };
  await refundRateLimit("currentPassword", keys, db);
  await setPin(db, accountId, input.pin);
  return { ok: true };
}

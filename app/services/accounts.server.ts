import { and, count, desc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { accounts, passwordResets, sessions, type Role } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { looksLikePhoneNumber, readPhoneNumber } from "./phone/numbers.server";
import { recordAudit } from "./audit.server";
import { hashPassword, verifyPassword, type HashWait } from "./passwords.server";
import { consumeRateLimit, recordFailure, refundRateLimit } from "./rate-limit.server";
import type {
  ChangePasswordInput,
  FieldErrors,
  ProfileInput,
  ProviderProfileInput,
  ProviderRegistrationInput,
  RegistrationInput,
} from "./validation";

/**
 * Accounts: registration, the two sign-in doors, profile, passwords, blocking
 * and provider applications. Plain functions over the database, used by the
 * pages, the administrator's tables and the /api router alike.
 */

export type Account = {
  id: string;
  name: string;
  /** Null for an account made with a phone number. */
  email: string | null;
  phoneNumber: string;
  /** The number proven by a code (E.164): a way in. */
  verifiedPhone: string | null;
  smsNotices: boolean;
  role: Role;
  providerName: string | null;
  providerStatus: "pending" | "approved" | "rejected" | null;
  blocked: boolean;
  tokenVersion: number;
  /** Data saver (240p at most): null follows the browser's Save-Data header. */
  dataSaver: boolean | null;
  createdAt: Date;
};

/** Viewers and administrators sign in at /login; providers at /cp. One email, one door. */
export type Door = "member" | "provider";
export const DOOR_ROLES: Record<Door, readonly Role[]> = { member: ["viewer", "admin"], provider: ["provider"] };

export const EMAIL_TAKEN = "auth:validation.emailTaken";
/** An account keeps a way in: no email without a verified number. */
export const EMAIL_NEEDED = "auth:validation.emailNeededWithoutPhone";
export const CURRENT_PASSWORD_WRONG = "auth:validation.currentPasswordWrong";
export const CURRENT_PASSWORD_TOO_MANY = "auth:validation.currentPasswordTooMany";

export const accountColumns = {
  id: accounts.id,
  name: accounts.name,
  email: accounts.email,
  phoneNumber: accounts.phoneNumber,
  verifiedPhone: accounts.verifiedPhone,
  smsNotices: accounts.smsNotices,
  role: accounts.role,
  providerName: accounts.providerName,
  providerStatus: accounts.providerStatus,
  blocked: accounts.blocked,
  tokenVersion: accounts.tokenVersion,
  dataSaver: accounts.dataSaver,
  createdAt: accounts.createdAt,
};

type Context = { actorId?: string | null; ipAddress?: string | null };

export type WriteResult<T> = { ok: true; value: T } | { ok: false; fieldErrors: FieldErrors };

// Every signed-in page asks this (the guards): prepared once.
const accountById = preparedQuery((db) =>
  db
    .select(accountColumns)
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder("id")))
    .prepare(),
);

export function getAccountById(db: DB, id: string): Account | undefined {
  return accountById(db).get({ id });
}

export function findAccountByEmail(db: DB, email: string): Account | undefined {
  return db.select(accountColumns).from(accounts).where(eq(accounts.email, email.trim().toLowerCase())).get();
}

/**
 * What a person signs in with, read once: an email (lower-cased) or a phone number (E.164). Every
 * sign-in limit and the known-device note are keyed by this reading.
 */
export type SignInName = { kind: "email"; value: string } | { kind: "phone"; value: string };

/** The name this account signs in with on this device's note: its email, else its number. */
export function signInNameOf(account: Pick<Account, "email" | "verifiedPhone" | "id">): string {
  return account.email ?? account.verifiedPhone ?? account.id;
}

/**
 * Read the sign-in field (named `email` on every form, for the old clients): a phone number in any common
 * form of an allowed country, else an email. Null for a number no account can have.
 */
export function readSignInName(written: string): SignInName | null {
  const trimmed = written.trim();
  if (!looksLikePhoneNumber(trimmed)) return { kind: "email", value: trimmed.toLowerCase() };
  const phone = readPhoneNumber(trimmed, getEnv().sms.countries);
  return phone.ok ? { kind: "phone", value: phone.e164 } : null;
}

/** The key of the sign-in limits for a written name: the same person typing 0803… or +234803… is one key. */
export function signInKey(written: string): string {
  return readSignInName(written)?.value ?? written.trim().toLowerCase();
}

function whereSignInName(name: SignInName) {
  return name.kind === "email" ? eq(accounts.email, name.value) : eq(accounts.verifiedPhone, name.value);
}

/** The password hash of the account a written sign-in name reaches (the known-device note is tied to it). */
export function passwordHashBySignInName(db: DB, written: string): string | null {
  const name = readSignInName(written);
  if (!name) return null;
  return (
    db.select({ passwordHash: accounts.passwordHash }).from(accounts).where(whereSignInName(name)).get()
      ?.passwordHash ?? null
  );
}

function emailTaken(db: DB, email: string, exceptId?: string): boolean {
  const found = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).get();
  return Boolean(found && found.id !== exceptId);
}

export function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    "code" in error &&
    String((error as { code: unknown }).code).startsWith("SQLITE_CONSTRAINT")
  );
}

async function insertAccount(
  db: DB,
  values: {
    name: string;
    email: string;
    phoneNumber: string;
    password: string;
    role: Role;
    providerName?: string;
    providerStatus?: "pending" | "approved";
    blocked?: boolean;
  },
  audit: { action: "account.register" | "account.provider_apply" | "account.provider_create"; context: Context },
): Promise<WriteResult<Account>> {
  if (emailTaken(db, values.email)) {
    // This answer tells whether an email has an account: on the public forms it counts against the address.
    if (audit.action !== "account.provider_create" && audit.context.ipAddress)
      await recordFailure("register", audit.context.ipAddress, db);
    return { ok: false, fieldErrors: { email: [EMAIL_TAKEN] } };
  }
  const written = writeAccount(
    db,
    {
      name: values.name,
      email: values.email,
      phoneNumber: values.phoneNumber,
      passwordHash: await hashPassword(values.password),
      role: values.role,
      providerName: values.providerName ?? null,
      providerStatus: values.providerStatus ?? null,
      blocked: values.blocked ?? false,
    },
    { action: audit.action, ...audit.context },
  );
  // Two registrations racing for one email: the unique index decides.
  if (!written.ok) return { ok: false, fieldErrors: { email: [EMAIL_TAKEN] } };
  return { ok: true, value: written.account };
}

/**
 * A new account's row and its audit entry, in one transaction. `taken` when a unique index (an email, a
 * verified number) already names someone else: the last word on two sign-ups racing for one.
 */
export function writeAccount(
  db: DB,
  row: Omit<typeof accounts.$inferInsert, "id">,
  audit: {
    action: "account.register" | "account.provider_apply" | "account.provider_create";
    details?: Record<string, unknown>;
  } & Context,
): { ok: true; account: Account } | { ok: false; reason: "taken" } {
  const id = createId();
  try {
    db.transaction((tx) => {
      tx.insert(accounts)
        .values({ ...row, id })
        .run();
      recordAudit(tx, {
        actorId: audit.actorId ?? id,
        action: audit.action,
        targetType: "account",
        targetId: id,
        details: audit.details,
        ipAddress: audit.ipAddress,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "taken" };
    throw error;
  }
  return { ok: true, account: getAccountById(db, id)! };
}

/** A registration with an email (one without goes by a code to its phone: phone/codes.server.ts). */
export function registerViewer(db: DB, input: RegistrationInput & { email: string }, context: Context = {}) {
  return insertAccount(
    db,
    { name: input.name, email: input.email, phoneNumber: input.phoneNumber, password: input.password, role: "viewer" },
    { action: "account.register", context },
  );
}

/** A provider's account as both doors make it: the provider's name is also the account's. */
function providerAccount(input: ProviderRegistrationInput) {
  return {
    name: input.providerName,
    providerName: input.providerName,
    email: input.email,
    phoneNumber: input.phoneNumber,
    password: input.password,
    role: "provider" as const,
  };
}

/** A provider application waits, pending and blocked, until an administrator approves it. */
export function applyAsProvider(db: DB, input: ProviderRegistrationInput, context: Context = {}) {
  return insertAccount(
    db,
    { ...providerAccount(input), providerStatus: "pending", blocked: true },
    { action: "account.provider_apply", context },
  );
}

/** An administrator registers a provider directly: approved and able to sign in at once. */
export function createProvider(db: DB, input: ProviderRegistrationInput, context: Context & { actorId: string }) {
  return insertAccount(
    db,
    { ...providerAccount(input), providerStatus: "approved" },
    { action: "account.provider_create", context },
  );
}

export type SignInFailureReason = "invalid" | "blocked" | "pending";
export type SignInResult = { ok: true; account: Account } | { ok: false; reason: SignInFailureReason };

// Verified against when the email is unknown, so a wrong email costs as long as a wrong password.
let decoyHash: Promise<string> | undefined;

/**
 * Check a password at one door. The password is checked before anything else
 * is said about the account, so "blocked" never tells a stranger an email exists.
 */
export async function authenticateAtDoor(
  db: DB,
  input: { email: string; password: string; door: Door },
  context: Context & HashWait = {},
): Promise<SignInResult> {
  const name = readSignInName(input.email);
  const row = name
    ? db
        .select({ ...accountColumns, passwordHash: accounts.passwordHash })
        .from(accounts)
        .where(whereSignInName(name))
        .get()
    : undefined;
  // Made once (a failed making is tried again by the next sign-in).
  decoyHash ??= hashPassword("decoy-password-never-used").catch((error: unknown) => {
    decoyHash = undefined;
    throw error;
  });
  const passwordOk = await verifyPassword(input.password, row?.passwordHash ?? (await decoyHash), {
    timeoutMs: context.timeoutMs,
    signal: context.signal,
  });

  const fail = (reason: SignInFailureReason): SignInResult => {
    recordAudit(db, {
      actorId: row && passwordOk ? row.id : null,
      action: "auth.sign_in_failed",
      targetType: "account",
      targetId: row?.id ?? null,
      details: { door: input.door, reason },
      ipAddress: context.ipAddress,
    });
    return { ok: false, reason };
  };

  if (!row || !passwordOk || !DOOR_ROLES[input.door].includes(row.role)) return fail("invalid");
  if (row.role === "provider" && row.providerStatus !== "approved")
    return fail(row.providerStatus === "pending" ? "pending" : "blocked");
  if (row.blocked) return fail("blocked");

  recordAudit(db, {
    actorId: row.id,
    action: "auth.sign_in",
    targetType: "account",
    targetId: row.id,
    details: { door: input.door },
    ipAddress: context.ipAddress,
  });
  const { passwordHash: _passwordHash, ...account } = row;
  return { ok: true, account };
}

export function updateProfile(
  db: DB,
  accountId: string,
  input: ProfileInput | ProviderProfileInput,
  context: Context = {},
): WriteResult<Account> {
  if (input.email && emailTaken(db, input.email, accountId))
    return { ok: false, fieldErrors: { email: [EMAIL_TAKEN] } };
  const before = getAccountById(db, accountId);
  if (!before) throw new Error(`No account ${accountId}`);
  if (!input.email && !before.verifiedPhone) return { ok: false, fieldErrors: { email: [EMAIL_NEEDED] } };
  try {
    db.transaction((tx) => {
      tx.update(accounts)
        .set({
          name: input.name,
          email: input.email,
          phoneNumber: input.phoneNumber,
          ...("providerName" in input && before.role === "provider" ? { providerName: input.providerName } : {}),
          updatedAt: new Date(),
        })
        .where(eq(accounts.id, accountId))
        .run();
      const changed = (["name", "email", "phoneNumber", "providerName"] as const).filter(
        (field) => field in input && (input as Record<string, string>)[field] !== before[field],
      );
      recordAudit(tx, {
        actorId: context.actorId ?? accountId,
        action: "account.profile_update",
        targetType: "account",
        targetId: accountId,
        details: { changed },
        ipAddress: context.ipAddress,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, fieldErrors: { email: [EMAIL_TAKEN] } };
    throw error;
  }
  return { ok: true, value: getAccountById(db, accountId)! };
}

/** End every session of an account (all devices), or every one but `exceptSessionId`. */
/**
 * End the account's sessions (all, or all but this one) and retire its open
 * password-reset links: a password change or a block leaves no way back in
 * through an old mail.
 */
export function endSessions(db: Pick<DB, "delete" | "update">, accountId: string, exceptSessionId?: string): void {
  const condition: SQL | undefined = exceptSessionId
    ? and(eq(sessions.accountId, accountId), sql`${sessions.id} <> ${exceptSessionId}`)
    : eq(sessions.accountId, accountId);
  db.delete(sessions).where(condition).run();
  db.update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.accountId, accountId), isNull(passwordResets.usedAt)))
    .run();
}

/**
 * Store a new password and end every session (and, through tokenVersion,
 * every API token) of the account. The caller starts a fresh session if the
 * person should stay signed in here.
 */
export async function setPassword(
  db: DB,
  accountId: string,
  newPassword: string,
  audit: { action: "account.password_change" | "account.password_reset" } & Context,
): Promise<void> {
  const passwordHash = await hashPassword(newPassword);
  db.transaction((tx) => {
    tx.update(accounts)
      .set({ passwordHash, tokenVersion: sql`${accounts.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(accounts.id, accountId))
      .run();
    endSessions(tx, accountId);
    recordAudit(tx, {
      actorId: audit.actorId ?? accountId,
      action: audit.action,
      targetType: "account",
      targetId: accountId,
      ipAddress: audit.ipAddress,
    });
  });
}

export async function changePassword(
  db: DB,
  accountId: string,
  input: Pick<ChangePasswordInput, "currentPassword" | "password">,
  context: Context = {},
): Promise<WriteResult<null>> {
  const keys = { address: context.ipAddress ?? "unknown", account: accountId };
  const limit = await consumeRateLimit("currentPassword", keys, db);
  if (!limit.ok) return { ok: false, fieldErrors: { currentPassword: [CURRENT_PASSWORD_TOO_MANY] } };
  const row = db.select({ passwordHash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, accountId)).get();
  if (!row || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
    return { ok: false, fieldErrors: { currentPassword: [CURRENT_PASSWORD_WRONG] } };
  }
  await refundRateLimit("currentPassword", keys, db);
  await setPassword(db, accountId, input.password, { action: "account.password_change", ...context });
  return { ok: true, value: null };
}

export type AccountListQuery = {
  role: Role;
  search?: string;
  providerStatus?: "pending" | "approved" | "rejected";
  page?: number;
  pageSize?: number;
};

/** One page of accounts of a role, newest first, optionally searched by name, email, phone or provider name. */
export function listAccounts(
  db: DB,
  query: AccountListQuery,
): { rows: Account[]; total: number; page: number; pageSize: number } {
  const pageSize = Math.min(Math.max(query.pageSize ?? 20, 1), 100);
  const page = Math.max(query.page ?? 1, 1);
  const conditions: SQL[] = [eq(accounts.role, query.role)];
  if (query.providerStatus) conditions.push(eq(accounts.providerStatus, query.providerStatus));
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    const matches = (column: SQL) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;
    conditions.push(
      or(
        matches(sql`${accounts.name}`),
        matches(sql`${accounts.email}`),
        matches(sql`${accounts.phoneNumber}`),
        matches(sql`coalesce(${accounts.providerName}, '')`),
      )!,
    );
  }
  const where = and(...conditions);
  const total = db.select({ value: count() }).from(accounts).where(where).get()?.value ?? 0;
  const rows = db
    .select(accountColumns)
    .from(accounts)
    .where(where)
    .orderBy(desc(accounts.createdAt), accounts.id)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  return { rows, total, page, pageSize };
}

/** The language a person chose last (what reaches them away from the site, by SMS, speaks it). */
export function setAccountLanguage(db: DB, accountId: string, language: string): void {
  db.update(accounts).set({ language }).where(eq(accounts.id, accountId)).run();
}

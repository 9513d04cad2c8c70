import { eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, phoneCodes } from "~/db/schema";
import { getAccountById, isUniqueViolation, setPassword, writeAccount, type Account } from "../accounts.server";
import { recordAudit } from "../audit.server";
import type { Language } from "~/i18n/config";
import { getEnv } from "~/utils/env.server";
import { hashPassword } from "../passwords.server";
import { isPin, setPin } from "../profiles.server";
import { capRefusal, checkPhoneCode, startPhoneCode, type CodeRefusal, type RedeemedCode } from "./codes.server";
import { readPhoneNumber } from "./numbers.server";

/**
 * What a right code does, by what it was asked for: a sign-up becomes an
 * account (signed in), a sign-in signs in, a reset sets the password, an
 * added number becomes the account's way in. One account per number: the
 * unique index has the last word.
 */
export type Redemption =
  | { ok: true; purpose: "sign_up" | "sign_in" | "reset"; account: Account; redirectTo: string | null }
  | { ok: true; purpose: "add_phone" | "pin_reset"; account: Account; redirectTo: string | null }
  | { ok: false; reason: "wrong"; triesLeft: number }
  | { ok: false; reason: "expired" | "taken" | "blocked" | "passwordNeeded" | "pinNeeded" };

type Context = { ipAddress?: string | null; now?: Date };

export async function redeemPhoneCode(
  db: DB,
  id: string,
  typed: string,
  input: { newPassword?: string; newPin?: string; signedInAccountId?: string | null },
  context: Context = {},
): Promise<Redemption> {
  const now = context.now ?? new Date();
  // A reset takes its new password with the code: the code is not spent on a form that cannot finish.
  const purpose = db
    .select({ purpose: phoneCodes.purpose, accountId: phoneCodes.accountId })
    .from(phoneCodes)
    .where(eq(phoneCodes.id, id))
    .get();
  if (purpose?.purpose === "reset" && !input.newPassword) return { ok: false, reason: "passwordNeeded" };
  if (purpose?.purpose === "pin_reset" && !isPin(input.newPin)) return { ok: false, reason: "pinNeeded" };
  // A number is added, and a PIN replaced, for the account that asked, by that account only.
  if (
    (purpose?.purpose === "add_phone" || purpose?.purpose === "pin_reset") &&
    purpose.accountId !== input.signedInAccountId
  )
    return { ok: false, reason: "expired" };
  const checked = checkPhoneCode(db, id, typed, now);
  if (!checked.ok) return checked;
  const row = checked.row;
  switch (row.purpose) {
    case "sign_up":
      return createPhoneAccount(db, row, context);
    case "add_phone":
      return addVerifiedPhone(db, row, context);
    case "pin_reset": {
      // The profiles' PIN, forgotten: the code sent to the account's own number stands for its password.
      const account = row.accountId ? getAccountById(db, row.accountId) : undefined;
      if (!account || account.verifiedPhone !== row.phone) return { ok: false, reason: "expired" };
      await setPin(db, account.id, input.newPin!);
      return { ok: true, purpose: "pin_reset", account, redirectTo: row.redirectTo };
    }
    case "sign_in":
    case "reset": {
      const account = row.accountId ? getAccountById(db, row.accountId) : undefined;
      if (!account || account.verifiedPhone !== row.phone) return { ok: false, reason: "expired" };
      if (account.blocked) return { ok: false, reason: "blocked" };
      if (row.purpose === "reset") {
        await setPassword(db, account.id, input.newPassword!, {
          action: "account.password_reset",
          actorId: account.id,
          ipAddress: context.ipAddress,
        });
      } else {
        recordAudit(db, {
          actorId: account.id,
          action: "auth.sign_in",
          targetType: "account",
          targetId: account.id,
          details: { door: "code" },
          ipAddress: context.ipAddress,
        });
      }
      return { ok: true, purpose: row.purpose, account, redirectTo: row.redirectTo };
    }
  }
}

function createPhoneAccount(db: DB, row: RedeemedCode, context: Context): Redemption {
  const pending = row.pending;
  if (!pending) return { ok: false, reason: "expired" };
  const written = writeAccount(
    db,
    {
      name: pending.name,
      email: pending.email,
      phoneNumber: row.phone,
      verifiedPhone: row.phone,
      // A person who signs up by phone chose the phone: notices come by SMS until the switch says otherwise.
      smsNotices: true,
      language: pending.language,
      passwordHash: pending.passwordHash,
      role: "viewer",
    },
    { action: "account.register", details: { by: "phone" }, ipAddress: context.ipAddress },
  );
  if (!written.ok) return written;
  return { ok: true, purpose: "sign_up", account: written.account, redirectTo: row.redirectTo };
}

function addVerifiedPhone(db: DB, row: RedeemedCode, context: Context): Redemption {
  if (!row.accountId) return { ok: false, reason: "expired" };
  try {
    db.transaction((tx) => {
      tx.update(accounts)
        .set({ verifiedPhone: row.phone, updatedAt: new Date() })
        .where(eq(accounts.id, row.accountId!))
        .run();
      recordAudit(tx, {
        actorId: row.accountId,
        action: "account.profile_update",
        targetType: "account",
        targetId: row.accountId!,
        details: { changed: ["verifiedPhone"] },
        ipAddress: context.ipAddress,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "taken" };
    throw error;
  }
  return { ok: true, purpose: "add_phone", account: getAccountById(db, row.accountId)!, redirectTo: row.redirectTo };
}

/**
 * The profile's switch: notices by SMS on or off (STOP at the gateway turns it off too). On needs a
 * verified number: false, and nothing changed, without one.
 */
export function setSmsNotices(db: DB, account: Pick<Account, "id" | "verifiedPhone">, on: boolean): boolean {
  if (on && !account.verifiedPhone) return false;
  db.update(accounts).set({ smsNotices: on, updatedAt: new Date() }).where(eq(accounts.id, account.id)).run();
  return true;
}

/** Remove the account's number as a way in (never the only one: a phone-only account keeps it). */
export function removeVerifiedPhone(db: DB, accountId: string): boolean {
  const account = getAccountById(db, accountId);
  if (!account?.email) return false;
  db.update(accounts)
    .set({ verifiedPhone: null, smsNotices: false, updatedAt: new Date() })
    .where(eq(accounts.id, accountId))
    .run();
  return true;
}

export type PhoneReadingError =
  "auth:validation.phoneInvalid" | "auth:validation.phoneCountry" | "auth:validation.phoneNotMobile";

/** A written number read for a code, or the message that says why it cannot get one. */
export function readNumberForCode(
  written: string,
): { ok: true; e164: string } | { ok: false; message: PhoneReadingError } {
  const reading = readPhoneNumber(written, getEnv().sms.countries);
  if (reading.ok) return { ok: true, e164: reading.e164 };
  return {
    ok: false,
    message:
      reading.reason === "country"
        ? "auth:validation.phoneCountry"
        : reading.reason === "notMobile"
          ? "auth:validation.phoneNotMobile"
          : "auth:validation.phoneInvalid",
  };
}

/**
 * A sign-up without an email: the details wait with a code sent to the number; the account is made when
 * the code comes back (redeemPhoneCode).
 */
export async function startPhoneSignUp(
  db: DB,
  input: { name: string; phoneNumber: string; password: string },
  context: { language: Language; network: string; redirectTo?: string | null; now?: Date },
): Promise<
  | { ok: true; id: string }
  | { ok: false; fieldErrors: Record<string, string[]> }
  | ({ ok: false; fieldErrors?: undefined } & CodeRefusal)
> {
  const number = readNumberForCode(input.phoneNumber);
  if (!number.ok) return { ok: false, fieldErrors: { phoneNumber: [number.message] } };
  // A capped asking costs no password hash.
  const capped = capRefusal(db, number.e164, context.network, context.now ?? new Date());
  if (capped) return { ok: false, ...capped };
  const passwordHash = await hashPassword(input.password);
  const started = await startPhoneCode(
    db,
    {
      phone: number.e164,
      purpose: "sign_up",
      pending: { name: input.name, email: null, passwordHash, language: context.language },
      redirectTo: context.redirectTo ?? null,
      language: context.language,
      network: context.network,
    },
    { now: context.now },
  );
  return started;
}

/** A number that sent STOP to the gateway: its account gets no more notices by SMS. Whether an account had it. */
export function optOutOfSmsNotices(db: DB, written: string): boolean {
  const number = readNumberForCode(written);
  if (!number.ok) return false;
  return (
    db
      .update(accounts)
      .set({ smsNotices: false, updatedAt: new Date() })
      .where(eq(accounts.verifiedPhone, number.e164))
      .run().changes > 0
  );
}

import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, count, eq, gt, gte, isNull, lt, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, phoneCodes, type PhoneCodePurpose } from "~/db/schema";
import type { Language } from "~/i18n/config";
import { getFixedT } from "~/i18n/translate.server";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import type { SmsGateway } from "./gateways.server";
import { sendSms, type SmsOutcome } from "./sms.server";

/**
 * Codes by SMS: six digits, ten minutes, five tries, one use; only a keyed
 * hash is kept. Whoever asks sees the same code page whether or not the
 * number has an account: a code is only sent where it can work (a number
 * already taken by someone gets a warning instead, an unknown number for a
 * sign-in gets nothing), and the caps count every asking alike.
 */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_TRIES = 5;
/** "Send again" waits this long after the last code. */
export const RESEND_AFTER_MS = 60 * 1000;
/** Codes for one number: a person needs two or three; a pump wants hundreds. */
export const CODES_PER_NUMBER = { hour: 3, day: 6 } as const;

const HOUR_MS = 60 * 60 * 1000;

export type PendingSignUp = NonNullable<(typeof phoneCodes.$inferSelect)["pending"]>;

export type CodeRefusal =
  | { reason: "capNumber" | "capNetwork"; retryAfterSeconds: number }
  | { reason: Exclude<SmsOutcome, { ok: true }>["reason"]; retryAfterSeconds?: undefined };

function hashCode(id: string, code: string): string {
  return createHmac("sha256", getEnv().sessionSecrets[0]).update(`${id}:${code}`).digest("hex");
}

function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** Whether this number or network has asked for its share: counted over every asking, sent or not. */
export function capRefusal(db: DB, phone: string, network: string, now: Date): CodeRefusal | null {
  const { codesPerNetworkHour, codesPerNetworkDay } = getEnv().sms;
  const asked = (column: typeof phoneCodes.phone | typeof phoneCodes.network, value: string, windowMs: number) => {
    const since = new Date(now.getTime() - windowMs);
    const row = db
      .select({ value: count(), first: sql<number>`min(${phoneCodes.createdAt})` })
      .from(phoneCodes)
      .where(and(eq(column, value), gte(phoneCodes.createdAt, since)))
      .get();
    return {
      count: row?.value ?? 0,
      retryAfterSeconds: Math.max(1, Math.ceil(((row?.first ?? now.getTime()) + windowMs - now.getTime()) / 1000)),
    };
  };
  const checks = [
    { column: phoneCodes.phone, value: phone, limit: CODES_PER_NUMBER.hour, windowMs: HOUR_MS, reason: "capNumber" },
    {
      column: phoneCodes.phone,
      value: phone,
      limit: CODES_PER_NUMBER.day,
      windowMs: 24 * HOUR_MS,
      reason: "capNumber",
    },
    { column: phoneCodes.network, value: network, limit: codesPerNetworkHour, windowMs: HOUR_MS, reason: "capNetwork" },
    {
      column: phoneCodes.network,
      value: network,
      limit: codesPerNetworkDay,
      windowMs: 24 * HOUR_MS,
      reason: "capNetwork",
    },
  ] as const;
  for (const check of checks) {
    const seen = asked(check.column, check.value, check.windowMs);
    if (seen.count >= check.limit) return { reason: check.reason, retryAfterSeconds: seen.retryAfterSeconds };
  }
  return null;
}

function accountWithPhone(db: DB, phone: string) {
  return db.select({ id: accounts.id }).from(accounts).where(eq(accounts.verifiedPhone, phone)).get();
}

export type CodeRequest = {
  phone: string;
  purpose: PhoneCodePurpose;
  /** The signed-in account adding the number (add_phone). */
  accountId?: string | null;
  pending?: PendingSignUp | null;
  redirectTo?: string | null;
  language: Language;
  network: string;
};

type SendOptions = { now?: Date; gateway?: SmsGateway };

/**
 * Start a code for a number. Returns the code page's id whatever the number's story (unless a cap or the
 * gateway refuses), so the page tells nobody whether the number has an account.
 */
export async function startPhoneCode(
  db: DB,
  request: CodeRequest,
  options: SendOptions = {},
): Promise<{ ok: true; id: string } | ({ ok: false } & CodeRefusal)> {
  const now = options.now ?? new Date();
  const refused = capRefusal(db, request.phone, request.network, now);
  if (refused) return { ok: false, ...refused };
  const id = createId(24);
  const code = newCode();
  const owner = accountWithPhone(db, request.phone);
  // What goes to the number: the code where it can work, a warning where the number is someone's already.
  const message: "code" | "warning" | null =
    request.purpose === "sign_up" || request.purpose === "add_phone"
      ? owner
        ? "warning"
        : "code"
      : owner
        ? "code"
        : null;
  db.insert(phoneCodes)
    .values({
      id,
      phone: request.phone,
      purpose: request.purpose,
      accountId: request.purpose === "add_phone" ? (request.accountId ?? null) : (owner?.id ?? null),
      // A code that was never sent: nothing typed can match it.
      codeHash: hashCode(id, message === "code" ? code : `${newCode()}-unsent-${createId(8)}`),
      pending: request.pending ?? null,
      redirectTo: request.redirectTo ?? null,
      network: request.network,
      sentAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      createdAt: now,
    })
    .run();
  if (message) {
    const sent = await deliver(
      db,
      { id, phone: request.phone, language: request.language, code, message, network: request.network },
      options,
    );
    if (!sent.ok) return { ok: false, reason: sent.reason };
  }
  return { ok: true, id };
}

async function deliver(
  db: DB,
  input: { id: string; phone: string; language: Language; code: string; message: "code" | "warning"; network: string },
  options: SendOptions,
): Promise<SmsOutcome> {
  const t = getFixedT(input.language, "auth");
  const text =
    input.message === "code"
      ? t("phone.smsCode", { code: input.code, minutes: CODE_TTL_MS / 60_000 })
      : t("phone.smsTaken");
  const outcome = await sendSms(
    db,
    { to: input.phone, text, kind: input.message, network: input.network },
    { now: options.now, gateway: options.gateway },
  );
  // A refused message leaves a code that cannot work: the page says why and offers to try again.
  if (!outcome.ok)
    db.update(phoneCodes)
      .set({ usedAt: options.now ?? new Date() })
      .where(eq(phoneCodes.id, input.id))
      .run();
  return outcome;
}

export type CodeState = {
  id: string;
  phone: string;
  purpose: PhoneCodePurpose;
  expired: boolean;
  /** Seconds until "Send again" may be used (0: now). */
  resendInSeconds: number;
};

/** The code page's facts. Null for an id that never was (or is long gone). */
export function describePhoneCode(db: DB, id: string, now = new Date()): CodeState | null {
  if (!/^[A-Za-z0-9]{24}$/.test(id)) return null;
  const row = db.select().from(phoneCodes).where(eq(phoneCodes.id, id)).get();
  if (!row) return null;
  return {
    id,
    phone: row.phone,
    purpose: row.purpose,
    expired: row.usedAt !== null || row.expiresAt <= now || row.tries >= CODE_TRIES,
    resendInSeconds: Math.max(0, Math.ceil(((row.sentAt?.getTime() ?? 0) + RESEND_AFTER_MS - now.getTime()) / 1000)),
  };
}

/**
 * "Send again": a new code on the same page (the old one stops working), within the same caps. Sign-up
 * details and the destination carry over.
 */
export async function resendPhoneCode(
  db: DB,
  id: string,
  context: { language: Language; network: string },
  options: SendOptions = {},
): Promise<
  | { ok: true; id: string }
  | ({ ok: false } & CodeRefusal)
  | { ok: false; reason: "tooSoon"; retryAfterSeconds: number }
  | { ok: false; reason: "unknown" }
> {
  const now = options.now ?? new Date();
  const state = describePhoneCode(db, id, now);
  if (!state) return { ok: false, reason: "unknown" };
  if (state.resendInSeconds > 0) return { ok: false, reason: "tooSoon", retryAfterSeconds: state.resendInSeconds };
  const row = db.select().from(phoneCodes).where(eq(phoneCodes.id, id)).get()!;
  db.update(phoneCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneCodes.id, id), isNull(phoneCodes.usedAt)))
    .run();
  return startPhoneCode(
    db,
    {
      phone: row.phone,
      purpose: row.purpose,
      accountId: row.purpose === "add_phone" ? row.accountId : null,
      pending: row.pending,
      redirectTo: row.redirectTo,
      language: context.language,
      network: context.network,
    },
    options,
  );
}

export type RedeemedCode = typeof phoneCodes.$inferSelect;
export type CodeCheck =
  | { ok: true; row: RedeemedCode }
  | { ok: false; reason: "wrong"; triesLeft: number }
  | { ok: false; reason: "expired" };

/**
 * Check a typed code. The try is counted before the comparison, in one statement (two tabs cannot share
 * the fifth try); the right code is used up in the same way (it works once).
 */
export function checkPhoneCode(db: DB, id: string, typed: string, now = new Date()): CodeCheck {
  const open = and(
    eq(phoneCodes.id, id),
    isNull(phoneCodes.usedAt),
    gt(phoneCodes.expiresAt, now),
    lt(phoneCodes.tries, CODE_TRIES),
  );
  const counted = db
    .update(phoneCodes)
    .set({ tries: sql`${phoneCodes.tries} + 1` })
    .where(open)
    .returning({ tries: phoneCodes.tries, codeHash: phoneCodes.codeHash })
    .get();
  if (!counted) return { ok: false, reason: "expired" };
  const digits = typed.replace(/\D/g, "");
  const expected = Buffer.from(counted.codeHash, "hex");
  const given = Buffer.from(hashCode(id, digits), "hex");
  if (digits.length !== 6 || !timingSafeEqual(expected, given)) {
    const triesLeft = CODE_TRIES - counted.tries;
    return triesLeft > 0 ? { ok: false, reason: "wrong", triesLeft } : { ok: false, reason: "expired" };
  }
  const used = db
    .update(phoneCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneCodes.id, id), isNull(phoneCodes.usedAt)))
    .returning()
    .get();
  return used ? { ok: true, row: used } : { ok: false, reason: "expired" };
}

/** Codes past their time are of no use to anyone: the periodic sweep deletes them after a day (the caps look back a day). */
export function deleteOldPhoneCodes(db: DB, now = new Date()): number {
  return db
    .delete(phoneCodes)
    .where(lt(phoneCodes.createdAt, new Date(now.getTime() - 25 * HOUR_MS)))
    .run().changes;
}

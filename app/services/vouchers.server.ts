import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { PASS_PERIODS, plans, redeemCodes, type PassPeriod } from "~/db/schema";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { DAY_MS, findSellablePeriod, grantPass, periodOfDays } from "./passes.server";
import { VOUCHER_BATCH_MAX } from "~/utils/form-limits";

/**
 * Vouchers (redeem codes): printed codes that activate a pass of a plan for a
 * period. 16 characters from an alphabet without look-alikes (no 0/O, 1/I),
 * 80 random bits, shown in groups of four. See docs/decisions/016-vouchers-and-screens.md.
 */

/** 32 symbols, so a random byte maps onto it without bias (byte & 31). */
export const VOUCHER_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const VOUCHER_LENGTH = 16;
/** The furthest a batch's redeem-by date may be. */
export const VOUCHER_MAX_VALIDITY_DAYS = 730;

export function generateVoucherCode(): string {
  const bytes = randomBytes(VOUCHER_LENGTH);
  let code = "";
  for (const byte of bytes) code += VOUCHER_ALPHABET[byte & 31];
  return code;
}

/** "ABCD-EFGH-JKLM-NPQR": how a code is printed and shown. */
export function formatVoucherCode(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}

/** What a person typed, as the stored form (upper case, no spaces or dashes), or null when it cannot be a code. */
export function normalizeVoucherCode(input: string): string | null {
  const compact = input.toUpperCase().replace(/[\s-]/g, "");
  if (compact.length !== VOUCHER_LENGTH) return null;
  for (const char of compact) if (!VOUCHER_ALPHABET.includes(char)) return null;
  return compact;
}

export type RedeemResult =
  { ok: true; planName: string; startsAt: Date; endsAt: Date } | { ok: false; reason: "unknown" | "used" | "expired" };

/**
 * Redeem a code for an account, in one transaction: the code is claimed only
 * if nobody has claimed it (a conditional update, so two people typing the
 * same code at once cannot both win) and the pass is added in the same step.
 */
export function redeemVoucher(
  db: DB,
  input: { accountId: string; code: string; ipAddress?: string | null },
  now: Date = new Date(),
): RedeemResult {
  const code = normalizeVoucherCode(input.code);
  if (!code) return { ok: false, reason: "unknown" };
  return db.transaction(
    (tx) => {
      const voucher = tx.select().from(redeemCodes).where(eq(redeemCodes.code, code)).get();
      if (!voucher) return { ok: false, reason: "unknown" } as const;
      if (voucher.redeemedBy || voucher.redeemedAt) return { ok: false, reason: "used" } as const;
      if (voucher.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired" } as const;
      const claimed = tx
        .update(redeemCodes)
        .set({ redeemedBy: input.accountId, redeemedAt: now })
        .where(and(eq(redeemCodes.id, voucher.id), isNull(redeemCodes.redeemedAt)))
        .run();
      if (claimed.changes !== 1) return { ok: false, reason: "used" } as const;
      const pass = grantPass(
        tx,
        {
          accountId: input.accountId,
          planId: voucher.planId,
          days: voucher.periodDays,
          source: "voucher",
          redeemCodeId: voucher.id,
        },
        now,
      );
      recordAudit(tx, {
        actorId: input.accountId,
        action: "voucher.redeem",
        targetType: "voucher",
        targetId: voucher.id,
        details: { passId: pass.id, planId: voucher.planId, days: voucher.periodDays },
        ipAddress: input.ipAddress,
      });
      const planName = findPlanName(tx, voucher.planId);
      return { ok: true, planName, startsAt: pass.startsAt, endsAt: pass.endsAt } as const;
      // IMMEDIATE: the write lock is taken before the read, so two processes never both read "unused".
    },
    { behavior: "immediate" },
  );
}

function findPlanName(tx: Pick<DB, "select">, planId: string): string {
  return tx.select({ name: plans.name }).from(plans).where(eq(plans.id, planId)).get()?.name ?? "";
}

export const VOUCHER_ERRORS = {
  plan: "billing:vouchers.errors.plan",
  count: "billing:vouchers.errors.count",
  expires: "billing:vouchers.errors.expires",
} as const;

export type BatchInput = { planId: string; period: string; count: string; expiresOn: string };
export type BatchResult =
  | { ok: true; batchId: string; planName: string; period: PassPeriod; expiresAt: Date; codes: string[] }
  | { ok: false; fieldErrors: Record<string, string[]> };

/** "2027-01-31" as the end of that day (UTC), or null. */
export function parseRedeemBy(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999));
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text.trim()) return null;
  return date;
}

/** An administrator's batch of codes for one plan and period, all in one transaction. */
export function generateVoucherBatch(
  db: DB,
  input: BatchInput,
  actor: { actorId: string; ipAddress?: string | null },
  now: Date = new Date(),
): BatchResult {
  const fieldErrors: Record<string, string[]> = {};
  const sellable = (PASS_PERIODS as readonly string[]).includes(input.period)
    ? findSellablePeriod(db, input.planId, input.period, { offeredOnly: true })
    : null;
  if (!sellable) fieldErrors.planPeriod = [VOUCHER_ERRORS.plan];
  const countText = input.count.trim();
  const count = Number(countText);
  if (!/^\d{1,4}$/.test(countText) || count < 1 || count > VOUCHER_BATCH_MAX)
    fieldErrors.count = [VOUCHER_ERRORS.count];
  const expiresAt = parseRedeemBy(input.expiresOn);
  if (
    !expiresAt ||
    expiresAt.getTime() <= now.getTime() ||
    expiresAt.getTime() > now.getTime() + VOUCHER_MAX_VALIDITY_DAYS * DAY_MS
  ) {
    fieldErrors.expiresOn = [VOUCHER_ERRORS.expires];
  }
  if (!sellable || !expiresAt || Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  const batchId = createId(12);
  const codes = db.transaction((tx) => {
    const made = new Set<string>();
    while (made.size < count) made.add(generateVoucherCode());
    for (const code of made) {
      tx.insert(redeemCodes)
        .values({
          id: createId(),
          code,
          planId: sellable.id,
          periodDays: sellable.days,
          batchId,
          expiresAt,
          createdBy: actor.actorId,
          createdAt: now,
        })
        .run();
    }
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "voucher.generate",
      targetType: "voucher",
      targetId: batchId,
      details: { planId: sellable.id, period: sellable.period, count, expiresAt: expiresAt.toISOString() },
      ipAddress: actor.ipAddress,
    });
    return [...made];
  });
  return { ok: true, batchId, planName: sellable.name, period: sellable.period, expiresAt, codes };
}

/**
 * One batch as its administrator saw it right after generating it (the page
 * redirects there, so reloading shows the batch again instead of making
 * another). Null for an unknown or malformed id.
 */
export function getVoucherBatch(
  db: DB,
  batchId: string,
): { id: string; planName: string; period: PassPeriod | null; expiresAt: Date; codes: string[] } | null {
  if (!/^[a-z0-9]{8,32}$/.test(batchId)) return null;
  const rows = db
    .select({
      code: redeemCodes.code,
      planName: plans.name,
      periodDays: redeemCodes.periodDays,
      expiresAt: redeemCodes.expiresAt,
    })
    .from(redeemCodes)
    .innerJoin(plans, eq(plans.id, redeemCodes.planId))
    .where(eq(redeemCodes.batchId, batchId))
    .orderBy(redeemCodes.code)
    .limit(VOUCHER_BATCH_MAX)
    .all();
  if (rows.length === 0) return null;
  return {
    id: batchId,
    planName: rows[0].planName,
    period: periodOfDays(rows[0].periodDays),
    expiresAt: rows[0].expiresAt,
    codes: rows.map((row) => row.code),
  };
}

import { parseForm, receiptEmailSchema } from "./validation";
import { and, count, eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { payments, plans, redeemCodes } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";
import { findSellablePeriod, grantPass } from "./passes.server";
import {
  initializeTransaction,
  isValidPaystackSignature,
  PaystackError,
  readCharge,
  verifyTransaction,
  type PaystackCharge,
  type PaystackConfig,
} from "./paystack.server";

/**
 * Buying a pass by card: a pending payment row (with a unique reference) is
 * written before the payer leaves for the gateway; the gateway's answer —
 * the callback after the payer returns, or the webhook, whichever arrives
 * first — completes it through one idempotent function. See decision 015.
 */

/** The configured card gateway, or undefined (then only vouchers activate passes). */
export function cardGateway(): PaystackConfig | undefined {
  return getEnv().paystack;
}

export const PAYMENT_ERRORS = {
  unavailable: "billing:buy.errors.unavailable",
  plan: "billing:buy.errors.plan",
  gateway: "billing:buy.errors.gateway",
} as const;

export type StartPurchaseResult =
  { ok: true; reference: string; authorizationUrl: string } | { ok: false; error: string; status: 400 | 502 | 503 };

export function newPaymentReference(): string {
  return `KAL-${createId(20)}`;
}

export async function startPassPurchase(
  db: DB,
  gateway: PaystackConfig | undefined,
  input: {
    account: { id: string; email: string };
    planId: string;
    period: string;
    callbackUrl: string;
    ipAddress?: string | null;
  },
): Promise<StartPurchaseResult> {
  if (!gateway) return { ok: false, error: PAYMENT_ERRORS.unavailable, status: 503 };
  const sellable = findSellablePeriod(db, input.planId, input.period, { offeredOnly: true });
  if (!sellable || sellable.priceMinor <= 0) return { ok: false, error: PAYMENT_ERRORS.plan, status: 400 };
  // Charged in the operator's currency: the prices are stored in its minor unit.
  const currency = getEnv().currency;
  const reference = newPaymentReference();
  const paymentId = createId();
  db.transaction((tx) => {
    tx.insert(payments)
      .values({
        id: paymentId,
        accountId: input.account.id,
        planId: sellable.id,
        periodDays: sellable.days,
        amountMinor: sellable.priceMinor,
        currency,
        gateway: "paystack",
        reference,
        status: "pending",
      })
      .run();
    recordAudit(tx, {
      actorId: input.account.id,
      action: "payment.start",
      targetType: "payment",
      targetId: paymentId,
      details: {
        reference,
        planId: sellable.id,
        period: sellable.period,
        amountMinor: sellable.priceMinor,
        currency,
      },
      ipAddress: input.ipAddress,
    });
  });
  try {
    const started = await initializeTransaction(gateway, {
      email: input.account.email,
      amountMinor: sellable.priceMinor,
      currency,
      reference,
      callbackUrl: input.callbackUrl,
      metadata: { paymentId, accountId: input.account.id, planCode: sellable.code, period: sellable.period },
    });
    db.update(payments).set({ authorizationUrl: started.authorizationUrl }).where(eq(payments.id, paymentId)).run();
    return { ok: true, reference, authorizationUrl: started.authorizationUrl };
  } catch (error) {
    const reason = error instanceof PaystackError ? error.message : "Gateway error";
    db.update(payments)
      .set({ status: "failed", failureReason: reason.slice(0, 200) })
      .where(and(eq(payments.id, paymentId), eq(payments.status, "pending")))
      .run();
    console.error(`[payments] initialize ${reference} failed: ${reason}`);
    return { ok: false, error: PAYMENT_ERRORS.gateway, status: 502 };
  }
}

/** A pending order that will not be paid: failed with the gateway's reason, and audited. */
function failPayment(
  tx: DB,
  payment: { id: string; reference: string },
  reason: string,
  details: Record<string, string>,
): void {
  tx.update(payments)
    .set({ status: "failed", failureReason: reason })
    .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
    .run();
  recordAudit(tx, {
    actorId: null,
    action: "payment.failed",
    targetType: "payment",
    targetId: payment.id,
    details: { reference: payment.reference, ...details },
  });
}

export type CompletionOutcome = "granted" | "already" | "failed" | "mismatch" | "pending" | "unknown";

/**
 * Apply a charge the gateway reports, once per reference, in one
 * transaction: only a pending order whose amount and currency match a
 * successful charge becomes "success" and gets its pass. Replays, the
 * callback racing the webhook, and charges for other amounts grant nothing.
 */
export function completePayment(
  db: DB,
  charge: PaystackCharge,
  now: Date = new Date(),
): { outcome: CompletionOutcome; accountId?: string } {
  return db.transaction(
    (tx) => {
      const payment = tx.select().from(payments).where(eq(payments.reference, charge.reference)).get();
      if (!payment) return { outcome: "unknown" as const };
      if (payment.status === "success") return { outcome: "already" as const, accountId: payment.accountId };
      if (payment.status === "failed") return { outcome: "failed" as const, accountId: payment.accountId };
      if (charge.status !== "success") {
        // "abandoned" only means the payer has not finished yet: the order stays open.
        if (charge.status === "failed" || charge.status === "reversed") {
          failPayment(tx as unknown as DB, payment, (charge.gatewayResponse ?? charge.status).slice(0, 200), {
            status: charge.status,
          });
          return { outcome: "failed" as const, accountId: payment.accountId };
        }
        return { outcome: "pending" as const, accountId: payment.accountId };
      }
      if (charge.amountMinor !== payment.amountMinor || charge.currency !== payment.currency.toUpperCase()) {
        const reason = `Paid ${charge.amountMinor} ${charge.currency}, the order was ${payment.amountMinor} ${payment.currency}`;
        failPayment(tx as unknown as DB, payment, reason, { mismatch: reason });
        return { outcome: "mismatch" as const, accountId: payment.accountId };
      }
      const claimed = tx
        .update(payments)
        .set({ status: "success", paidAt: charge.paidAt ?? now })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
        .run();
      if (claimed.changes !== 1) return { outcome: "already" as const, accountId: payment.accountId };
      const pass = grantPass(
        tx,
        {
          accountId: payment.accountId,
          planId: payment.planId,
          days: payment.periodDays,
          source: "payment",
          paymentId: payment.id,
        },
        now,
      );
      recordAudit(tx, {
        actorId: payment.accountId,
        action: "payment.success",
        targetType: "payment",
        targetId: payment.id,
        details: {
          reference: payment.reference,
          passId: pass.id,
          amountMinor: payment.amountMinor,
          currency: payment.currency,
        },
      });
      return { outcome: "granted" as const, accountId: payment.accountId };
      // IMMEDIATE: the callback and the webhook may run at once; the second waits and then sees "success".
    },
    { behavior: "immediate" },
  );
}

/** The payer is back from the gateway: ask the gateway what happened, then complete. */
export async function verifyAndCompletePayment(
  db: DB,
  gateway: PaystackConfig | undefined,
  reference: string,
  now: Date = new Date(),
): Promise<CompletionOutcome | "error"> {
  if (!gateway || !reference || reference.length > 100) return "unknown";
  const known = db.select({ id: payments.id }).from(payments).where(eq(payments.reference, reference)).get();
  if (!known) return "unknown";
  try {
    const charge = await verifyTransaction(gateway, reference);
    if (charge.reference !== reference) return "unknown";
    return completePayment(db, charge, now).outcome;
  } catch (error) {
    console.error(`[payments] verify ${reference} failed: ${error instanceof Error ? error.message : String(error)}`);
    return "error";
  }
}

export type WebhookResult = {
  status: number;
  outcome: CompletionOutcome | "ignored" | "bad-signature" | "bad-body" | "unavailable";
};

/**
 * A Paystack event: the signature is checked over the raw bytes before
 * anything is parsed; only `charge.success` changes anything.
 */
export function handlePaystackWebhook(
  db: DB,
  gateway: PaystackConfig | undefined,
  rawBody: Buffer,
  signature: string | null,
  now: Date = new Date(),
): WebhookResult {
  if (!gateway) return { status: 503, outcome: "unavailable" };
  if (!isValidPaystackSignature(gateway.secretKey, rawBody, signature))
    return { status: 401, outcome: "bad-signature" };
  let event: { event?: unknown; data?: unknown };
  try {
    event = JSON.parse(rawBody.toString("utf8")) as typeof event;
  } catch {
    return { status: 400, outcome: "bad-body" };
  }
  if (event.event !== "charge.success") return { status: 200, outcome: "ignored" };
  const charge = readCharge(event.data);
  if (!charge) return { status: 400, outcome: "bad-body" };
  return { status: 200, outcome: completePayment(db, charge, now).outcome };
}

/** A pending order of this account, for the "continue to payment" step. */
export function findOwnPendingPayment(db: DB, accountId: string, reference: string) {
  return db
    .select({
      reference: payments.reference,
      status: payments.status,
      amountMinor: payments.amountMinor,
      currency: payments.currency,
      periodDays: payments.periodDays,
      authorizationUrl: payments.authorizationUrl,
      planName: plans.name,
    })
    .from(payments)
    .innerJoin(plans, eq(plans.id, payments.planId))
    .where(and(eq(payments.reference, reference), eq(payments.accountId, accountId)))
    .get();
}

/** One account's payments, newest first, a page at a time. */
export type OwnPaymentRow = {
  /** A card payment, or a voucher the viewer redeemed (no money changed hands here). */
  kind: "payment" | "voucher";
  /** The payment's reference, or the voucher's code. */
  reference: string;
  status: "pending" | "success" | "failed" | "redeemed";
  amountMinor: number | null;
  currency: string | null;
  periodDays: number;
  createdAt: Date;
  paidAt: Date | null;
  planName: string;
};

/**
 * One page of what this viewer paid for, newest first: card payments and the
 * vouchers they redeemed, side by side (payments_account_idx and
 * redeem_codes_redeemed_by_idx).
 */
export function listOwnPayments(db: DB, accountId: string, page = 1, pageSize = 10) {
  const total =
    (db.select({ value: count() }).from(payments).where(eq(payments.accountId, accountId)).get()?.value ?? 0) +
    (db.select({ value: count() }).from(redeemCodes).where(eq(redeemCodes.redeemedBy, accountId)).get()?.value ?? 0);
  const rows = db
    .all<{
      kind: "payment" | "voucher";
      reference: string;
      status: OwnPaymentRow["status"];
      amountMinor: number | null;
      currency: string | null;
      periodDays: number;
      createdAt: number;
      paidAt: number | null;
      planName: string;
    }>(
      sql`SELECT * FROM (
            SELECT 'payment' AS kind, ${payments.reference} AS reference, ${payments.status} AS status,
                   ${payments.amountMinor} AS amountMinor, ${payments.currency} AS currency,
                   ${payments.periodDays} AS periodDays, ${payments.createdAt} AS createdAt,
                   ${payments.paidAt} AS paidAt, ${plans.name} AS planName, ${payments.id} AS id
              FROM ${payments} INNER JOIN ${plans} ON ${plans.id} = ${payments.planId}
             WHERE ${payments.accountId} = ${accountId}
            UNION ALL
            SELECT 'voucher', ${redeemCodes.code}, 'redeemed', NULL, NULL, ${redeemCodes.periodDays},
                   ${redeemCodes.redeemedAt}, ${redeemCodes.redeemedAt}, ${plans.name}, ${redeemCodes.id}
              FROM ${redeemCodes} INNER JOIN ${plans} ON ${plans.id} = ${redeemCodes.planId}
             WHERE ${redeemCodes.redeemedBy} = ${accountId} AND ${redeemCodes.redeemedAt} IS NOT NULL
          ) ORDER BY createdAt DESC, id DESC
          LIMIT ${pageSize} OFFSET ${(Math.max(1, page) - 1) * pageSize}`,
    )
    .map((row): OwnPaymentRow => ({
      ...row,
      createdAt: new Date(Number(row.createdAt)),
      paidAt: row.paidAt === null ? null : new Date(Number(row.paidAt)),
    }));
  return { rows, total, page: Math.max(1, page), pageSize };
}

/** The receipt address an account without an email gives at the card payment (the gateway needs one). */
export function readReceiptEmail(form: FormData): string | null {
  const parsed = parseForm(receiptEmailSchema, form);
  return parsed.success ? parsed.data.receiptEmail : null;
}

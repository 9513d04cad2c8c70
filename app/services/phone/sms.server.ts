import { and, eq, gte, sql, sum, count } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { smsMessages } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { smsGateway, type SmsGateway, type SmsRefusal } from "./gateways.server";
import { startOfLagosDay } from "./lagos-time";

/**
 * Sending one SMS: every message is a row (sms_messages) written before the
 * gateway is asked, in one write-locked transaction with the service-wide
 * caps' count — so workers racing each other cannot pass a cap together —
 * then marked sent (with its cost) or failed (with the gateway's reason).
 */
export type SmsKind = (typeof smsMessages.$inferInsert)["kind"];

export type SmsOutcome = { ok: true; id: string } | { ok: false; reason: "serviceCap" | "spendCap" | SmsRefusal };

const HOUR_MS = 60 * 60 * 1000;

export async function sendSms(
  db: DB,
  message: {
    to: string;
    text: string;
    kind: SmsKind;
    accountId?: string | null;
    notificationId?: string | null;
    network?: string | null;
  },
  options: { now?: Date; gateway?: SmsGateway } = {},
): Promise<SmsOutcome> {
  const now = options.now ?? new Date();
  const gateway = options.gateway ?? smsGateway();
  const settings = getEnv().sms;
  const id = createId();
  const held = db.transaction((tx): SmsOutcome | null => {
    const sent = (since: Date) =>
      tx
        .select({ value: count() })
        .from(smsMessages)
        .where(and(gte(smsMessages.createdAt, since), sql`${smsMessages.status} <> 'failed'`))
        .get()?.value ?? 0;
    if (sent(new Date(now.getTime() - HOUR_MS)) >= settings.perHour) return { ok: false, reason: "serviceCap" };
    if (sent(new Date(now.getTime() - 24 * HOUR_MS)) >= settings.perDay) return { ok: false, reason: "serviceCap" };
    if (spentMinor(tx, now) + settings.priceMinor > settings.dailySpendCapMinor)
      return { ok: false, reason: "spendCap" };
    tx.insert(smsMessages)
      .values({
        id,
        to: message.to,
        kind: message.kind,
        accountId: message.accountId ?? null,
        notificationId: message.notificationId ?? null,
        network: message.network ?? null,
        provider: gateway.name,
        status: "queued",
        costMinor: settings.priceMinor,
        createdAt: now,
      })
      .run();
    return null;
  });
  if (held) {
    console.warn(
      `[sms] not sent to ${message.to}: ${held.ok ? "" : held.reason === "spendCap" ? "the day's SMS spend cap is reached (SMS_DAILY_SPEND_CAP)" : "the service-wide SMS cap is reached (SMS_PER_HOUR, SMS_PER_DAY)"}`,
    );
    return held;
  }
  const answer = await gateway.send(message.to, message.text).catch((error: unknown) => ({
    ok: false as const,
    refusal: "gateway" as const,
    detail: error instanceof Error ? error.message : String(error),
  }));
  if (answer.ok) {
    db.update(smsMessages)
      .set({
        status: "sent",
        providerMessageId: answer.messageId,
        costMinor: answer.costMinor ?? settings.priceMinor,
      })
      .where(eq(smsMessages.id, id))
      .run();
    return { ok: true, id };
  }
  console.error(`[sms] ${gateway.name} refused a message to ${message.to}: ${answer.refusal} (${answer.detail})`);
  db.update(smsMessages)
    .set({ status: "failed", error: answer.refusal, costMinor: 0 })
    .where(eq(smsMessages.id, id))
    .run();
  return { ok: false, reason: answer.refusal };
}

/** What the Lagos day's messages cost so far (queued ones at the reckoned price). */
export function spentMinor(db: Pick<DB, "select">, now = new Date()): number {
  const row = db
    .select({ value: sum(smsMessages.costMinor) })
    .from(smsMessages)
    .where(gte(smsMessages.createdAt, startOfLagosDay(now)))
    .get();
  return Number(row?.value ?? 0);
}

export type SmsDay = { date: string; sent: number; failed: number; costMinor: number };

/** The administrator's view: messages sent and failed and their cost, per Lagos day, newest first. */
export function smsByDay(db: DB, days = 14, now = new Date()): SmsDay[] {
  const since = new Date(startOfLagosDay(now).getTime() - (days - 1) * 24 * HOUR_MS);
  // The Lagos date of each row (UTC+1), counted by SQLite over the created_at index's range.
  const date = sql<string>`date(${smsMessages.createdAt} / 1000 + 3600, 'unixepoch')`;
  return db
    .select({
      date,
      sent: sql<number>`sum(${smsMessages.status} <> 'failed')`,
      failed: sql<number>`sum(${smsMessages.status} = 'failed')`,
      costMinor: sql<number>`sum(${smsMessages.costMinor})`,
    })
    .from(smsMessages)
    .where(gte(smsMessages.createdAt, since))
    .groupBy(date)
    .orderBy(sql`1 desc`)
    .all();
}
/** The day's spend against the operator's cap; `near` from four fifths of it. */
export function smsSpendToday(db: DB, now = new Date()) {
  const capMinor = getEnv().sms.dailySpendCapMinor;
  const spent = spentMinor(db, now);
  return { spentMinor: spent, capMinor, near: capMinor > 0 && spent >= capMinor * 0.8 };
}

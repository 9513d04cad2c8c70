import { and, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, notifications, smsMessages } from "~/db/schema";
import { LANGUAGES, type Language } from "~/i18n/config";
import { getFixedT } from "~/i18n/translate.server";
import { siteAddress } from "~/utils/site-address.server";
import { NEW_EPISODE_KIND, shownNotificationValues } from "../notifications.server";
import { APPROVED_KIND, RETURNED_KIND } from "../review-notices.server";
import type { SmsGateway } from "./gateways.server";
import { isQuietHours } from "./lagos-time";
import { sendSms } from "./sms.server";

/**
 * Notices by SMS, for people who chose them (the profile's switch) and have a
 * verified number: a pass ending tomorrow, a new episode of a series they
 * watch, a provider's title approved or sent back. The bell's notices are the
 * source: each goes out once (a unique index on the message's notice), in the
 * person's language, never between 21:00 and 08:00 Lagos time — a notice of
 * the night waits for the morning — and not at all once it is a day old.
 */
export const SMS_NOTICE_KINDS = ["pass_expiring", NEW_EPISODE_KIND, APPROVED_KIND, RETURNED_KIND] as const;
const FRESH_FOR_MS = 24 * 60 * 60 * 1000;
const BATCH = 50;

export async function sendDueSmsNotices(
  db: DB,
  options: { now?: Date; gateway?: SmsGateway } = {},
): Promise<{ sent: number; failed: number }> {
  const now = options.now ?? new Date();
  const done = { sent: 0, failed: 0 };
  if (isQuietHours(now)) return done;
  const due = db
    .select({
      id: notifications.id,
      accountId: notifications.accountId,
      messageKey: notifications.messageKey,
      messageValues: notifications.messageValues,
      link: notifications.link,
      phone: accounts.verifiedPhone,
      language: accounts.language,
    })
    .from(accounts)
    .innerJoin(notifications, eq(notifications.accountId, accounts.id))
    .where(
      and(
        eq(accounts.smsNotices, true),
        isNotNull(accounts.verifiedPhone),
        eq(accounts.blocked, false),
        inArray(notifications.kind, [...SMS_NOTICE_KINDS]),
        gt(notifications.createdAt, new Date(now.getTime() - FRESH_FOR_MS)),
        sql`NOT EXISTS (SELECT 1 FROM ${smsMessages} WHERE ${smsMessages.notificationId} = ${notifications.id})`,
      ),
    )
    .limit(BATCH)
    .all();
  for (const notice of due) {
    const language: Language = LANGUAGES.includes(notice.language as Language) ? (notice.language as Language) : "en";
    const outcome = await sendSms(
      db,
      {
        to: notice.phone!,
        text: noticeText(language, notice),
        kind: "notice",
        accountId: notice.accountId,
        notificationId: notice.id,
      },
      { now, gateway: options.gateway },
    ).catch((error: unknown) => {
      // Two sweeps racing for one notice: the unique index lets one through.
      if (String((error as { code?: unknown }).code ?? "").startsWith("SQLITE_CONSTRAINT")) return null;
      throw error;
    });
    if (!outcome) continue;
    if (outcome.ok) done.sent += 1;
    else {
      done.failed += 1;
      // The person sent STOP to the gateway: no more notices by SMS until they switch them on again.
      if (outcome.reason === "opted_out")
        db.update(accounts).set({ smsNotices: false }).where(eq(accounts.id, notice.accountId)).run();
      // The day's cap or the gateway: the rest waits for the next sweep.
      if (outcome.reason === "serviceCap" || outcome.reason === "spendCap" || outcome.reason === "no_balance") break;
    }
  }
  return done;
}

function noticeText(
  language: Language,
  notice: { messageKey: string; messageValues: Record<string, string | number>; link: string | null },
): string {
  // Notices name their namespace in the key ("billing:notifications.passEnding"): the translator reads it.
  const words = getFixedT(language)(notice.messageKey, shownNotificationValues(notice.messageValues, language));
  const site = siteAddress();
  const where = site && notice.link ? ` ${site.replace(/\/+$/, "")}${notice.link}` : "";
  return `Kallo: ${words}${where}`;
}

import { and, eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, notifications, type ReturnReason } from "~/db/schema";
import { getFixedT } from "~/i18n/translate.server";
import { createId } from "~/utils/ids.server";
import { siteAddress } from "~/utils/site-address.server";
import { enqueueJob } from "./jobs.server";

/**
 * Telling a provider how an administrator judged their title or series: a
 * notification in the bell (read in their language) and a mail, sent from
 * the job queue through SMTP_URL or written to storage/mail without it. The
 * mail carries the same words in English and in Hausa.
 */

export const NOTICE_MAIL_JOB = "mail.notice";
export type NoticeMailPayload = { to: string; subject: string; text: string };

export const RETURNED_KIND = "review_returned";
export const APPROVED_KIND = "review_approved";

type Writer = Pick<DB, "select" | "insert" | "delete">;

export type ReviewNotice = { outcome: "returned"; reason: ReturnReason; note: string } | { outcome: "approved" };

/**
 * Notify the provider who owns a title (`movieId`) or a series (none) of
 * the verdict, in the caller's transaction. A title keeps one notice of each
 * kind: a newer one replaces the older (sent back twice, approved again).
 */
export function tellProvider(
  tx: Writer,
  input: { providerId: string; name: string; link: string; movieId?: string | null; notice: ReviewNotice },
): void {
  const provider = tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, input.providerId)).get();
  if (!provider) return;
  const kind = input.notice.outcome === "returned" ? RETURNED_KIND : APPROVED_KIND;
  const messageKey =
    input.notice.outcome === "returned"
      ? `auth:notifications.review.returned.${input.notice.reason}`
      : "auth:notifications.review.approved";
  const values = { title: input.name, note: input.notice.outcome === "returned" ? input.notice.note : "" };
  if (input.movieId)
    tx.delete(notifications)
      .where(
        and(
          eq(notifications.accountId, input.providerId),
          eq(notifications.kind, kind),
          eq(notifications.movieId, input.movieId),
        ),
      )
      .run();
  tx.insert(notifications)
    .values({
      id: createId(),
      accountId: input.providerId,
      kind,
      messageKey,
      messageValues: values,
      link: input.link,
      movieId: input.movieId ?? null,
    })
    .run();
  // A provider without an email hears by notice (and SMS, where chosen) only.
  if (provider.email)
    enqueueJob(tx as DB, NOTICE_MAIL_JOB, {
      payload: reviewMail(provider.email, messageKey, values, input.link) satisfies NoticeMailPayload,
    });
}

/** The mail of a verdict: the notice's words in English, then in Hausa, and where to act on it. */
export function reviewMail(
  to: string,
  messageKey: string,
  values: Record<string, string>,
  link: string,
): NoticeMailPayload {
  const en = getFixedT("en", "auth");
  const ha = getFixedT("ha", "auth");
  const site = siteAddress();
  const where = site ? `${site.replace(/\/+$/, "")}${link}` : null;
  const part = (t: typeof en) =>
    [t(messageKey, values), where ? t("notifications.review.mailLink", { link: where }) : null]
      .filter(Boolean)
      .join("\n\n");
  return {
    to,
    subject: `${en("notifications.review.mailSubject", { title: values.title })} / ${ha("notifications.review.mailSubject", { title: values.title })}`,
    text: `${part(en)}\n\n— — —\n\n${part(ha)}\n`,
  };
}

import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, passwordResets } from "~/db/schema";
import { getFixedT } from "~/i18n/translate.server";
import type { Language } from "~/i18n/config";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { findAccountByEmail, setPassword } from "./accounts.server";
import { recordAudit } from "./audit.server";
import { sendMail, type MailDelivery, type OutgoingMail } from "./mail.server";

/**
 * Password reset links: a random token goes in the mail, only its SHA-256 is
 * stored. A token works once, for one hour; using it sets the password and
 * ends every session of the account.
 */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export function hashResetToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export type ResetRequestOptions = {
  /**
   * The site's own address (`siteAddress()`: PUBLIC_URL), never one taken from
   * a request. Null when the operator has not set it: the mail then names the
   * link's path only, to open on the site the reader uses.
   */
  baseUrl: string | null;
  language?: Language;
  ipAddress?: string | null;
  actorId?: string | null;
  now?: Date;
  /** Tests deliver to their own folder or capture the mail. */
  deliver?: (mail: OutgoingMail) => Promise<MailDelivery | void>;
};

/** Create a token for the account with this email (if any) and mail its link. Says nothing about whether it exists. */
export async function requestPasswordReset(
  db: DB,
  email: string,
  options: ResetRequestOptions,
): Promise<{ token: string } | null> {
  const account = findAccountByEmail(db, email);
  if (!account?.email) return null;
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  db.transaction((tx) => {
    tx.insert(passwordResets)
      .values({
        id: createId(),
        accountId: account.id,
        tokenHash: hashResetToken(token),
        expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
        createdAt: now,
      })
      .run();
    recordAudit(tx, {
      actorId: options.actorId ?? null,
      action: "account.password_reset_request",
      targetType: "account",
      targetId: account.id,
      ipAddress: options.ipAddress,
    });
  });

  const t = getFixedT(options.language ?? "en", "auth");
  const resetPath = `/reset/${token}`;
  const link = options.baseUrl
    ? `${options.baseUrl.replace(/\/+$/, "")}${resetPath}`
    : t("reset.mailPathOnly", { path: resetPath });
  if (!options.baseUrl)
    console.warn(
      "[reset] PUBLIC_URL is not set: the reset mail names the link's path only (a link is never built from a request's Host)",
    );
  const mail = {
    to: account.email!,
    subject: t("reset.mailSubject"),
    text: t("reset.mailText", { name: account.name, link }),
  };
  const delivery = await (options.deliver ?? sendMail)(mail);
  const { logLevel } = getEnv();
  if (delivery?.via === "file" && (logLevel === "info" || logLevel === "debug")) {
    // No SMTP: whoever runs this box follows the link from the log or the .eml file.
    console.info(`[mail] password reset for ${account.email}: ${link} (saved to ${delivery.path})`);
  }
  return { token };
}

export type ResetTokenStatus = { valid: true; accountId: string } | { valid: false };

export function checkResetToken(db: DB, token: string, now = new Date()): ResetTokenStatus {
  if (!token || token.length > 200) return { valid: false };
  const row = db
    .select({ accountId: passwordResets.accountId })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.tokenHash, hashResetToken(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .get();
  return row ? { valid: true, accountId: row.accountId } : { valid: false };
}

/**
 * Use a token: mark it (and every other open token of the account) used in the
 * same statement that checks it, so two tabs cannot both use one link.
 */
export async function resetPasswordWithToken(
  db: DB,
  token: string,
  newPassword: string,
  context: { ipAddress?: string | null; now?: Date } = {},
): Promise<{ ok: true; accountId: string } | { ok: false }> {
  const now = context.now ?? new Date();
  if (!checkResetToken(db, token, now).valid) return { ok: false };
  const claimed = db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, hashResetToken(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ accountId: passwordResets.accountId })
    .get();
  if (!claimed) return { ok: false };
  db.update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.accountId, claimed.accountId), isNull(passwordResets.usedAt)))
    .run();
  const exists = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, claimed.accountId)).get();
  if (!exists) return { ok: false };
  await setPassword(db, claimed.accountId, newPassword, {
    action: "account.password_reset",
    actorId: claimed.accountId,
    ipAddress: context.ipAddress,
  });
  return { ok: true, accountId: claimed.accountId };
}

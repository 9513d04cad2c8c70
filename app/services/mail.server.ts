import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { storagePaths } from "~/media/storage.server";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";

export type OutgoingMail = { to: string; subject: string; text: string };
export type MailDelivery = { via: "smtp"; messageId: string } | { via: "file"; path: string };

let smtp: Transporter | undefined;
// Builds the raw RFC 822 message without sending it anywhere.
const fileTransport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

/**
 * Send through SMTP_URL when it is set. Without it (a demo, development) the
 * message is written as an .eml file under storage/mail/, which any mail
 * program opens, so nothing is lost and links can still be followed.
 */
export async function sendMail(mail: OutgoingMail, options: { mailDir?: string } = {}): Promise<MailDelivery> {
  const env = getEnv();
  const message = { from: env.mailFrom, to: mail.to, subject: mail.subject, text: mail.text };
  if (env.smtpUrl && !options.mailDir) {
    smtp ??= nodemailer.createTransport(env.smtpUrl);
    const info = await smtp.sendMail(message);
    return { via: "smtp", messageId: String(info.messageId) };
  }
  const info = await fileTransport.sendMail(message);
  const directory = options.mailDir ?? storagePaths().mail;
  await fs.promises.mkdir(directory, { recursive: true });
  const file = path.join(directory, `${new Date().toISOString().replace(/[:.]/g, "-")}-${createId(8)}.eml`);
  await fs.promises.writeFile(file, info.message as Buffer, { mode: 0o600 });
  return { via: "file", path: file };
}

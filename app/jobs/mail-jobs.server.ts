import { getDb } from "~/db/client.server";
import type { Language } from "~/i18n/config";
import { runsBackgroundWork } from "~/utils/cluster.server";
import { siteAddress } from "~/utils/site-address.server";
import { enqueueJob, startJobRunner, type JobRunner } from "~/services/jobs.server";
import { sendMail } from "~/services/mail.server";
import { requestPasswordReset } from "~/services/password-reset.server";
import { NOTICE_MAIL_JOB, type NoticeMailPayload } from "~/services/review-notices.server";

/**
 * Mail that a public form asks for is sent from the job queue, not while the
 * form waits: /reset answers at once and the same way whether or not the
 * email has an account (the lookup, the token and the mail happen in the job),
 * so its answer time tells nobody which emails are registered. Notices to a
 * provider (a title approved or sent back) are written when the decision is
 * made and sent here. The job's row (it holds the email) is deleted once the
 * mail is sent.
 */
export const RESET_MAIL_JOB = "mail.password-reset";

type ResetMailPayload = { email: string; language: Language; ipAddress: string | null };

const globalForMail = globalThis as unknown as { __kalloMailJobs?: JobRunner };

export function startMailJobs(): JobRunner {
  if (globalForMail.__kalloMailJobs) return globalForMail.__kalloMailJobs;
  const db = getDb();
  const runner = startJobRunner(
    db,
    {
      [RESET_MAIL_JOB]: async (job) => {
        const payload = job.payload as ResetMailPayload;
        await requestPasswordReset(db, payload.email, {
          baseUrl: siteAddress(),
          language: payload.language,
          ipAddress: payload.ipAddress,
        });
      },
      [NOTICE_MAIL_JOB]: async (job) => {
        const payload = job.payload as NoticeMailPayload;
        await sendMail({ to: payload.to, subject: payload.subject, text: payload.text });
      },
    },
    {
      concurrency: 1,
      forgetDone: true,
      onFailure: (job, error, final) =>
        console.error(
          `[mail] job ${job.id} failed${final ? "" : " (will retry)"}: ${error instanceof Error ? error.message : String(error)}`,
        ),
    },
  );
  globalForMail.__kalloMailJobs = runner;
  return runner;
}

/** Queue a reset mail for whoever uses this email (maybe nobody). */
export function queuePasswordResetMail(email: string, options: { language: Language; ipAddress: string | null }): void {
  enqueueJob(getDb(), RESET_MAIL_JOB, {
    payload: { email, language: options.language, ipAddress: options.ipAddress } satisfies ResetMailPayload,
  });
  // The runner lives where the background work runs; another worker's job is announced to it by enqueueJob.
  if (runsBackgroundWork()) startMailJobs();
}

export async function stopMailJobs(): Promise<void> {
  await globalForMail.__kalloMailJobs?.stop();
}

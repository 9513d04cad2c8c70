import { getDb } from "~/db/client.server";
import { startPeriodic } from "~/services/periodic.server";
import { sendDueSmsNotices } from "~/services/phone/notices.server";

/** Notices by SMS go out every two minutes in the daytime (Lagos); one sweep at a time in this process. */
const SMS_NOTICES_INTERVAL_MS = 2 * 60 * 1000;
let running = false;

export function startSmsNotices(): void {
  startPeriodic("sms-notices", SMS_NOTICES_INTERVAL_MS, () => {
    if (running) return;
    running = true;
    sendDueSmsNotices(getDb())
      .then(({ sent, failed }) => {
        if (sent + failed > 0) console.log(`[sms] notices: ${sent} sent, ${failed} not sent`);
      })
      .catch((error: unknown) => console.error("[sms] notices failed:", error))
      .finally(() => (running = false));
  });
}

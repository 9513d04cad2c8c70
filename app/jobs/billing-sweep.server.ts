import { getDb } from "~/db/client.server";
import { notifyExpiringPasses } from "~/services/passes.server";
import { startPeriodic } from "~/services/periodic.server";

/**
 * Passes expire by themselves (active means startsAt ≤ now < endsAt), so no
 * job ends them; this sweep only sends the "your pass ends tomorrow" notice.
 * It runs at start and every ten minutes in the server process; each pass is
 * marked when handled, so restarts and overlapping runs never notify twice.
 */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

function sweep(): void {
  try {
    const sent = notifyExpiringPasses(getDb());
    if (sent > 0) console.log(`[billing] ${sent} pass-ending notice${sent === 1 ? "" : "s"} sent`);
  } catch (error) {
    console.error("[billing] expiry sweep failed:", error);
  }
}

export function startBillingSweep(): void {
  startPeriodic("billing-sweep", SWEEP_INTERVAL_MS, sweep);
}

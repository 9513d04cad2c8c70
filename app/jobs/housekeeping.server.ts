import { getDb } from "~/db/client.server";
import { sweepTemporaryFiles } from "~/media/tmp-sweep.server";
import { storagePaths } from "~/media/storage.server";
import { startPeriodic } from "~/services/periodic.server";
import { forgetOldSignInFailures } from "~/services/sign-in-delay.server";
import { deleteOldPhoneCodes } from "~/services/phone/codes.server";
import { removeRetiredVersions } from "~/services/film-replacements.server";

const HOUSEKEEPING_INTERVAL_MS = 15 * 60 * 1000;

/**
 * What a killed process left in tmp/, failed sign-ins nobody will ask about
 * again, and the files of replaced films' old versions once nobody can still
 * be playing them: at start and every quarter hour.
 */
export function housekeeping(): void {
  try {
    const swept = sweepTemporaryFiles(storagePaths().tmp);
    if (swept.removed > 0) {
      console.log(
        `[housekeeping] removed ${swept.removed} leftover${swept.removed === 1 ? "" : "s"} of stopped work from tmp/ (${(swept.bytes / 1e6).toFixed(1)} MB)`,
      );
    }
    forgetOldSignInFailures(getDb());
    deleteOldPhoneCodes(getDb());
    const retired = removeRetiredVersions(getDb());
    if (retired > 0)
      console.log(`[housekeeping] removed the files of ${retired} replaced film version${retired === 1 ? "" : "s"}`);
  } catch (error) {
    console.error("[housekeeping] failed:", error);
  }
}

export function startHousekeeping(): void {
  startPeriodic("housekeeping", HOUSEKEEPING_INTERVAL_MS, housekeeping);
}

import type { DB } from "~/db/client.server";
import { setProfileDataSaver } from "./profiles.server";
import { DATA_SAVER_MAX_RUNG } from "~/media/ladder";

/**
 * Data saver: playback at 240p at most. A signed-in viewer's choice is kept
 * with the profile watching, a signed-out visitor's on the browser (a cookie:
 * routes-support/preferences.server.ts); until someone chooses, it follows
 * the browser's `Save-Data: on` (the phone's own data-saving mode).
 */
export { DATA_SAVER_MAX_RUNG };

export type BrowserDataSaver = {
  /** What this browser chose before, if anything. */
  chosen: "on" | "off" | null;
  /** The browser asks to save data (`Save-Data: on`). */
  savesData: boolean;
};

/** Whether data saver is on: the account's choice, else the browser's, else the phone's own mode. */
export function dataSaverOn(account: { dataSaver: boolean | null } | null, browser: BrowserDataSaver): boolean {
  if (account && account.dataSaver !== null) return account.dataSaver;
  if (browser.chosen !== null) return browser.chosen === "on";
  return browser.savesData;
}

/** Keep a signed-in viewer's choice with the profile watching (each profile has its own). */
export function rememberDataSaver(db: DB, account: { profile: { id: string } }, on: boolean): void {
  setProfileDataSaver(db, account.profile.id, on);
}

import { createCookie } from "@remix-run/node";
import { eq } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts } from "~/db/schema";
import { DATA_SAVER_MAX_RUNG } from "~/media/ladder";

/**
 * Data saver: playback at 240p at most. A signed-in viewer's choice is kept
 * on the account, a signed-out visitor's in a cookie; until someone chooses,
 * it follows the browser's `Save-Data: on` (the phone's own data-saving mode).
 */
export const dataSaverCookie = createCookie("kallo_data_saver", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 60 * 60 * 24 * 365,
});

export { DATA_SAVER_MAX_RUNG };

export function browserAsksToSaveData(request: Request): boolean {
  return request.headers.get("Save-Data")?.trim().toLowerCase() === "on";
}

/** Whether data saver is on for this request: the account's choice, else the cookie's, else Save-Data. */
export async function isDataSaverOn(request: Request, account: { dataSaver: boolean | null } | null): Promise<boolean> {
  if (account && account.dataSaver !== null) return account.dataSaver;
  const chosen = await dataSaverCookie.parse(request.headers.get("Cookie"));
  if (chosen === "on" || chosen === "off") return chosen === "on";
  return browserAsksToSaveData(request);
}

/**
 * Keep a choice: on the account when signed in (and the cookie, so the choice
 * also holds after signing out on this browser). Returns the Set-Cookie value.
 */
export async function chooseDataSaver(db: DB, account: { id: string } | null, on: boolean): Promise<string> {
  if (account) db.update(accounts).set({ dataSaver: on }).where(eq(accounts.id, account.id)).run();
  return dataSaverCookie.serialize(on ? "on" : "off");
}

import { createCookie } from "@remix-run/node";
import type { DB } from "~/db/client.server";
import { dataSaverOn, rememberDataSaver } from "~/services/data-saver.server";
import { canonicalLanguageTag } from "~/utils/language-tags";

/**
 * What a browser keeps of a viewer's choices, in cookies for a year: data
 * saver (a signed-out visitor's; a signed-in viewer's is on the account too)
 * and the subtitles' language. The rules are the services'.
 */
const YEAR_SECONDS = 60 * 60 * 24 * 365;

export const dataSaverCookie = createCookie("kallo_data_saver", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: YEAR_SECONDS,
});

export function browserAsksToSaveData(request: Request): boolean {
  return request.headers.get("Save-Data")?.trim().toLowerCase() === "on";
}

/** Whether data saver is on for this request: the account's choice, else the cookie's, else Save-Data. */
export async function isDataSaverOn(request: Request, account: { dataSaver: boolean | null } | null): Promise<boolean> {
  const chosen: unknown = await dataSaverCookie.parse(request.headers.get("Cookie"));
  return dataSaverOn(account, {
    chosen: chosen === "on" || chosen === "off" ? chosen : null,
    savesData: browserAsksToSaveData(request),
  });
}

/**
 * Keep a choice: on the account when signed in (and the cookie, so the choice
 * also holds after signing out on this browser). Returns the Set-Cookie value.
 */
export async function chooseDataSaver(
  db: DB,
  account: { profile: { id: string } } | null,
  on: boolean,
): Promise<string> {
  if (account) rememberDataSaver(db, account, on);
  return dataSaverCookie.serialize(on ? "on" : "off");
}

/** The viewer's choice of subtitles: a language tag, or "off". Without a choice there are none (decision 029). */
export const subtitleChoiceCookie = createCookie("kallo_subtitles", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: YEAR_SECONDS,
});

/** The language this browser chose, or null (none chosen, or "off"). */
export async function readSubtitleChoice(request: Request): Promise<string | null> {
  const value: unknown = await subtitleChoiceCookie.parse(request.headers.get("Cookie"));
  return value === "off" ? null : canonicalLanguageTag(value);
}

/** Keep a choice (a language tag, or null for none); returns the Set-Cookie value, or null for a tag that is not one. */
export async function chooseSubtitles(language: string | null): Promise<string | null> {
  if (language === null) return subtitleChoiceCookie.serialize("off");
  const tag = canonicalLanguageTag(language);
  return tag ? subtitleChoiceCookie.serialize(tag) : null;
}

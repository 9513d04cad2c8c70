import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accounts, profiles } from "~/db/schema";
import { DATA_SAVER_MAX_RUNG } from "~/services/data-saver.server";
import { browserAsksToSaveData, chooseDataSaver, isDataSaverOn } from "~/routes-support/preferences.server";
import { seedBilling } from "./helpers/billing-fixtures";
import { createTestDatabase, firstProfileOf } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
beforeEach(() => {
  testDb = createTestDatabase();
  seedBilling(testDb.db);
});
afterEach(() => testDb.close());

/** The `name=value` a browser sends back for a Set-Cookie header. */
const cookiePair = (setCookie: string) => setCookie.split(";")[0];

function request(headers: { saveData?: string; cookie?: string } = {}): Request {
  const init = new Headers();
  if (headers.saveData !== undefined) init.set("Save-Data", headers.saveData);
  if (headers.cookie !== undefined) init.set("Cookie", headers.cookie);
  return new Request("http://localhost/watch/freemovie01", { headers: init });
}

/** The choice kept with an account's first profile (which has the account's id). */
const dataSaverOf = (id: string) =>
  testDb.db.select({ dataSaver: profiles.dataSaver }).from(profiles).where(eq(profiles.id, id)).get()?.dataSaver;

describe("data saver", () => {
  it("caps playback at 240p", () => {
    expect(DATA_SAVER_MAX_RUNG).toBe(240);
  });

  it("follows the browser's Save-Data: on until someone chooses", async () => {
    expect(await isDataSaverOn(request(), null)).toBe(false);
    expect(await isDataSaverOn(request({ saveData: "on" }), null)).toBe(true);
    expect(await isDataSaverOn(request({ saveData: " On " }), null)).toBe(true);
    expect(await isDataSaverOn(request({ saveData: "off" }), null)).toBe(false);
    expect(await isDataSaverOn(request({ saveData: "1" }), null)).toBe(false);
    // An account that never chose is the same as no choice.
    expect(await isDataSaverOn(request({ saveData: "on" }), { dataSaver: null })).toBe(true);
    expect(await isDataSaverOn(request(), { dataSaver: null })).toBe(false);
    expect(browserAsksToSaveData(request({ saveData: "on" }))).toBe(true);
  });

  it("keeps a signed-out visitor's choice in a cookie, which wins over Save-Data", async () => {
    const on = cookiePair(await chooseDataSaver(testDb.db, null, true));
    const off = cookiePair(await chooseDataSaver(testDb.db, null, false));
    expect(await isDataSaverOn(request({ cookie: on }), null)).toBe(true);
    expect(await isDataSaverOn(request({ cookie: off }), null)).toBe(false);
    expect(await isDataSaverOn(request({ cookie: off, saveData: "on" }), null)).toBe(false);
    expect(await isDataSaverOn(request({ cookie: `theme=dark; ${on}` }), null)).toBe(true);
    // A cookie value that is neither "on" nor "off" is no choice.
    expect(await isDataSaverOn(request({ cookie: "kallo_data_saver=InllcyI%3D", saveData: "on" }), null)).toBe(true);
    expect(await isDataSaverOn(request({ cookie: "kallo_data_saver=garbage" }), null)).toBe(false);
  });

  it("lets a signed-in viewer's own choice win over the cookie and Save-Data", async () => {
    const on = cookiePair(await chooseDataSaver(testDb.db, null, true));
    const off = cookiePair(await chooseDataSaver(testDb.db, null, false));
    expect(await isDataSaverOn(request({ cookie: on, saveData: "on" }), { dataSaver: false })).toBe(false);
    expect(await isDataSaverOn(request({ cookie: off }), { dataSaver: true })).toBe(true);
    // An account without a choice falls back to the cookie.
    expect(await isDataSaverOn(request({ cookie: on }), { dataSaver: null })).toBe(true);
  });

  it("stores a signed-in viewer's choice with the profile watching and answers with the cookie", async () => {
    expect(dataSaverOf("viewer1")).toBeNull();
    const setCookie = await chooseDataSaver(testDb.db, firstProfileOf("viewer1"), true);
    expect(dataSaverOf("viewer1")).toBe(true);
    expect(dataSaverOf("viewer2")).toBeNull();
    expect(setCookie).toMatch(/^kallo_data_saver=/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Max-Age=31536000/);
    // The cookie holds the same choice, so it lasts after signing out on this browser.
    expect(await isDataSaverOn(request({ cookie: cookiePair(setCookie) }), null)).toBe(true);

    const offCookie = await chooseDataSaver(testDb.db, firstProfileOf("viewer1"), false);
    expect(dataSaverOf("viewer1")).toBe(false);
    expect(await isDataSaverOn(request({ cookie: cookiePair(offCookie), saveData: "on" }), null)).toBe(false);
  });

  it("writes nothing to any account for a signed-out choice", async () => {
    await chooseDataSaver(testDb.db, null, true);
    expect(
      testDb.db
        .select({ dataSaver: accounts.dataSaver })
        .from(accounts)
        .all()
        .every((row) => row.dataSaver === null),
    ).toBe(true);
  });
});

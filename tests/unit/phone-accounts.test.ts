import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accounts, notifications, phoneCodes, smsMessages } from "~/db/schema";
import { authenticateAtDoor, signInKey } from "~/services/accounts.server";
import type { SmsGateway, GatewayAnswer } from "~/services/phone/gateways.server";
import { CODE_TTL_MS, checkPhoneCode, startPhoneCode, type CodeRequest } from "~/services/phone/codes.server";
import { isQuietHours, startOfLagosDay } from "~/services/phone/lagos-time";
import { sendDueSmsNotices } from "~/services/phone/notices.server";
import { maskPhoneNumber, readPhoneNumber } from "~/services/phone/numbers.server";
import { redeemPhoneCode, startPhoneSignUp } from "~/services/phone/phone-accounts.server";
import { hashPassword } from "~/services/passwords.server";
import { smsByDay, smsSpendToday } from "~/services/phone/sms.server";
import { createTestDatabase } from "./helpers/test-db";

// Small caps, so each can be reached in a few messages: 5 codes an hour per network, 12 messages an hour in
// all, a day's spend of ₦60 at a reckoned ₦4 a message.
process.env.SMS_CODES_PER_NETWORK_HOUR = "5";
process.env.SMS_PER_HOUR = "12";
process.env.SMS_DAILY_SPEND_CAP = "60";
process.env.SMS_PRICE = "4";

/** A gateway that keeps what it was asked to send, and answers as told. */
function recordingGateway(answer: (to: string) => GatewayAnswer = () => ({ ok: true, messageId: "m", costMinor: 0 })) {
  const sent: { to: string; text: string }[] = [];
  const gateway: SmsGateway = {
    name: "africastalking",
    send: async (to, text) => {
      sent.push({ to, text });
      return answer(to);
    },
  };
  return { gateway, sent };
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? null;
const NUMBER = "+2348031234567";
// 10:00 in Lagos: daytime.
const MORNING = new Date("2026-12-02T09:00:00Z");

let testDb: ReturnType<typeof createTestDatabase>;
beforeEach(() => {
  testDb = createTestDatabase();
});
afterEach(() => testDb.close());

async function ask(request: Partial<CodeRequest>, gateway: SmsGateway, now = MORNING) {
  return startPhoneCode(
    testDb.db,
    { phone: NUMBER, purpose: "sign_in", language: "en", network: "10.0.0.1", ...request },
    { gateway, now },
  );
}

async function signUp(gateway: SmsGateway, phone = NUMBER) {
  const started = await ask(
    {
      phone,
      purpose: "sign_up",
      pending: { name: "Hauwa", email: null, passwordHash: await hashPassword("hauwa-password"), language: "ha" },
      language: "ha",
    },
    gateway,
  );
  if (!started.ok) throw new Error(started.reason);
  return started.id;
}

describe("phone numbers", () => {
  it("reads the common Nigerian ways of writing a number as one E.164 number", () => {
    for (const written of ["0803 123 4567", "+234 803 123 4567", "2348031234567", "08031234567", "0803-123-4567"])
      expect(readPhoneNumber(written, ["NG"]), written).toEqual({ ok: true, e164: NUMBER, country: "NG" });
    expect(signInKey("0803 123 4567")).toBe(signInKey("+234 803 123 4567"));
    expect(maskPhoneNumber(NUMBER)).toBe("+234 803 ••• 4567");
  });

  it("gives codes only to mobile numbers of the allowed countries", () => {
    expect(readPhoneNumber("+254 712 345 678", ["NG"])).toEqual({ ok: false, reason: "country" });
    expect(readPhoneNumber("+254 712 345 678", ["NG", "KE"]).ok).toBe(true);
    expect(readPhoneNumber("0700 123 4567", ["NG"])).toEqual({ ok: false, reason: "notMobile" });
    expect(readPhoneNumber("0803 12", ["NG"])).toEqual({ ok: false, reason: "invalid" });
    expect(readPhoneNumber("call me", ["NG"])).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("codes by SMS", () => {
  it("signs a person up with a number and no email: six digits, stored hashed, five tries, once", async () => {
    const { gateway, sent } = recordingGateway();
    const id = await signUp(gateway);
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe(NUMBER);
    const code = codeIn(sent[0].text)!;
    // The reader's language: the sign-up was in Hausa.
    expect(sent[0].text).toContain("lambarku");
    const row = testDb.db.select().from(phoneCodes).where(eq(phoneCodes.id, id)).get()!;
    expect(JSON.stringify(row)).not.toContain(code);
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await redeemPhoneCode(testDb.db, id, wrong, {}, { now: MORNING })).toEqual({
      ok: false,
      reason: "wrong",
      triesLeft: 4,
    });
    const done = await redeemPhoneCode(testDb.db, id, code, {}, { now: MORNING });
    expect(done.ok && done.purpose).toBe("sign_up");
    const account = testDb.db.select().from(accounts).where(eq(accounts.verifiedPhone, NUMBER)).get()!;
    expect(account).toMatchObject({ email: null, phoneNumber: NUMBER, smsNotices: true, language: "ha" });
    // Used once.
    expect((await redeemPhoneCode(testDb.db, id, code, {}, { now: MORNING })).ok).toBe(false);
    // And the number with the password is a way in, however it is written.
    for (const written of ["0803 123 4567", "2348031234567"])
      expect(
        (await authenticateAtDoor(testDb.db, { email: written, password: "hauwa-password", door: "member" })).ok,
      ).toBe(true);
  });

  it("ends a code after five wrong tries and after ten minutes", async () => {
    const { gateway, sent } = recordingGateway();
    const tried = await signUp(gateway);
    for (let i = 0; i < 5; i++) checkPhoneCode(testDb.db, tried, "999999".replace(/9/g, String(i)), MORNING);
    expect(checkPhoneCode(testDb.db, tried, codeIn(sent[0].text)!, MORNING)).toEqual({ ok: false, reason: "expired" });

    const late = await signUp(gateway, "+2348031234568");
    const after = new Date(MORNING.getTime() + CODE_TTL_MS + 1);
    expect(checkPhoneCode(testDb.db, late, codeIn(sent[1].text)!, after)).toEqual({ ok: false, reason: "expired" });
  });

  it("tells nobody whether a number has an account: the same page, a warning to the owner instead of a code", async () => {
    const { gateway, sent } = recordingGateway();
    const first = await signUp(gateway);
    await redeemPhoneCode(testDb.db, first, codeIn(sent[0].text)!, {}, { now: MORNING });

    const again = await signUp(gateway);
    expect(again).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(sent).toHaveLength(2);
    expect(codeIn(sent[1].text)).toBeNull();
    expect(sent[1].text).toMatch(/already|tuni/);

    // A sign-in code for a number nobody has: a page, and nothing sent (nothing spent).
    const nobody = await ask({ phone: "+2348091234567" }, gateway);
    expect(nobody.ok).toBe(true);
    expect(sent).toHaveLength(2);
    // For the owner's number: a code that signs in.
    const signIn = await ask({}, gateway);
    expect(sent).toHaveLength(3);
    const signedIn = await redeemPhoneCode(
      testDb.db,
      signIn.ok ? signIn.id : "",
      codeIn(sent[2].text)!,
      {},
      { now: MORNING },
    );
    expect(signedIn.ok && signedIn.account.verifiedPhone).toBe(NUMBER);
  });

  it("resets a password by SMS: the new one works, the old one no longer does", async () => {
    const { gateway, sent } = recordingGateway();
    await redeemPhoneCode(testDb.db, await signUp(gateway), codeIn(sent[0].text)!, {}, { now: MORNING });
    const reset = await ask({ purpose: "reset" }, gateway);
    const id = reset.ok ? reset.id : "";
    expect(await redeemPhoneCode(testDb.db, id, codeIn(sent[1].text)!, {}, { now: MORNING })).toEqual({
      ok: false,
      reason: "passwordNeeded",
    });
    expect(
      (await redeemPhoneCode(testDb.db, id, codeIn(sent[1].text)!, { newPassword: "new-password-1" }, { now: MORNING }))
        .ok,
    ).toBe(true);
    const signIn = (password: string) => authenticateAtDoor(testDb.db, { email: NUMBER, password, door: "member" });
    expect((await signIn("new-password-1")).ok).toBe(true);
    expect((await signIn("hauwa-password")).ok).toBe(false);
  });

  it("adds a number to an account only for that account, and never a number someone else has", async () => {
    const { gateway, sent } = recordingGateway();
    testDb.db
      .insert(accounts)
      .values([
        { id: "emailonly1", name: "Musa", email: "musa@example.com", phoneNumber: "0803", passwordHash: "x" },
        { id: "emailonly2", name: "Ada", email: "ada@example.com", phoneNumber: "0803", passwordHash: "x" },
      ])
      .run();
    const added = await ask({ purpose: "add_phone", accountId: "emailonly1" }, gateway);
    const id = added.ok ? added.id : "";
    const code = codeIn(sent[0].text)!;
    // Another signed-in account cannot take it with the code.
    expect((await redeemPhoneCode(testDb.db, id, code, { signedInAccountId: "emailonly2" }, { now: MORNING })).ok).toBe(
      false,
    );
    const done = await redeemPhoneCode(testDb.db, id, code, { signedInAccountId: "emailonly1" }, { now: MORNING });
    expect(done.ok && done.account.verifiedPhone).toBe(NUMBER);
    // The number is Musa's now: Ada asking for it gets a page, and Musa's phone a warning.
    const taken = await ask({ purpose: "add_phone", accountId: "emailonly2" }, gateway);
    expect(taken.ok).toBe(true);
    expect(codeIn(sent[1].text)).toBeNull();
  });
});

describe("the caps on SMS", () => {
  it("refuses a fourth code for one number in an hour, and a sixth from one network, saying when to come back", async () => {
    const { gateway, sent } = recordingGateway();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await ask({ network: `10.0.1.${i}` }, gateway));
    expect(results.map((result) => result.ok)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ ok: false, reason: "capNumber" });
    expect((results[3] as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(3600);

    // M numbers from one network (SMS pumping): the sixth is refused, whatever the number; another network is not.
    const pumped = [];
    for (let i = 0; i < 7; i++)
      pumped.push(await ask({ phone: `+23480312340${10 + i}`, network: "10.9.9.9" }, gateway));
    expect(pumped.map((result) => (result.ok ? "sent" : result.reason))).toEqual([
      "sent",
      "sent",
      "sent",
      "sent",
      "sent",
      "capNetwork",
      "capNetwork",
    ]);
    expect((await ask({ phone: "+2348031234999", network: "10.8.8.8" }, gateway)).ok).toBe(true);
    expect(sent.length).toBe(0); // sign-in codes for numbers nobody has: none of these cost anything

    // A sign-up from the capped network is refused before its password is hashed or anything is sent.
    const refused = await startPhoneSignUp(
      testDb.db,
      { name: "Pump", phoneNumber: "0803 123 4777", password: "pump-password" },
      { language: "en", network: "10.9.9.9", now: MORNING },
    );
    expect(refused).toMatchObject({ ok: false, reason: "capNetwork" });
  });

  it("stops at the day's spend cap and the service's hourly cap; a refusal from the gateway is recorded and said", async () => {
    // Each message costs ₦20 as the gateway says: the cap of ₦60 allows three.
    const { gateway, sent } = recordingGateway(() => ({ ok: true, messageId: "m", costMinor: 2000 }));
    const outcomes = [];
    for (let i = 0; i < 4; i++)
      outcomes.push(
        await signUp(gateway, `+23481312340${10 + i}`).then(
          () => "sent",
          (error: Error) => error.message,
        ),
      );
    expect(outcomes).toEqual(["sent", "sent", "sent", "spendCap"]);
    expect(sent).toHaveLength(3);
    expect(smsSpendToday(testDb.db, MORNING)).toMatchObject({ spentMinor: 6000, capMinor: 6000, near: true });

    const refusing = recordingGateway(() => ({ ok: false, refusal: "dnd", detail: "409 DoNotDisturbRejection" }));
    testDb.db.delete(smsMessages).run();
    expect(await signUp(refusing.gateway, "+2348131234599").catch((error: Error) => error.message)).toBe("dnd");
    const days = smsByDay(testDb.db, 14, MORNING);
    expect(days).toEqual([{ date: "2026-12-02", sent: 0, failed: 1, costMinor: 0 }]);
  });
});

describe("notices by SMS", () => {
  function optedInViewer(language: "en" | "ha") {
    testDb.db
      .insert(accounts)
      .values({
        id: "smsviewer1",
        name: "Bello",
        email: null,
        phoneNumber: NUMBER,
        verifiedPhone: NUMBER,
        smsNotices: true,
        language,
        passwordHash: "x",
      })
      .run();
  }
  function notice(id: string, createdAt: Date) {
    testDb.db
      .insert(notifications)
      .values({
        id,
        accountId: "smsviewer1",
        kind: "pass_expiring",
        messageKey: "billing:notifications.passEnding",
        messageValues: { plan: "Basic", planHa: "Na Asali", endsAt: "2026-12-03T10:00:00.000Z", date: "3 Dec" },
        link: "/payment",
        createdAt,
      })
      .run();
  }

  it("waits for the morning in Lagos, speaks the person's language and goes out once", async () => {
    optedInViewer("ha");
    const night = new Date("2026-12-01T21:30:00Z"); // 22:30 in Lagos
    expect(isQuietHours(night)).toBe(true);
    expect(isQuietHours(new Date("2026-12-02T06:59:00Z"))).toBe(true); // 07:59
    expect(isQuietHours(new Date("2026-12-02T07:00:00Z"))).toBe(false); // 08:00
    notice("notice0001", night);
    const { gateway, sent } = recordingGateway();
    expect(await sendDueSmsNotices(testDb.db, { now: night, gateway })).toEqual({ sent: 0, failed: 0 });
    expect(await sendDueSmsNotices(testDb.db, { now: MORNING, gateway })).toEqual({ sent: 1, failed: 0 });
    expect(sent[0].to).toBe(NUMBER);
    expect(sent[0].text).toMatch(/^Kallo: /);
    expect(sent[0].text).toContain("Na Asali");
    expect(await sendDueSmsNotices(testDb.db, { now: MORNING, gateway })).toEqual({ sent: 0, failed: 0 });
    expect(startOfLagosDay(MORNING).toISOString()).toBe("2026-12-01T23:00:00.000Z");
  });

  it("never sends a notice a day old, and STOP at the gateway turns the notices off", async () => {
    optedInViewer("en");
    notice("notice0old", new Date(MORNING.getTime() - 25 * 60 * 60 * 1000));
    notice("notice0new", MORNING);
    const stopped = recordingGateway(() => ({ ok: false, refusal: "opted_out", detail: "406 UserInBlacklist" }));
    expect(await sendDueSmsNotices(testDb.db, { now: MORNING, gateway: stopped.gateway })).toEqual({
      sent: 0,
      failed: 1,
    });
    expect(stopped.sent).toHaveLength(1);
    expect(testDb.db.select().from(accounts).where(eq(accounts.id, "smsviewer1")).get()?.smsNotices).toBe(false);
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, smsMessages } from "~/db/schema";
import { startAfricasTalkingStandIn, startTermiiStandIn, type GatewayStandIn } from "../fixtures/sms-gateways";
import { nextAddress, startApiWorld, type ApiWorld } from "./helpers";

/**
 * Phone numbers as a way in, through the real gateways' HTTP APIs (stand-ins
 * that answer as Africa's Talking and Termii do, refusals included): a
 * sign-up with no email, a sign-in by number and password or by code, a reset
 * by SMS — and every refusal a gateway makes reaching the person as a clear
 * message with a 4xx or a 503, never a 500.
 */
const AT_KEY = "atsk_test_key_0123456789";
const TERMII_KEY = "TLtermii_test_key_0123";
let at: GatewayStandIn;
let termii: GatewayStandIn;
let atWorld: ApiWorld;
let termiiWorld: ApiWorld;

beforeAll(async () => {
  [at, termii] = await Promise.all([startAfricasTalkingStandIn(AT_KEY), startTermiiStandIn(TERMII_KEY)]);
  [atWorld, termiiWorld] = await Promise.all([
    startApiWorld("sms-at", {
      SMS_PROVIDER: "africastalking",
      AT_USERNAME: "kallo",
      AT_API_KEY: AT_KEY,
      AT_SENDER_ID: "KALLO",
      AT_API_URL: at.url,
      SMS_CALLBACK_KEY: "opt-out-key-0123456789",
    }),
    startApiWorld("sms-termii", {
      SMS_PROVIDER: "termii",
      TERMII_API_KEY: TERMII_KEY,
      TERMII_SENDER_ID: "Kallo",
      TERMII_BASE_URL: termii.url,
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([atWorld?.stop(), termiiWorld?.stop(), at?.close(), termii?.close()]);
});

async function call(world: ApiWorld, path: string, fields: Record<string, string>) {
  const response = await fetch(`${world.url}/api${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": nextAddress() },
    body: JSON.stringify(fields),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? "";

function register(world: ApiWorld, phoneNumber: string) {
  return call(world, "/user/register", {
    name: "Hauwa Sani",
    phoneNumber,
    email: "",
    password: "hauwa-password",
    password2: "hauwa-password",
  });
}

describe("Africa's Talking (its official SDK)", () => {
  it("signs up a number with no email: the code comes by SMS, the account is made when it comes back", async () => {
    const asked = await register(atWorld, "0803 555 0101");
    expect(asked.status).toBe(202);
    const sms = at.received.at(-1)!;
    expect(sms).toMatchObject({ to: "+2348035550101", from: "KALLO" });
    expect(sms.fields.username).toBe("kallo");
    const done = await call(atWorld, "/user/phone/verify", {
      codeId: String(asked.body.codeId),
      code: codeIn(sms.text),
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, isUser: true, userDetails: { email: null } });
    expect(typeof done.body.token).toBe("string");
    const account = atWorld.db.select().from(accounts).where(eq(accounts.verifiedPhone, "+2348035550101")).get();
    expect(account).toMatchObject({ email: null, smsNotices: true });
    // What the gateway said it cost is what the day counts.
    const row = atWorld.db.select().from(smsMessages).where(eq(smsMessages.to, "+2348035550101")).get();
    expect(row).toMatchObject({ status: "sent", provider: "africastalking", costMinor: 220 });

    // STOP sent to the sender: the gateway's opt-out callback (with its key) switches the notices off.
    const optOut = (key: string) =>
      fetch(`${atWorld.url}/sms/opt-out?key=${key}`, {
        method: "POST",
        body: new URLSearchParams({ senderId: "KALLO", phoneNumber: "+2348035550101" }),
      });
    expect((await optOut("wrong-key-0123456789ab")).status).toBe(403);
    expect(await (await optOut("opt-out-key-0123456789")).json()).toEqual({ success: true, stopped: true });
    expect(
      atWorld.db.select().from(accounts).where(eq(accounts.verifiedPhone, "+2348035550101")).get()?.smsNotices,
    ).toBe(false);

    // The number and the password sign in, written any common way.
    for (const written of ["+234 803 555 0101", "2348035550101"]) {
      const signedIn = await call(atWorld, "/user/login", { email: written, password: "hauwa-password" });
      expect(signedIn.status, written).toBe(200);
    }
  });

  it("says what went wrong when the gateway refuses: no balance, an invalid number, Do-Not-Disturb", async () => {
    at.refuse.set("+2348035550102", 405);
    at.refuse.set("+2348035550103", 403);
    at.refuse.set("+2348035550104", 409);
    const noBalance = await register(atWorld, "08035550102");
    expect(noBalance.status).toBe(503);
    expect(noBalance.body.message).toMatch(/cannot send codes by SMS right now/);
    const invalid = await register(atWorld, "08035550103");
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/cannot get SMS/);
    const dnd = await register(atWorld, "08035550104");
    expect(dnd.status).toBe(400);
    expect(dnd.body.message).toMatch(/Do-Not-Disturb/);
    const failed = atWorld.db.select().from(smsMessages).where(eq(smsMessages.status, "failed")).all();
    expect(failed.map((row) => row.error).sort()).toEqual(["dnd", "invalid_number", "no_balance"]);
  });
});

describe("Termii (its HTTP API)", () => {
  it("signs in with a code instead of a password, and resets a password by SMS", async () => {
    const asked = await register(termiiWorld, "0903 555 0201");
    const signUpSms = termii.received.at(-1)!;
    expect(signUpSms.fields).toMatchObject({ to: "2349035550201", from: "Kallo", type: "plain", channel: "generic" });
    await call(termiiWorld, "/user/phone/verify", { codeId: String(asked.body.codeId), code: codeIn(signUpSms.text) });

    const code = await call(termiiWorld, "/user/phone/code", { phoneNumber: "+234 903 555 0201" });
    expect(code.status).toBe(202);
    const signedIn = await call(termiiWorld, "/user/phone/verify", {
      codeId: String(code.body.codeId),
      code: codeIn(termii.received.at(-1)!.text),
    });
    expect(signedIn.status).toBe(200);
    expect(typeof signedIn.body.token).toBe("string");

    const reset = await call(termiiWorld, "/user/phone/code", { phoneNumber: "09035550201", purpose: "reset" });
    const wrong = await call(termiiWorld, "/user/phone/verify", {
      codeId: String(reset.body.codeId),
      code: "000000" === codeIn(termii.received.at(-1)!.text) ? "111111" : "000000",
      password: "a-new-password",
      password2: "a-new-password",
    });
    expect(wrong).toMatchObject({ status: 400, body: { success: false, triesLeft: 4 } });
    const done = await call(termiiWorld, "/user/phone/verify", {
      codeId: String(reset.body.codeId),
      code: codeIn(termii.received.at(-1)!.text),
      password: "a-new-password",
      password2: "a-new-password",
    });
    expect(done.status).toBe(200);
    expect((await call(termiiWorld, "/user/login", { email: "09035550201", password: "a-new-password" })).status).toBe(
      200,
    );
    expect((await call(termiiWorld, "/user/login", { email: "09035550201", password: "hauwa-password" })).status).toBe(
      401,
    );
  });

  it("says what went wrong when Termii refuses, and a code for a number nobody has looks the same and costs nothing", async () => {
    termii.refuse.set("+2349035550202", { status: 400, message: "Insufficient balance" });
    termii.refuse.set("+2349035550203", { status: 400, message: "Message not sent: number is on DND" });
    const noBalance = await register(termiiWorld, "09035550202");
    expect(noBalance.status).toBe(503);
    const dnd = await register(termiiWorld, "09035550203");
    expect(dnd.status).toBe(400);
    expect(dnd.body.message).toMatch(/Do-Not-Disturb/);

    const before = termii.received.length;
    const nobody = await call(termiiWorld, "/user/phone/code", { phoneNumber: "0903 555 0299" });
    expect(nobody.status).toBe(202);
    expect(String(nobody.body.codeId)).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(termii.received.length).toBe(before);

    const foreign = await call(termiiWorld, "/user/phone/code", { phoneNumber: "+44 7700 900123" });
    expect(foreign.status).toBe(400);
  });

  it("adds a number and switches notices only for a signed-in caller", async () => {
    expect((await call(termiiWorld, "/user/phone/add", { phoneNumber: "09035550210" })).status).toBe(401);
    const anonymous = await fetch(`${termiiWorld.url}/api/user/sms-notices`, {
      method: "PUT",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": nextAddress() },
      body: JSON.stringify({ on: true }),
    });
    expect(anonymous.status).toBe(401);
  });
});

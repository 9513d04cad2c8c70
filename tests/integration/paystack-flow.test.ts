import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import { passes, payments } from "~/db/schema";
import type * as PaymentRoute from "~/routes/payment";
import type * as CallbackRoute from "~/routes/payments.paystack.callback";
import type * as WebhookRoute from "~/routes/payments.paystack.webhook";
import type * as PaymentsService from "~/services/payments.server";
import { startFakePaystack, type FakePaystack } from "../fixtures/fake-paystack";
import { seedBilling } from "../unit/helpers/billing-fixtures";

/**
 * The card flow end to end through our own route modules, against a local
 * server that speaks Paystack's documented shapes: the viewer starts a
 * purchase on /payment, pays at the authorization URL, comes back through the
 * callback (verified server to server), and the webhook for the same charge
 * arrives too — one pass, whichever comes first.
 */

let root: string;
let db: DB;
let paystack: FakePaystack;
let cookie: string;

type Routes = {
  payment: typeof PaymentRoute;
  callback: typeof CallbackRoute;
  webhook: typeof WebhookRoute;
  payments: typeof PaymentsService;
};
let routes: Routes;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-paystack-it-"));
  paystack = await startFakePaystack();
  // The environment is read once, at the first getEnv(): set it before anything asks.
  process.env.STORAGE_DIR = root;
  process.env.DATABASE_PATH = path.join(root, "data.db");
  process.env.PAYSTACK_SECRET_KEY = paystack.secretKey;
  process.env.PAYSTACK_BASE_URL = paystack.baseUrl;
  process.env.PUBLIC_URL = "http://kallo.test";
  db = openDatabase(process.env.DATABASE_PATH);
  migrateDatabase(db);
  (globalThis as unknown as { __kalloDb?: DB }).__kalloDb = db;
  seedBilling(db);
  routes = {
    payment: await import("~/routes/payment"),
    callback: await import("~/routes/payments.paystack.callback"),
    webhook: await import("~/routes/payments.paystack.webhook"),
    payments: await import("~/services/payments.server"),
  };
  const { startSession } = await import("~/auth/session.server");
  cookie = (await startSession("viewer1")).split(";")[0];
});

afterAll(async () => {
  await paystack.close();
  db.$client.close();
  (globalThis as unknown as { __kalloDb?: DB }).__kalloDb = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

const args = (request: Request) => ({ request, params: {}, context: {} });

async function startPurchase(
  planId = "planbasic",
  period = "week",
): Promise<{ reference: string; authorizationUrl: string }> {
  const body = new URLSearchParams({ intent: "buy", planId, period });
  const response = (await routes.payment.action(
    args(
      new Request("http://kallo.test/payment", {
        method: "POST",
        body,
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      }),
    ),
  )) as Response;
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("Location")!, "http://kallo.test");
  expect(location.pathname).toBe("/payment");
  const reference = location.searchParams.get("order")!;
  const row = db.select().from(payments).where(eq(payments.reference, reference)).get()!;
  expect(row).toMatchObject({
    status: "pending",
    amountMinor: 400,
    currency: "NGN",
    periodDays: 7,
    accountId: "viewer1",
  });
  return { reference, authorizationUrl: row.authorizationUrl! };
}

async function pay(authorizationUrl: string): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("Location")!);
}

async function callBack(url: URL): Promise<string> {
  const response = await routes.callback.loader(
    args(new Request(url.toString().replace(url.origin, "http://kallo.test"))),
  );
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/payment");
  return response.headers.get("Set-Cookie") ?? "";
}

async function deliver(event: { body: string; signature: string }): Promise<{ status: number; outcome: string }> {
  const request = new Request("http://kallo.test/payments/paystack/webhook", {
    method: "POST",
    body: event.body,
    headers: { "Content-Type": "application/json", "x-paystack-signature": event.signature },
  });
  const response = await routes.webhook.action(args(request));
  return { status: response.status, outcome: ((await response.json()) as { outcome: string }).outcome };
}

const passesOf = (reference: string) => {
  const payment = db.select({ id: payments.id }).from(payments).where(eq(payments.reference, reference)).get()!;
  return db.select().from(passes).where(eq(passes.paymentId, payment.id)).all();
};

describe("buying a pass with Paystack", () => {
  it("initializes with the documented request: Bearer key, amount in minor units, reference, callback URL, metadata, channels", async () => {
    const { reference, authorizationUrl } = await startPurchase();
    expect(authorizationUrl.startsWith(`${paystack.baseUrl}/checkout/`)).toBe(true);
    const sent = paystack.transactions.get(reference)!;
    expect(sent).toMatchObject({
      amount: 400,
      currency: "NGN",
      email: "viewer1@example.com",
      callbackUrl: "http://kallo.test/payments/paystack/callback",
    });
    expect(sent.metadata).toMatchObject({ accountId: "viewer1", planCode: "BASIC", period: "week" });
    // The checkout offers the ways the operator turned on: card, bank transfer, USSD and mobile money by default.
    expect(sent.channels).toEqual(["card", "bank_transfer", "ussd", "mobile_money"]);
    expect(paystack.requests.find((request) => request.path === "/transaction/initialize")?.authorization).toBe(
      `Bearer ${paystack.secretKey}`,
    );
  });

  it("callback first, then the webhook: one pass", async () => {
    const { reference, authorizationUrl } = await startPurchase();
    const back = await pay(authorizationUrl);
    expect(back.searchParams.get("reference")).toBe(reference);
    const toast = await callBack(back);
    expect(toast).toContain("kallo_toast");
    expect(
      db.select({ status: payments.status }).from(payments).where(eq(payments.reference, reference)).get()?.status,
    ).toBe("success");
    expect(passesOf(reference)).toHaveLength(1);
    expect(paystack.requests.some((request) => request.path === `/transaction/verify/${reference}`)).toBe(true);

    const event = paystack.events.find((candidate) => candidate.body.includes(reference))!;
    expect(await deliver(event)).toEqual({ status: 200, outcome: "already" });
    expect(await deliver(event)).toEqual({ status: 200, outcome: "already" });
    expect(passesOf(reference)).toHaveLength(1);
  });

  it("webhook first, then the callback: one pass, and a forged event is refused", async () => {
    const { reference, authorizationUrl } = await startPurchase();
    const back = await pay(authorizationUrl);
    const event = paystack.events.find((candidate) => candidate.body.includes(reference))!;
    expect(await deliver({ body: event.body, signature: "f".repeat(128) })).toEqual({
      status: 401,
      outcome: "bad-signature",
    });
    expect(passesOf(reference)).toHaveLength(0);
    expect(await deliver(event)).toEqual({ status: 200, outcome: "granted" });
    await callBack(back);
    expect(passesOf(reference)).toHaveLength(1);
  });

  it("a payer who comes back without paying gets no pass, and the order stays open", async () => {
    const { reference } = await startPurchase();
    await callBack(new URL(`http://kallo.test/payments/paystack/callback?reference=${reference}`));
    expect(
      db.select({ status: payments.status }).from(payments).where(eq(payments.reference, reference)).get()?.status,
    ).toBe("pending");
    expect(passesOf(reference)).toHaveLength(0);
  });

  it("a charge for less than the order grants nothing", async () => {
    const { reference, authorizationUrl } = await startPurchase();
    paystack.transactions.get(reference)!.chargeAmount = 100;
    await callBack(await pay(authorizationUrl));
    const row = db.select().from(payments).where(eq(payments.reference, reference)).get()!;
    expect(row.status).toBe("failed");
    expect(passesOf(reference)).toHaveLength(0);
  });

  it("passes bought back to back extend each other", async () => {
    const before = db.select().from(passes).where(eq(passes.accountId, "viewer1")).all();
    const lastEnd = Math.max(...before.map((pass) => pass.endsAt.getTime()));
    const { authorizationUrl } = await startPurchase();
    await callBack(await pay(authorizationUrl));
    const after = db.select().from(passes).where(eq(passes.accountId, "viewer1")).all();
    const added = after.find((pass) => !before.some((old) => old.id === pass.id))!;
    expect(added.startsAt.getTime()).toBe(lastEnd);
  });

  it("says so when the gateway cannot be reached, or there is no key, and keeps no half order", async () => {
    const down = await routes.payments.startPassPurchase(
      db,
      { ...paystack, baseUrl: "http://127.0.0.1:9" },
      {
        account: { id: "viewer1", email: "viewer1@example.com" },
        planId: "planbasic",
        period: "day",
        callbackUrl: "http://kallo.test/cb",
      },
    );
    expect(down).toEqual({ ok: false, error: "billing:buy.errors.gateway", status: 502 });
    expect(
      db
        .select({ status: payments.status })
        .from(payments)
        .where(eq(payments.amountMinor, 100))
        .all()
        .map((row) => row.status),
    ).toEqual(["failed"]);
    const none = await routes.payments.startPassPurchase(db, undefined, {
      account: { id: "viewer1", email: "viewer1@example.com" },
      planId: "planbasic",
      period: "day",
      callbackUrl: "http://kallo.test/cb",
    });
    expect(none).toEqual({ ok: false, error: "billing:buy.errors.unavailable", status: 503 });
    const unknownPeriod = await routes.payments.startPassPurchase(db, paystack, {
      account: { id: "viewer1", email: "viewer1@example.com" },
      planId: "planpro",
      period: "day",
      callbackUrl: "http://kallo.test/cb",
    });
    expect(unknownPeriod).toMatchObject({ ok: false, status: 400 });
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import type * as PaymentRoute from "~/routes/payment";
import { seedBilling } from "../unit/helpers/billing-fixtures";

/** /payment on a server without PAYSTACK_SECRET_KEY: card payment is unavailable, vouchers still work. */

let root: string;
let db: DB;
let cookie: string;
let route: typeof PaymentRoute;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "kallo-nogateway-it-"));
  process.env.STORAGE_DIR = root;
  process.env.DATABASE_PATH = path.join(root, "data.db");
  delete process.env.PAYSTACK_SECRET_KEY;
  db = openDatabase(process.env.DATABASE_PATH);
  migrateDatabase(db);
  (globalThis as unknown as { __kalloDb?: DB }).__kalloDb = db;
  seedBilling(db);
  route = await import("~/routes/payment");
  const { startSession } = await import("~/auth/session.server");
  cookie = (await startSession("viewer1")).split(";")[0];
});

afterAll(() => {
  db.$client.close();
  (globalThis as unknown as { __kalloDb?: DB }).__kalloDb = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

const post = (fields: Record<string, string>) =>
  new Request("http://kallo.test/payment", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });

describe("/payment without a card gateway", () => {
  it("shows the plans and prices, the FREE plan, and that card payment is unavailable", async () => {
    const data = await route.loader({
      request: new Request("http://kallo.test/payment", { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    });
    expect(data.cardPayments).toBe(false);
    expect(data.status).toMatchObject({ planCode: "FREE", onFreePlan: true, expiresAt: null });
    const basic = data.plans.find((plan) => plan.code === "BASIC");
    expect(basic?.prices.map((price) => [price.period, price.price])).toEqual([
      ["day", "₦1"],
      ["week", "₦4"],
      ["month", "₦14"],
    ]);
    expect(data.history.rows).toEqual([]);
  });

  it("refuses a card purchase with 503 and a clear message, and still redeems vouchers", async () => {
    const refused = (await route.action({
      request: post({ intent: "buy", planId: "planbasic", period: "week" }),
      params: {},
      context: {},
    })) as unknown as { data: { formError: string }; init: { status: number } };
    expect(refused.init.status).toBe(503);
    expect(refused.data.formError).toBe("billing:buy.errors.unavailable");

    const { generateVoucherBatch } = await import("~/services/vouchers.server");
    const batch = generateVoucherBatch(
      db,
      { planId: "planbasic", period: "day", count: "1", expiresOn: "2099-12-31" },
      { actorId: "admin1" },
      new Date("2098-06-01T00:00:00Z"),
    );
    if (!batch.ok) throw new Error("no batch");
    const redeemed = (await route.action({
      request: post({ intent: "redeem", code: batch.codes[0] }),
      params: {},
      context: {},
    })) as Response;
    expect(redeemed.status).toBe(303);
    expect(redeemed.headers.get("Location")).toBe("/payment");
    const data = await route.loader({
      request: new Request("http://kallo.test/payment", { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    });
    expect(data.status.planCode).toBe("BASIC");
  });
});

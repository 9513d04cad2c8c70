import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { auditLog, passes, payments, redeemCodes } from "~/db/schema";
import { listCodeRows, listPassRows, listPaymentRows } from "~/services/billing-admin.server";
import { completePayment, handlePaystackWebhook } from "~/services/payments.server";
import { isValidPaystackSignature, signPaystackBody } from "~/services/paystack.server";
import { getPassStatus } from "~/services/passes.server";
import {
  formatVoucherCode,
  generateVoucherBatch,
  generateVoucherCode,
  normalizeVoucherCode,
  redeemVoucher,
  VOUCHER_ALPHABET,
} from "~/services/vouchers.server";
import { csvCell, csvLine, safeFileName } from "~/utils/csv";
import { DAY, seedBilling } from "./helpers/billing-fixtures";
import { createTestDatabase } from "./helpers/test-db";
import { DEFAULT_PAYSTACK_CHANNELS } from "~/utils/payment-channels";

let testDb: ReturnType<typeof createTestDatabase>;
const t0 = new Date("2026-03-01T12:00:00Z");
const at = (days: number) => new Date(t0.getTime() + days * DAY);
const admin = { actorId: "admin1" };

beforeEach(() => {
  testDb = createTestDatabase();
  seedBilling(testDb.db);
});
afterEach(() => testDb.close());

function batch(count = 3, expiresOn = "2026-06-30", planPeriod: [string, string] = ["planbasic", "week"]) {
  const result = generateVoucherBatch(
    testDb.db,
    { planId: planPeriod[0], period: planPeriod[1], count: String(count), expiresOn },
    admin,
    t0,
  );
  if (!result.ok) throw new Error(JSON.stringify(result.fieldErrors));
  return result;
}

describe("voucher codes", () => {
  it("are 16 characters of an alphabet without look-alikes, shown in groups of four", () => {
    const codes = Array.from({ length: 2000 }, generateVoucherCode);
    expect(new Set(codes).size).toBe(2000);
    for (const code of codes) {
      expect(code).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{16}$/);
    }
    expect(VOUCHER_ALPHABET).toHaveLength(32);
    expect(VOUCHER_ALPHABET).not.toMatch(/[01IO]/);
    // Every symbol turns up: the mapping from random bytes is not stuck on a subset.
    expect(new Set(codes.join("")).size).toBe(32);
    expect(formatVoucherCode("ABCDEFGHJKLMNPQR")).toBe("ABCD-EFGH-JKLM-NPQR");
    expect(normalizeVoucherCode(" abcd-efgh jklm-npqr ")).toBe("ABCDEFGHJKLMNPQR");
    expect(normalizeVoucherCode("ABCD-EFGH-JKLM-NPQ0")).toBeNull();
    expect(normalizeVoucherCode("short")).toBeNull();
  });

  it("come in batches for a plan and period, within limits", () => {
    const made = batch(5);
    expect(made.codes).toHaveLength(5);
    expect(testDb.db.select().from(redeemCodes).where(eq(redeemCodes.batchId, made.batchId)).all()).toHaveLength(5);
    expect(testDb.db.select().from(auditLog).where(eq(auditLog.action, "voucher.generate")).all()).toHaveLength(1);
    const bad = generateVoucherBatch(
      testDb.db,
      { planId: "planfree", period: "week", count: "501", expiresOn: "2026-02-01" },
      admin,
      t0,
    );
    expect(bad).toEqual({
      ok: false,
      fieldErrors: {
        planPeriod: ["billing:vouchers.errors.plan"],
        count: ["billing:vouchers.errors.count"],
        expiresOn: ["billing:vouchers.errors.expires"],
      },
    });
    // PRO has no day pass on sale.
    expect(
      generateVoucherBatch(
        testDb.db,
        { planId: "planpro", period: "day", count: "1", expiresOn: "2026-06-30" },
        admin,
        t0,
      ).ok,
    ).toBe(false);
    expect(
      generateVoucherBatch(
        testDb.db,
        { planId: "planbasic", period: "week", count: "1", expiresOn: "2026-02-30" },
        admin,
        t0,
      ).ok,
    ).toBe(false);
  });
});

describe("redeeming a voucher", () => {
  it("activates its plan for its period and marks the code used by that viewer", () => {
    const [code] = batch(1).codes;
    const result = redeemVoucher(testDb.db, { accountId: "viewer1", code: formatVoucherCode(code).toLowerCase() }, t0);
    expect(result).toMatchObject({ ok: true, planName: "Basic" });
    if (result.ok) expect(result.endsAt.toISOString()).toBe(at(7).toISOString());
    const row = testDb.db.select().from(redeemCodes).where(eq(redeemCodes.code, code)).get();
    expect(row?.redeemedBy).toBe("viewer1");
    expect(getPassStatus(testDb.db, "viewer1", at(1)).plan.code).toBe("BASIC");
  });

  it("answers unknown, used and expired codes distinctly and grants nothing", () => {
    const [first, second] = batch(2, "2026-03-05").codes;
    expect(redeemVoucher(testDb.db, { accountId: "viewer1", code: "ABCD-EFGH-JKLM-NPQR" }, t0)).toEqual({
      ok: false,
      reason: "unknown",
    });
    expect(redeemVoucher(testDb.db, { accountId: "viewer1", code: "not a code" }, t0)).toEqual({
      ok: false,
      reason: "unknown",
    });
    expect(redeemVoucher(testDb.db, { accountId: "viewer1", code: first }, t0).ok).toBe(true);
    expect(redeemVoucher(testDb.db, { accountId: "viewer2", code: first }, t0)).toEqual({ ok: false, reason: "used" });
    expect(redeemVoucher(testDb.db, { accountId: "viewer2", code: second }, at(5))).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(testDb.db.select().from(passes).where(eq(passes.accountId, "viewer2")).all()).toHaveLength(0);
  });

  it("lets only one of two people redeeming the same code at once win", async () => {
    const [code] = batch(1).codes;
    // A second connection to the same file, as a second request would use.
    const second = openDatabase(path.join(testDb.dir, "data.db"));
    try {
      const results = await Promise.all([
        Promise.resolve().then(() => redeemVoucher(testDb.db, { accountId: "viewer1", code }, t0)),
        Promise.resolve().then(() => redeemVoucher(second, { accountId: "viewer2", code }, t0)),
      ]);
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, reason: "used" }]);
      expect(testDb.db.select().from(passes).all()).toHaveLength(1);
    } finally {
      second.$client.close();
    }
  });
});

describe("redeeming one code from several processes at once", () => {
  it("grants exactly one pass", async () => {
    // The workers redeem at the real time: a code made now, valid for a month.
    const made = generateVoucherBatch(
      testDb.db,
      {
        planId: "planbasic",
        period: "week",
        count: "1",
        expiresOn: new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10),
      },
      admin,
    );
    if (!made.ok) throw new Error("no batch");
    const [code] = made.codes;
    const accounts = ["viewer1", "viewer2", "provider1", "provider2"];
    const startAt = Date.now() + 2500;
    const run = promisify(execFile);
    const outputs = await Promise.all(
      accounts.map((accountId) =>
        run(
          process.execPath,
          [
            "--import",
            "tsx",
            "tests/fixtures/redeem-worker.ts",
            path.join(testDb.dir, "data.db"),
            accountId,
            code,
            String(startAt),
          ],
          { cwd: process.cwd() },
        ),
      ),
    );
    const results = outputs.map(
      (output) => JSON.parse(output.stdout) as { ok?: boolean; reason?: string; error?: string },
    );
    expect(results.filter((result) => result.error)).toEqual([]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => result.reason === "used")).toHaveLength(3);
    expect(testDb.db.select().from(passes).all()).toHaveLength(1);
  }, 60_000);
});

const SECRET = "sk_test_unit_secret";
const gateway = { secretKey: SECRET, baseUrl: "http://127.0.0.1:9", channels: DEFAULT_PAYSTACK_CHANNELS };

function pendingPayment(reference: string, amountMinor = 400, currency = "USD") {
  testDb.db
    .insert(payments)
    .values({
      id: `p-${reference}`,
      accountId: "viewer1",
      planId: "planbasic",
      periodDays: 7,
      amountMinor,
      currency,
      reference,
      status: "pending",
    })
    .run();
}

function chargeEvent(reference: string, amount = 400, currency = "USD") {
  return Buffer.from(
    JSON.stringify({
      event: "charge.success",
      data: {
        id: 302961,
        domain: "test",
        status: "success",
        reference,
        amount,
        currency,
        paid_at: "2026-03-01T12:01:00.000Z",
        gateway_response: "Successful",
        customer: { email: "viewer1@example.com" },
      },
    }),
  );
}

describe("Paystack webhook", () => {
  it("checks the signature over the raw bytes, in constant time", () => {
    const body = chargeEvent("KAL-sig");
    const signature = signPaystackBody(SECRET, body);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(isValidPaystackSignature(SECRET, body, signature)).toBe(true);
    expect(isValidPaystackSignature("sk_test_other", body, signature)).toBe(false);
    expect(isValidPaystackSignature(SECRET, body, null)).toBe(false);
    expect(isValidPaystackSignature(SECRET, body, "abc")).toBe(false);
    const tampered = Buffer.from(body);
    tampered[tampered.length - 2] ^= 1;
    expect(isValidPaystackSignature(SECRET, tampered, signature)).toBe(false);
  });

  it("refuses a bad signature or a body changed by one byte, and grants nothing", () => {
    pendingPayment("KAL-bad");
    const body = chargeEvent("KAL-bad");
    const signature = signPaystackBody(SECRET, body);
    expect(handlePaystackWebhook(testDb.db, gateway, body, "0".repeat(128), t0)).toEqual({
      status: 401,
      outcome: "bad-signature",
    });
    const changed = Buffer.from(body.toString("utf8").replace('"amount":400', '"amount":401'));
    expect(changed.length).toBe(body.length);
    expect(handlePaystackWebhook(testDb.db, gateway, changed, signature, t0)).toEqual({
      status: 401,
      outcome: "bad-signature",
    });
    expect(handlePaystackWebhook(testDb.db, undefined, body, signature, t0)).toEqual({
      status: 503,
      outcome: "unavailable",
    });
    expect(testDb.db.select().from(passes).all()).toHaveLength(0);
    expect(testDb.db.select({ status: payments.status }).from(payments).get()?.status).toBe("pending");
  });

  it("applies charge.success once: a replayed event grants nothing twice", () => {
    pendingPayment("KAL-once");
    const body = chargeEvent("KAL-once");
    const signature = signPaystackBody(SECRET, body);
    expect(handlePaystackWebhook(testDb.db, gateway, body, signature, t0)).toEqual({ status: 200, outcome: "granted" });
    expect(handlePaystackWebhook(testDb.db, gateway, body, signature, t0)).toEqual({ status: 200, outcome: "already" });
    // The callback's verification arriving after the webhook changes nothing either.
    expect(
      completePayment(
        testDb.db,
        {
          reference: "KAL-once",
          status: "success",
          amountMinor: 400,
          currency: "USD",
          paidAt: t0,
          gatewayResponse: null,
        },
        t0,
      ).outcome,
    ).toBe("already");
    expect(testDb.db.select().from(passes).all()).toHaveLength(1);
    const payment = testDb.db.select().from(payments).get();
    expect(payment).toMatchObject({ status: "success" });
    expect(payment?.paidAt?.toISOString()).toBe("2026-03-01T12:01:00.000Z");
    expect(getPassStatus(testDb.db, "viewer1", t0).expiresAt?.toISOString()).toBe(at(7).toISOString());
  });

  it("ignores other events and unknown references", () => {
    const other = Buffer.from(JSON.stringify({ event: "transfer.success", data: {} }));
    expect(handlePaystackWebhook(testDb.db, gateway, other, signPaystackBody(SECRET, other), t0)).toEqual({
      status: 200,
      outcome: "ignored",
    });
    const unknown = chargeEvent("KAL-nobody");
    expect(handlePaystackWebhook(testDb.db, gateway, unknown, signPaystackBody(SECRET, unknown), t0)).toEqual({
      status: 200,
      outcome: "unknown",
    });
    const garbage = Buffer.from("{not json");
    expect(handlePaystackWebhook(testDb.db, gateway, garbage, signPaystackBody(SECRET, garbage), t0)).toEqual({
      status: 400,
      outcome: "bad-body",
    });
  });

  it("refuses a charge whose amount or currency differs from the order", () => {
    pendingPayment("KAL-amount");
    pendingPayment("KAL-currency");
    const less = chargeEvent("KAL-amount", 100);
    expect(handlePaystackWebhook(testDb.db, gateway, less, signPaystackBody(SECRET, less), t0)).toEqual({
      status: 200,
      outcome: "mismatch",
    });
    const naira = chargeEvent("KAL-currency", 400, "NGN");
    expect(handlePaystackWebhook(testDb.db, gateway, naira, signPaystackBody(SECRET, naira), t0)).toEqual({
      status: 200,
      outcome: "mismatch",
    });
    expect(testDb.db.select().from(passes).all()).toHaveLength(0);
    const rows = testDb.db
      .select({ status: payments.status, failureReason: payments.failureReason })
      .from(payments)
      .all();
    expect(rows.map((row) => row.status)).toEqual(["failed", "failed"]);
    expect(rows[0].failureReason).toContain("Paid 100 USD");
    // A correct event after a mismatch does not bring the order back.
    const right = chargeEvent("KAL-amount");
    expect(handlePaystackWebhook(testDb.db, gateway, right, signPaystackBody(SECRET, right), t0).outcome).toBe(
      "failed",
    );
    expect(testDb.db.select().from(passes).all()).toHaveLength(0);
  });
});

describe("the administrator's tables", () => {
  it("search, page, and show who redeemed what", () => {
    const made = batch(12);
    redeemVoucher(testDb.db, { accountId: "viewer1", code: made.codes[0] }, t0);
    pendingPayment("KAL-table");
    const codes = listCodeRows(testDb.db, { page: 1, pageSize: 5 }, t0);
    expect(codes.total).toBe(12);
    expect(codes.rows).toHaveLength(5);
    const found = listCodeRows(testDb.db, { search: formatVoucherCode(made.codes[0]) }, t0);
    expect(found.rows).toHaveLength(1);
    expect(found.rows[0]).toMatchObject({
      state: "used",
      redeemedByEmail: "viewer1@example.com",
      code: formatVoucherCode(made.codes[0]),
    });
    expect(listCodeRows(testDb.db, { search: "viewer1@example" }, t0).total).toBe(1);
    expect(listCodeRows(testDb.db, { page: 3, pageSize: 5 }, t0).rows).toHaveLength(2);

    const subscriptions = listPassRows(testDb.db, { search: "Aisha" }, t0);
    expect(subscriptions.rows).toHaveLength(1);
    expect(subscriptions.rows[0]).toMatchObject({
      plan: "Basic",
      state: "active",
      paymentId: formatVoucherCode(made.codes[0]),
    });
    expect(listPassRows(testDb.db, { search: "nobody" }, t0).total).toBe(0);

    const paymentRows = listPaymentRows(testDb.db, { search: "KAL-table" });
    expect(paymentRows.rows).toHaveLength(1);
    expect(paymentRows.rows[0]).toMatchObject({ name: "Aisha Bello", status: "pending", plan: "Basic" });
    // LIKE wildcards typed in the search are taken literally.
    expect(listPaymentRows(testDb.db, { search: "%" }).total).toBe(0);
  });
});

describe("CSV export cells", () => {
  it("quote what needs quoting and defuse formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", twice')).toBe('"say ""hi"", twice"');
    expect(csvCell("=cmd|' /C calc'!A0")).toBe(`"'=cmd|' /C calc'!A0"`);
    expect(csvCell("+2348031234567")).toBe("'+2348031234567");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell(null)).toBe("");
    // A spreadsheet that splits on semicolons, pipes or tabs would start a cell after them.
    expect(csvCell("x;=1+1")).toBe(`"x;'=1+1"`);
    expect(csvCell("a|@SUM(A1)")).toBe(`"a|'@SUM(A1)"`);
    expect(csvCell('"=2+2')).toBe(`"""'=2+2"`);
    expect(csvCell("well-known")).toBe("well-known");
    expect(safeFileName('kallo-vouchers-x"; filename=evil.exe-2026.csv')).toBe(
      "kallo-vouchers-x-filename-evil.exe-2026.csv",
    );
    expect(csvLine(["a", 1, "=1+1"])).toBe("a,1,'=1+1\r\n");
  });
});

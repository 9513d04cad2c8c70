import { describe, expect, it } from "vitest";
import { formatAmount, formatMoney, minorUnitDigits, parseAmount } from "~/utils/money";
import { parseEnv } from "~/utils/env.server";

describe("money as readers write it", () => {
  it("writes naira with English marks: ₦1,500, cents only when there are some", () => {
    expect(formatMoney(150_000, "NGN", "en")).toBe("₦1,500");
    expect(formatMoney(150_050, "NGN", "en")).toBe("₦1,500.50");
    expect(formatMoney(3_500_000_00, "NGN", "en")).toBe("₦3,500,000");
    expect(formatMoney(5, "NGN", "en")).toBe("₦0.05");
    expect(formatMoney(0, "NGN", "en")).toBe("₦0");
    expect(formatMoney(150_000, "NGN", "en", { cents: "always" })).toBe("₦1,500.00");
  });

  it("writes naira on Hausa pages as Nigerians write it: ₦1,800.50, never ₦1.800 or ₦35.000", () => {
    expect(formatMoney(180_000, "NGN", "ha")).toBe("₦1,800");
    expect(formatMoney(180_050, "NGN", "ha")).toBe("₦1,800.50");
    expect(formatMoney(3_500_000, "NGN", "ha")).toBe("₦35,000");
    expect(formatMoney(3_500_000_00, "NGN", "ha")).toBe("₦3,500,000");
    expect(formatMoney(99_900, "NGN", "ha")).toBe("₦999");
    for (const amount of [5, 150_050, 3_500_000, 123_456_789]) {
      expect(formatMoney(amount, "NGN", "ha")).toBe(formatMoney(amount, "NGN", "en"));
    }
  });

  it("puts a space after a symbol made of letters, and none after a sign", () => {
    expect(formatMoney(25_000, "KES", "en")).toBe("KSh\u00a0250");
    expect(formatMoney(2_000, "GHS", "en")).toBe("GH₵20");
    expect(formatMoney(4_500, "ZAR", "ha")).toBe("R\u00a045");
    expect(formatMoney(30, "USD", "en")).toBe("$0.30");
    expect(formatMoney(-150_000, "NGN", "en")).toBe("-₦1,500");
  });

  it("is the platform's number format with Nigerian English marks, whatever the page's language", () => {
    const platform = new Intl.NumberFormat("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(formatAmount(987_654_321, "NGN", "ha")).toBe(platform.format(9_876_543.21));
    expect(formatAmount(150_050, "NGN", "en", { cents: "always" })).toBe(platform.format(1500.5));
  });

  it("gives a form its amount without grouping, in the reader's marks", () => {
    expect(formatAmount(150_050, "NGN", "en", { grouping: false })).toBe("1500.50");
    expect(formatAmount(150_050, "NGN", "ha", { grouping: false })).toBe("1500.50");
    expect(minorUnitDigits("NGN")).toBe(2);
  });
});

describe("reading a typed price", () => {
  it("reads English marks: 1,500.50 and 1500", () => {
    expect(parseAmount("1,500.50", "NGN", "en")).toEqual({ ok: true, value: 150_050 });
    expect(parseAmount(" 1500 ", "NGN", "en")).toEqual({ ok: true, value: 150_000 });
    expect(parseAmount("0.3", "USD", "en")).toEqual({ ok: true, value: 30 });
  });

  it("reads a Hausa page's price with the same marks: 1,500.50 and 35,000", () => {
    expect(parseAmount("1,500.50", "NGN", "ha")).toEqual({ ok: true, value: 150_050 });
    expect(parseAmount("35,000", "NGN", "ha")).toEqual({ ok: true, value: 3_500_000 });
    // Written the continental way, it is refused for its three kobo digits, never read as ₦35.
    expect(parseAmount("35.000", "NGN", "ha")).toEqual({ ok: false, reason: "digits" });
    expect(parseAmount("1.500,50", "NGN", "ha")).toEqual({ ok: false, reason: "format" });
  });

  it("refuses what is not a price, and more decimals than the currency has", () => {
    expect(parseAmount("1,50", "NGN", "en")).toEqual({ ok: false, reason: "format" });
    expect(parseAmount("-5", "NGN", "en")).toEqual({ ok: false, reason: "format" });
    expect(parseAmount("₦5", "NGN", "en")).toEqual({ ok: false, reason: "format" });
    expect(parseAmount("1.234", "NGN", "en")).toEqual({ ok: false, reason: "digits" });
    expect(parseAmount("99999999999", "NGN", "en")).toEqual({ ok: false, reason: "range" });
  });
});

describe("the PAYSTACK_CHANNELS setting", () => {
  it("offers card, bank transfer, USSD and mobile money unless set, and refuses a way Paystack does not know", () => {
    const key = { PAYSTACK_SECRET_KEY: "sk_test_x" };
    expect(parseEnv(key).paystack?.channels).toEqual(["card", "bank_transfer", "ussd", "mobile_money"]);
    expect(parseEnv({ ...key, PAYSTACK_CHANNELS: " USSD, card ,ussd" }).paystack?.channels).toEqual(["ussd", "card"]);
    expect(() => parseEnv({ ...key, PAYSTACK_CHANNELS: "card,cash" })).toThrow(/PAYSTACK_CHANNELS must be/);
  });
});

describe("the CURRENCY setting", () => {
  it("is naira unless set, upper-cased, and one Paystack charges in", () => {
    expect(parseEnv({}).currency).toBe("NGN");
    expect(parseEnv({ CURRENCY: "ghs" }).currency).toBe("GHS");
    expect(() => parseEnv({ CURRENCY: "EUR" })).toThrow(/CURRENCY must be one of NGN, GHS, KES, ZAR, USD/);
    expect(() => parseEnv({ CURRENCY: "naira" })).toThrow(/CURRENCY/);
  });
});

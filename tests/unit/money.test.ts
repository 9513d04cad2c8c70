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

  it("writes naira as Hausa readers do: ₦1.500, with a decimal comma", () => {
    expect(formatMoney(150_000, "NGN", "ha")).toBe("₦1.500");
    expect(formatMoney(150_050, "NGN", "ha")).toBe("₦1.500,50");
    expect(formatMoney(3_500_000_00, "NGN", "ha")).toBe("₦3.500.000");
    expect(formatMoney(99_900, "NGN", "ha")).toBe("₦999");
  });

  it("puts a space after a symbol made of letters, and none after a sign", () => {
    expect(formatMoney(25_000, "KES", "en")).toBe("KSh\u00a0250");
    expect(formatMoney(2_000, "GHS", "en")).toBe("GH₵20");
    expect(formatMoney(4_500, "ZAR", "ha")).toBe("R\u00a045");
    expect(formatMoney(30, "USD", "en")).toBe("$0.30");
    expect(formatMoney(-150_000, "NGN", "en")).toBe("-₦1,500");
  });

  it("is the same text wherever it runs: no locale data of the runtime is used", () => {
    // The formatter reads its own table, so a browser without Hausa locale data prints what the server printed.
    const original = Intl.NumberFormat;
    try {
      (Intl as { NumberFormat: unknown }).NumberFormat = () => {
        throw new Error("no locale data here");
      };
      expect(formatMoney(150_050, "NGN", "ha")).toBe("₦1.500,50");
      expect(formatMoney(150_050, "NGN", "en")).toBe("₦1,500.50");
    } finally {
      (Intl as { NumberFormat: unknown }).NumberFormat = original;
    }
  });

  it("gives a form its amount without grouping, in the reader's marks", () => {
    expect(formatAmount(150_050, "NGN", "en", { grouping: false })).toBe("1500.50");
    expect(formatAmount(150_050, "NGN", "ha", { grouping: false })).toBe("1500,50");
    expect(minorUnitDigits("NGN")).toBe(2);
  });
});

describe("reading a typed price", () => {
  it("reads English marks: 1,500.50 and 1500", () => {
    expect(parseAmount("1,500.50", "NGN", "en")).toEqual({ ok: true, value: 150_050 });
    expect(parseAmount(" 1500 ", "NGN", "en")).toEqual({ ok: true, value: 150_000 });
    expect(parseAmount("0.3", "USD", "en")).toEqual({ ok: true, value: 30 });
  });

  it("reads Hausa marks: 1.500,50 and 1500", () => {
    expect(parseAmount("1.500,50", "NGN", "ha")).toEqual({ ok: true, value: 150_050 });
    expect(parseAmount("1.500", "NGN", "ha")).toEqual({ ok: true, value: 150_000 });
    expect(parseAmount("35.000", "NGN", "ha")).toEqual({ ok: true, value: 3_500_000 });
  });

  it("refuses what is not a price, and more decimals than the currency has", () => {
    // "1.5" is neither a Hausa group of three nor a Hausa decimal: refused rather than read as 15 or 1.5.
    expect(parseAmount("1.5", "NGN", "ha")).toEqual({ ok: false, reason: "format" });
    expect(parseAmount("1,50", "NGN", "en")).toEqual({ ok: false, reason: "format" });
    expect(parseAmount("-5", "NGN", "en")).toEqual({ ok: false, reason: "format" });
    expect(parseAmount("₦5", "NGN", "en")).toEqual({ ok: false, reason: "format" });
    expect(parseAmount("1.234", "NGN", "en")).toEqual({ ok: false, reason: "digits" });
    expect(parseAmount("99999999999", "NGN", "en")).toEqual({ ok: false, reason: "range" });
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

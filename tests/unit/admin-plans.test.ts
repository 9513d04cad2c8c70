import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { plans } from "~/db/schema";
import { registerViewer } from "~/services/accounts.server";
import {
  listAllPlans,
  listOfferedPlans,
  PLAN_ERRORS,
  parsePriceToMinor,
  setPlanOffered,
  updatePlan,
} from "~/services/plans.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let actor: { actorId: string };
beforeEach(async () => {
  testDb = createTestDatabase();
  const admin = await registerViewer(testDb.db, {
    name: "Admin",
    email: "admin@example.com",
    phoneNumber: "08031234560",
    password: "password-1",
    password2: "password-1",
  });
  if (!admin.ok) throw new Error("no admin");
  actor = { actorId: admin.value.id };
  testDb.db
    .insert(plans)
    .values({
      id: "plan-basic",
      code: "BASIC",
      name: "Basic",
      monthlyPriceMinor: 1000,
      currency: "USD",
      screens: 1,
      maxQuality: "hd",
      features: ["hd"],
    })
    .run();
});
afterEach(() => testDb.close());

const edit = {
  price: "14.50",
  currency: "usd",
  screens: "2",
  maxQuality: "uhd",
  annualDiscountPercent: "20",
  features: ["ultraHd", "bogus", "hd"],
};

describe("plan prices", () => {
  it("reads a price in major units as minor units", () => {
    expect(parsePriceToMinor("14", "USD")).toEqual({ ok: true, value: 1400 });
    expect(parsePriceToMinor("10.99", "USD")).toEqual({ ok: true, value: 1099 });
    expect(parsePriceToMinor("1,500.5", "NGN")).toEqual({ ok: true, value: 150050 });
    expect(parsePriceToMinor("0", "USD")).toEqual({ ok: true, value: 0 });
    expect(parsePriceToMinor("500", "JPY")).toEqual({ ok: true, value: 500 });
    expect(parsePriceToMinor("-1", "USD")).toEqual({ ok: false, error: PLAN_ERRORS.price });
    expect(parsePriceToMinor("abc", "USD")).toEqual({ ok: false, error: PLAN_ERRORS.price });
    expect(parsePriceToMinor("", "USD")).toEqual({ ok: false, error: PLAN_ERRORS.price });
    expect(parsePriceToMinor("1.999", "USD")).toEqual({ ok: false, error: PLAN_ERRORS.priceDigits });
    expect(parsePriceToMinor("5.5", "JPY")).toEqual({ ok: false, error: PLAN_ERRORS.priceDigits });
    expect(parsePriceToMinor("9999999", "USD")).toEqual({ ok: false, error: PLAN_ERRORS.price });
  });

  it("stores a valid edit, keeping only known features", () => {
    expect(updatePlan(testDb.db, "plan-basic", edit, actor)).toEqual({ ok: true });
    const [plan] = listAllPlans(testDb.db);
    expect(plan).toMatchObject({
      monthlyPriceMinor: 1450,
      currency: "USD",
      screens: 2,
      maxQuality: "uhd",
      annualDiscountPercent: 20,
      features: ["hd", "ultraHd"],
    });
    expect(plan.annualPriceMinor).toBe(13920);
  });

  it("refuses bad values field by field and changes nothing", () => {
    const result = updatePlan(
      testDb.db,
      "plan-basic",
      { price: "-3", currency: "XX", screens: "0", maxQuality: "4k", annualDiscountPercent: "101", features: [] },
      actor,
    );
    expect(result).toEqual({
      ok: false,
      fieldErrors: {
        price: [PLAN_ERRORS.price],
        currency: [PLAN_ERRORS.currency],
        screens: [PLAN_ERRORS.screens],
        maxQuality: [PLAN_ERRORS.quality],
        annualDiscountPercent: [PLAN_ERRORS.discount],
      },
    });
    expect(
      testDb.db.select({ price: plans.monthlyPriceMinor }).from(plans).where(eq(plans.id, "plan-basic")).get()?.price,
    ).toBe(1000);
  });

  it("withdraws and offers a plan", () => {
    expect(setPlanOffered(testDb.db, "plan-basic", false, actor)).toBe(true);
    expect(listOfferedPlans(testDb.db)).toEqual([]);
    expect(setPlanOffered(testDb.db, "plan-basic", true, actor)).toBe(true);
    expect(listOfferedPlans(testDb.db).map((plan) => plan.code)).toEqual(["BASIC"]);
    expect(setPlanOffered(testDb.db, "missing", true, actor)).toBe(false);
  });
});

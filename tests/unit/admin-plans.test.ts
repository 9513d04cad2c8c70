import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditLog, planPeriods, plans } from "~/db/schema";
import { registerViewer } from "~/services/accounts.server";
import { downloadRulesFor } from "~/services/downloads.server";
import { allowsPremium, findSellablePeriod, getPassStatus, grantPass } from "~/services/passes.server";
import { generateVoucherBatch } from "~/services/vouchers.server";
import { checkPlanForm, PLAN_ERRORS, planCodeFor, type PlanFormFields } from "~/services/plan-rules";
import {
  createPlan,
  createStarterPlans,
  deletePlan,
  listPlansForAdmin,
  listPlansOnOffer,
  movePlan,
  setPlanOffered,
  updatePlan,
} from "~/services/plans.server";
import { maxRungFor } from "~/services/playback.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let actor: { actorId: string };
let viewerId: string;
beforeEach(async () => {
  testDb = createTestDatabase();
  const register = (name: string) =>
    registerViewer(testDb.db, {
      name,
      email: `${name.toLowerCase()}@example.com`,
      phoneNumber: "08031234560",
      password: "password-1",
      password2: "password-1",
    });
  const admin = await register("Admin");
  const viewer = await register("Viewer");
  if (!admin.ok || !viewer.ok) throw new Error("no accounts");
  actor = { actorId: admin.value.id };
  viewerId = viewer.value.id;
});
afterEach(() => testDb.close());

const form = (overrides: Partial<PlanFormFields> = {}): PlanFormFields => ({
  name: "Gold",
  nameHa: "Zinariya",
  description: "Everything, on four screens.",
  descriptionHa: "Komai, a kan allo huɗu.",
  premium: true,
  screens: "4",
  maxRung: "1080",
  downloadsAllowed: true,
  maxDownloads: "8",
  downloadDays: "14",
  downloadPlayHours: "72",
  prices: { week: "1,200", month: "4,500.50" },
  ...overrides,
});
const en = { currency: "NGN" as const, language: "en" };

describe("the plan form's rules", () => {
  it("reads prices in the administrator's marks and sells only the lengths with a price", () => {
    const checked = checkPlanForm(form(), { ...en, free: false });
    expect(checked.ok && checked.value.prices).toEqual([
      { period: "week", days: 7, priceMinor: 120_000 },
      { period: "month", days: 30, priceMinor: 450_050 },
    ]);
    const hausa = checkPlanForm(form({ prices: { day: "150", year: "35,000" } }), {
      currency: "NGN",
      language: "ha",
      free: false,
    });
    expect(hausa.ok && hausa.value.prices.map((price) => [price.period, price.priceMinor])).toEqual([
      ["day", 15_000],
      ["year", 3_500_000],
    ]);
  });

  it("wants names in both languages, a price for a pass plan, and allowances within limits", () => {
    const checked = checkPlanForm(
      form({
        name: " ",
        nameHa: "x".repeat(41),
        prices: {},
        screens: "0",
        maxRung: "4000",
        maxDownloads: "101",
        downloadDays: "0",
        downloadPlayHours: "abc",
      }),
      { ...en, free: false },
    );
    expect(checked).toEqual({
      ok: false,
      fieldErrors: {
        name: [PLAN_ERRORS.name],
        nameHa: [PLAN_ERRORS.nameHa],
        prices: [PLAN_ERRORS.noPrice],
        screens: [PLAN_ERRORS.screens],
        maxRung: [PLAN_ERRORS.quality],
        maxDownloads: [PLAN_ERRORS.downloadCount],
        downloadDays: [PLAN_ERRORS.downloadDays],
        downloadPlayHours: [PLAN_ERRORS.downloadHours],
      },
    });
    expect(checkPlanForm(form({ prices: { week: "0", month: "1.234", day: "abc" } }), { ...en, free: false })).toEqual({
      ok: false,
      fieldErrors: { day: [PLAN_ERRORS.price], week: [PLAN_ERRORS.price], month: [PLAN_ERRORS.priceDigits] },
    });
  });

  it("sells nothing on the free plan, whatever its price fields say", () => {
    const checked = checkPlanForm(form({ prices: { week: "abc" } }), { ...en, free: true });
    expect(checked.ok && checked.value.prices).toEqual([]);
  });

  it("gives a new plan a code from its English name, never FREE and never a taken one", () => {
    expect(planCodeFor("Gold Family", new Set())).toBe("GOLD-FAMILY");
    expect(planCodeFor("Gold", new Set(["GOLD"]))).toBe("GOLD-2");
    expect(planCodeFor("Free", new Set(["FREE"]))).toBe("FREE-2");
    expect(planCodeFor("Kallo Ɗan Kasuwa", new Set())).toBe("KALLO-AN-KASUWA");
    expect(planCodeFor("!!!", new Set())).toBe("PLAN");
  });
});

describe("plans from nothing", () => {
  it("offers the starting set once, priced in the operator's currency, then refuses", () => {
    expect(listPlansOnOffer(testDb.db, "en", "NGN")).toEqual([]);
    expect(createStarterPlans(testDb.db, { currency: "NGN", actor })).toEqual({ ok: true, created: 3 });
    const offered = listPlansOnOffer(testDb.db, "en", "NGN");
    expect(offered.map((plan) => [plan.code, plan.free, plan.prices.map((price) => price.price)])).toEqual([
      ["FREE", true, []],
      ["BASIC", false, ["₦150", "₦600", "₦1,800"]],
      ["PRO", false, ["₦1,200", "₦3,500", "₦35,000"]],
    ]);
    expect(listPlansOnOffer(testDb.db, "ha", "NGN").map((plan) => plan.name)).toEqual(["Kyauta", "Na Asali", "Gwani"]);
    expect(listPlansOnOffer(testDb.db, "ha", "NGN")[2].prices.at(-1)?.price).toBe("₦35,000");
    expect(createStarterPlans(testDb.db, { currency: "NGN", actor })).toEqual({
      ok: false,
      error: PLAN_ERRORS.notEmpty,
    });
    expect(testDb.db.select().from(auditLog).where(eq(auditLog.action, "plan.starter")).all()).toHaveLength(1);
  });

  it("prices the starting set in cedis when the operator charges in cedis", () => {
    createStarterPlans(testDb.db, { currency: "GHS", actor });
    expect(listPlansOnOffer(testDb.db, "en", "GHS")[1].prices.map((price) => price.price)).toEqual([
      "GH₵2",
      "GH₵7",
      "GH₵20",
    ]);
  });

  it("creates, edits and orders plans; one free plan only", () => {
    const free = createPlan(testDb.db, { ...form({ name: "Free", nameHa: "Kyauta" }), kind: "free" }, { ...en, actor });
    const gold = createPlan(testDb.db, { ...form(), kind: "pass" }, { ...en, actor });
    expect(free.ok && gold.ok).toBe(true);
    expect(createPlan(testDb.db, { ...form(), kind: "free" }, { ...en, actor })).toEqual({
      ok: false,
      fieldErrors: { kind: [PLAN_ERRORS.freeExists] },
    });
    const goldId = gold.ok ? gold.planId : "";
    const stored = () => testDb.db.select().from(plans).where(eq(plans.id, goldId)).get()!;
    expect(stored()).toMatchObject({ code: "GOLD", premium: true, screens: 4, maxRung: 1080, sortOrder: 1 });

    const edited = updatePlan(
      testDb.db,
      goldId,
      form({ name: "Gold", screens: "2", maxRung: "720", premium: false, prices: { day: "200" } }),
      { ...en, actor },
    );
    expect(edited).toEqual({ ok: true, planId: goldId });
    expect(stored()).toMatchObject({ screens: 2, maxRung: 720, premium: false });
    // The lengths no longer priced are no longer sold; a price records the currency it was set in.
    expect(testDb.db.select().from(planPeriods).where(eq(planPeriods.planId, goldId)).all()).toEqual([
      { planId: goldId, period: "day", days: 1, priceMinor: 20_000, currency: en.currency },
    ]);
    expect(updatePlan(testDb.db, "nosuchplan", form(), { ...en, actor })).toEqual({
      ok: false,
      fieldErrors: { form: [PLAN_ERRORS.notFound] },
    });

    expect(movePlan(testDb.db, goldId, "up", actor)).toBe(true);
    expect(listPlansForAdmin(testDb.db).map((plan) => plan.code)).toEqual(["GOLD", "FREE"]);
    expect(movePlan(testDb.db, goldId, "up", actor)).toBe(true);
    expect(listPlansForAdmin(testDb.db).map((plan) => plan.code)).toEqual(["GOLD", "FREE"]);
  });

  it("retires a plan that was sold (its passes keep their rules), and deletes one never sold", () => {
    createStarterPlans(testDb.db, { currency: "NGN", actor, ids: { free: "pfree", basic: "pbasic", pro: "ppro" } });
    grantPass(testDb.db, { accountId: viewerId, planId: "pbasic", days: 7, source: "admin" });
    expect(listPlansForAdmin(testDb.db).map((plan) => [plan.code, plan.sold, plan.passesActive])).toEqual([
      ["FREE", false, 0],
      ["BASIC", true, 1],
      ["PRO", false, 0],
    ]);
    expect(deletePlan(testDb.db, "pbasic", actor)).toBe("sold");
    expect(setPlanOffered(testDb.db, "pbasic", false, actor)).toBe(true);
    expect(listPlansOnOffer(testDb.db, "en", "NGN").map((plan) => plan.code)).toEqual(["FREE", "PRO"]);
    // Nothing more is sold of it: no card sale, no vouchers.
    const redeemBy = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect(
      generateVoucherBatch(testDb.db, { planId: "pbasic", period: "week", count: "1", expiresOn: redeemBy }, actor),
    ).toEqual({ ok: false, fieldErrors: { planPeriod: ["billing:vouchers.errors.plan"] } });
    expect(findSellablePeriod(testDb.db, "pbasic", "week", { offeredOnly: true })).toBeNull();
    // The viewer's pass still plays by Basic's rules.
    expect(getPassStatus(testDb.db, viewerId).plan).toMatchObject({ code: "BASIC", premium: true, maxRung: 720 });
    expect(deletePlan(testDb.db, "ppro", actor)).toBe("deleted");
    expect(deletePlan(testDb.db, "ppro", actor)).toBe("notFound");
    expect(
      testDb.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.targetType, "plan"))
        .all()
        .map((row) => row.action),
    ).toEqual(expect.arrayContaining(["plan.retire", "plan.delete"]));
  });
});

describe("what a plan allows is what is enforced", () => {
  it("follows the plan in force: the free plan, then a pass, with exactly the rules the administrator set", () => {
    createStarterPlans(testDb.db, { currency: "NGN", actor, ids: { free: "pfree", basic: "pbasic", pro: "ppro" } });
    const viewer = { id: viewerId, role: "viewer" as const };
    expect(allowsPremium(testDb.db, viewerId)).toBe(false);
    expect(maxRungFor(testDb.db, viewer)).toBe(480);
    expect(downloadRulesFor(testDb.db, viewer)).toEqual({ allowed: true, maxDownloads: 2, days: 7, playHours: 48 });

    updatePlan(testDb.db, "pfree", form({ name: "Free", nameHa: "Kyauta", maxRung: "360", downloadsAllowed: false }), {
      ...en,
      actor,
    });
    expect(maxRungFor(testDb.db, viewer)).toBe(360);
    expect(downloadRulesFor(testDb.db, viewer).allowed).toBe(false);
    // A free plan that includes Premium titles lets everyone play them: the setting is the rule.
    expect(allowsPremium(testDb.db, viewerId)).toBe(true);

    grantPass(testDb.db, { accountId: viewerId, planId: "ppro", days: 7, source: "admin" });
    expect(getPassStatus(testDb.db, viewerId).plan).toMatchObject({ code: "PRO", screens: 3, maxRung: 1080 });
    updatePlan(testDb.db, "ppro", form({ name: "Pro", premium: false }), { ...en, actor });
    // A pass of a plan without Premium titles does not unlock them.
    expect(allowsPremium(testDb.db, viewerId)).toBe(false);
  });

  it("binds a viewer without a pass to the least when there is no free plan", () => {
    const viewer = { id: viewerId, role: "viewer" as const };
    expect(getPassStatus(testDb.db, viewerId)).toMatchObject({
      onFreePlan: true,
      plan: { name: "", premium: false, screens: 1, maxRung: 1080, downloads: { allowed: false } },
    });
    expect(downloadRulesFor(testDb.db, viewer).allowed).toBe(false);
  });
});

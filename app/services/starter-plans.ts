import type { PassPeriod } from "~/db/pass-periods";
import type { Currency } from "~/utils/money";
import type { PlanRules, PlanTexts } from "./plan-rules";

/**
 * The usual starting set an empty install offers in one click (and the demo
 * uses): Free, Basic and Pro, priced per pass length in each currency Kallo
 * charges in, at prices people there pay for a streaming pass. The
 * administrator edits them afterwards like any plan.
 */
export type StarterPlan = PlanTexts &
  PlanRules & {
    key: "free" | "basic" | "pro";
    code: string;
    /** Whole major units per pass length; the free plan sells none. */
    prices: Record<Currency, Partial<Record<PassPeriod, number>>> | null;
  };

export const STARTER_PLANS: readonly StarterPlan[] = [
  {
    key: "free",
    code: "FREE",
    name: "Free",
    nameHa: "Kyauta",
    description: "Every free title, on one screen, with two films kept for offline viewing.",
    descriptionHa: "Duk finafinan kyauta, a kan allo ɗaya, da fim biyu da za a ajiye don kallo ba tare da intanet ba.",
    premium: false,
    screens: 1,
    maxRung: 480,
    downloadsAllowed: true,
    maxDownloads: 2,
    downloadDays: 7,
    downloadPlayHours: 48,
    prices: null,
  },
  {
    key: "basic",
    code: "BASIC",
    name: "Basic",
    nameHa: "Na Asali",
    description: "Premium titles too, in HD on one screen. Buy a day, a week or a month.",
    descriptionHa: "Har da finafinan Premium, a HD a kan allo ɗaya. Saya rana ɗaya, mako ɗaya ko wata ɗaya.",
    premium: true,
    screens: 1,
    maxRung: 720,
    downloadsAllowed: true,
    maxDownloads: 5,
    downloadDays: 7,
    downloadPlayHours: 48,
    prices: {
      NGN: { day: 150, week: 600, month: 1800 },
      GHS: { day: 2, week: 7, month: 20 },
      KES: { day: 20, week: 80, month: 250 },
      ZAR: { day: 5, week: 15, month: 45 },
      USD: { day: 0.3, week: 1, month: 3 },
    },
  },
  {
    key: "pro",
    code: "PRO",
    name: "Pro",
    nameHa: "Gwani",
    description: "Premium titles in Full HD on three screens at once, for the whole family.",
    descriptionHa: "Finafinan Premium a Full HD a kan allo uku a lokaci guda, don dukan iyali.",
    premium: true,
    screens: 3,
    maxRung: 1080,
    downloadsAllowed: true,
    maxDownloads: 10,
    downloadDays: 30,
    downloadPlayHours: 72,
    prices: {
      NGN: { week: 1200, month: 3500, year: 35000 },
      GHS: { week: 14, month: 40, year: 400 },
      KES: { week: 160, month: 450, year: 4500 },
      ZAR: { week: 30, month: 89, year: 890 },
      USD: { week: 2, month: 6, year: 60 },
    },
  },
];

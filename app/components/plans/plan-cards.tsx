import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import type { OfferedPlan } from "~/services/plans.server";
import type { Billing } from "~/utils/money";
import { Check, choosePlanHref, planPrice } from "./plan-parts";

/** One card per offered plan: price for the billing period, quality, screens and what is included. */
export function PlanCards({ plans, billing }: { plans: OfferedPlan[]; billing: Billing }) {
  const { t } = useTranslation("plans");
  if (plans.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-white/10 px-4 py-8 text-center text-sm text-slate-400">
        {t("empty")}
      </p>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {plans.map((plan, index) => {
        const top = plans.length > 1 && index === plans.length - 1;
        return (
          <li
            key={plan.id}
            data-plan={plan.code}
            className={`flex flex-col rounded-xl border p-6 ${top ? "border-brand-500/70 bg-gradient-to-b from-brand-900/30 to-ink-900" : "border-white/10 bg-ink-900"}`}
          >
            <h3 className="text-sm font-bold tracking-widest text-brand-300 uppercase">{plan.name}</h3>
            <p className="mt-3 flex items-baseline gap-1">
              <span className="text-4xl font-extrabold text-white" data-price>
                {planPrice(plan, billing)}
              </span>
              <span className="text-sm text-slate-400">{billing === "annual" ? t("perYear") : t("perMonth")}</span>
            </p>
            <p className="mt-1 text-xs text-slate-400">
              {billing === "annual" ? t("billedAnnually") : t("billedMonthly")}
              {billing === "monthly" && plan.annualDiscountPercent > 0 && plan.monthlyPriceMinor > 0
                ? ` · ${t("annualEquivalent", { price: plan.annualPrice })}`
                : null}
            </p>
            <ul className="mt-5 grid gap-2 text-sm text-slate-200">
              <li className="flex items-center gap-2">
                <Check included />
                {t("screens", { count: plan.screens })}
              </li>
              <li className="flex items-center gap-2">
                <Check included />
                {t("maxQualityLabel")}: {t(`quality.${plan.maxQuality}`)}
              </li>
              {plan.features.map((feature) => (
                <li key={feature} className="flex items-center gap-2">
                  <Check included />
                  {t(`features.${feature}`)}
                </li>
              ))}
            </ul>
            <div className="mt-auto pt-6">
              <Link
                to={choosePlanHref(plan, billing)}
                className={`block rounded-md px-4 py-2.5 text-center text-sm font-bold ${
                  top
                    ? "bg-brand-500 text-ink-950 hover:bg-brand-400"
                    : "border border-white/20 text-white hover:border-brand-400"
                }`}
              >
                {t("choose", { plan: plan.name })}
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

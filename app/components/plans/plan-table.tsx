import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import type { PlanFeature } from "~/db/schema";
import type { OfferedPlan } from "~/services/plans.server";
import type { Billing } from "~/utils/money";
import { Check, choosePlanHref, planPrice } from "./plan-parts";

/** The comparison: one column per plan, one row per price, screen count, quality and feature. */
export function PlanTable({
  plans,
  features,
  billing,
}: {
  plans: OfferedPlan[];
  features: PlanFeature[];
  billing: Billing;
}) {
  const { t } = useTranslation("plans");
  if (plans.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-white/10 px-4 py-8 text-center text-sm text-slate-400">
        {t("empty")}
      </p>
    );
  }
  const cell = "px-4 py-3 text-center";
  return (
    <div className="overflow-x-auto rounded-xl border border-white/10">
      <table className="w-full min-w-[32rem] border-collapse text-sm">
        <caption className="sr-only">{t("comparison")}</caption>
        <thead className="bg-ink-900">
          <tr>
            <th scope="col" className="px-4 py-4 text-left font-semibold text-slate-300">
              {t("feature")}
            </th>
            {plans.map((plan) => (
              <th
                key={plan.id}
                scope="col"
                className="px-4 py-4 text-center text-base font-bold tracking-wider text-brand-300 uppercase"
              >
                {plan.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          <tr className="bg-ink-900/50">
            <th scope="row" className="px-4 py-3 text-left font-medium text-slate-200">
              {t("price")}
              <span className="block text-xs font-normal text-slate-400">
                {billing === "annual" ? t("billedAnnually") : t("billedMonthly")}
              </span>
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={cell} data-plan={plan.code}>
                <span className="text-2xl font-extrabold text-white" data-price>
                  {planPrice(plan, billing)}
                </span>
                <span className="text-xs text-slate-400">{billing === "annual" ? t("perYear") : t("perMonth")}</span>
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row" className="px-4 py-3 text-left font-medium text-slate-200">
              {t("screensLabel")}
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={`${cell} font-semibold text-slate-100`}>
                {plan.screens}
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row" className="px-4 py-3 text-left font-medium text-slate-200">
              {t("maxQualityLabel")}
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={`${cell} text-slate-100`}>
                {t(`quality.${plan.maxQuality}`)}
              </td>
            ))}
          </tr>
          {features.map((feature) => (
            <tr key={feature}>
              <th scope="row" className="px-4 py-3 text-left font-medium text-slate-200">
                {t(`features.${feature}`)}
              </th>
              {plans.map((plan) => (
                <td key={plan.id} className={cell}>
                  <Check included={plan.features.includes(feature)} />
                </td>
              ))}
            </tr>
          ))}
          <tr>
            <td />
            {plans.map((plan) => (
              <td key={plan.id} className={cell}>
                <Link
                  to={choosePlanHref(plan, billing)}
                  className="inline-block rounded-md bg-brand-500 px-4 py-2 text-sm font-bold text-ink-950 hover:bg-brand-400"
                >
                  {t("choose", { plan: plan.name })}
                </Link>
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

import { useTranslation } from "~/i18n/use-translation";
import type { PlanOffer } from "~/services/plans.server";
import { ChoosePlanLink, PlanAllowances, PlanPriceLine } from "./plan-parts";

/** One card per plan on offer: its price from the cheapest pass, its description and what it allows. */
export function PlanCards({ plans }: { plans: PlanOffer[] }) {
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
            className={`flex min-w-0 flex-col rounded-xl border p-6 ${top ? "border-brand-500/70 bg-gradient-to-b from-brand-900/30 to-ink-900" : "border-white/10 bg-ink-900"}`}
          >
            <h3 className="text-sm font-bold tracking-widest break-words text-brand-300 uppercase">{plan.name}</h3>
            <p className="mt-3 text-2xl font-extrabold text-white" data-price>
              <PlanPriceLine plan={plan} />
            </p>
            {plan.description ? <p className="mt-2 text-sm text-slate-300">{plan.description}</p> : null}
            <PlanAllowances plan={plan} className="mt-5 grid gap-2 text-sm text-slate-200" />
            <div className="mt-auto pt-6">
              <ChoosePlanLink
                plan={plan}
                className={`block rounded-md px-4 py-2.5 text-center text-sm font-bold ${
                  top
                    ? "bg-brand-500 text-ink-950 hover:bg-brand-400"
                    : "border border-white/20 text-white hover:border-brand-400"
                }`}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BillingToggle } from "~/components/plans/plan-parts";
import { PlanTable } from "~/components/plans/plan-table";
import { getRequestT } from "~/i18n/translate.server";
import { loadPlanComparison, parseBilling } from "~/services/plans.server";
import { titleMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

/** The plan comparison; `?billing=annual` shows annual prices (a plain GET, so it works without JavaScript). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "pages");
  const billing = parseBilling(new URL(request.url).searchParams.get("billing"));
  const { plans, features } = loadPlanComparison();
  return { title: t("plansPage.title"), billing, plans, features };
}

export default function Plans() {
  const { billing, plans, features } = useLoaderData<typeof loader>();
  const { t } = useTranslation("pages");
  const { t: tp } = useTranslation("plans");
  const maxDiscount = plans.reduce((max, plan) => Math.max(max, plan.monthlyPriceMinor > 0 ? plan.annualDiscountPercent : 0), 0);
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{t("plansPage.heading")}</h1>
      <p className="mt-3 max-w-2xl text-slate-300">{t("plansPage.intro")}</p>
      {plans.length > 0 ? (
        <>
          <div className="mt-8">
            <BillingToggle billing={billing} maxDiscount={maxDiscount} />
          </div>
          <div className="mt-6">
            <PlanTable plans={plans} features={features} billing={billing} />
          </div>
          <p className="mt-4 text-sm text-slate-400">{tp("noRenewal")}</p>
          <p className="mt-1 text-sm text-slate-400">{tp("streamGuidance")}</p>
        </>
      ) : (
        <p className="mt-8 rounded-lg border border-dashed border-white/10 px-4 py-8 text-center text-sm text-slate-400">{t("plansPage.empty")}</p>
      )}
    </div>
  );
}

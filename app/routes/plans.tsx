import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { PlanTable } from "~/components/plans/plan-table";
import { getOptionalUser } from "~/auth/guards.server";
import { dateFormatter } from "~/utils/dates";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { getPassStatus } from "~/services/billing.server";
import { listPlansOnOffer, localPlanName } from "~/services/plans.server";
import { getEnv } from "~/utils/env.server";
import { titleMeta } from "~/utils/meta";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["pages", "plans", "billing"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => titleMeta(data);

/** The plan comparison, made from what the plans on offer allow and sell. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { t, language } = await getRequestT(request, "pages");
  const plans = listPlansOnOffer(getDb(), language, getEnv().currency);
  // A signed-in viewer also sees the plan they are on.
  const user = await getOptionalUser(request);
  const status = user && user.role !== "provider" ? getPassStatus(getDb(), user.id) : null;
  const current = status
    ? {
        planName: localPlanName(status.plan, language),
        onFreePlan: status.onFreePlan,
        expiresAt: status.expiresAt?.toISOString() ?? null,
      }
    : null;
  return { title: t("plansPage.title"), plans, current };
}

export default function Plans() {
  const { plans, current } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("pages");
  const { t: tb } = useTranslation("billing");
  const { t: tp } = useTranslation("plans");
  const sells = plans.some((plan) => !plan.free);
  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{t("plansPage.heading")}</h1>
      <p className="mt-3 max-w-2xl text-slate-300">{t("plansPage.intro")}</p>
      {current ? (
        <p
          className="mt-4 rounded border border-white/10 bg-ink-900/60 px-4 py-3 text-slate-200"
          data-testid="plans-current"
        >
          {current.onFreePlan ? tb("current.onFree") : tb("current.paid", { plan: current.planName })}{" "}
          {current.expiresAt
            ? tb("current.endsOn", {
                date: dateFormatter(i18n.language, "dateTime").format(new Date(current.expiresAt)),
              })
            : null}{" "}
          {sells ? (
            <Link to="/payment" className="text-brand-300 underline">
              {tb("buy.title")}
            </Link>
          ) : null}
        </p>
      ) : null}
      {plans.length > 0 ? (
        <>
          <div className="mt-8">
            <PlanTable plans={plans} />
          </div>
          {sells ? <p className="mt-4 text-sm text-slate-400">{tp("noRenewal")}</p> : null}
          <p className="mt-1 text-sm text-slate-400">{tp("streamGuidance")}</p>
        </>
      ) : (
        <p className="mt-8 rounded-lg border border-dashed border-white/10 px-4 py-8 text-center text-sm text-slate-400">
          {t("plansPage.empty")}
        </p>
      )}
    </div>
  );
}

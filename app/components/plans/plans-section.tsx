import { useTranslation } from "~/i18n/use-translation";
import type { OfferedPlan } from "~/services/plans.server";
import type { Billing } from "~/utils/money";
import { SectionHeading } from "~/components/catalogue/movie-row";
import { PlanCards } from "./plan-cards";

/** The Plans block of the landing and About pages: the offered plans from the database, and what a connection needs. */
export function PlansSection({ plans, billing = "monthly" }: { plans: OfferedPlan[]; billing?: Billing }) {
  const { t } = useTranslation("pages");
  const { t: tp } = useTranslation("plans");
  return (
    <section id="plans" aria-labelledby="plans-heading" className="mx-auto max-w-7xl px-4 py-10" data-section="plans">
      <div className="mb-5">
        <SectionHeading id="plans-heading" title={t("home.plans")} intro={t("home.plansIntro")} />
      </div>
      <PlanCards plans={plans} billing={billing} />
      <p className="mt-4 text-xs text-slate-400">
        {tp("noRenewal")} {tp("streamGuidance")}
      </p>
    </section>
  );
}

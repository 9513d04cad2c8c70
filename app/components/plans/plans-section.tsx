import { useTranslation } from "~/i18n/use-translation";
import type { PlanOffer } from "~/services/plans.server";
import { SectionHeading } from "~/components/catalogue/movie-row";
import { PlanCards } from "./plan-cards";

/** The Plans block of the landing and About pages: the plans on offer from the database, and what a connection needs. */
export function PlansSection({ plans }: { plans: PlanOffer[] }) {
  const { t } = useTranslation("pages");
  const { t: tp } = useTranslation("plans");
  const startsFree = plans.some((plan) => plan.free);
  return (
    <section id="plans" aria-labelledby="plans-heading" className="mx-auto max-w-7xl px-4 py-10" data-section="plans">
      <div className="mb-5">
        <SectionHeading
          id="plans-heading"
          title={t("home.plans")}
          intro={startsFree ? t("home.plansIntro") : t("home.plansIntroPaid")}
        />
      </div>
      <PlanCards plans={plans} />
      {plans.some((plan) => !plan.free) ? (
        <p className="mt-4 text-xs text-slate-400">
          {tp("noRenewal")} {tp("streamGuidance")}
        </p>
      ) : null}
    </section>
  );
}

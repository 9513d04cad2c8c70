import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import type { PlanOffer } from "~/services/plans.server";

/** Where a plan's "Choose" leads: its passes on /payment. */
export function choosePlanHref(plan: Pick<PlanOffer, "code">) {
  return `/payment?plan=${encodeURIComponent(plan.code)}#plan-${plan.code}`;
}

export function Check({ included }: { included: boolean }) {
  const { t } = useTranslation("plans");
  return included ? (
    <span className="inline-flex items-center text-emerald-400">
      <svg
        viewBox="0 0 20 20"
        width="18"
        height="18"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
      >
        <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="sr-only">{t("included")}</span>
    </span>
  ) : (
    <span className="inline-flex items-center text-slate-500">
      <svg
        viewBox="0 0 20 20"
        width="16"
        height="16"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M5 10h10" strokeLinecap="round" />
      </svg>
      <span className="sr-only">{t("notIncluded")}</span>
    </span>
  );
}

/** "Up to 720p (HD)": the highest picture a plan is served, as its cap says. */
export function useQualityLabel() {
  const { t } = useTranslation("plans");
  return (rung: number) => {
    const kind = rung >= 1080 ? "fullHd" : rung >= 720 ? "hd" : rung >= 480 ? "sd" : "low";
    return t("quality.upTo", { rung, kind: t(`quality.${kind}`) });
  };
}

/** "5 titles, kept 7 days, 48 hours after first play": a plan's download rules as viewers read them. */
export function useDownloadTerms() {
  const { t } = useTranslation("plans");
  return (downloads: PlanOffer["downloads"]) =>
    t("downloadTerms", {
      titles: t("titles", { count: downloads.maxDownloads }),
      kept: t("keptDays", { count: downloads.days }),
      hours: t("playHours", { count: downloads.playHours }),
    });
}

/** What a plan lets its holder do, in the words viewers read everywhere: made from the plan's own settings. */
export function usePlanAllowances() {
  const { t } = useTranslation("plans");
  const quality = useQualityLabel();
  const downloadTerms = useDownloadTerms();
  return (plan: Pick<PlanOffer, "premium" | "screens" | "maxRung" | "downloads">) => [
    { key: "premium", included: plan.premium, text: plan.premium ? t("allows.premium") : t("allows.freeOnly") },
    { key: "screens", included: true, text: t("screens", { count: plan.screens }) },
    { key: "quality", included: true, text: quality(plan.maxRung) },
    {
      key: "downloads",
      included: plan.downloads.allowed,
      text: plan.downloads.allowed
        ? t("allows.downloads", { terms: downloadTerms(plan.downloads) })
        : t("allows.noDownloads"),
    },
  ];
}

/** The list of what a plan allows, each line with a tick or a dash. */
export function PlanAllowances({
  plan,
  className = "grid gap-2 text-sm text-slate-200",
}: {
  plan: Pick<PlanOffer, "premium" | "screens" | "maxRung" | "downloads">;
  className?: string;
}) {
  const allowances = usePlanAllowances()(plan);
  return (
    <ul className={className}>
      {allowances.map((line) => (
        <li key={line.key} className="flex items-start gap-2" data-allows={line.key}>
          <Check included={line.included} />
          <span>{line.text}</span>
        </li>
      ))}
    </ul>
  );
}

/** "from ₦150 a day" for a pass plan; "Free" for the free plan. */
export function PlanPriceLine({ plan }: { plan: PlanOffer }) {
  const { t } = useTranslation("plans");
  if (plan.free) return <>{t("freePrice")}</>;
  const cheapest = [...plan.prices].sort((a, b) => a.priceMinor - b.priceMinor)[0];
  if (!cheapest) return null;
  return <>{t("from", { price: cheapest.price, period: t(`per.${cheapest.period}`) })}</>;
}

/** The free plan's and each pass plan's button: the free plan needs none, a pass plan leads to its passes. */
export function ChoosePlanLink({ plan, className }: { plan: PlanOffer; className: string }) {
  const { t } = useTranslation("plans");
  if (plan.free) return null;
  return (
    <Link to={choosePlanHref(plan)} className={className}>
      {t("choose", { plan: plan.name })}
    </Link>
  );
}

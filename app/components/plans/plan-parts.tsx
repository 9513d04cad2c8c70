import { useLocation } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import type { OfferedPlan } from "~/services/plans.server";
import type { Billing } from "~/utils/money";

export function planPrice(plan: OfferedPlan, billing: Billing) {
  return billing === "annual" ? plan.annualPrice : plan.monthlyPrice;
}

export function choosePlanHref(plan: OfferedPlan, billing: Billing) {
  return `/payment?plan=${encodeURIComponent(plan.code)}&billing=${billing}`;
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

/**
 * Monthly / Billed Annually: two plain links to `?billing=…`, so the switch
 * works without JavaScript (and with it, as a client navigation).
 */
export function BillingToggle({ billing, maxDiscount }: { billing: Billing; maxDiscount: number }) {
  const { t } = useTranslation("plans");
  const location = useLocation();
  const href = (value: Billing) => {
    const params = new URLSearchParams(location.search);
    params.set("billing", value);
    return `${location.pathname}?${params.toString()}`;
  };
  const option = (value: Billing, label: string) => (
    <Link
      to={href(value)}
      preventScrollReset
      replace
      aria-current={billing === value ? "true" : undefined}
      className={`rounded-full px-4 py-1.5 text-sm font-semibold transition ${
        billing === value ? "bg-brand-500 text-ink-950" : "text-slate-200 hover:text-white"
      }`}
    >
      {label}
    </Link>
  );
  return (
    <nav
      aria-label={t("billingToggle")}
      className="inline-flex items-center gap-1 rounded-full border border-white/15 bg-ink-900 p-1"
    >
      {option("monthly", t("monthly"))}
      {option("annual", t("annually"))}
      {maxDiscount > 0 ? (
        <span className="px-2 text-xs font-semibold text-emerald-400">{t("save", { percent: maxDiscount })}</span>
      ) : null}
    </nav>
  );
}

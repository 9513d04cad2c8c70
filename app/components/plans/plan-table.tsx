import { useTranslation } from "~/i18n/use-translation";
import type { PlanOffer } from "~/services/plans.server";
import { Check, ChoosePlanLink, useDownloadTerms, useQualityLabel } from "./plan-parts";

/**
 * The comparison: one column per plan, one row each for its prices (only
 * the pass lengths it sells), Premium titles, screens, picture and
 * downloads — all from the plans' own settings. On a phone the table scrolls
 * inside its box, with the row names kept in view.
 */
export function PlanTable({ plans, choose = true }: { plans: PlanOffer[]; choose?: boolean }) {
  const { t } = useTranslation("plans");
  const quality = useQualityLabel();
  const downloadTerms = useDownloadTerms();
  if (plans.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-white/10 px-4 py-8 text-center text-sm text-slate-400">
        {t("empty")}
      </p>
    );
  }
  const cell = "px-1.5 py-3 text-center align-top break-words sm:px-3";
  const rowHead =
    "sticky left-0 z-10 hidden bg-ink-950 px-3 py-3 text-left align-top font-medium text-slate-200 sm:table-cell";
  // On a phone every plan stands side by side: each feature's name is a row of its own above its values
  // (no first column to scroll past); from 640 px the name is the row's first cell.
  const phoneHead = (label: string) => (
    <tr className="sm:hidden">
      <th scope="colgroup" colSpan={plans.length} className="px-3 pt-3 text-left text-xs font-medium text-slate-300">
        {label}
      </th>
    </tr>
  );
  return (
    // relative: the screen-reader texts (absolutely placed) stay inside the scrolling box, not widening the page.
    <div className="relative max-w-full overflow-x-auto rounded-xl border border-white/10" data-testid="plan-table">
      <table className="w-full table-fixed border-collapse text-sm sm:min-w-[34rem] sm:table-auto">
        <caption className="sr-only">{t("comparison")}</caption>
        <thead className="bg-ink-900">
          <tr>
            <th
              scope="col"
              className="sticky left-0 z-10 hidden bg-ink-900 px-3 py-4 text-left font-semibold text-slate-300 sm:table-cell"
            >
              {t("feature")}
            </th>
            {plans.map((plan) => (
              <th
                key={plan.id}
                scope="col"
                className="px-1.5 py-4 text-center align-top sm:px-3"
                data-plan-column={plan.code}
              >
                <span className="block text-sm font-bold tracking-wider break-words text-brand-300 uppercase sm:text-base">
                  {plan.name}
                </span>
                {plan.description ? (
                  <span className="mt-1 block text-xs font-normal text-slate-400">{plan.description}</span>
                ) : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {phoneHead(t("price"))}
          <tr>
            <th scope="row" className={rowHead}>
              {t("price")}
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={cell} data-plan={plan.code} data-price>
                {plan.free ? (
                  <span className="font-bold text-white">{t("freePrice")}</span>
                ) : (
                  <ul className="grid gap-1">
                    {plan.prices.map((price) => (
                      <li key={price.period} data-period-price={price.period}>
                        <span className="font-bold whitespace-nowrap text-white">{price.price}</span>{" "}
                        <span className="text-xs text-slate-400">{t(`per.${price.period}`)}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            ))}
          </tr>
          {phoneHead(t("premiumLabel"))}
          <tr>
            <th scope="row" className={rowHead}>
              {t("premiumLabel")}
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={cell} data-allows-premium={plan.premium ? "true" : "false"}>
                <Check included={plan.premium} />
              </td>
            ))}
          </tr>
          {phoneHead(t("screensLabel"))}
          <tr>
            <th scope="row" className={rowHead}>
              {t("screensLabel")}
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={`${cell} font-semibold text-slate-100`}>
                {plan.screens}
              </td>
            ))}
          </tr>
          {phoneHead(t("maxQualityLabel"))}
          <tr>
            <th scope="row" className={rowHead}>
              {t("maxQualityLabel")}
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={`${cell} text-slate-100`}>
                {quality(plan.maxRung)}
              </td>
            ))}
          </tr>
          {phoneHead(t("downloadsLabel"))}
          <tr>
            <th scope="row" className={rowHead}>
              {t("downloadsLabel")}
            </th>
            {plans.map((plan) => (
              <td key={plan.id} className={`${cell} text-slate-100`}>
                {plan.downloads.allowed ? downloadTerms(plan.downloads) : <Check included={false} />}
              </td>
            ))}
          </tr>
          {choose ? (
            <tr>
              <td className="sticky left-0 z-10 hidden bg-ink-950 sm:table-cell" />
              {plans.map((plan) => (
                <td key={plan.id} className={cell}>
                  <ChoosePlanLink
                    plan={plan}
                    className="inline-block rounded-md bg-brand-500 px-2 py-2 text-sm font-bold text-ink-950 hover:bg-brand-400 sm:px-3"
                  />
                </td>
              ))}
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

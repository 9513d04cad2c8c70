import { Form } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { SubmitButton } from "~/components/ui/form";

type PlanOffer = { code: string; name: string; cheapest: { price: string; period: string } | null };

/**
 * Shown instead of the player when a Premium title needs a pass the viewer
 * does not have. Its texts are the watch page's; only the plans' periods are
 * `billing`'s, which the watch page carries only when its loader offers plans
 * (a player refused while playing shows the panel without them).
 */
export function NeedsPassPanel({ movieName, plans }: { movieName: string; plans: PlanOffer[] }) {
  const { t } = useTranslation("watch");
  return (
    <section
      aria-labelledby="needs-pass-title"
      data-testid="needs-pass"
      className="rounded-lg border border-brand-500/50 bg-ink-900 p-6 sm:p-10"
    >
      <h2 id="needs-pass-title" className="text-2xl font-bold">
        {t("pass.needsPassTitle")}
      </h2>
      <p className="mt-2 max-w-2xl text-slate-200">{t("pass.needsPass", { name: movieName })}</p>
      {plans.length > 0 ? <PlanOffers plans={plans} /> : null}
      <Link
        to="/payment"
        className="mt-5 inline-block rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
      >
        {t("pass.seePasses")}
      </Link>
    </section>
  );
}

function PlanOffers({ plans }: { plans: PlanOffer[] }) {
  const { t } = useTranslation("watch");
  const { t: tBilling } = useTranslation("billing");
  return (
    <ul className="mt-4 grid gap-2 sm:grid-cols-2">
      {plans.map((plan) => (
        <li key={plan.code} className="rounded border border-white/10 px-4 py-3">
          <Link
            to={`/payment?plan=${encodeURIComponent(plan.code)}#plan-${plan.code}`}
            className="font-semibold text-brand-300 hover:underline"
          >
            {plan.name}
          </Link>
          {plan.cheapest ? (
            <span className="ml-2 text-sm text-slate-300">
              {t("pass.from", { price: plan.cheapest.price, period: tBilling(`periods.${plan.cheapest.period}`) })}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * Shown instead of the player when other devices use every screen of the
 * plan. Inside a running player (refused while playing) the form reloads the
 * page, so the player starts again from a clean state.
 */
export function ScreensPanel({
  screens,
  formAction,
  reloadDocument = false,
}: {
  screens: number;
  formAction: string;
  reloadDocument?: boolean;
}) {
  const { t } = useTranslation("watch");
  return (
    <section
      aria-labelledby="screens-title"
      data-testid="screens-limit"
      className="rounded-lg border border-amber-400/50 bg-ink-900 p-6 sm:p-10"
    >
      <h2 id="screens-title" className="text-2xl font-bold">
        {t("pass.screensTitle")}
      </h2>
      <p className="mt-2 max-w-2xl text-slate-200">{t("pass.screens", { count: screens })}</p>
      <Form method="post" action={formAction} className="mt-5" reloadDocument={reloadDocument}>
        <SubmitButton intent="stopOtherDevices" pendingText={t("pass.stopping")}>
          {t("pass.stopOthers")}
        </SubmitButton>
      </Form>
    </section>
  );
}

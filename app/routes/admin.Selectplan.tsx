import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { EMPTY_PLAN_VALUES, PlanForm, type PlanFormValues } from "~/components/admin/plan-form";
import { PlanAllowances } from "~/components/plans/plan-parts";
import { PlanTable } from "~/components/plans/plan-table";
import { SubmitButton, useErrorToasts } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { PASS_PERIODS } from "~/db/pass-periods";
import { getRequestT } from "~/i18n/translate.server";
import { PLAN_ERRORS, planLimits, type PlanFormFields } from "~/services/plan-rules";
import {
  createPlan,
  createStarterPlans,
  deletePlan,
  listPlansForAdmin,
  listPlansOnOffer,
  movePlan,
  setPlanOffered,
  updatePlan,
  type AdminPlan,
} from "~/services/plans.server";
import { clientAddress } from "~/utils/client.server";
import { getEnv } from "~/utils/env.server";
import { CURRENCIES, formatAmount, formatMoney } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["admin", "plans", "billing"] };

export const meta = metaTitleMeta;

const BACK = "/admin/Selectplan";

/** A stored plan as its form shows it: prices written as this reader writes numbers, without grouping. */
function formValuesOf(plan: AdminPlan, currency: string, language: string): PlanFormValues {
  return {
    name: plan.name,
    nameHa: plan.nameHa,
    description: plan.description,
    descriptionHa: plan.descriptionHa,
    premium: plan.premium,
    screens: String(plan.screens),
    maxRung: String(plan.maxRung),
    downloadsAllowed: plan.downloadsAllowed,
    maxDownloads: String(plan.maxDownloads),
    downloadDays: String(plan.downloadDays),
    downloadPlayHours: String(plan.downloadPlayHours),
    prices: Object.fromEntries(
      plan.prices.map((price) => [
        price.period,
        formatAmount(price.priceMinor, currency, language, { grouping: false }),
      ]),
    ),
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { t, language } = await getRequestT(request, "admin");
  const db = getDb();
  const currency = getEnv().currency;
  const plans = listPlansForAdmin(db);
  return {
    metaTitle: t("plans.metaTitle"),
    currency,
    currencySymbol: CURRENCIES[currency].symbol,
    hasFreePlan: plans.some((plan) => plan.free),
    // What viewers see now, made by the same code as /plans.
    preview: listPlansOnOffer(db, language, currency),
    plans: plans.map((plan) => ({
      id: plan.id,
      code: plan.code,
      name: plan.name,
      nameHa: plan.nameHa,
      free: plan.free,
      offered: plan.offered,
      sold: plan.sold,
      passesSold: plan.passesSold,
      passesActive: plan.passesActive,
      limits: planLimits(plan),
      prices: plan.prices.map((price) => ({
        period: price.period,
        price: formatMoney(price.priceMinor, currency, language),
      })),
      values: formValuesOf(plan, currency, language),
    })),
  };
}

type Failure = {
  /** The plan whose form failed, or "new". */
  target: string;
  fieldErrors: Record<string, string[]>;
  values?: PlanFormValues;
};

function formFields(form: FormData): PlanFormFields {
  const text = (name: string, max = 400) => String(form.get(name) ?? "").slice(0, max);
  return {
    name: text("name", 200),
    nameHa: text("nameHa", 200),
    description: text("description", 2000),
    descriptionHa: text("descriptionHa", 2000),
    premium: form.get("premium") === "on",
    screens: text("screens", 10),
    maxRung: text("maxRung", 10),
    downloadsAllowed: form.get("downloadsAllowed") === "on",
    maxDownloads: text("maxDownloads", 10),
    downloadDays: text("downloadDays", 10),
    downloadPlayHours: text("downloadPlayHours", 10),
    prices: Object.fromEntries(PASS_PERIODS.map((period) => [period, text(`price_${period}`, 30)])),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const planId = String(form.get("planId") ?? "").slice(0, 64);
  const actor = { actorId: admin.id, ipAddress: clientAddress(request) };
  const { language } = await getRequestT(request, "admin");
  const currency = getEnv().currency;
  const db = getDb();
  const done = (key: string) => redirectWithToast(BACK, { type: "success", key }, { status: 303 });
  const refused = (key: string, status = 400) =>
    data<Failure>({ target: planId || "page", fieldErrors: { form: [key] } }, { status });

  switch (intent) {
    case "starter": {
      const made = createStarterPlans(db, { currency, actor });
      return made.ok ? done("admin:plans.starterMade") : refused(made.error, 409);
    }
    case "create":
    case "update": {
      const fields = formFields(form);
      const kind = form.get("kind") === "free" ? "free" : "pass";
      const context = { currency, language, actor };
      const result =
        intent === "create" ? createPlan(db, { ...fields, kind }, context) : updatePlan(db, planId, fields, context);
      if (result.ok) return done(intent === "create" ? "admin:plans.created" : "admin:plans.saved");
      const status = result.fieldErrors.form?.includes(PLAN_ERRORS.notFound) ? 404 : 400;
      return data<Failure>(
        { target: intent === "create" ? "new" : planId, fieldErrors: result.fieldErrors, values: fields },
        { status },
      );
    }
    case "up":
    case "down":
      return movePlan(db, planId, intent, actor) ? done("admin:plans.moved") : refused(PLAN_ERRORS.notFound, 404);
    case "retire":
    case "offer":
      return setPlanOffered(db, planId, intent === "offer", actor)
        ? done(intent === "offer" ? "admin:plans.offeredAgain" : "admin:plans.retired")
        : refused(PLAN_ERRORS.notFound, 404);
    case "delete": {
      const outcome = deletePlan(db, planId, actor);
      if (outcome === "deleted") return done("admin:plans.deleted");
      return refused(outcome === "sold" ? PLAN_ERRORS.sold : PLAN_ERRORS.notFound, outcome === "sold" ? 409 : 404);
    }
    default:
      return data<Failure>({ target: "page", fieldErrors: { form: ["admin:errors.unknownAction"] } }, { status: 400 });
  }
}

type LoadedPlan = ReturnType<typeof useLoaderData<typeof loader>>["plans"][number];

function PlanAction({
  plan,
  intent,
  label,
  ariaLabel,
  tone = "plain",
}: {
  plan: LoadedPlan;
  intent: string;
  label: string;
  ariaLabel: string;
  tone?: "plain" | "danger";
}) {
  return (
    <Form method="post">
      <input type="hidden" name="planId" value={plan.id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        aria-label={ariaLabel}
        className={`rounded border px-3 py-1.5 text-xs ${tone === "danger" ? "border-red-400/40 text-red-200 hover:bg-red-950" : "border-white/20 hover:bg-white/5"}`}
      >
        {label}
      </button>
    </Form>
  );
}

function PlanCard({
  plan,
  first,
  last,
  failure,
  currencySymbol,
}: {
  plan: LoadedPlan;
  first: boolean;
  last: boolean;
  failure: Failure | undefined;
  currencySymbol: string;
}) {
  const { t } = useTranslation("admin");
  const { t: tPlans } = useTranslation("plans");
  const mine = failure?.target === plan.id ? failure : undefined;
  return (
    <li
      className="min-w-0 rounded-lg border border-white/10 bg-ink-900/60 p-4"
      data-admin-plan={plan.code}
      data-offered={plan.offered ? "true" : "false"}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-xl font-bold break-words">
          {plan.name} <span className="text-base font-normal text-slate-300">· {plan.nameHa}</span>
        </h3>
        <span className="font-mono text-xs text-slate-400">{plan.code}</span>
      </header>
      <p className="mt-1 text-sm text-slate-300">
        {plan.free ? t("plans.freeKind") : t("plans.passKind")} ·{" "}
        {t("plans.sales", { count: plan.passesSold, active: plan.passesActive })}
      </p>
      {plan.free ? null : (
        <p className="mt-2 text-sm" data-plan-prices-summary>
          {plan.prices.map((price) => `${price.price} ${tPlans(`per.${price.period}`)}`).join(" · ")}
        </p>
      )}
      <PlanAllowances plan={plan.limits} className="mt-2 grid gap-1 text-sm text-slate-300" />
      {mine && !mine.values ? (
        <ul className="mt-2 text-sm text-red-300" role="alert" data-field-error="form">
          {mine.fieldErrors.form?.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {plan.offered && !first ? (
          <PlanAction
            plan={plan}
            intent="up"
            label={t("plans.up")}
            ariaLabel={t("plans.upNamed", { plan: plan.name })}
          />
        ) : null}
        {plan.offered && !last ? (
          <PlanAction
            plan={plan}
            intent="down"
            label={t("plans.down")}
            ariaLabel={t("plans.downNamed", { plan: plan.name })}
          />
        ) : null}
        {plan.offered ? (
          <PlanAction
            plan={plan}
            intent="retire"
            label={t("plans.retire")}
            ariaLabel={t("plans.retireNamed", { plan: plan.name })}
          />
        ) : (
          <PlanAction
            plan={plan}
            intent="offer"
            label={t("plans.offer")}
            ariaLabel={t("plans.offerNamed", { plan: plan.name })}
          />
        )}
        {plan.sold ? null : (
          <details className="group">
            <summary className="cursor-pointer list-none rounded border border-red-400/40 px-3 py-1.5 text-xs text-red-200 hover:bg-red-950">
              {t("plans.delete")}
            </summary>
            <div className="mt-2 rounded border border-red-400/40 bg-red-950/60 p-3 text-sm">
              <p>{t("plans.deleteText", { plan: plan.name })}</p>
              <div className="mt-2">
                <PlanAction
                  plan={plan}
                  intent="delete"
                  tone="danger"
                  label={t("plans.deleteConfirm", { plan: plan.name })}
                  ariaLabel={t("plans.deleteConfirm", { plan: plan.name })}
                />
              </div>
            </div>
          </details>
        )}
      </div>
      {plan.sold ? <p className="mt-2 text-xs text-slate-400">{t("plans.soldNote")}</p> : null}
      <details className="mt-3" open={Boolean(mine?.values)}>
        <summary className="cursor-pointer text-sm font-semibold text-brand-300">
          {t("plans.edit", { plan: plan.name })}
        </summary>
        <PlanForm
          intent="update"
          planId={plan.id}
          code={plan.code}
          values={mine?.values ?? plan.values}
          errors={mine?.fieldErrors}
          free={plan.free}
          currencySymbol={currencySymbol}
          submitLabel={t("plans.save", { plan: plan.name })}
        />
      </details>
    </li>
  );
}

export default function SelectPlan() {
  const { t } = useTranslation("admin");
  const { plans, preview, hasFreePlan, currencySymbol } = useLoaderData<typeof loader>();
  const failure = useActionData<Failure>();
  useErrorToasts(failure ? { fieldErrors: failure.fieldErrors } : null);
  const onOffer = plans.filter((plan) => plan.offered);
  const retired = plans.filter((plan) => !plan.offered);
  const creating = failure?.target === "new";
  const pageError = failure?.target === "page" ? failure.fieldErrors.form : undefined;

  return (
    <section className="min-w-0">
      <h1 className="text-3xl font-bold">{t("plans.title")}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-300">{t("plans.intro", { symbol: currencySymbol })}</p>
      {pageError ? (
        <ul className="mt-3 text-sm text-red-300" role="alert">
          {pageError.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
      ) : null}

      {plans.length === 0 ? (
        <div className="mt-6 rounded-lg border border-brand-500/50 bg-ink-900 p-5" data-testid="no-plans">
          <h2 className="text-xl font-semibold">{t("plans.emptyTitle")}</h2>
          <p className="mt-2 text-sm text-slate-300">{t("plans.emptyText")}</p>
          <Form method="post" className="mt-4">
            <SubmitButton intent="starter" pendingText={t("plans.starterMaking")}>
              {t("plans.starter")}
            </SubmitButton>
          </Form>
          <p className="mt-2 text-xs text-slate-400">{t("plans.starterNote", { symbol: currencySymbol })}</p>
        </div>
      ) : null}

      {preview.length > 0 ? (
        <section className="mt-8" aria-labelledby="preview-title">
          <h2 id="preview-title" className="text-xl font-semibold">
            {t("plans.previewTitle")}
          </h2>
          <p className="mt-1 text-sm text-slate-400">{t("plans.previewText")}</p>
          <div className="mt-3">
            <PlanTable plans={preview} choose={false} />
          </div>
        </section>
      ) : null}

      {onOffer.length > 0 ? (
        <section className="mt-8" aria-labelledby="offered-title">
          <h2 id="offered-title" className="text-xl font-semibold">
            {t("plans.offeredTitle")}
          </h2>
          <ol className="mt-3 grid gap-4 lg:grid-cols-2">
            {onOffer.map((plan, index) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                first={index === 0}
                last={index === onOffer.length - 1}
                failure={failure}
                currencySymbol={currencySymbol}
              />
            ))}
          </ol>
        </section>
      ) : null}

      {retired.length > 0 ? (
        <section className="mt-8" aria-labelledby="retired-title">
          <h2 id="retired-title" className="text-xl font-semibold">
            {t("plans.retiredTitle")}
          </h2>
          <p className="mt-1 text-sm text-slate-400">{t("plans.retiredText")}</p>
          <ul className="mt-3 grid gap-4 lg:grid-cols-2">
            {retired.map((plan) => (
              <PlanCard key={plan.id} plan={plan} first last failure={failure} currencySymbol={currencySymbol} />
            ))}
          </ul>
        </section>
      ) : null}

      <section className="mt-8 rounded-lg border border-white/10 bg-ink-900/60 p-4" aria-labelledby="new-plan-title">
        <details open={creating}>
          <summary className="cursor-pointer">
            <h2 id="new-plan-title" className="inline text-xl font-semibold">
              {t("plans.newTitle")}
            </h2>
          </summary>
          <PlanForm
            intent="create"
            values={creating && failure?.values ? failure.values : EMPTY_PLAN_VALUES}
            errors={creating ? failure?.fieldErrors : undefined}
            free={false}
            chooseKind={!hasFreePlan}
            currencySymbol={currencySymbol}
            submitLabel={t("plans.create")}
          />
        </details>
      </section>
    </section>
  );
}

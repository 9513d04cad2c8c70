import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import type { InputHTMLAttributes } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { useErrorToasts } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { PLAN_FEATURES } from "~/db/plan-features";
import { getRequestT } from "~/i18n/translate.server";
import {
  listAllPlans,
  listPlanPeriods,
  parseBilling,
  setPlanOffered,
  updatePlan,
  updatePlanPeriods,
} from "~/services/plans.server";
import { clientAddress } from "~/utils/client.server";
import { minorUnitDigits } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["admin", "plans", "billing"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const billing = parseBilling(new URL(request.url).searchParams.get("billing"));
  const { t } = await getRequestT(request, "admin");
  const plans = listAllPlans(getDb());
  const periods = listPlanPeriods(
    getDb(),
    plans.map((plan) => plan.id),
  );
  return {
    metaTitle: t("plans.metaTitle"),
    billing,
    plans: plans.map((plan) => ({ ...plan, periods: periods[plan.id] ?? [] })),
  };
}

type Failure = { planId: string; fieldErrors: Record<string, string[]>; values: Record<string, string> };

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const planId = String(form.get("planId") ?? "");
  const billing = parseBilling(String(form.get("billing") ?? ""));
  const back = billing === "annual" ? "/admin/Selectplan?billing=annual" : "/admin/Selectplan";
  const actor = { actorId: admin.id, ipAddress: clientAddress(request) };
  const db = getDb();
  if (intent === "offered") {
    const offered = form.get("offered") === "on";
    if (!setPlanOffered(db, planId, offered, actor))
      return data({ formError: "admin:plans.errors.notFound" }, { status: 400 });
    return redirectWithToast(
      back,
      { type: "success", key: offered ? "admin:plans.nowOffered" : "admin:plans.notOffered" },
      { status: 303 },
    );
  }
  if (intent === "periods") {
    const input = {
      day: String(form.get("day") ?? "").slice(0, 30),
      week: String(form.get("week") ?? "").slice(0, 30),
    };
    const result = updatePlanPeriods(db, planId, input, actor);
    if (!result.ok) return data<Failure>({ planId, fieldErrors: result.fieldErrors, values: input }, { status: 400 });
    return redirectWithToast(back, { type: "success", key: "billing:planPeriods.saved" }, { status: 303 });
  }
  if (intent !== "update") return data({ formError: "admin:errors.unknownAction" }, { status: 400 });
  const text = (name: string) => String(form.get(name) ?? "").slice(0, 50);
  const input = {
    price: text("price"),
    currency: text("currency"),
    screens: text("screens"),
    maxQuality: text("maxQuality"),
    annualDiscountPercent: text("annualDiscountPercent"),
    features: form.getAll("features").map(String),
    downloads:
      form.get("downloadFields") === "1"
        ? {
            allowed: form.get("downloadsAllowed") === "on",
            maxDownloads: text("maxDownloads"),
            days: text("downloadDays"),
            playHours: text("downloadPlayHours"),
          }
        : undefined,
  };
  const result = updatePlan(db, planId, input, actor);
  if (!result.ok) {
    const { features: _features, downloads, ...rest } = input;
    const values: Record<string, string> = {
      ...rest,
      ...(downloads
        ? { maxDownloads: downloads.maxDownloads, downloadDays: downloads.days, downloadPlayHours: downloads.playHours }
        : {}),
    };
    return data<Failure>({ planId, fieldErrors: result.fieldErrors, values }, { status: 400 });
  }
  return redirectWithToast(back, { type: "success", key: "admin:plans.saved" }, { status: 303 });
}

const input = "w-full rounded border bg-ink-900 px-2 py-1.5 text-sm text-slate-50";

/** One field of a plan's form: its label, its input and its first message. */
function PlanField({
  label,
  name,
  errors,
  bare = false,
  ...attributes
}: {
  label: string;
  name: string;
  errors?: Record<string, string[]>;
  bare?: boolean;
} & InputHTMLAttributes<HTMLInputElement>) {
  const { t } = useTranslation("admin");
  const message = errors?.[name]?.[0];
  return (
    <label className={`grid gap-1${bare ? "" : "text-sm"}`}>
      <span>{label}</span>
      <input name={name} className={`${input} ${message ? "border-red-400" : "border-white/15"}`} {...attributes} />
      {message ? (
        <span className="text-xs text-red-300" data-field-error={name}>
          {t(message)}
        </span>
      ) : null}
    </label>
  );
}

export default function SelectPlan() {
  const { t } = useTranslation("admin");
  const { t: tPlans } = useTranslation("plans");
  const { t: tBilling } = useTranslation("billing");
  const { plans, billing } = useLoaderData<typeof loader>();
  const failure = useActionData<Failure>();
  useErrorToasts(failure && "fieldErrors" in failure ? { fieldErrors: failure.fieldErrors } : null);
  const annual = billing === "annual";

  return (
    <section>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-3xl font-bold">{t("plans.title")}</h1>
        <nav
          aria-label={t("plans.billingLabel")}
          className="flex gap-1 rounded-full border border-white/15 p-1 text-sm"
        >
          <Link
            to="?billing=monthly"
            aria-current={!annual ? "page" : undefined}
            className={`rounded-full px-3 py-1 ${!annual ? "bg-brand-600 text-white" : "hover:bg-white/5"}`}
          >
            {t("plans.billedMonthly")}
          </Link>
          <Link
            to="?billing=annual"
            aria-current={annual ? "page" : undefined}
            className={`rounded-full px-3 py-1 ${annual ? "bg-brand-600 text-white" : "hover:bg-white/5"}`}
          >
            {t("plans.billedAnnually")}
          </Link>
        </nav>
      </div>

      <div className="mt-6 grid gap-4 lg:grid-cols-3">
        {plans.map((plan) => {
          const errors = failure?.planId === plan.id ? failure.fieldErrors : undefined;
          const values = failure?.planId === plan.id ? failure.values : undefined;
          const majorPrice = (plan.monthlyPriceMinor / 10 ** minorUnitDigits(plan.currency)).toFixed(
            minorUnitDigits(plan.currency),
          );
          const fieldError = (name: string) =>
            errors?.[name]?.length ? (
              <span className="text-xs text-red-300" data-field-error={name}>
                {t(errors[name][0])}
              </span>
            ) : null;
          const border = (name: string) => (errors?.[name]?.length ? "border-red-400" : "border-white/15");
          return (
            <article
              key={plan.id}
              data-admin-plan={plan.code}
              className="rounded-lg border border-white/10 bg-ink-900/60 p-4"
            >
              <header className="flex items-baseline justify-between gap-2">
                <h2 className="text-xl font-bold">{plan.name}</h2>
                <span className="text-xs text-slate-300">
                  {plan.offered ? t("plans.offered") : t("plans.notOfferedLabel")}
                </span>
              </header>
              <p className="mt-2 text-2xl font-extrabold" data-price>
                {annual ? plan.annualPrice : plan.monthlyPrice}
                <span className="ml-1 text-sm font-normal text-slate-300">
                  {annual ? t("plans.perYear") : t("plans.perMonth")}
                </span>
              </p>
              {annual && plan.annualDiscountPercent > 0 ? (
                <p className="text-xs text-emerald-300">
                  {t("plans.discountNote", { percent: plan.annualDiscountPercent })}
                </p>
              ) : null}

              <Form method="post" className="mt-4 grid gap-3" noValidate>
                <input type="hidden" name="planId" value={plan.id} />
                <input type="hidden" name="billing" value={billing} />
                <label className="grid gap-1 text-sm">
                  <span>{t("plans.fields.price", { plan: plan.name })}</span>
                  <input
                    name="price"
                    inputMode="decimal"
                    defaultValue={values?.price ?? majorPrice}
                    className={`${input} ${border("price")}`}
                  />
                  {fieldError("price")}
                </label>
                <div className="grid grid-cols-2 gap-2">
                  <PlanField
                    label={t("plans.fields.currency")}
                    name="currency"
                    errors={errors}
                    defaultValue={values?.currency ?? plan.currency}
                    maxLength={3}
                  />
                  <PlanField
                    label={t("plans.fields.screens")}
                    name="screens"
                    errors={errors}
                    defaultValue={values?.screens ?? plan.screens}
                    type="number"
                    min={1}
                    max={10}
                  />
                  <label className="grid gap-1 text-sm">
                    <span>{t("plans.fields.maxQuality")}</span>
                    <select
                      name="maxQuality"
                      defaultValue={values?.maxQuality ?? plan.maxQuality}
                      className={`${input} ${border("maxQuality")}`}
                    >
                      <option value="sd">{t("plans.quality.sd")}</option>
                      <option value="hd">{t("plans.quality.hd")}</option>
                      <option value="uhd">{t("plans.quality.uhd")}</option>
                    </select>
                    {fieldError("maxQuality")}
                  </label>
                  <PlanField
                    label={t("plans.fields.discount")}
                    name="annualDiscountPercent"
                    errors={errors}
                    defaultValue={values?.annualDiscountPercent ?? plan.annualDiscountPercent}
                    type="number"
                    min={0}
                    max={100}
                  />
                </div>
                <fieldset className="grid grid-cols-2 gap-2 text-sm" data-plan-downloads={plan.code}>
                  <legend className="mb-1">{t("plans.fields.downloads")}</legend>
                  <input type="hidden" name="downloadFields" value="1" />
                  <label className="col-span-2 flex items-center gap-2">
                    <input type="checkbox" name="downloadsAllowed" defaultChecked={plan.downloads.allowed} />
                    {t("plans.fields.downloadsAllowed")}
                  </label>
                  <PlanField
                    bare
                    label={t("plans.fields.maxDownloads")}
                    name="maxDownloads"
                    errors={errors}
                    defaultValue={values?.maxDownloads ?? plan.downloads.maxDownloads}
                    type="number"
                    min={1}
                    max={100}
                  />
                  <PlanField
                    bare
                    label={t("plans.fields.downloadDays")}
                    name="downloadDays"
                    errors={errors}
                    defaultValue={values?.downloadDays ?? plan.downloads.days}
                    type="number"
                    min={1}
                    max={365}
                  />
                  <PlanField
                    bare
                    label={t("plans.fields.downloadPlayHours")}
                    name="downloadPlayHours"
                    errors={errors}
                    defaultValue={values?.downloadPlayHours ?? plan.downloads.playHours}
                    type="number"
                    min={1}
                    max={8760}
                  />
                </fieldset>
                <fieldset className="grid gap-1 text-sm">
                  <legend className="mb-1">{t("plans.fields.features")}</legend>
                  {PLAN_FEATURES.map((feature) => (
                    <label key={feature} className="flex items-center gap-2">
                      <input
                        type="checkbox"
                        name="features"
                        value={feature}
                        defaultChecked={plan.features.includes(feature)}
                      />
                      {tPlans(`features.${feature}`)}
                    </label>
                  ))}
                </fieldset>
                <button
                  type="submit"
                  name="intent"
                  value="update"
                  className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
                >
                  {t("plans.save", { plan: plan.name })}
                </button>
              </Form>
              {plan.code !== "FREE" ? (
                <Form
                  method="post"
                  className="mt-4 grid gap-2 border-t border-white/10 pt-4"
                  noValidate
                  data-plan-periods={plan.code}
                >
                  <input type="hidden" name="planId" value={plan.id} />
                  <input type="hidden" name="billing" value={billing} />
                  <h3 className="text-sm font-semibold">{tBilling("planPeriods.title")}</h3>
                  {(["day", "week"] as const).map((period) => {
                    const stored = plan.periods.find((row) => row.period === period);
                    const digits = minorUnitDigits(plan.currency);
                    const shown = stored ? (stored.priceMinor / 10 ** digits).toFixed(digits) : "";
                    return (
                      <label key={period} className="grid gap-1 text-sm">
                        <span>{tBilling(`planPeriods.${period}`, { currency: plan.currency })}</span>
                        <input
                          name={period}
                          inputMode="decimal"
                          defaultValue={values?.[period] ?? shown}
                          className={`${input} ${border(period)}`}
                        />
                        {errors?.[period]?.length ? (
                          <span className="text-xs text-red-300" data-field-error={period}>
                            {t(errors[period][0])}
                          </span>
                        ) : null}
                      </label>
                    );
                  })}
                  <p className="text-xs text-slate-400">
                    {tBilling("planPeriods.month")} {tBilling("planPeriods.hint")}
                  </p>
                  <button
                    type="submit"
                    name="intent"
                    value="periods"
                    className="rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5"
                  >
                    {tBilling("planPeriods.save", { plan: plan.name })}
                  </button>
                </Form>
              ) : null}
              <Form method="post" className="mt-3">
                <input type="hidden" name="planId" value={plan.id} />
                <input type="hidden" name="billing" value={billing} />
                <input type="hidden" name="offered" value={plan.offered ? "off" : "on"} />
                <button
                  type="submit"
                  name="intent"
                  value="offered"
                  aria-pressed={plan.offered}
                  className="w-full rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5"
                >
                  {plan.offered ? t("plans.activePlanOn") : t("plans.activePlanOff")}
                </button>
              </Form>
            </article>
          );
        })}
      </div>
    </section>
  );
}

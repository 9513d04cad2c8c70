import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { DataTable } from "~/components/ui/data-table";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireViewer } from "~/auth/guards.server";
import { dateFormatter } from "~/utils/dates";
import { Field, FormError, SubmitButton, useErrorToasts, type FormErrors } from "~/components/ui/form";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { getPassStatus, premiumOffers } from "~/services/billing.server";
import { listPlansOnOffer, localPlanName } from "~/services/plans.server";
import { PlanAllowances } from "~/components/plans/plan-parts";
import {
  cardGateway,
  findOwnPendingPayment,
  listOwnPayments,
  readReceiptEmail,
  startPassPurchase,
} from "~/services/payments.server";
import { periodOfDays } from "~/services/passes.server";
import { clientAddress } from "~/utils/client.server";
import { consumeRateLimit } from "~/services/rate-limit.server";
import { formatVoucherCode, redeemVoucher } from "~/services/vouchers.server";
import { passRetryAfter } from "~/routes-support/form-response.server";
import { getEnv } from "~/utils/env.server";
import { formatMoney } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";
import { pageParam } from "~/utils/paging";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["billing", "plans"] };

export const meta = metaTitleMeta;
export const headers = passRetryAfter;

const HISTORY_PAGE_SIZE = 10;

/** "card, bank transfer or USSD": the same text on the server and in any browser (no locale data needed). */
function eitherOf(items: readonly string[], or: string): string {
  return items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${or} ${items.at(-1)}`;
}

/** The viewer's plans-and-payments page: current plan, buy a pass, redeem a voucher, payment history. */
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request, { grownUp: true });
  const url = new URL(request.url);
  const db = getDb();
  const page = pageParam(url);
  const status = getPassStatus(db, viewer.id);
  const history = listOwnPayments(db, viewer.id, page, HISTORY_PAGE_SIZE);
  const orderReference = url.searchParams.get("order");
  const order = orderReference ? findOwnPendingPayment(db, viewer.id, orderReference.slice(0, 100)) : undefined;
  const { t, language } = await getRequestT(request, "billing");
  const plans = listPlansOnOffer(db, language, getEnv().currency);
  return {
    metaTitle: t("page.metaTitle"),
    language,
    chosenPlan: (url.searchParams.get("plan") ?? "").toUpperCase().slice(0, 20),
    cardPayments: Boolean(cardGateway()),
    /** The ways Paystack's checkout offers (none without a gateway). */
    channels: cardGateway()?.channels ?? [],
    /** Whom to ask for a voucher when passes are not sold online. */
    customerCare: getEnv().customerCare,
    /** An account made with a phone number has no email; the card gateway sends its receipt to one asked here. */
    needsReceiptEmail: !viewer.email,
    status: {
      planCode: status.plan.code,
      planName: localPlanName(status.plan, language),
      limits: {
        premium: status.plan.premium,
        screens: status.plan.screens,
        maxRung: status.plan.maxRung,
        downloads: status.plan.downloads,
      },
      onFreePlan: status.onFreePlan,
      expiresAt: status.expiresAt?.toISOString() ?? null,
      upcoming: status.upcoming.map((pass) => ({
        planName: localPlanName({ name: pass.planName, nameHa: pass.planNameHa }, language),
        startsAt: pass.startsAt.toISOString(),
        endsAt: pass.endsAt.toISOString(),
      })),
    },
    // The pass plans on sale; and which of them include Premium titles (what the free plan lacks).
    plans: plans.filter((plan) => !plan.free),
    premiumPlans: premiumOffers(plans).map((plan) => plan.name),
    order:
      order && order.status === "pending" && order.authorizationUrl
        ? {
            reference: order.reference,
            planName: order.planName,
            period: periodOfDays(order.periodDays),
            days: order.periodDays,
            price: formatMoney(order.amountMinor, order.currency, language),
            authorizationUrl: order.authorizationUrl,
          }
        : null,
    history: {
      page: history.page,
      pageCount: Math.max(1, Math.ceil(history.total / history.pageSize)),
      rows: history.rows.map((row) => ({
        reference: row.kind === "voucher" ? formatVoucherCode(row.reference) : row.reference,
        status: row.status,
        planName: row.planName,
        days: row.periodDays,
        period: periodOfDays(row.periodDays),
        kind: row.kind,
        // A voucher's code is shown as the viewer typed it; it bought the pass, not money.
        amount:
          row.amountMinor === null || row.currency === null
            ? null
            : formatMoney(row.amountMinor, row.currency, language),
        date: (row.paidAt ?? row.createdAt).toISOString(),
      })),
    },
  };
}

type ActionData = FormErrors & { section?: "buy" | "redeem"; values?: { code?: string } };

function fail(status: number, body: ActionData) {
  const headers = new Headers();
  if (body.retryAfterSeconds) headers.set("Retry-After", String(body.retryAfterSeconds));
  return data<ActionData>(body, { status, headers });
}

/** Where Paystack sends the payer back: the public address when configured, else this request's origin. */
function callbackUrl(request: Request): string {
  const base = getEnv().publicUrl ?? new URL(request.url).origin;
  return `${base.replace(/\/+$/, "")}/payments/paystack/callback`;
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireViewer(request, { grownUp: true });
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const db = getDb();
  const address = clientAddress(request);

  if (intent === "buy") {
    const receiptEmail = viewer.email ?? readReceiptEmail(form);
    if (!receiptEmail) return fail(400, { formError: "billing:buy.receiptEmailNeeded", section: "buy" });
    const result = await startPassPurchase(db, cardGateway(), {
      account: { id: viewer.id, email: receiptEmail },
      planId: String(form.get("planId") ?? "").slice(0, 64),
      period: String(form.get("period") ?? "").slice(0, 10),
      callbackUrl: callbackUrl(request),
      ipAddress: address,
    });
    if (!result.ok) return fail(result.status, { formError: result.error, section: "buy" });
    // The payer continues to the gateway from our own page: a form may only post to this site (CSP form-action).
    return redirect(`/payment?${new URLSearchParams({ order: result.reference })}#order`, { status: 303 });
  }

  if (intent === "redeem") {
    const code = String(form.get("code") ?? "").slice(0, 64);
    const values = { code };
    const limit = await consumeRateLimit("voucher", { address, account: viewer.id });
    if (!limit.ok) {
      return fail(429, {
        formError: "billing:redeem.errors.tooMany",
        retryAfterSeconds: limit.retryAfterSeconds,
        section: "redeem",
        values,
      });
    }
    if (!code.trim())
      return fail(400, { fieldErrors: { code: ["billing:redeem.errors.required"] }, section: "redeem", values });
    const result = redeemVoucher(db, { accountId: viewer.id, code, ipAddress: address });
    if (!result.ok)
      return fail(400, {
        fieldErrors: { code: [`billing:redeem.errors.${result.reason}`] },
        section: "redeem",
        values,
      });
    const { language } = await getRequestT(request, "billing");
    return redirectWithToast(
      "/payment",
      {
        type: "success",
        key: "billing:redeem.done",
        values: { plan: result.planName, date: dateFormatter(language, "dateTime").format(result.endsAt) },
      },
      { status: 303 },
    );
  }

  return fail(400, { formError: "billing:page.unknownAction" });
}

export default function Payment() {
  const { t } = useTranslation("billing");
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  useErrorToasts(actionData);
  const { needsReceiptEmail } = data;
  const { status, plans, premiumPlans, order, history, language, cardPayments, chosenPlan, channels, customerCare } =
    data;
  const when = dateFormatter(language, "dateTime");
  const day = dateFormatter(language);
  const periodLabel = (period: string | null, days: number) =>
    period ? t(`periods.${period}`) : t("periodOfDays", { count: days });
  const codeErrors = actionData?.section === "redeem" ? actionData.fieldErrors?.code : undefined;

  return (
    <section className="mx-auto grid w-full max-w-5xl gap-10 px-4 py-12">
      <header>
        <h1 className="text-3xl font-bold">{t("page.title")}</h1>
        <p className="mt-2 max-w-3xl text-slate-300">{t("page.intro")}</p>
      </header>

      <section
        aria-labelledby="current-title"
        className="rounded-lg border border-white/10 bg-ink-900/60 p-6"
        data-testid="current-plan"
        data-plan={status.planCode}
      >
        <h2 id="current-title" className="text-xl font-semibold">
          {t("current.title")}
        </h2>
        <p className="mt-2 text-lg">
          {status.onFreePlan
            ? status.planName
              ? t("current.free", { plan: status.planName })
              : t("current.none")
            : t("current.paid", { plan: status.planName })}
        </p>
        <PlanAllowances plan={status.limits} className="mt-3 grid gap-1.5 text-sm text-slate-300" />
        {!status.limits.premium ? (
          <p className="mt-3 text-sm text-slate-300" data-testid="premium-hint">
            {premiumPlans.length > 0
              ? t("current.premiumNeeds", { plans: premiumPlans.join(", ") })
              : t("current.premiumNowhere")}
          </p>
        ) : null}
        {status.expiresAt ? (
          <p className="mt-2 text-slate-200" data-testid="pass-expiry">
            {t("current.endsOn", { date: when.format(new Date(status.expiresAt)) })}
          </p>
        ) : null}
        {status.upcoming.length > 0 ? (
          <div className="mt-4">
            <h3 className="text-sm font-semibold text-slate-200">{t("current.upcomingTitle")}</h3>
            <ul className="mt-1 list-disc pl-5 text-sm text-slate-300">
              {status.upcoming.map((pass) => (
                <li key={pass.startsAt}>
                  {t("current.upcoming", {
                    plan: pass.planName,
                    start: when.format(new Date(pass.startsAt)),
                    end: when.format(new Date(pass.endsAt)),
                  })}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      {order ? (
        <section
          id="order"
          aria-labelledby="order-title"
          className="rounded-lg border border-brand-500/50 bg-ink-900 p-6"
        >
          <h2 id="order-title" className="text-xl font-semibold">
            {t("buy.orderTitle")}
          </h2>
          <p className="mt-2">
            {t("buy.order", {
              plan: order.planName,
              period: periodLabel(order.period, order.days),
              price: order.price,
            })}
          </p>
          <a
            href={order.authorizationUrl}
            className="mt-4 inline-block rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
            data-testid="continue-to-gateway"
          >
            {t("buy.continue")}
          </a>
          <p className="mt-2 text-sm text-slate-400">{t("buy.orderNote")}</p>
        </section>
      ) : null}

      <section id="buy" aria-labelledby="buy-title">
        <h2 id="buy-title" className="text-2xl font-bold">
          {t("buy.title")}
        </h2>
        {!cardPayments ? (
          <p
            role="status"
            className="mt-3 rounded border border-amber-400/40 bg-amber-950/60 px-4 py-3 text-amber-50"
            data-testid="card-unavailable"
          >
            {t("buy.byVoucher", { email: customerCare.email, phone: customerCare.phone })}{" "}
            <a href="#redeem" className="font-semibold underline">
              {t("buy.toVoucher")}
            </a>
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-300" data-testid="payment-channels">
            {t("buy.channels", {
              ways: eitherOf(
                channels.map((channel) => t(`buy.channel.${channel}`)),
                t("buy.or"),
              ),
            })}
          </p>
        )}
        {actionData?.section === "buy" ? (
          <div className="mt-3">
            <FormError errors={actionData} />
          </div>
        ) : null}
        {plans.length === 0 ? (
          <p className="mt-3 text-slate-300" data-testid="nothing-on-sale">
            {t("buy.nothingOnSale")}
          </p>
        ) : null}
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          {plans.map((plan) => (
            <article
              key={plan.id}
              id={`plan-${plan.code}`}
              data-plan-card={plan.code}
              className={`min-w-0 rounded-lg border bg-ink-900/60 p-5 ${chosenPlan === plan.code ? "border-brand-500" : "border-white/10"}`}
            >
              <header className="flex items-baseline justify-between gap-2">
                <h3 className="text-xl font-bold break-words">{plan.name}</h3>
                {status.planCode === plan.code ? (
                  <span className="rounded bg-brand-600 px-2 py-0.5 text-xs text-white">{t("buy.currentBadge")}</span>
                ) : null}
              </header>
              {plan.description ? <p className="mt-1 text-sm text-slate-300">{plan.description}</p> : null}
              <PlanAllowances plan={plan} className="mt-3 grid gap-1.5 text-sm text-slate-300" />
              <Form method="post" className="mt-4 grid gap-3">
                <input type="hidden" name="planId" value={plan.id} />
                <fieldset>
                  <legend className="text-sm font-medium text-slate-200">{t("buy.choosePeriod")}</legend>
                  <div className="mt-2 grid gap-2">
                    {plan.prices.map((price, index) => (
                      <label
                        key={price.period}
                        className="flex items-center justify-between gap-3 rounded border border-white/10 px-3 py-2 text-sm"
                      >
                        <span className="flex items-center gap-2">
                          {/* Without a gateway the prices say what a voucher is worth; there is nothing to choose. */}
                          {cardPayments ? (
                            <input type="radio" name="period" value={price.period} defaultChecked={index === 0} />
                          ) : null}
                          {t(`periods.${price.period}`)}
                        </span>
                        <span className="font-semibold whitespace-nowrap" data-period-price={price.period}>
                          {price.price}
                        </span>
                      </label>
                    ))}
                  </div>
                </fieldset>
                {cardPayments && needsReceiptEmail ? (
                  <Field label={t("buy.receiptEmail")} name="receiptEmail" type="email" autoComplete="email" required />
                ) : null}
                {cardPayments ? (
                  <SubmitButton intent="buy" pendingText={t("buy.paying")}>
                    {t("buy.pay", { plan: plan.name })}
                  </SubmitButton>
                ) : null}
              </Form>
            </article>
          ))}
        </div>
      </section>

      <section
        id="redeem"
        aria-labelledby="redeem-title"
        className="rounded-lg border border-white/10 bg-ink-900/60 p-6"
      >
        <h2 id="redeem-title" className="text-2xl font-bold">
          {t("redeem.title")}
        </h2>
        <Form method="post" action="/payment" className="mt-4 grid max-w-md gap-3">
          {actionData?.section === "redeem" ? <FormError errors={actionData} /> : null}
          <Field
            // A redeemed code changes the expiry: the field starts empty again.
            key={status.expiresAt ?? "free"}
            label={t("redeem.label")}
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            defaultValue={actionData?.section === "redeem" ? actionData.values?.code : undefined}
            errors={codeErrors}
            hint={t("redeem.hint")}
          />
          <div>
            <SubmitButton intent="redeem" pendingText={t("redeem.submitting")}>
              {t("redeem.submit")}
            </SubmitButton>
          </div>
        </Form>
      </section>

      <section id="history" aria-labelledby="history-title">
        <h2 id="history-title" className="text-2xl font-bold">
          {t("history.title")}
        </h2>
        <DataTable
          testId="payment-history"
          minWidth="min-w-[640px]"
          rows={history.rows}
          rowKey={(row) => `${row.kind}:${row.reference}`}
          rowAttributes={(row) => ({ "data-payment-reference": row.reference, "data-status": row.status })}
          empty={t("history.empty")}
          columns={[
            { key: "date", header: t("history.date"), cell: (row) => day.format(new Date(row.date)) },
            { key: "plan", header: t("history.plan"), cell: (row) => row.planName },
            { key: "period", header: t("history.period"), cell: (row) => periodLabel(row.period, row.days) },
            {
              key: "amount",
              header: t("history.amount"),
              align: "right",
              cell: (row) => row.amount ?? t("history.voucher"),
            },
            { key: "status", header: t("history.status"), cell: (row) => t(`status.${row.status}`) },
            {
              key: "reference",
              header: t("history.reference"),
              className: "font-mono text-xs",
              cell: (row) => row.reference,
            },
          ]}
        />
        <Pagination page={history.page} pageCount={history.pageCount} />
      </section>
    </section>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { dateFormatter } from "~/utils/dates";
import { DataTable, type Column } from "~/components/ui/data-table";
import { FormError, SubmitButton, useErrorToasts, type FormErrors } from "~/components/ui/form";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/utils/env.server";
import { getRequestT } from "~/i18n/translate.server";
import { listCodeRows, listPassRows, listPaymentRows, type BillingTable } from "~/services/billing-admin.server";
import { periodOfDays } from "~/services/passes.server";
import { listPlansForAdmin, localPlanName } from "~/services/plans.server";
import { clientAddress } from "~/utils/client.server";
import { formatVoucherCode, generateVoucherBatch, getVoucherBatch } from "~/services/vouchers.server";
import { VOUCHER_BATCH_MAX } from "~/utils/form-limits";
import { formatMoney } from "~/utils/money";
import { pageParam } from "~/utils/paging";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["admin", "billing"] };

export const meta = metaTitleMeta;

const PAGE_SIZE = 10;

function tableQuery(url: URL, table: BillingTable) {
  const search = (url.searchParams.get(`${table}Q`) ?? "").slice(0, 100);
  const page = pageParam(url, `${table}Page`);
  return { search, page, pageSize: PAGE_SIZE };
}

const pageCount = (total: number) => Math.max(1, Math.ceil(total / PAGE_SIZE));

/** Payments, subscribers, subscription status and redeem codes, each searchable, paged and exportable; voucher batches. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const db = getDb();
  const now = new Date();
  const paymentsQuery = tableQuery(url, "payments");
  const subscribersQuery = tableQuery(url, "subscribers");
  const statusQuery = tableQuery(url, "status");
  const codesQuery = tableQuery(url, "codes");
  const paymentsList = listPaymentRows(db, paymentsQuery);
  const subscribersList = listPassRows(db, subscribersQuery, now);
  const statusList = listPassRows(db, statusQuery, now);
  const codesList = listCodeRows(db, codesQuery, now);
  // Vouchers are made for the pass plans on offer, for the lengths they sell.
  const plans = listPlansForAdmin(db).filter((plan) => !plan.free && plan.offered);
  const { t, language } = await getRequestT(request, "billing");
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const batch = getVoucherBatch(db, url.searchParams.get("batch") ?? "");
  return {
    metaTitle: t("admin.metaTitle"),
    batch: batch
      ? {
          id: batch.id,
          planName: batch.planName,
          period: batch.period ?? "",
          expiresAt: batch.expiresAt.toISOString(),
          codes: batch.codes.map(formatVoucherCode),
        }
      : null,
    voucherOptions: plans.flatMap((plan) =>
      plan.prices.map((price) => ({
        value: `${plan.id}:${price.period}`,
        planName: localPlanName(plan, language),
        period: price.period,
        price: formatMoney(price.priceMinor, getEnv().currency, language),
      })),
    ),
    defaultRedeemBy: new Date(now.getTime() + 90 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10),
    payments: {
      q: paymentsQuery.search,
      total: paymentsList.total,
      page: paymentsList.page,
      pageCount: pageCount(paymentsList.total),
      rows: paymentsList.rows.map((row) => ({
        ...row,
        date: row.date.toISOString(),
        amount: formatMoney(row.amountMinor, row.currency, language),
      })),
    },
    subscribers: {
      q: subscribersQuery.search,
      total: subscribersList.total,
      page: subscribersList.page,
      pageCount: pageCount(subscribersList.total),
      rows: subscribersList.rows.map((row) => ({
        ...row,
        startsAt: row.startsAt.toISOString(),
        endsAt: row.endsAt.toISOString(),
      })),
    },
    status: {
      q: statusQuery.search,
      total: statusList.total,
      page: statusList.page,
      pageCount: pageCount(statusList.total),
      rows: statusList.rows.map((row) => ({
        ...row,
        startsAt: row.startsAt.toISOString(),
        endsAt: row.endsAt.toISOString(),
      })),
    },
    codes: {
      q: codesQuery.search,
      total: codesList.total,
      page: codesList.page,
      pageCount: pageCount(codesList.total),
      rows: codesList.rows.map((row) => ({
        ...row,
        expiresAt: row.expiresAt.toISOString(),
        redeemedAt: iso(row.redeemedAt),
        period: periodOfDays(row.periodDays),
      })),
    },
  };
}

type ActionData = FormErrors & {
  values?: { planPeriod: string; count: string; expiresOn: string };
};

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  if (String(form.get("intent") ?? "") !== "generate")
    return data<ActionData>({ formError: "admin:errors.unknownAction" }, { status: 400 });
  const values = {
    planPeriod: String(form.get("planPeriod") ?? "").slice(0, 80),
    count: String(form.get("count") ?? "").slice(0, 10),
    expiresOn: String(form.get("expiresOn") ?? "").slice(0, 20),
  };
  const [planId = "", period = ""] = values.planPeriod.split(":");
  const result = generateVoucherBatch(
    getDb(),
    { planId, period, count: values.count, expiresOn: values.expiresOn },
    { actorId: admin.id, ipAddress: clientAddress(request) },
  );
  if (!result.ok) return data<ActionData>({ fieldErrors: result.fieldErrors, values }, { status: 400 });
  // Post, then redirect to the batch: reloading the page shows these codes again instead of generating more.
  return redirect(`/admin/userpayment?${new URLSearchParams({ batch: result.batchId })}#voucher-batch`, {
    status: 303,
  });
}

const inputClass = "rounded border bg-ink-900 px-3 py-2 text-slate-50";

export default function UserPayment() {
  const { t, i18n } = useTranslation("billing");
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  useErrorToasts(actionData);
  const when = dateFormatter(i18n.language, "dateTime");
  const day = dateFormatter(i18n.language);
  const { payments, subscribers, status, codes, voucherOptions, defaultRedeemBy } = loaderData;
  const batch = loaderData.batch;
  const fieldError = (name: string) =>
    actionData?.fieldErrors?.[name]?.length ? (
      <span id={`${name}-error`} className="text-xs text-red-300" data-field-error={name}>
        {t(actionData.fieldErrors[name][0])}
      </span>
    ) : null;
  const invalid = (name: string) => Boolean(actionData?.fieldErrors?.[name]?.length);

  type PaymentView = (typeof payments.rows)[number];
  type PassView = (typeof subscribers.rows)[number];
  type CodeView = (typeof codes.rows)[number];
  const paymentColumns: Column<PaymentView>[] = [
    { header: t("admin.columns.name"), cell: (row) => row.name },
    { header: t("admin.columns.email"), cell: (row) => row.email },
    { header: t("admin.columns.phone"), cell: (row) => row.phoneNumber },
    {
      header: t("admin.columns.paymentStatus"),
      cell: (row) => <span data-payment-status={row.status}>{t(`status.${row.status}`)}</span>,
    },
    { header: t("admin.columns.paymentDate"), cell: (row) => day.format(new Date(row.date)) },
    { header: t("admin.columns.plan"), cell: (row) => row.plan },
    { header: t("admin.columns.amount"), cell: (row) => row.amount, align: "right" },
  ];
  const subscriberColumns: Column<PassView>[] = [
    { header: t("admin.columns.name"), cell: (row) => row.name },
    { header: t("admin.columns.email"), cell: (row) => row.email },
    { header: t("admin.columns.subscribeDate"), cell: (row) => when.format(new Date(row.startsAt)) },
    { header: t("admin.columns.expireDate"), cell: (row) => when.format(new Date(row.endsAt)) },
    { header: t("admin.columns.plan"), cell: (row) => row.plan },
  ];
  const statusColumns: Column<PassView>[] = [
    { header: t("admin.columns.paymentId"), cell: (row) => <span className="font-mono text-xs">{row.paymentId}</span> },
    { header: t("admin.columns.email"), cell: (row) => row.email },
    {
      header: t("admin.columns.subscribeStatus"),
      cell: (row) => <span data-pass-state={row.state}>{t(`admin.passState.${row.state}`)}</span>,
    },
    { header: t("admin.columns.expireDate"), cell: (row) => when.format(new Date(row.endsAt)) },
    { header: t("admin.columns.plan"), cell: (row) => row.plan },
  ];
  const codeColumns: Column<CodeView>[] = [
    { header: t("admin.columns.paymentId"), cell: (row) => <span className="font-mono text-xs">{row.id}</span> },
    { header: t("admin.columns.redeemCode"), cell: (row) => <span className="font-mono">{row.code}</span> },
    { header: t("admin.columns.expireDate"), cell: (row) => day.format(new Date(row.expiresAt)) },
    {
      header: t("admin.columns.plan"),
      cell: (row) =>
        `${row.plan} · ${row.period ? t(`periods.${row.period}`) : t("periodOfDays", { count: row.periodDays })}`,
    },
    {
      header: t("admin.columns.redeemed"),
      cell: (row) => (
        <span data-code-state={row.state}>
          {row.state === "used"
            ? t("admin.codeState.used", { email: row.redeemedByEmail ?? "—" })
            : t(`admin.codeState.${row.state}`)}
        </span>
      ),
    },
    { header: t("admin.columns.batch"), cell: (row) => <span className="font-mono text-xs">{row.batchId}</span> },
  ];

  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.title")}</h1>

      <section aria-labelledby="generate-title" className="mt-6 rounded-lg border border-white/10 bg-ink-900/60 p-5">
        <h2 id="generate-title" className="text-xl font-semibold">
          {t("admin.generate.title")}
        </h2>
        {voucherOptions.length === 0 ? (
          <p className="mt-2 text-slate-300">{t("admin.generate.noPlans")}</p>
        ) : (
          <Form method="post" className="mt-4 flex flex-wrap items-end gap-3" noValidate>
            <FormError errors={actionData} />
            {/* A plan's name, period and price can be longer than a phone is wide (Hausa): the menu narrows to fit. */}
            <label className="grid max-w-full min-w-0 gap-1 text-sm">
              <span>{t("admin.generate.planPeriod")}</span>
              <select
                name="planPeriod"
                defaultValue={actionData?.values?.planPeriod ?? voucherOptions[0].value}
                aria-invalid={invalid("planPeriod") || undefined}
                aria-describedby={invalid("planPeriod") ? "planPeriod-error" : undefined}
                className={`${inputClass} max-w-full min-w-0 ${invalid("planPeriod") ? "border-red-400" : "border-white/15"}`}
              >
                {voucherOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.planName} — {t(`periods.${option.period}`)} ({option.price})
                  </option>
                ))}
              </select>
              {fieldError("planPeriod")}
            </label>
            <label className="grid gap-1 text-sm">
              <span>{t("admin.generate.count")}</span>
              <input
                name="count"
                type="number"
                min={1}
                max={VOUCHER_BATCH_MAX}
                defaultValue={actionData?.values?.count ?? "10"}
                aria-invalid={invalid("count") || undefined}
                aria-describedby={invalid("count") ? "count-error" : undefined}
                className={`${inputClass} w-28 ${invalid("count") ? "border-red-400" : "border-white/15"}`}
              />
              {fieldError("count")}
            </label>
            <label className="grid gap-1 text-sm">
              <span>{t("admin.generate.expiresOn")}</span>
              <input
                name="expiresOn"
                type="date"
                defaultValue={actionData?.values?.expiresOn ?? defaultRedeemBy}
                aria-invalid={invalid("expiresOn") || undefined}
                aria-describedby={invalid("expiresOn") ? "expiresOn-error" : undefined}
                className={`${inputClass} ${invalid("expiresOn") ? "border-red-400" : "border-white/15"}`}
              />
              {fieldError("expiresOn")}
            </label>
            <SubmitButton intent="generate" pendingText={t("admin.generate.submitting")}>
              {t("admin.generate.submit")}
            </SubmitButton>
          </Form>
        )}
        {batch ? (
          <div
            className="mt-5 rounded border border-emerald-400/40 bg-emerald-950/40 p-4"
            id="voucher-batch"
            data-testid="voucher-batch"
            data-batch-id={batch.id}
          >
            <p role="status" className="font-semibold">
              {t("admin.generate.result", {
                count: batch.codes.length,
                plan: batch.planName,
                period: t(`periods.${batch.period}`),
                date: day.format(new Date(batch.expiresAt)),
              })}
            </p>
            <p className="mt-1 text-sm text-slate-300">{t("admin.generate.once")}</p>
            <a
              href={`/admin/userpayment/export?${new URLSearchParams({ table: "codes", batch: batch.id })}`}
              download
              className="mt-2 inline-block text-brand-300 hover:underline"
            >
              {t("admin.generate.download")}
            </a>
            <ol className="mt-3 grid gap-1 font-mono text-sm sm:grid-cols-2 lg:grid-cols-3">
              {batch.codes.map((code) => (
                <li key={code} data-voucher-code={code}>
                  {code}
                </li>
              ))}
            </ol>
          </div>
        ) : null}
      </section>

      <BillingTableSection
        table="payments"
        title={t("admin.tables.payments")}
        data={payments}
        columns={paymentColumns}
        rowKey={(row) => row.id}
      />
      <BillingTableSection
        table="subscribers"
        title={t("admin.tables.subscribers")}
        data={subscribers}
        columns={subscriberColumns}
        rowKey={(row) => row.id}
      />
      <BillingTableSection
        table="status"
        title={t("admin.tables.status")}
        data={status}
        columns={statusColumns}
        rowKey={(row) => row.id}
      />
      <BillingTableSection
        table="codes"
        title={t("admin.tables.codes")}
        data={codes}
        columns={codeColumns}
        rowKey={(row) => row.id}
      />
    </section>
  );
}

function BillingTableSection<Row>({
  table,
  title,
  data: section,
  columns,
  rowKey,
}: {
  table: BillingTable;
  title: string;
  data: { q: string; total: number; page: number; pageCount: number; rows: Row[] };
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
}) {
  const { t } = useTranslation("billing");
  const exportHref = `/admin/userpayment/export?${new URLSearchParams({ table, ...(section.q ? { q: section.q } : {}) })}`;
  return (
    <section id={table} aria-labelledby={`${table}-title`} className="mt-10 scroll-mt-20" data-billing-table={table}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${table}-title`} className="text-2xl font-bold">
            {title}
          </h2>
          <p className="text-sm text-slate-300">{t("admin.rows", { count: section.total })}</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Form
            method="get"
            action={`/admin/userpayment#${table}`}
            role="search"
            aria-label={`${t("admin.search")}: ${title}`}
            className="flex items-end gap-2"
          >
            <label className="grid gap-1 text-sm">
              <span>
                {t("admin.search")} <span className="sr-only">{title}</span>
              </span>
              <input
                type="search"
                name={`${table}Q`}
                defaultValue={section.q}
                className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50"
              />
            </label>
            <button
              type="submit"
              className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            >
              {t("admin.searchButton")}
              <span className="sr-only"> {title}</span>
            </button>
          </Form>
          <a href={exportHref} download className="rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5">
            {t("admin.export")}
            <span className="sr-only"> {title}</span>
          </a>
        </div>
      </div>
      <DataTable
        columns={columns}
        rows={section.rows}
        rowKey={rowKey}
        empty={t(`admin.empty.${table}`)}
        caption={title}
      />
      <Pagination page={section.page} pageCount={section.pageCount} param={`${table}Page`} label={title} />
    </section>
  );
}

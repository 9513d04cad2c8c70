import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { ChartFrame } from "~/components/charts/chart-frame";
import { DailyBars } from "~/components/charts/daily-bars";
import { numberFormat } from "~/components/charts/format";
import { HorizontalBars } from "~/components/charts/horizontal-bars";
import { formatMoney } from "~/utils/money";
import { StackedBar } from "~/components/charts/stacked-bar";
import { WindowForm } from "~/components/charts/window-form";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { storageRoot } from "~/media/storage.server";
import { diskParts } from "~/routes-support/dashboard-csv.server";
import { adminDashboard } from "~/services/admin-dashboard.server";
import { DASHBOARD_WINDOWS, parseDashboardWindow } from "~/components/charts/windows";
import { getEnv } from "~/utils/env.server";
import { smsByDay, smsSpendToday } from "~/services/phone/sms.server";
import { DataTable } from "~/components/ui/data-table";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["dashboards"] };

export const meta = metaTitleMeta;

const DISK_COLOURS: Record<string, string> = {
  films: "fill-brand-500",
  renditions: "fill-brand-300",
  temporary: "fill-amber-200",
  other: "fill-slate-500",
  free: "fill-emerald-700",
};

/**
 * /admin/dashboard: the business as pictures drawn on the server (SVG, no
 * JavaScript needed) — revenue per day and per plan, passes active, sign-ups,
 * hours watched, the most watched titles and the disk — over `?days=` 7, 30
 * or 90. Every chart's numbers: /admin/dashboard/export?chart=….
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const days = parseDashboardWindow(new URL(request.url).searchParams.get("days"));
  const board = adminDashboard(getDb(), { days, root: storageRoot(), reserveBytes: getEnv().diskReserveBytes });
  const { t } = await getRequestT(request, "dashboards");
  return {
    metaTitle: t("admin.metaTitle"),
    ...board,
    disk: { parts: diskParts(board.disk), freeBytes: board.disk.freeBytes },
    signUpsTotal: board.signUps.reduce((total, point) => total + point.value, 0),
    hoursTotal: Math.round(board.hoursPerDay.reduce((total, point) => total + point.value, 0) * 100) / 100,
    sms: { days: smsByDay(getDb()), today: smsSpendToday(getDb()), currency: getEnv().currency },
  };
}

export default function AdminDashboard() {
  const { t, i18n } = useTranslation("dashboards");
  const data = useLoaderData<typeof loader>();
  const language = i18n.language;
  const whole = numberFormat(language, 0);
  const oneDecimal = numberFormat(language, 1);
  const hoursText = (value: number) => t("hours", { value: oneDecimal.format(value) });
  const gigabytes = (bytes: number) => t("admin.gigabytes", { value: oneDecimal.format(bytes / 1e9) });
  const csv = (chart: string) => `/admin/dashboard/export?${new URLSearchParams({ chart, days: String(data.days) })}`;
  const revenue = data.revenue.length > 0 ? data.revenue : [null];
  return (
    <section className="grid gap-6">
      <div>
        <h1 className="text-3xl font-bold">{t("admin.title")}</h1>
        <p className="mt-2 max-w-3xl text-slate-300">{t("admin.intro")}</p>
      </div>
      {data.sms.today.near ? (
        <p
          role="alert"
          data-testid="sms-spend-alert"
          className="rounded border border-amber-400/40 bg-amber-950/60 px-4 py-3 text-amber-50"
        >
          {t("admin.sms.nearCap", {
            spent: formatMoney(data.sms.today.spentMinor, data.sms.currency, language),
            cap: formatMoney(data.sms.today.capMinor, data.sms.currency, language),
          })}
        </p>
      ) : null}
      <WindowForm days={data.days} windows={DASHBOARD_WINDOWS} />
      <div className="grid gap-4 lg:grid-cols-2">
        {revenue.map((series) =>
          series ? (
            <ChartFrame
              key={series.currency}
              id={`revenue-${series.currency.toLowerCase()}`}
              title={t("admin.revenue", { currency: series.currency })}
              figure={formatMoney(series.totalMinor, series.currency, language)}
              csvHref={csv("revenue")}
            >
              <DailyBars
                points={series.perDay}
                language={language}
                format={(value) => formatMoney(value, series.currency, language)}
                label={t("admin.revenueLabel", { currency: series.currency, days: data.days })}
              />
            </ChartFrame>
          ) : (
            <ChartFrame
              key="none"
              id="revenue"
              title={t("admin.noRevenue")}
              csvHref={csv("revenue")}
              empty={t("empty")}
            >
              {null}
            </ChartFrame>
          ),
        )}
        <ChartFrame
          id="plans"
          title={t("admin.byPlan")}
          csvHref={csv("plans")}
          empty={data.revenueByPlan.length === 0 ? t("empty") : null}
        >
          <HorizontalBars
            bars={data.revenueByPlan.map((row) => ({
              id: `${row.planId}-${row.currency}`,
              label: `${row.name} (${whole.format(row.payments)})`,
              value: row.amountMinor,
            }))}
            format={(value) => formatMoney(value, data.revenueByPlan[0]?.currency ?? "NGN", language)}
            label={t("admin.byPlanLabel", { days: data.days })}
          />
        </ChartFrame>
        <ChartFrame
          id="passes"
          title={t("admin.passes")}
          figure={t("admin.passesFigure", { count: data.passesActiveNow })}
          note={t("admin.passesNote")}
          csvHref={csv("passes")}
        >
          <DailyBars
            points={data.passesActive}
            language={language}
            format={(value) => whole.format(value)}
            label={t("admin.passesLabel", { days: data.days })}
            line
          />
        </ChartFrame>
        <ChartFrame
          id="signups"
          title={t("admin.signUps")}
          figure={t("admin.signUpsFigure", { count: data.signUpsTotal })}
          csvHref={csv("signups")}
        >
          <DailyBars
            points={data.signUps}
            language={language}
            format={(value) => whole.format(value)}
            label={t("admin.signUpsLabel", { days: data.days })}
          />
        </ChartFrame>
        <ChartFrame
          id="hours"
          title={t("admin.hoursWatched")}
          figure={hoursText(data.hoursTotal)}
          csvHref={csv("hours")}
        >
          <DailyBars
            points={data.hoursPerDay}
            language={language}
            format={hoursText}
            label={t("admin.hoursLabel", { days: data.days })}
          />
        </ChartFrame>
        <ChartFrame
          id="top"
          title={t("admin.top")}
          note={t("admin.topNote")}
          csvHref={csv("top")}
          empty={data.topTitles.length === 0 ? t("empty") : null}
        >
          <HorizontalBars
            bars={data.topTitles.map((row) => ({ id: row.id, label: row.name, value: row.hours }))}
            format={hoursText}
            label={t("admin.topLabel", { days: data.days })}
          />
        </ChartFrame>
        <ChartFrame
          id="disk"
          title={t("admin.disk")}
          figure={t("admin.diskFigure", { free: oneDecimal.format(data.disk.freeBytes / 1e9) })}
          csvHref={csv("disk")}
        >
          <StackedBar
            segments={data.disk.parts.map((part) => ({
              id: part.id,
              label: t(`admin.diskParts.${part.id}`),
              value: part.bytes,
              className: DISK_COLOURS[part.id] ?? "fill-slate-500",
            }))}
            format={gigabytes}
            label={t("admin.diskLabel")}
          />
        </ChartFrame>
      </div>
      <section aria-labelledby="sms-title">
        <h2 id="sms-title" className="text-2xl font-bold">
          {t("admin.sms.title")}
        </h2>
        <p className="mt-1 text-sm text-slate-300">
          {t("admin.sms.today", {
            spent: formatMoney(data.sms.today.spentMinor, data.sms.currency, language),
            cap: formatMoney(data.sms.today.capMinor, data.sms.currency, language),
          })}
        </p>
        <DataTable
          testId="sms-per-day"
          rows={data.sms.days}
          rowKey={(row) => row.date}
          rowAttributes={(row) => ({ "data-sms-date": row.date })}
          empty={t("admin.sms.none")}
          dense
          columns={[
            { key: "date", header: t("admin.sms.date"), cell: (row) => row.date },
            { key: "sent", header: t("admin.sms.sent"), cell: (row) => whole.format(row.sent), align: "right" },
            { key: "failed", header: t("admin.sms.failed"), cell: (row) => whole.format(row.failed), align: "right" },
            {
              key: "cost",
              header: t("admin.sms.cost"),
              cell: (row) => formatMoney(row.costMinor, data.sms.currency, language),
              align: "right",
            },
          ]}
        />
      </section>
    </section>
  );
}

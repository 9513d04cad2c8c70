import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider } from "~/auth/guards.server";
import { ChartFrame } from "~/components/charts/chart-frame";
import { DailyBars } from "~/components/charts/daily-bars";
import { numberFormat } from "~/components/charts/format";
import { HorizontalBars } from "~/components/charts/horizontal-bars";
import { formatMoney } from "~/utils/money";
import { RetentionChart } from "~/components/charts/retention-chart";
import { WindowForm } from "~/components/charts/window-form";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { providerDashboard } from "~/services/provider-dashboard.server";
import { DASHBOARD_WINDOWS, parseDashboardWindow } from "~/components/charts/windows";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["dashboards"] };

export const meta = metaTitleMeta;

/** Bars a chart of titles shows (its CSV has every title). */
const MAX_BARS = 12;

/**
 * /provider/stats: how this provider's titles are watched, as pictures drawn
 * on the server (SVG, no JavaScript needed): views and hours watched per day,
 * the average share of each title watched, where viewers stop in one title
 * (`?title=`), per episode for series, and earnings. `?days=` 7, 30 or 90.
 * Every chart's numbers: /provider/stats/export?chart=….
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const url = new URL(request.url);
  const days = parseDashboardWindow(url.searchParams.get("days"));
  const board = providerDashboard(getDb(), provider.id, { days, titleId: url.searchParams.get("title") });
  const { t } = await getRequestT(request, "dashboards");
  const watched = board.titles.filter((title) => title.viewings > 0).sort((a, b) => b.viewings - a.viewings);
  return {
    metaTitle: t("provider.metaTitle"),
    days,
    hasTitles: board.titles.length > 0,
    viewsPerDay: board.viewsPerDay,
    hoursPerDay: board.hoursPerDay,
    totals: board.totals,
    shares: watched
      .slice(0, MAX_BARS)
      .map((title) => ({ id: title.id, label: title.name, value: title.averageShare ?? 0 })),
    choices: watched.map((title) => ({ id: title.id, name: title.name })),
    retention: board.retention,
    series: board.series
      .filter((entry) => entry.episodes.some((episode) => episode.viewings > 0))
      .map((entry) => ({
        id: entry.id,
        name: entry.name,
        episodes: entry.episodes.map((episode) => ({
          id: episode.id,
          label: `${episode.code ?? ""} ${episode.ownName}`.trim(),
          value: episode.averageShare ?? 0,
        })),
      })),
    earnings: { ...board.earnings, byTitle: board.earnings.byTitle.slice(0, MAX_BARS) },
  };
}

export default function ProviderStats() {
  const { t, i18n } = useTranslation("dashboards");
  const data = useLoaderData<typeof loader>();
  const language = i18n.language;
  const whole = numberFormat(language, 0);
  const oneDecimal = numberFormat(language, 1);
  const percent = (share: number) => t("percent", { value: whole.format(share * 100) });
  const hoursText = (value: number) => t("hours", { value: oneDecimal.format(value) });
  const query = (chart: string, extra: Record<string, string> = {}) =>
    `/provider/stats/export?${new URLSearchParams({ chart, days: String(data.days), ...extra })}`;
  const { retention, earnings } = data;
  return (
    <section className="grid gap-6">
      <div>
        <h1 className="text-3xl font-bold">{t("provider.title")}</h1>
        <p className="mt-2 max-w-3xl text-slate-300">{t("provider.intro")}</p>
      </div>
      <WindowForm days={data.days} windows={DASHBOARD_WINDOWS}>
        {data.choices.length > 0 ? (
          <label className="grid min-w-0 gap-1 text-sm">
            <span className="text-slate-200">{t("provider.retentionFor")}</span>
            <select
              name="title"
              defaultValue={retention?.title.id}
              className="max-w-full rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50"
            >
              {data.choices.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </WindowForm>
      {!data.hasTitles ? <p className="text-slate-300">{t("provider.noTitles")}</p> : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartFrame
          id="views"
          title={t("provider.views")}
          figure={t("provider.viewsFigure", { count: data.totals.views })}
          csvHref={query("views")}
        >
          <DailyBars
            points={data.viewsPerDay}
            language={language}
            format={(value) => whole.format(value)}
            label={t("provider.viewsLabel", { days: data.days })}
          />
        </ChartFrame>
        <ChartFrame
          id="hours"
          title={t("provider.hoursWatched")}
          figure={hoursText(data.totals.hours)}
          csvHref={query("hours")}
        >
          <DailyBars
            points={data.hoursPerDay}
            language={language}
            format={hoursText}
            label={t("provider.hoursLabel", { days: data.days })}
          />
        </ChartFrame>
        <ChartFrame
          id="share"
          title={t("provider.share")}
          figure={
            data.totals.averageShare === null
              ? null
              : t("provider.shareFigure", { value: whole.format(data.totals.averageShare * 100) })
          }
          note={t("provider.shareNote")}
          csvHref={query("titles")}
          empty={data.shares.length === 0 ? t("empty") : null}
        >
          <HorizontalBars
            bars={data.shares}
            top={1}
            format={percent}
            label={t("provider.shareLabel", { days: data.days })}
          />
        </ChartFrame>
        <ChartFrame
          id="retention"
          title={t("provider.retention")}
          note={
            retention ? t("provider.retentionNote", { name: retention.title.name, count: retention.viewings }) : null
          }
          csvHref={query("retention", retention ? { title: retention.title.id } : {})}
          empty={!retention || retention.viewings === 0 ? t("empty") : null}
        >
          {retention ? (
            <RetentionChart
              points={retention.points}
              percent={percent}
              label={t("provider.retentionLabel", { name: retention.title.name })}
            />
          ) : null}
        </ChartFrame>
        {data.series.map((entry) => (
          <ChartFrame
            key={entry.id}
            id={`series-${entry.id}`}
            title={t("provider.episodes", { name: entry.name })}
            note={t("provider.episodesNote")}
            csvHref={query("episodes", { series: entry.id })}
          >
            <HorizontalBars
              bars={entry.episodes}
              top={1}
              format={percent}
              label={t("provider.episodes", { name: entry.name })}
            />
          </ChartFrame>
        ))}
        <ChartFrame
          id="earnings"
          title={t("provider.earnings")}
          figure={earnings.currency ? formatMoney(earnings.amountMinor, earnings.currency, language) : null}
          note={t("provider.earningsNote", {
            share: earnings.sharePercent,
            percent: oneDecimal.format(earnings.watchShare * 100),
            days: data.days,
          })}
          csvHref={query("earnings")}
          empty={earnings.byTitle.length === 0 || !earnings.currency ? t("empty") : null}
        >
          {earnings.currency ? (
            <HorizontalBars
              bars={earnings.byTitle.map((row) => ({ id: row.id, label: row.name, value: row.amountMinor }))}
              format={(value) => formatMoney(value, earnings.currency!, language)}
              label={t("provider.earningsLabel", { days: data.days })}
            />
          ) : null}
        </ChartFrame>
      </div>
    </section>
  );
}

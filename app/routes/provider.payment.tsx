import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider } from "~/auth/guards.server";
import { DataTable } from "~/components/ui/data-table";
import { Link } from "~/components/ui/link";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { providerEarnings } from "~/services/provider-stats.server";
import { getEnv } from "~/utils/env.server";
import { formatMoney } from "~/utils/money";
import type { TranslationHandle } from "~/i18n/page-translations";
import { formatNumber } from "~/utils/dates";

export const handle: TranslationHandle = { i18n: ["studio"] };

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const { t } = await getRequestT(request, "studio");
  return {
    metaTitle: t("payment.metaTitle"),
    currency: getEnv().currency,
    ...providerEarnings(getDb(), provider.id),
  };
}

export default function ProviderPayment() {
  const { t, i18n } = useTranslation("studio");
  const { titles, totalViews, watchedSeconds, watchShare, earnings, windowDays, sharePercent, currency } =
    useLoaderData<typeof loader>();
  // The same text on server and browser in both languages (a browser may lack Hausa's number data).
  const number = { format: (value: number) => formatNumber(value, { maximumFractionDigits: 1 }) };
  const money = (amountMinor: number, inCurrency: string) => formatMoney(amountMinor, inCurrency, i18n.language);
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("payment.title")}</h1>
      <Link to="/provider/stats" className="mt-2 inline-block text-sm text-brand-300 hover:underline">
        {t("payment.chartsLink")}
      </Link>
      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        <Figure label={t("payment.totalViews")} value={number.format(totalViews)} />
        <Figure
          label={t("payment.hoursWatched", { days: windowDays })}
          value={number.format(Math.round((watchedSeconds / 3600) * 10) / 10)}
        />
        <Figure
          label={t("payment.earnings", { days: windowDays })}
          value={
            earnings.length === 0
              ? money(0, currency)
              : earnings.map((row) => money(row.amountMinor, row.currency)).join(" · ")
          }
        />
      </dl>
      <p className="mt-3 text-sm text-slate-400">
        {t("payment.rule", { share: sharePercent, percent: Math.round(watchShare * 1000) / 10, days: windowDays })}
      </p>
      <h2 className="mt-8 text-xl font-semibold">{t("payment.byTitle")}</h2>
      <DataTable
        rows={titles}
        rowKey={(title) => title.movieId}
        empty={t("payment.empty")}
        columns={[
          { header: t("columns.movieName"), cell: (title) => title.movieName },
          { header: t("columns.views"), align: "right", cell: (title) => number.format(title.views) },
        ]}
      />
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-white/10 bg-ink-900/60 p-5">
      <dt className="text-sm text-slate-300">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider } from "~/auth/guards.server";
import { DataTable } from "~/components/ui/data-table";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { listRecentPlays } from "~/services/provider-stats.server";
import { pageParam } from "~/utils/paging";
import { dateFormatter } from "~/utils/dates";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["studio"] };

export const meta = metaTitleMeta;

const PAGE_SIZE = 50;

export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const page = pageParam(request);
  const { t } = await getRequestT(request, "studio");
  // One row more than a page tells whether there is a next page without counting them all.
  const plays = listRecentPlays(getDb(), provider.id, { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
  return {
    metaTitle: t("recent.metaTitle"),
    page,
    pageCount: plays.length > PAGE_SIZE ? page + 1 : page,
    plays: plays.slice(0, PAGE_SIZE).map((play, index) => ({
      ...play,
      key: `${play.movieId}-${play.startedAt.getTime()}-${index}`,
      startedAt: play.startedAt.toISOString(),
    })),
  };
}

export default function RecentlyWatched() {
  const { t, i18n } = useTranslation("studio");
  const { plays, page, pageCount } = useLoaderData<typeof loader>();
  const date = dateFormatter(i18n.language, "date");
  const time = dateFormatter(i18n.language, "time");
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("recent.title")}</h1>
      <p className="mt-1 text-sm text-slate-300">{t("recent.intro")}</p>
      <DataTable
        rows={plays}
        rowKey={(play) => play.key}
        empty={t("recent.empty")}
        columns={[
          { header: t("columns.movieName"), cell: (play) => play.movieName },
          { header: t("columns.date"), cell: (play) => date.format(new Date(play.startedAt)) },
          { header: t("columns.time"), cell: (play) => time.format(new Date(play.startedAt)) },
          {
            header: t("columns.watched"),
            align: "right",
            cell: (play) =>
              play.durationSeconds > 0
                ? `${Math.min(100, Math.round((play.positionSeconds / play.durationSeconds) * 100))} %`
                : "—",
          },
        ]}
      />
      <Pagination page={page} pageCount={pageCount} />
    </section>
  );
}

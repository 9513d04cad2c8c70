import { useTranslation } from "~/i18n/use-translation";
import { DataTable } from "~/components/ui/data-table";
import { dateFormatter } from "~/utils/dates";

export type KeptCountRow = { movieId: string; movieName: string; viewers: number; lastAddedAt: string };

/** How many viewers keep each of a provider's titles on a list: the watch-later and saved pages. */
export function KeptCountsPage({ copy, rows }: { copy: "watchLater" | "saved"; rows: KeptCountRow[] }) {
  const { t, i18n } = useTranslation("studio");
  const date = dateFormatter(i18n.language);
  return (
    <section>
      <h1 className="text-3xl font-bold">{t(`${copy}.title`)}</h1>
      <p className="mt-1 text-sm text-slate-300">{t(`${copy}.intro`)}</p>
      <DataTable
        rows={rows}
        rowKey={(row) => row.movieId}
        empty={t(`${copy}.empty`)}
        columns={[
          { header: t("columns.movieName"), cell: (row) => row.movieName },
          { header: t("columns.viewers"), align: "right", cell: (row) => row.viewers },
          { header: t("columns.lastAdded"), cell: (row) => date.format(new Date(row.lastAddedAt)) },
        ]}
      />
    </section>
  );
}

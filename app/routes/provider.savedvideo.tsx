import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireProvider } from "~/auth/guards.server";
import { DataTable } from "~/components/ui/data-table";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { listKeptCounts } from "~/services/provider-stats.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const { t } = await getRequestT(request, "studio");
  const rows = listKeptCounts(getDb(), provider.id, "saved");
  return { metaTitle: t("saved.metaTitle"), rows: rows.map((row) => ({ ...row, lastAddedAt: new Date(row.lastAddedAt).toISOString() })) };
}

export default function SavedCounts() {
  const { t, i18n } = useTranslation("studio");
  const { rows } = useLoaderData<typeof loader>();
  const date = new Intl.DateTimeFormat(i18n.language === "ha" ? "ha-NG" : "en-GB", { dateStyle: "medium" });
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("saved.title")}</h1>
      <p className="mt-1 text-sm text-slate-300">{t("saved.intro")}</p>
      <DataTable
        rows={rows}
        rowKey={(row) => row.movieId}
        empty={t("saved.empty")}
        columns={[
          { header: t("columns.movieName"), cell: (row) => row.movieName },
          { header: t("columns.viewers"), align: "right", cell: (row) => row.viewers },
          { header: t("columns.lastAdded"), cell: (row) => date.format(new Date(row.lastAddedAt)) },
        ]}
      />
    </section>
  );
}

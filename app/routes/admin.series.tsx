import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ReviewActions, ReviewState, reviewRowAttributes } from "~/components/admin/review-row";
import { useErrorToasts } from "~/components/ui/form";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { Pagination } from "~/components/ui/pagination";
import { DataTable } from "~/components/ui/data-table";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { changeSeries, listAllSeries, sendBackSeries } from "~/services/series-review.server";
import { reviewRowAction, type SendBackFailure } from "~/routes-support/review-action.server";
import { rateSeries } from "~/services/age-ratings.server";
import { clientAddress } from "~/utils/client.server";
import { pageParam } from "~/utils/paging";
import { safeRedirectPath } from "~/utils/redirect";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["admin", "series", "studio"] };

export const meta = metaTitleMeta;

/**
 * /admin/series: every series with its provider and state; the administrator
 * approves (or withdraws), features and sets Free or Premium — on the series
 * and so on its episodes (an episode priced on its own in /admin/movies keeps its price).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = pageParam(new URL(request.url));
  const list = listAllSeries(getDb(), { page });
  const { t } = await getRequestT(request, "series");
  return {
    metaTitle: t("admin.metaTitle"),
    ...list,
    pageCount: Math.max(1, Math.ceil(list.total / list.pageSize)),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const back = safeRedirectPath(form.get("back"), "/admin/series");
  const seriesId = String(form.get("seriesId") ?? "");
  const actor = { actorId: admin.id, ipAddress: clientAddress(request) };
  const reviewed = seriesId
    ? reviewRowAction(form, {
        idField: "seriesId",
        id: seriesId,
        back,
        sendBack: (reason) => sendBackSeries(getDb(), seriesId, reason, actor),
        change: (change) => changeSeries(getDb(), seriesId, change, actor),
        rate: (rating) => rateSeries(getDb(), seriesId, rating, actor),
        changedKey: (done) => `series:admin.changed.${done}`,
        missingKey: "series:errors.seriesMissing",
      })
    : null;
  return reviewed ?? data({ formError: "admin:errors.unknownAction" }, { status: 400 });
}

export default function AdminSeries() {
  const { t } = useTranslation("series");
  const { rows, total, page, pageCount } = useLoaderData<typeof loader>();
  const failure = useActionData<SendBackFailure<"seriesId">>();
  useErrorToasts(failure?.fieldErrors ? { fieldErrors: failure.fieldErrors } : null);
  const back = page > 1 ? `/admin/series?page=${page}` : "/admin/series";
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.title")}</h1>
      <p className="mt-1 text-sm text-slate-300">{t("admin.count", { count: total })}</p>
      <p className="mt-1 text-sm text-slate-300">{t("admin.intro")}</p>
      <DataTable
        dense
        minWidth="min-w-[760px]"
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => reviewRowAttributes("data-series-id", row)}
        empty={t("admin.empty")}
        columns={[
          {
            key: "series",
            header: t("admin.columns.series"),
            cell: (row) => (
              <Link to={`/series/${row.id}`} className="font-medium hover:underline">
                {row.name}
              </Link>
            ),
          },
          { key: "provider", header: t("admin.columns.provider"), cell: (row) => row.providerName ?? "—" },
          {
            key: "state",
            header: t("admin.columns.state"),
            cell: (row) => (
              <ReviewState row={row}>
                {row.overrides > 0 ? (
                  <span className="block text-xs text-slate-400">{t("admin.overrides", { count: row.overrides })}</span>
                ) : null}
              </ReviewState>
            ),
          },
          {
            key: "episodes",
            header: t("admin.columns.episodes"),
            align: "right",
            cell: (row) => (
              <>
                {row.episodes}
                {row.waiting > 0 ? (
                  <span className="block text-xs text-slate-400">
                    {t("admin.waitingEpisodes", { count: row.waiting })}
                  </span>
                ) : null}
              </>
            ),
          },
          { key: "views", header: t("admin.columns.views"), align: "right", cell: (row) => row.views },
          {
            key: "actions",
            header: t("admin.columns.actions"),
            cell: (row) => (
              <ReviewActions
                idField="seriesId"
                row={row}
                back={back}
                label={(intent) => ({
                  text: t(`admin.actions.${intent}`),
                  named: t(`admin.named.${intent}`, { name: row.name }),
                })}
                failure={failure ? { ...failure, id: failure.seriesId } : null}
              />
            ),
          },
        ]}
      />
      <Pagination page={page} pageCount={pageCount} />
    </section>
  );
}

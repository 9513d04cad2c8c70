import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SendBackForm } from "~/components/admin/send-back-form";
import { useErrorToasts } from "~/components/ui/form";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { Pagination } from "~/components/ui/pagination";
import { DataTable } from "~/components/ui/data-table";
import { RowAction } from "~/components/admin/row-action";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { publishingChange, publishingToggles } from "~/services/publishing";
import { changeSeries, listAllSeries, sendBackSeries } from "~/services/series.server";
import { checkReturn } from "~/services/title-lifecycle.server";
import { clientAddress } from "~/utils/client.server";
import { pageParam } from "~/utils/paging";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["admin", "series"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

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

type SendBackFailure = {
  seriesId: string;
  fieldErrors: Record<string, string[]>;
  values: { reason: string; note: string };
};

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const back = safeRedirectPath(form.get("back"), "/admin/series");
  const seriesId = String(form.get("seriesId") ?? "");
  const actor = { actorId: admin.id, ipAddress: clientAddress(request) };
  if (intent === "sendBack" && seriesId) {
    const values = {
      reason: String(form.get("reason") ?? "").slice(0, 20),
      note: String(form.get("note") ?? "").slice(0, 2000),
    };
    const checked = checkReturn(values);
    if (!checked.ok)
      return data<SendBackFailure>({ seriesId, fieldErrors: checked.fieldErrors, values }, { status: 400 });
    const sent = sendBackSeries(getDb(), seriesId, checked.value, actor);
    return redirectWithToast(
      back,
      sent
        ? { type: "success", key: "admin:review.sentBackToast" }
        : { type: "error", key: "series:errors.seriesMissing" },
      { status: 303 },
    );
  }
  const change = publishingChange(intent);
  if (!change || !seriesId) return data({ formError: "admin:errors.unknownAction" }, { status: 400 });
  const changed = changeSeries(getDb(), seriesId, change, actor);
  return redirectWithToast(
    back,
    changed
      ? { type: "success", key: `series:admin.changed.${intent}` }
      : { type: "error", key: "series:errors.seriesMissing" },
    { status: 303 },
  );
}

function SeriesAction({
  seriesId,
  intent,
  name,
  back,
}: {
  seriesId: string;
  intent: string;
  name: string;
  back: string;
}) {
  const { t } = useTranslation("series");
  return (
    <RowAction
      idField="seriesId"
      id={seriesId}
      intent={intent}
      back={back}
      label={t(`admin.actions.${intent}`)}
      ariaLabel={t(`admin.named.${intent}`, { name })}
    />
  );
}

export default function AdminSeries() {
  const { t } = useTranslation("series");
  const { rows, total, page, pageCount } = useLoaderData<typeof loader>();
  const failure = useActionData<SendBackFailure>();
  useErrorToasts(failure?.fieldErrors ? { fieldErrors: failure.fieldErrors } : null);
  const { t: tAdmin } = useTranslation("admin");
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
        rowAttributes={(row) => ({
          "data-series-id": row.id,
          "data-approved": row.approved ? "true" : "false",
          "data-featured": row.featured ? "true" : "false",
          "data-access": row.access,
        })}
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
              <>
                <span className="block">
                  {row.approved
                    ? t("admin.approved")
                    : row.returnReason
                      ? tAdmin("review.sentBackLabel")
                      : t("admin.waiting")}
                  {row.featured ? ` · ${t("admin.featured")}` : ""} · {t(`admin.access.${row.access}`)}
                </span>
                {row.returnReason ? (
                  <span className="block text-xs text-amber-200" data-return-reason={row.returnReason}>
                    {tAdmin(`review.reasons.${row.returnReason}`)}
                    {row.returnNote ? `: ${row.returnNote}` : ""}
                  </span>
                ) : null}
                {row.overrides > 0 ? (
                  <span className="block text-xs text-slate-400">{t("admin.overrides", { count: row.overrides })}</span>
                ) : null}
              </>
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
              <div className="flex flex-wrap gap-1.5">
                {publishingToggles(row).map((intent) => (
                  <SeriesAction key={intent} seriesId={row.id} back={back} intent={intent} name={row.name} />
                ))}
                {row.returnReason ? null : (
                  <SendBackForm
                    idField="seriesId"
                    id={row.id}
                    name={row.name}
                    back={back}
                    errors={failure?.seriesId === row.id ? failure.fieldErrors : undefined}
                    values={failure?.seriesId === row.id ? failure.values : undefined}
                  />
                )}
              </div>
            ),
          },
        ]}
      />
      <Pagination page={page} pageCount={pageCount} />
    </section>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireAdmin } from "~/auth/guards.server";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { changeSeries, listAllSeries, type SeriesChange } from "~/services/series.server";
import { clientAddress } from "~/utils/client.server";
import { pageParam } from "~/utils/paging";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";

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

const CHANGES: Record<string, SeriesChange> = {
  approve: { approved: true },
  unapprove: { approved: false },
  feature: { featured: true },
  unfeature: { featured: false },
  free: { access: "free" },
  premium: { access: "premium" },
};

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const back = safeRedirectPath(form.get("back"), "/admin/series");
  const change = CHANGES[intent];
  const seriesId = String(form.get("seriesId") ?? "");
  if (!change || !seriesId) return data({ formError: "admin:errors.unknownAction" }, { status: 400 });
  const changed = changeSeries(getDb(), seriesId, change, { actorId: admin.id, ipAddress: clientAddress(request) });
  return redirectWithToast(
    back,
    changed
      ? { type: "success", key: `series:admin.changed.${intent}` }
      : { type: "error", key: "series:errors.seriesMissing" },
    { status: 303 },
  );
}

function RowAction({ seriesId, intent, name, back }: { seriesId: string; intent: string; name: string; back: string }) {
  const { t } = useTranslation("series");
  return (
    <Form method="post">
      <input type="hidden" name="seriesId" value={seriesId} />
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        name="intent"
        value={intent}
        aria-label={t(`admin.named.${intent}`, { name })}
        className="rounded border border-white/20 px-2 py-1 text-xs hover:bg-white/5"
      >
        {t(`admin.actions.${intent}`)}
      </button>
    </Form>
  );
}

export default function AdminSeries() {
  const { t } = useTranslation("series");
  const { rows, total, page, pageCount } = useLoaderData<typeof loader>();
  const back = page > 1 ? `/admin/series?page=${page}` : "/admin/series";
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.title")}</h1>
      <p className="mt-1 text-sm text-slate-300">{t("admin.count", { count: total })}</p>
      <p className="mt-1 text-sm text-slate-300">{t("admin.intro")}</p>
      {rows.length === 0 ? (
        <p className="mt-6 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300">{t("admin.empty")}</p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-lg border border-white/10">
          <table className="w-full min-w-[760px] text-left text-sm">
            <thead className="bg-ink-800 text-slate-300">
              <tr>
                <th scope="col" className="px-3 py-3">
                  {t("admin.columns.series")}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t("admin.columns.provider")}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t("admin.columns.state")}
                </th>
                <th scope="col" className="px-3 py-3 text-right">
                  {t("admin.columns.episodes")}
                </th>
                <th scope="col" className="px-3 py-3 text-right">
                  {t("admin.columns.views")}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t("admin.columns.actions")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/5">
              {rows.map((row) => (
                <tr
                  key={row.id}
                  data-series-id={row.id}
                  data-approved={row.approved ? "true" : "false"}
                  data-featured={row.featured ? "true" : "false"}
                  data-access={row.access}
                >
                  <td className="px-3 py-2">
                    <Link to={`/series/${row.id}`} className="font-medium hover:underline">
                      {row.name}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{row.providerName ?? "—"}</td>
                  <td className="px-3 py-2">
                    <span className="block">
                      {row.approved ? t("admin.approved") : t("admin.waiting")}
                      {row.featured ? ` · ${t("admin.featured")}` : ""} · {t(`admin.access.${row.access}`)}
                    </span>
                    {row.overrides > 0 ? (
                      <span className="block text-xs text-slate-400">
                        {t("admin.overrides", { count: row.overrides })}
                      </span>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">
                    {row.episodes}
                    {row.waiting > 0 ? (
                      <span className="block text-xs text-slate-400">
                        {t("admin.waitingEpisodes", { count: row.waiting })}
                      </span>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{row.views}</td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap gap-1.5">
                      <RowAction
                        seriesId={row.id}
                        back={back}
                        intent={row.approved ? "unapprove" : "approve"}
                        name={row.name}
                      />
                      <RowAction
                        seriesId={row.id}
                        back={back}
                        intent={row.featured ? "unfeature" : "feature"}
                        name={row.name}
                      />
                      <RowAction
                        seriesId={row.id}
                        back={back}
                        intent={row.access === "free" ? "premium" : "free"}
                        name={row.name}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pageCount={pageCount} />
    </section>
  );
}

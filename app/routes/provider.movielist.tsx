import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { requireProvider } from "~/auth/guards.server";
import { RenditionList } from "~/components/studio/rendition-list";
import { ConfirmDelete } from "~/components/ui/confirm-delete";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { deleteMovieAudited, listProviderMovies } from "~/services/movies.server";
import { clientAddress } from "~/utils/client.server";
import { renditionStatuses } from "~/services/renditions.server";
import { redirectWithToast } from "~/utils/toast.server";
import { pageParam } from "~/utils/paging";
import { dateFormatter } from "~/utils/dates";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["studio"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

const PAGE_SIZE = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  const provider = await requireProvider(request);
  const url = new URL(request.url);
  const page = pageParam(url);
  const { t } = await getRequestT(request, "studio");
  const list = listProviderMovies(getDb(), provider.id, { page, pageSize: PAGE_SIZE });
  const confirmId = url.searchParams.get("confirm");
  const confirming = confirmId ? (list.rows.find((row) => row.id === confirmId) ?? null) : null;
  const renditions = renditionStatuses(
    getDb(),
    list.rows.map((row) => row.id),
  );
  return {
    metaTitle: t("list.metaTitle"),
    ...list,
    rows: list.rows.map((row) => ({
      ...row,
      updatedAt: row.updatedAt.toISOString(),
      sizeMb: Math.round((row.sizeBytes / (1024 * 1024)) * 10) / 10,
      renditions: renditions.get(row.id) ?? [],
    })),
    confirming: confirming ? { id: confirming.id, name: confirming.name } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const provider = await requireProvider(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const movieId = String(form.get("movieId") ?? "");
  const back = `/provider/movielist${form.get("page") ? `?page=${encodeURIComponent(String(form.get("page")))}` : ""}`;
  if (intent !== "delete" || !movieId) return data({ formError: "studio:errors.unknownAction" }, { status: 400 });
  const db = getDb();
  const outcome = deleteMovieAudited(db, movieId, provider, { ipAddress: clientAddress(request) });
  if (outcome === "forbidden") throw data(null, { status: 403 });
  if (outcome === "notFound")
    return redirectWithToast(back, { type: "error", key: "studio:list.deleteMissing" }, { status: 303 });
  return redirectWithToast(back, { type: "success", key: "studio:list.deleted" }, { status: 303 });
}

export default function MovieList() {
  const { t, i18n } = useTranslation("studio");
  const { rows, page, pageCount, total, confirming } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const processing = rows.some(
    (row) => row.status === "processing" || row.renditions.some((rendition) => rendition.status === "pending"),
  );

  // While something is processing, look again every few seconds so Ready or Failed shows without a reload.
  useEffect(() => {
    if (!processing) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, 4000);
    return () => window.clearInterval(timer);
  }, [processing, revalidator]);

  const dateFormat = dateFormatter(i18n.language, "dateTime");
  const pageQuery = searchParams.get("page");
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";

  return (
    <section>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold">{t("list.title")}</h1>
          <p className="mt-1 text-sm text-slate-300">{t("list.count", { count: total })}</p>
        </div>
        <Link
          to="/provider/Movieupload"
          className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {t("list.newUpload")}
        </Link>
      </div>

      {confirming ? (
        <ConfirmDelete
          title={t("list.confirmTitle", { name: confirming.name })}
          text={t("list.confirmText")}
          confirmLabel={deleting ? t("list.deleting") : t("list.confirmDelete")}
          cancelLabel={t("list.cancel")}
          cancelTo={pageQuery ? `?page=${pageQuery}` : "."}
          action="/provider/movielist"
          hidden={{ movieId: confirming.id, ...(pageQuery ? { page: pageQuery } : {}) }}
        />
      ) : null}

      {rows.length === 0 ? (
        <p className="mt-8 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300">{t("list.empty")}</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-lg border border-white/10">
          <table className="w-full min-w-[640px] text-left text-sm">
            <thead className="bg-ink-800 text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {t("list.columns.name")}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t("list.columns.lastModified")}
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  {t("list.columns.views")}
                </th>
                <th scope="col" className="px-4 py-3 text-right">
                  {t("list.columns.size")}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t("list.columns.status")}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t("list.columns.renditions")}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t("list.columns.delete")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/5">
              {rows.map((row) => (
                <tr key={row.id} data-movie-id={row.id}>
                  <td className="px-4 py-3 font-medium">{row.name}</td>
                  <td className="px-4 py-3 text-slate-300">
                    <time dateTime={row.updatedAt}>{dateFormat.format(new Date(row.updatedAt))}</time>
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{row.views}</td>
                  <td className="px-4 py-3 text-right tabular-nums">{row.sizeMb.toFixed(1)}</td>
                  <td className="px-4 py-3">
                    <StatusBadge status={row.status} approved={row.approved} reason={row.failureReason} />
                  </td>
                  <td className="px-4 py-3">
                    <RenditionList renditions={row.renditions} />
                  </td>
                  <td className="px-4 py-3">
                    <Link
                      to={`?${new URLSearchParams({ ...(pageQuery ? { page: pageQuery } : {}), confirm: row.id })}`}
                      className="text-red-300 hover:underline"
                      aria-label={t("list.deleteNamed", { name: row.name })}
                    >
                      {t("list.delete")}
                    </Link>
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

function StatusBadge({
  status,
  approved,
  reason,
}: {
  status: "processing" | "ready" | "failed";
  approved: boolean;
  reason: string | null;
}) {
  const { t } = useTranslation("studio");
  if (status === "failed") {
    return (
      <span data-status="failed" className="text-red-300">
        {t("list.status.failed")}
        {reason ? <span className="block text-xs text-red-200/80">{t(`list.failure.${reason}`)}</span> : null}
      </span>
    );
  }
  if (status === "processing")
    return (
      <span data-status="processing" className="text-amber-300">
        {t("list.status.processing")}
      </span>
    );
  return (
    <span data-status="ready" className="text-emerald-300">
      {t("list.status.ready")}
      {!approved ? <span className="block text-xs text-slate-300">{t("list.status.waitingApproval")}</span> : null}
    </span>
  );
}

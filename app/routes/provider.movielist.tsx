import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { DataTable } from "~/components/ui/data-table";
import { data } from "@remix-run/node";
import { useLoaderData, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useEffect } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { requireProvider } from "~/auth/guards.server";
import { RenditionList } from "~/components/studio/rendition-list";
import { ConfirmDelete } from "~/components/ui/confirm-delete";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { listProviderMovies } from "~/services/movies.server";
import { deleteTitleAudited, resubmitTitle } from "~/services/title-lifecycle.server";
import { ReviewState } from "~/components/studio/review-state";
import { clientAddress } from "~/utils/client.server";
import { renditionStatuses } from "~/services/renditions.server";
import { redirectWithToast } from "~/utils/toast.server";
import { pageParam } from "~/utils/paging";
import { dateFormatter } from "~/utils/dates";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["studio", "subtitles"] };

export const meta = metaTitleMeta;

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
  const form = await readForm(request);
  const intent = form.get("intent");
  const movieId = String(form.get("movieId") ?? "");
  const back = `/provider/movielist${form.get("page") ? `?page=${encodeURIComponent(String(form.get("page")))}` : ""}`;
  if ((intent !== "delete" && intent !== "resubmit") || !movieId)
    return data({ formError: "studio:errors.unknownAction" }, { status: 400 });
  const db = getDb();
  if (intent === "resubmit") {
    // A title sent back goes to the administrator again.
    const outcome = resubmitTitle(db, movieId, provider, { ipAddress: clientAddress(request) });
    if (outcome === "forbidden") throw data(null, { status: 403 });
    return redirectWithToast(
      back,
      outcome === "resubmitted"
        ? { type: "success", key: "studio:review.resubmitted" }
        : { type: "error", key: outcome === "notFound" ? "studio:list.deleteMissing" : "studio:review.notSentBack" },
      { status: 303 },
    );
  }
  const outcome = deleteTitleAudited(db, movieId, provider, { ipAddress: clientAddress(request) });
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

      <DataTable
        minWidth="min-w-[640px]"
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ "data-movie-id": row.id })}
        empty={t("list.empty")}
        columns={[
          {
            key: "name",
            header: t("list.columns.name"),
            cell: (row) => (
              <>
                <span className="block font-medium">{row.name}</span>
                <Link
                  to={`/provider/movie/${encodeURIComponent(row.id)}`}
                  className="mr-3 text-xs text-brand-300 hover:underline"
                  aria-label={t("edit.editNamed", { name: row.name })}
                >
                  {t("edit.edit")}
                </Link>
                <Link
                  to={`/provider/subtitles?${new URLSearchParams({ id: row.id })}`}
                  className="text-xs text-brand-300 hover:underline"
                  aria-label={t("subtitles:studio.linkNamed", { name: row.name })}
                >
                  {t("subtitles:studio.link")}
                </Link>
              </>
            ),
          },
          {
            key: "lastModified",
            header: t("list.columns.lastModified"),
            className: "text-slate-300",
            cell: (row) => <time dateTime={row.updatedAt}>{dateFormat.format(new Date(row.updatedAt))}</time>,
          },
          { key: "views", header: t("list.columns.views"), align: "right", cell: (row) => row.views },
          { key: "size", header: t("list.columns.size"), align: "right", cell: (row) => row.sizeMb.toFixed(1) },
          {
            key: "status",
            header: t("list.columns.status"),
            cell: (row) => (
              <>
                <StatusBadge status={row.status} reason={row.failureReason} />
                {row.status === "failed" ? null : (
                  <ReviewState
                    approved={row.approved}
                    returnReason={row.returnReason}
                    returnNote={row.returnNote}
                    idField="movieId"
                    id={row.id}
                    name={row.name}
                  />
                )}
              </>
            ),
          },
          {
            key: "renditions",
            header: t("list.columns.renditions"),
            cell: (row) => <RenditionList renditions={row.renditions} />,
          },
          {
            key: "delete",
            header: t("list.columns.delete"),
            cell: (row) => (
              <Link
                to={`?${new URLSearchParams({ ...(pageQuery ? { page: pageQuery } : {}), confirm: row.id })}`}
                className="text-red-300 hover:underline"
                aria-label={t("list.deleteNamed", { name: row.name })}
              >
                {t("list.delete")}
              </Link>
            ),
          },
        ]}
      />
      <Pagination page={page} pageCount={pageCount} />
    </section>
  );
}

function StatusBadge({ status, reason }: { status: "processing" | "ready" | "failed"; reason: string | null }) {
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
    </span>
  );
}

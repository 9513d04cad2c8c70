import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { DataTable } from "~/components/ui/data-table";
import { ReviewActions, ReviewState, reviewRowAttributes } from "~/components/admin/review-row";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { RenditionList } from "~/components/studio/rendition-list";
import { ConfirmDelete } from "~/components/ui/confirm-delete";
import { useErrorToasts } from "~/components/ui/form";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import {
  ADMIN_MOVIE_FILTERS,
  getAutoApprove,
  listAllMovies,
  parseMovieFilter,
  providersWithMovies,
  setAutoApprove,
} from "~/services/admin-movies.server";
import { changeTitle, deleteTitleAudited, sendBackTitle } from "~/services/title-lifecycle.server";
import { rateTitle } from "~/services/age-ratings.server";
import { reviewRowAction, type SendBackFailure } from "~/routes-support/review-action.server";
import { clientAddress } from "~/utils/client.server";
import { storageRoot } from "~/media/storage.server";
import { diskUsage } from "~/services/disk.server";
import { getEnv } from "~/utils/env.server";
import { av1Progress, renditionDiskTotal, renditionStatuses } from "~/services/renditions.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { pageParam } from "~/utils/paging";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["admin", "studio", "subtitles"] };

export const meta = metaTitleMeta;

const PAGE_SIZE = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const status = parseMovieFilter(url.searchParams.get("status"));
  const providerId = url.searchParams.get("provider") || undefined;
  const page = pageParam(url);
  const db = getDb();
  const list = listAllMovies(db, { status, providerId, page, pageSize: PAGE_SIZE });
  const confirmId = url.searchParams.get("confirm");
  const confirming = confirmId ? (list.rows.find((row) => row.id === confirmId) ?? null) : null;
  const { t } = await getRequestT(request, "admin");
  const renditions = renditionStatuses(
    db,
    list.rows.map((row) => row.id),
  );
  return {
    metaTitle: t("movies.metaTitle"),
    renditionDisk: renditionDiskTotal(db),
    renditionBucket: renditionDiskTotal(db, "s3"),
    // AV1 + Opus rungs: shown while AV1 is on (LADDER_CODECS) or any were made.
    av1: getEnv().ladderCodecs.includes("av1") ? av1Progress(db) : null,
    disk: diskUsage(db, storageRoot(), getEnv().diskReserveBytes),
    status: status ?? "",
    // The filter's choices reach the page as data: a `.server` module is empty in the browser.
    filters: ADMIN_MOVIE_FILTERS,
    providerId: providerId ?? "",
    providers: providersWithMovies(db),
    autoApprove: getAutoApprove(db),
    page: list.page,
    total: list.total,
    pageCount: Math.max(1, Math.ceil(list.total / list.pageSize)),
    rows: list.rows.map((row) => ({
      ...row,
      uploadedAt: row.uploadedAt.toISOString(),
      renditions: renditions.get(row.id) ?? [],
    })),
    confirming: confirming ? { id: confirming.id, name: confirming.name } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const back = safeRedirectPath(form.get("back"), "/admin/movies")
    .replace(/([?&])confirm=[^&]*&?/, "$1")
    .replace(/[?&]$/, "");
  const actor = { actorId: admin.id, ipAddress: clientAddress(request) };
  const db = getDb();

  if (intent === "autoApprove") {
    const value = form.get("value") === "on";
    setAutoApprove(db, value, actor);
    return redirectWithToast(
      back,
      { type: "success", key: value ? "admin:movies.autoApproveOn" : "admin:movies.autoApproveOff" },
      { status: 303 },
    );
  }
  const movieId = String(form.get("movieId") ?? "");
  if (!movieId) return data({ formError: "admin:errors.unknownAction" }, { status: 400 });
  if (intent === "delete") {
    const deleted =
      deleteTitleAudited(db, movieId, { id: actor.actorId, role: "admin" }, { ipAddress: actor.ipAddress }) ===
      "deleted";
    return redirectWithToast(
      back,
      deleted ? { type: "success", key: "admin:movies.deleted" } : { type: "error", key: "admin:movies.missing" },
      { status: 303 },
    );
  }
  const reviewed = reviewRowAction(form, {
    idField: "movieId",
    id: movieId,
    back,
    sendBack: (reason) => sendBackTitle(db, movieId, reason, actor),
    change: (change) => changeTitle(db, movieId, change, actor),
    rate: (rating) => rateTitle(db, movieId, rating, actor),
    changedKey: (done) => `admin:movies.changed.${done}`,
    missingKey: "admin:movies.missing",
  });
  return reviewed ?? data({ formError: "admin:errors.unknownAction" }, { status: 400 });
}

export default function AdminMovies() {
  const { t } = useTranslation("admin");
  const {
    rows,
    page,
    pageCount,
    total,
    status,
    filters,
    providerId,
    providers,
    autoApprove,
    confirming,
    renditionDisk,
    renditionBucket,
    av1,
    disk,
  } = useLoaderData<typeof loader>();
  const failure = useActionData<SendBackFailure<"movieId">>();
  useErrorToasts(failure?.fieldErrors ? { fieldErrors: failure.fieldErrors } : null);
  const gb = (bytes: number) => (bytes / 1e9).toFixed(bytes >= 1e11 ? 0 : 1);
  const [searchParams] = useSearchParams();
  const backParams = new URLSearchParams(searchParams);
  backParams.delete("confirm");
  const back = `/admin/movies${backParams.size ? `?${backParams}` : ""}`;
  const confirmHref = (id: string) => {
    const next = new URLSearchParams(backParams);
    next.set("confirm", id);
    return `?${next}`;
  };

  return (
    <section>
      <h1 className="text-3xl font-bold">{t("movies.title")}</h1>
      <p className="mt-1 text-sm text-slate-300">{t("movies.count", { count: total })}</p>
      <p className="mt-1 text-sm text-slate-300" data-testid="rendition-disk">
        {t("movies.renditionDisk", { gigabytes: (renditionDisk.bytes / 1e9).toFixed(2), titles: renditionDisk.titles })}
        {renditionBucket.titles > 0
          ? ` ${t("movies.renditionBucket", {
              gigabytes: (renditionBucket.bytes / 1e9).toFixed(2),
              titles: renditionBucket.titles,
            })}`
          : null}
      </p>
      {av1 ? (
        <p className="mt-1 text-sm text-slate-300" data-testid="av1-progress" data-pending={av1.pending}>
          {t("movies.av1Progress", {
            ready: av1.ready,
            megabytes: (av1.bytes / 1e6).toFixed(1),
            pending: av1.pending,
            titles: av1.titlesQueued,
          })}
          {av1.failed > 0 ? ` ${t("movies.av1Failed", { count: av1.failed })}` : null}
        </p>
      ) : null}
      <p
        className={`mt-1 text-sm ${disk.low ? "font-semibold text-amber-300" : "text-slate-300"}`}
        data-testid="disk-usage"
        data-low={disk.low || undefined}
      >
        {t(disk.low ? "movies.diskLow" : "movies.disk", {
          free: gb(disk.freeBytes),
          total: gb(disk.totalBytes),
          reserve: gb(disk.reserveBytes),
          films: gb(disk.filmBytes),
          renditions: gb(disk.renditionBytes),
          temporary: gb(disk.temporaryBytes),
        })}
      </p>

      <Form
        method="post"
        className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border border-white/10 bg-ink-900/60 p-4"
        data-section="auto-approve"
      >
        <input type="hidden" name="back" value={back} />
        <input type="hidden" name="value" value={autoApprove ? "off" : "on"} />
        <p className="text-sm">{autoApprove ? t("movies.autoApproveIsOn") : t("movies.autoApproveIsOff")}</p>
        <button
          type="submit"
          name="intent"
          value="autoApprove"
          className="rounded bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {autoApprove ? t("movies.turnAutoApproveOff") : t("movies.turnAutoApproveOn")}
        </button>
      </Form>

      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm">
          <span className="text-slate-200">{t("movies.statusFilter")}</span>
          <select
            name="status"
            defaultValue={status}
            className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50"
          >
            <option value="">{t("movies.allStatuses")}</option>
            {filters.map((name) => (
              <option key={name} value={name}>
                {t(`movies.filters.${name}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="text-slate-200">{t("movies.providerFilter")}</span>
          <select
            name="provider"
            defaultValue={providerId}
            className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50"
          >
            <option value="">{t("movies.allProviders")}</option>
            {providers.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.name ?? provider.id}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {t("movies.filter")}
        </button>
      </Form>

      {confirming ? (
        <ConfirmDelete
          title={t("movies.confirmTitle", { name: confirming.name })}
          text={t("movies.confirmText")}
          confirmLabel={t("movies.confirmDelete")}
          cancelLabel={t("movies.cancel")}
          cancelTo={back}
          hidden={{ movieId: confirming.id, back }}
        />
      ) : null}

      <DataTable
        dense
        minWidth="min-w-[860px]"
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => reviewRowAttributes("data-movie-id", row)}
        empty={t("movies.empty")}
        columns={[
          {
            key: "title",
            header: t("movies.columns.title"),
            cell: (row) => (
              <>
                <Link
                  to={`/WatchMovie?id=${encodeURIComponent(row.id)}`}
                  className="flex items-center gap-3 hover:underline"
                >
                  {row.poster ? (
                    <img
                      src={row.poster}
                      alt=""
                      width={48}
                      height={72}
                      loading="lazy"
                      className="h-18 w-12 rounded object-cover"
                    />
                  ) : (
                    <span className="block h-18 w-12 rounded bg-ink-800" aria-hidden="true" />
                  )}
                  <span className="font-medium">{row.name}</span>
                </Link>
                <Link
                  to={`/admin/movies/${encodeURIComponent(row.id)}`}
                  className="mt-1 inline-block text-xs text-brand-300 hover:underline"
                  aria-label={t("studio:edit.editNamed", { name: row.name })}
                >
                  {t("studio:edit.edit")}
                </Link>
              </>
            ),
          },
          { key: "provider", header: t("movies.columns.provider"), cell: (row) => row.providerName ?? "—" },
          {
            key: "status",
            header: t("movies.columns.status"),
            cell: (row) => (
              <>
                <span className="block">{t(`movies.status.${row.status}`)}</span>
                <span className="block text-xs text-slate-300">
                  <ReviewState row={row} />
                </span>
              </>
            ),
          },
          { key: "views", header: t("movies.columns.views"), align: "right", cell: (row) => row.views },
          {
            key: "renditions",
            header: t("movies.renditions"),
            cell: (row) => (
              <>
                <RenditionList renditions={row.renditions} />
              </>
            ),
          },
          {
            key: "actions",
            header: t("movies.columns.actions"),
            cell: (row) => (
              <>
                <ReviewActions
                  idField="movieId"
                  row={row}
                  back={back}
                  label={(intent) => ({
                    text: t(`movies.actions.${intent}`),
                    named: t(`movies.named.${intent}`, { name: row.name }),
                  })}
                  failure={failure ? { ...failure, id: failure.movieId } : null}
                >
                  <Link
                    to={`/admin/subtitles?${new URLSearchParams({ id: row.id })}`}
                    aria-label={t("subtitles:studio.linkNamed", { name: row.name })}
                    className="rounded border border-white/20 px-2 py-1 text-xs hover:bg-white/5"
                  >
                    {t("subtitles:studio.link")}
                  </Link>
                  <Link
                    to={confirmHref(row.id)}
                    aria-label={t("movies.deleteNamed", { name: row.name })}
                    className="rounded border border-red-400/40 px-2 py-1 text-xs text-red-200 hover:bg-red-950"
                  >
                    {t("movies.delete")}
                  </Link>
                </ReviewActions>
              </>
            ),
          },
        ]}
      />
      <Pagination page={page} pageCount={pageCount} />
    </section>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { LibraryRow } from "~/components/library/library-row";
import { WatchProgress } from "~/components/library/watch-progress";
import { clockText, loadAfterPlayingSaved, watchedPercent } from "~/utils/watch-time";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useSearchParams } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { requireViewer } from "~/auth/guards.server";
import { watchHref } from "~/components/catalogue/movie-card";
import { hrefWithQuery, LinkMenu } from "~/components/library/link-menu";
import { LibraryTabs } from "~/components/library/library-tabs";
import { RemoveButton } from "~/components/library/remove-button";
import { ConfirmDelete } from "~/components/ui/confirm-delete";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import {
  clearHistory,
  listHistory,
  parseHistoryPeriod,
  removeFromHistory,
  type HistoryPeriod,
} from "~/services/history.server";
import { normaliseSearchText } from "~/services/search.server";
import { SEARCH_MAX_LENGTH } from "~/utils/form-limits";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { pageParam } from "~/utils/paging";
import { dateFormatter } from "~/utils/dates";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["browse", "pages"] };

export const meta = metaTitleMeta;

const PAGE_SIZE = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request);
  const url = new URL(request.url);
  const period = parseHistoryPeriod(url.searchParams.get("period"));
  const q = normaliseSearchText(url.searchParams.get("q"));
  const page = pageParam(url);
  const { t, language } = await getRequestT(request, "browse");
  return {
    metaTitle: t("history.metaTitle"),
    language,
    period,
    q,
    confirmClear: url.searchParams.get("confirm") === "clear",
    ...listHistory(getDb(), viewer, { period, q, page, pageSize: PAGE_SIZE }),
  };
}

/** Leaving a playing film for this page: its position is saved before this page reads it. */
export const clientLoader = loadAfterPlayingSaved;

/** Remove one title (`intent=remove`) or, from the confirmation panel, clear everything (`intent=delete`). */
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireViewer(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  const back = safeRedirectPath(form.get("redirectTo"), "/history");
  if (intent === "remove") {
    const removed = removeFromHistory(getDb(), viewer, String(form.get("movieId") ?? ""));
    if (removed === 0)
      return redirectWithToast(back, { type: "error", key: "browse:history.notInHistory" }, { status: 303 });
    return redirectWithToast(back, { type: "success", key: "browse:history.removed" }, { status: 303 });
  }
  if (intent === "delete") {
    clearHistory(getDb(), viewer);
    return redirectWithToast("/history", { type: "success", key: "browse:history.cleared" }, { status: 303 });
  }
  throw data(null, { status: 400, statusText: "Unknown action" });
}

export default function History() {
  const { t } = useTranslation("browse");
  const { items, total, page, pageCount, period, q, confirmClear, language } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const href = (changes: Record<string, string | null>) => hrefWithQuery("/history", searchParams, changes);
  const here = href({ page: page > 1 ? String(page) : null });
  const dates = dateFormatter(language, "dateTime");
  const periods: (HistoryPeriod | null)[] = [null, "recent", "month", "year"];
  const filtered = Boolean(period || q);

  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{t("history.title")}</h1>
          <p className="mt-1 text-sm text-slate-300">{t("history.count", { count: total })}</p>
        </div>
        {total > 0 && !filtered ? (
          <Link
            to={href({ confirm: "clear" })}
            className="rounded border border-red-400/50 px-3 py-1.5 text-sm text-red-200 hover:bg-red-950/50"
          >
            {t("history.clear")}
          </Link>
        ) : null}
      </div>
      <LibraryTabs />

      {confirmClear ? (
        <ConfirmDelete
          title={t("history.clearTitle")}
          text={t("history.clearText")}
          confirmLabel={t("history.clearConfirm")}
          cancelLabel={t("history.cancel")}
          cancelTo={href({ confirm: null })}
          hidden={{}}
        />
      ) : null}

      <div className="mt-6 flex flex-wrap items-end gap-x-8 gap-y-4">
        <div>
          <LinkMenu
            label={t("history.periodLabel")}
            items={periods.map((value) => ({
              href: href({ period: value }),
              text: t(`history.${value ?? "all"}`),
              current: period === value,
            }))}
          />
          <p className="mt-1 text-xs text-slate-400">{t("history.periodHint")}</p>
        </div>
        <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
          <label className="grid gap-1 text-sm">
            <span className="font-medium text-slate-200">{t("history.searchLabel")}</span>
            <input
              type="search"
              name="q"
              defaultValue={q}
              key={q}
              maxLength={SEARCH_MAX_LENGTH}
              className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50 focus:ring-2 focus:ring-brand-500 focus:outline-none"
            />
          </label>
          {period ? <input type="hidden" name="period" value={period} /> : null}
          <button type="submit" className="rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
            {t("history.searchButton")}
          </button>
        </Form>
      </div>

      {items.length === 0 ? (
        <div
          className="mt-8 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300"
          data-testid="empty-history"
        >
          <p>{filtered ? t("history.emptyFiltered") : t("history.empty")}</p>
          <Link to={filtered ? "/history" : "/movies"} className="mt-3 inline-block text-brand-300 hover:underline">
            {filtered ? t("history.showAll") : t("history.browse")}
          </Link>
        </div>
      ) : (
        <ul className="mt-8 grid gap-3" data-testid="history-list">
          {items.map((item) => {
            const percent = watchedPercent(item.positionSeconds, item.durationSeconds);
            return (
              <LibraryRow
                key={item.id}
                item={item}
                facts={
                  <>
                    {item.categoryName} ·{" "}
                    <time dateTime={item.lastWatchedAt}>
                      {t("history.lastWatched", { date: dates.format(new Date(item.lastWatchedAt)) })}
                    </time>
                  </>
                }
                actions={
                  <>
                    <Link
                      to={watchHref(item.id)}
                      aria-label={t(item.finished ? "history.againLabel" : "history.continueLabel", {
                        name: item.name,
                      })}
                      className="rounded bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
                    >
                      {t(item.finished ? "history.again" : "history.continue")}
                    </Link>
                    <Form method="post">
                      <input type="hidden" name="movieId" value={item.id} />
                      <input type="hidden" name="redirectTo" value={here} />
                      <RemoveButton
                        movieId={item.id}
                        label={t("history.removeLabel", { name: item.name })}
                        pendingText={t("history.removing")}
                      >
                        {t("history.remove")}
                      </RemoveButton>
                    </Form>
                  </>
                }
              >
                <WatchProgress percent={percent} label={t("history.progressLabel", { percent })}>
                  {t("history.progress", {
                    position: clockText(item.positionSeconds),
                    duration: clockText(item.durationSeconds),
                  })}
                </WatchProgress>
              </LibraryRow>
            );
          })}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} />
    </section>
  );
}

import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { clockText } from "~/utils/watch-time";
import { RenditionList, type RenditionSummary } from "./rendition-list";

export type TitleFactsView = {
  id: string;
  status: "processing" | "ready" | "failed";
  approved: boolean;
  published: boolean;
  failureReason: string | null;
  durationSeconds: number;
  sizeBytes: number;
  views: number;
  renditions: RenditionSummary[];
};

/** Where a title stands in words: failed, processing, published, or waiting for approval. */
export function useTitleStatusText(title: Pick<TitleFactsView, "status" | "approved">): string {
  const { t } = useTranslation("studio");
  return title.status === "failed"
    ? t("list.status.failed")
    : title.status === "processing"
      ? t("list.status.processing")
      : title.approved
        ? t("edit.published")
        : t("review.waiting");
}

/**
 * Where a title stands, under its name on its edit page: status, length, size,
 * views, qualities, and where to watch it: `watchTo` (its provider's own
 * preview, in any state), else its watch page once published.
 */
export function TitleFacts({ title, watchTo }: { title: TitleFactsView; watchTo?: string }) {
  const { t } = useTranslation("studio");
  const status = useTitleStatusText(title);
  return (
    <div className="mt-2 grid gap-2 text-sm text-slate-300">
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        <span data-title-status={title.status}>{status}</span>
        {title.durationSeconds > 0 ? (
          <span>{t("edit.length", { value: clockText(title.durationSeconds) })}</span>
        ) : null}
        <span>{t("edit.views", { count: title.views })}</span>
        {watchTo || title.published ? (
          <Link to={watchTo ?? `/WatchMovie?id=${title.id}`} className="text-brand-300 hover:underline">
            {t("edit.watch")}
          </Link>
        ) : null}
      </p>
      {title.status === "failed" && title.failureReason ? (
        <p className="text-red-200">{t(`list.failure.${title.failureReason}`)}</p>
      ) : null}
      <RenditionList renditions={title.renditions} />
    </div>
  );
}

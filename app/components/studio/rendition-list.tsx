import { useTranslation } from "~/i18n/use-translation";

export type RenditionSummary = {
  rung: number;
  /** The family: AV1 + Opus rungs are named "240p AV1". */
  codec?: "h264" | "av1";
  status: "pending" | "ready" | "failed";
  sizeBytes: number;
  /** Where the files are: this box's disk, or the media bucket (a title's rungs are all in one place). */
  store?: "local" | "s3";
};

function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(bytes >= 10_000_000 ? 0 : 1);
}

/** A title's ladder in a table cell: each rung with its size (on this disk or in the bucket), or that it is being made or failed. */
export function RenditionList({ renditions }: { renditions: readonly RenditionSummary[] }) {
  const { t } = useTranslation("studio");
  if (renditions.length === 0) return <span className="text-slate-400">{t("renditions.none")}</span>;
  const total = renditions
    .filter((rendition) => rendition.status === "ready")
    .reduce((sum, rendition) => sum + rendition.sizeBytes, 0);
  return (
    <div className="grid gap-0.5 text-xs" data-testid="renditions">
      <ul className="flex flex-wrap gap-x-2 gap-y-0.5">
        {renditions.map((rendition) => (
          <li
            key={`${rendition.codec ?? "h264"}-${rendition.rung}`}
            data-rung={rendition.rung}
            data-codec={rendition.codec ?? "h264"}
            data-rendition-status={rendition.status}
            className={
              rendition.status === "ready"
                ? "text-slate-200"
                : rendition.status === "failed"
                  ? "text-red-300"
                  : "text-amber-300"
            }
          >
            {rendition.status === "ready"
              ? t(rendition.codec === "av1" ? "renditions.readyAv1" : "renditions.ready", {
                  rung: rendition.rung,
                  megabytes: megabytes(rendition.sizeBytes),
                })
              : t(`renditions.${rendition.status}${rendition.codec === "av1" ? "Av1" : ""}`, { rung: rendition.rung })}
          </li>
        ))}
      </ul>
      <span className="text-slate-400">
        {t(renditions.some((rendition) => rendition.store === "s3") ? "renditions.totalInBucket" : "renditions.total", {
          megabytes: megabytes(total),
        })}
      </span>
    </div>
  );
}

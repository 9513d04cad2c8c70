import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";

/**
 * One chart on a dashboard: its heading, the figure that sums it up, the
 * picture (an SVG drawn on the server, so it shows without JavaScript), and a
 * link to the numbers behind it as CSV.
 */
export function ChartFrame({
  id,
  title,
  figure,
  note,
  csvHref,
  empty,
  children,
}: {
  id: string;
  title: string;
  figure?: string | null;
  note?: ReactNode;
  csvHref: string;
  /** Shown instead of the picture when there is nothing to draw. */
  empty?: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation("dashboards");
  return (
    <figure
      className="grid min-w-0 content-start gap-2 rounded-lg border border-white/10 bg-ink-900/60 p-3 sm:p-4"
      data-chart={id}
      aria-labelledby={`${id}-title`}
    >
      <figcaption className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h2>
        {figure ? <span className="text-lg font-bold text-brand-300 tabular-nums">{figure}</span> : null}
      </figcaption>
      {note ? <p className="text-xs text-slate-400">{note}</p> : null}
      {empty ? <p className="py-6 text-center text-sm text-slate-400">{empty}</p> : children}
      <a href={csvHref} download className="justify-self-start text-xs text-brand-300 hover:underline" data-csv={id}>
        {t("csv")}
      </a>
    </figure>
  );
}

import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import type { ReturnReason } from "~/db/return-reasons";
import { publishingToggles } from "~/services/publishing";
import { RowAction } from "./row-action";
import { SendBackForm } from "./send-back-form";

/**
 * What the administrator's tables of titles and of series show alike for a
 * row under review: its state (approved, waiting or sent back with the
 * reason; featured; Free or Premium), its data attributes for scripts and
 * tests, and its actions (the publishing toggles, then "Send back…").
 */
export type ReviewedRow = {
  id: string;
  name: string;
  approved: boolean;
  featured: boolean;
  access: "free" | "premium";
  returnReason: ReturnReason | null;
  returnNote: string | null;
};

export function reviewRowAttributes(idAttribute: "data-movie-id" | "data-series-id", row: ReviewedRow) {
  return {
    [idAttribute]: row.id,
    "data-approved": row.approved ? "true" : "false",
    "data-featured": row.featured ? "true" : "false",
    "data-access": row.access,
  };
}

/** The row's state, and anything more the table says under it (`children`). */
export function ReviewState({ row, children }: { row: ReviewedRow; children?: ReactNode }) {
  const { t } = useTranslation("admin");
  return (
    <>
      <span className="block">
        {row.approved
          ? t("movies.approvedLabel")
          : row.returnReason
            ? t("review.sentBackLabel")
            : t("movies.waitingLabel")}
        {row.featured ? ` · ${t("movies.featuredLabel")}` : ""} · {t(`movies.access.${row.access}`)}
      </span>
      {row.returnReason ? (
        <span className="block text-xs text-amber-200" data-return-reason={row.returnReason}>
          {t(`review.reasons.${row.returnReason}`)}
          {row.returnNote ? `: ${row.returnNote}` : ""}
        </span>
      ) : null}
      {children}
    </>
  );
}

/**
 * The row's actions: a button per publishing change it may take (labelled by
 * `label`, which names the row for screen readers), `children` (links of the
 * table's own), and "Send back…" while it has not been sent back.
 */
export function ReviewActions({
  idField,
  row,
  back,
  label,
  failure,
  children,
}: {
  idField: "movieId" | "seriesId";
  row: ReviewedRow;
  back: string;
  label: (intent: string) => { text: string; named: string };
  failure?: { id: string; fieldErrors: Record<string, string[]>; values: { reason: string; note: string } } | null;
  children?: ReactNode;
}) {
  const mine = failure?.id === row.id ? failure : undefined;
  return (
    <div className="flex flex-wrap gap-1.5">
      {publishingToggles(row).map((intent) => (
        <RowAction
          key={intent}
          idField={idField}
          id={row.id}
          intent={intent}
          back={back}
          label={label(intent).text}
          ariaLabel={label(intent).named}
        />
      ))}
      {children}
      {row.returnReason ? null : (
        <SendBackForm
          idField={idField}
          id={row.id}
          name={row.name}
          back={back}
          errors={mine?.fieldErrors}
          values={mine?.values}
        />
      )}
    </div>
  );
}

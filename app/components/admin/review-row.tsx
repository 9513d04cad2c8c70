import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import type { ReturnReason } from "~/db/return-reasons";
import { publishingToggles } from "~/services/publishing";
import { RowAction } from "./row-action";
import { SendBackForm } from "./send-back-form";
import { Form } from "@remix-run/react";
import { AGE_RATINGS } from "~/db/age-ratings";

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
  /** Its age rating (an episode's: its series'); null: unrated, never shown to a children's profile. */
  ageRating: string | null;
  /** An episode: rated with its series, not here. */
  ratedBySeries?: boolean;
};

export function reviewRowAttributes(idAttribute: "data-movie-id" | "data-series-id", row: ReviewedRow) {
  return {
    [idAttribute]: row.id,
    "data-approved": row.approved ? "true" : "false",
    "data-featured": row.featured ? "true" : "false",
    "data-access": row.access,
    "data-age-rating": row.ageRating ?? "unrated",
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
      <span className={`block text-xs ${row.ageRating ? "" : "font-semibold text-amber-200"}`}>
        {row.ageRating ? t(`studio:ageRatings.${row.ageRating}`) : t("review.unrated")}
        {row.ratedBySeries ? ` (${t("review.ratedBySeries")})` : ""}
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
      {row.ratedBySeries ? null : <RatingForm idField={idField} row={row} back={back} />}
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

/** The row's age rating, changed in place (a plain POST: works without JavaScript). */
function RatingForm({ idField, row, back }: { idField: "movieId" | "seriesId"; row: ReviewedRow; back: string }) {
  const { t } = useTranslation("admin");
  const id = `rating-${row.id}`;
  return (
    <Form method="post" className="flex items-center gap-1" data-section="age-rating">
      <input type="hidden" name={idField} value={row.id} />
      <input type="hidden" name="back" value={back} />
      <label htmlFor={id} className="sr-only">
        {t("review.ratingNamed", { name: row.name })}
      </label>
      <select
        id={id}
        name="ageRating"
        defaultValue={row.ageRating ?? ""}
        className="rounded border border-white/15 bg-ink-900 px-1.5 py-1 text-xs text-slate-50"
      >
        <option value="">{t("review.unrated")}</option>
        {AGE_RATINGS.map((rating) => (
          <option key={rating} value={rating}>
            {rating}
          </option>
        ))}
      </select>
      <button
        type="submit"
        name="intent"
        value="rate"
        className="rounded border border-white/20 px-2 py-1 text-xs hover:bg-white/5"
      >
        {t("review.rate")}
      </button>
    </Form>
  );
}

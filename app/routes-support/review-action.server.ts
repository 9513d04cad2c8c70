import { data } from "@remix-run/node";
import { publishingChange, type PublishingChange } from "~/services/publishing";
import { checkReturn, type ReturnInput } from "~/services/title-lifecycle.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readRatingChoice, type RatingChoice } from "~/services/age-ratings.server";

/** A send-back refused (no reason, a note too long): its messages and what was typed, beside the row's form. */
export type SendBackFailure<IdField extends "movieId" | "seriesId"> = Record<IdField, string> & {
  fieldErrors: Record<string, string[]>;
  values: { reason: string; note: string };
};

/**
 * An administrator's review of one row of their titles' or series' table:
 * "sendBack" with a reason and their own words, or a publishing change
 * (approve, feature, Free or Premium) or an age rating, each by its service, then back to the
 * table with a toast. Null for another intent (the page's own).
 */
export function reviewRowAction<IdField extends "movieId" | "seriesId">(
  form: FormData,
  row: {
    idField: IdField;
    id: string;
    back: string;
    sendBack: (reason: ReturnInput) => boolean;
    change: (change: PublishingChange) => boolean;
    /** Set its age rating (a film or a series: an episode carries its series'). */
    rate?: (rating: RatingChoice) => boolean;
    /** The toast of a change made (by intent), and of a row that is gone. */
    changedKey: (intent: string) => string;
    missingKey: string;
  },
) {
  const intent = String(form.get("intent") ?? "");
  if (intent === "sendBack") {
    const values = {
      reason: String(form.get("reason") ?? "").slice(0, 20),
      note: String(form.get("note") ?? "").slice(0, 2000),
    };
    const checked = checkReturn(values);
    if (!checked.ok)
      return data({ [row.idField]: row.id, fieldErrors: checked.fieldErrors, values } as SendBackFailure<IdField>, {
        status: 400,
      });
    return redirectWithToast(
      row.back,
      row.sendBack(checked.value)
        ? { type: "success", key: "admin:review.sentBackToast" }
        : { type: "error", key: row.missingKey },
      { status: 303 },
    );
  }
  if (intent === "rate" && row.rate) {
    const rating = readRatingChoice(form.get("ageRating"));
    if (rating === undefined)
      return data(
        { [row.idField]: row.id, fieldErrors: { ageRating: ["studio:errors.ageRatingInvalid"] } },
        { status: 400 },
      );
    return redirectWithToast(
      row.back,
      row.rate(rating) ? { type: "success", key: "admin:review.ratedToast" } : { type: "error", key: row.missingKey },
      { status: 303 },
    );
  }
  const change = publishingChange(intent);
  if (!change) return null;
  return redirectWithToast(
    row.back,
    row.change(change) ? { type: "success", key: row.changedKey(intent) } : { type: "error", key: row.missingKey },
    { status: 303 },
  );
}

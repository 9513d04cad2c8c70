import { z } from "zod";
import { oneLine, withoutControls } from "~/utils/stored-text";
import { AGE_RATINGS } from "~/db/age-ratings";

/**
 * The details of a title or a series as the studio's forms and the old
 * clients send them (a module of its own: the account pages import
 * validation.ts and must not carry the studio's messages). Every message is
 * an i18n key.
 */

/** A required one-line text: no control characters, trimmed, not empty, at most `limit.max` characters when given. */
export function requiredText(missing: string, limit?: { max: number; tooLong: string }) {
  const field = z.string({ required_error: missing }).trim().min(1, missing);
  return z.preprocess(
    (value) => (typeof value === "string" ? oneLine(value) : value),
    limit ? field.max(limit.max, limit.tooLong) : field,
  );
}

/** A text of several lines: no control characters but tab and line feed, trimmed, at most `max` characters. */
function longText(max: number, tooLong: string) {
  return z.preprocess(
    (value) => (typeof value === "string" ? withoutControls(value) : value),
    z.string().trim().max(max, tooLong).default(""),
  );
}

export const TITLE_NAME_MAX = 200;

export const titleTextFields = {
  Description: longText(5000, "studio:errors.descriptionTooLong"),
  cast: longText(1000, "studio:errors.castTooLong"),
};

/** An age rating (db/age-ratings.ts), or none: an empty choice is "unrated" (null). */
export const ageRatingField = z.preprocess(
  (value) => (value === "" || value === undefined ? null : value),
  z
    .enum(AGE_RATINGS, {
      invalid_type_error: "studio:errors.ageRatingInvalid",
      message: "studio:errors.ageRatingInvalid",
    })
    .nullable(),
);

/** A title's details (an upload's text parts, an edit): its name, description, cast, category and age rating. */
export const titleDetailsSchema = z.object({
  name: requiredText("studio:errors.titleRequired", { max: TITLE_NAME_MAX, tooLong: "studio:errors.titleTooLong" }),
  ...titleTextFields,
  Category: requiredText("studio:errors.categoryRequired"),
  ageRating: ageRatingField,
});

import { z } from "zod";

/**
 * The details of a title or a series as the studio's forms and the old
 * clients send them (a module of its own: the account pages import
 * validation.ts and must not carry the studio's messages). Every message is
 * an i18n key.
 */

/** A required text: trimmed, not empty, and at most `limit.max` characters when a limit is given. */
export function requiredText(missing: string, limit?: { max: number; tooLong: string }) {
  const field = z.string({ required_error: missing }).trim().min(1, missing);
  return limit ? field.max(limit.max, limit.tooLong) : field;
}

export const TITLE_NAME_MAX = 200;

export const titleTextFields = {
  Description: z.string().trim().max(5000, "studio:errors.descriptionTooLong").default(""),
  cast: z.string().trim().max(1000, "studio:errors.castTooLong").default(""),
};

/** A title's details (an upload's text parts, an edit): its name, description, cast and category. */
export const titleDetailsSchema = z.object({
  name: requiredText("studio:errors.titleRequired", { max: TITLE_NAME_MAX, tooLong: "studio:errors.titleTooLong" }),
  ...titleTextFields,
  Category: requiredText("studio:errors.categoryRequired"),
});

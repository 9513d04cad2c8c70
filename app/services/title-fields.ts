import { z } from "zod";

/**
 * A title's or a series' description and cast, as the studio's forms and the
 * old clients send them (a module of its own: the account pages import
 * validation.ts and must not carry the studio's messages).
 */
export const titleTextFields = {
  Description: z.string().trim().max(5000, "studio:errors.descriptionTooLong").default(""),
  cast: z.string().trim().max(1000, "studio:errors.castTooLong").default(""),
};

import { z } from "zod";
import { HONEYPOT_FIELD } from "~/utils/honeypot";
import { oneLine } from "~/utils/stored-text";
import { looksLikePhoneNumber } from "./phone/phone-shape";

/**
 * The account forms' rules, shared by the pages and the /api router. Every
 * message is an i18n key (namespace `auth`), so the same rule reads in the
 * reader's language beside the field, in a toast and in an API answer.
 */
const MESSAGE = {
  nameRequired: "auth:validation.nameRequired",
  nameTooLong: "auth:validation.nameTooLong",
  providerNameRequired: "auth:validation.providerNameRequired",
  emailRequired: "auth:validation.emailRequired",
  emailInvalid: "auth:validation.emailInvalid",
  phoneRequired: "auth:validation.phoneRequired",
  phoneInvalid: "auth:validation.phoneInvalid",
  passwordRequired: "auth:validation.passwordRequired",
  passwordTooShort: "auth:validation.passwordTooShort",
  passwordTooLong: "auth:validation.passwordTooLong",
  password2Required: "auth:validation.password2Required",
  passwordsDontMatch: "auth:validation.passwordsDontMatch",
  currentPasswordRequired: "auth:validation.currentPasswordRequired",
  signInNameRequired: "auth:validation.signInNameRequired",
  signInNameInvalid: "auth:validation.signInNameInvalid",
} as const;

export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing cannot be abused. */
export const PASSWORD_MAX_LENGTH = 128;

/** A form value as a string: missing fields and file parts read as "". */
const text = (requiredMessage: string) =>
  z.preprocess((value) => (typeof value === "string" ? value : ""), z.string().min(1, requiredMessage));

/** A one-line form value, trimmed, without control characters or line breaks (utils/stored-text.ts). */
const trimmed = (requiredMessage: string) =>
  z.preprocess((value) => (typeof value === "string" ? oneLine(value).trim() : ""), z.string().min(1, requiredMessage));

export const emailField = trimmed(MESSAGE.emailRequired)
  .pipe(z.string().max(254, MESSAGE.emailInvalid).email(MESSAGE.emailInvalid))
  .transform((email) => email.toLowerCase());

/** Registration: an email is optional (a phone number and its code are a way in); empty reads as null. */
export const optionalEmailField = z.preprocess(
  (value) => (typeof value === "string" && oneLine(value).trim() !== "" ? value : null),
  emailField.nullable(),
);

/** What a person signs in with (the field is named `email` on every form, for the old clients): an email or a phone number. */
export const signInNameField = trimmed(MESSAGE.signInNameRequired).pipe(
  z
    .string()
    .max(254, MESSAGE.signInNameInvalid)
    .refine(
      (value) => looksLikePhoneNumber(value) || z.string().email().safeParse(value).success,
      MESSAGE.signInNameInvalid,
    ),
);

export const nameField = trimmed(MESSAGE.nameRequired).pipe(z.string().max(100, MESSAGE.nameTooLong));
export const providerNameField = trimmed(MESSAGE.providerNameRequired).pipe(z.string().max(100, MESSAGE.nameTooLong));

/** Digits with the usual separators and an optional leading +; at least 7 digits. */
export const phoneNumberField = trimmed(MESSAGE.phoneRequired).pipe(
  z
    .string()
    .max(30, MESSAGE.phoneInvalid)
    .regex(/^\+?[\d\s().-]+$/, MESSAGE.phoneInvalid)
    .refine((value) => value.replace(/\D/g, "").length >= 7, MESSAGE.phoneInvalid),
);

export const newPasswordField = text(MESSAGE.passwordRequired).pipe(
  z.string().min(PASSWORD_MIN_LENGTH, MESSAGE.passwordTooShort).max(PASSWORD_MAX_LENGTH, MESSAGE.passwordTooLong),
);

const confirmationField = text(MESSAGE.password2Required);

function passwordsMatch<T extends { password: string; password2: string }>(value: T, ctx: z.RefinementCtx) {
  if (value.password !== value.password2) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password2"], message: MESSAGE.passwordsDontMatch });
  }
}

export const registrationSchema = z
  .object({
    name: nameField,
    phoneNumber: phoneNumberField,
    email: optionalEmailField,
    password: newPasswordField,
    password2: confirmationField,
  })
  .superRefine(passwordsMatch);
export type RegistrationInput = z.infer<typeof registrationSchema>;

/** Provider application (`/ContentproviderPage`) and administrator registration of a provider. */
export const providerRegistrationSchema = z
  .object({
    providerName: providerNameField,
    email: emailField,
    phoneNumber: phoneNumberField,
    password: newPasswordField,
    password2: confirmationField,
  })
  .superRefine(passwordsMatch);
export type ProviderRegistrationInput = z.infer<typeof providerRegistrationSchema>;

/** Sign-in at either door: only presence is checked, so no rule hints at which part was wrong. */
export const signInSchema = z.object({
  email: signInNameField,
  password: text(MESSAGE.passwordRequired).pipe(z.string().max(PASSWORD_MAX_LENGTH * 4, MESSAGE.passwordTooLong)),
});
export type SignInInput = z.infer<typeof signInSchema>;

/** The profile: the email may be left empty by an account with a verified number (updateProfile checks). */
export const profileSchema = z.object({
  name: nameField,
  email: optionalEmailField,
  phoneNumber: phoneNumberField,
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const providerProfileSchema = profileSchema.extend({ providerName: providerNameField });
export type ProviderProfileInput = z.infer<typeof providerProfileSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: text(MESSAGE.currentPasswordRequired),
    password: newPasswordField,
    password2: confirmationField,
  })
  .superRefine(passwordsMatch);
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The card gateway's receipt address, asked of an account that has no email. */
export const receiptEmailSchema = z.object({ receiptEmail: emailField });

export const resetRequestSchema = z.object({ email: signInNameField });

export const newPasswordSchema = z
  .object({ password: newPasswordField, password2: confirmationField })
  .superRefine(passwordsMatch);

export type FieldErrors = Record<string, string[]>;

export type ParseResult<T> = { success: true; data: T } | { success: false; fieldErrors: FieldErrors };

/** Validate a form (FormData or a plain object from JSON) against a schema; errors keyed by field name. */
export function parseForm<T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  input: FormData | Record<string, unknown>,
): ParseResult<T> {
  const values = input instanceof FormData ? Object.fromEntries(input) : input;
  const result = schema.safeParse(values);
  if (result.success) return { success: true, data: result.data };
  return { success: false, fieldErrors: fieldErrorsOf(result.error) };
}

/**
 * The one reading of a schema's complaints: messages (i18n keys) by field
 * name, the first problem of each field only — one clear message each.
 */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const issue of error.issues) {
    const messages = (fieldErrors[String(issue.path[0] ?? "form")] ??= []);
    if (messages.length === 0) messages.push(issue.message);
  }
  return fieldErrors;
}

/** All messages of a result, in field order, for one toast each. */
export function allMessages(fieldErrors: FieldErrors | undefined): string[] {
  return fieldErrors ? Object.values(fieldErrors).flat() : [];
}

export function isHoneypotFilled(form: FormData): boolean {
  const value = form.get(HONEYPOT_FIELD);
  return typeof value === "string" && value.trim() !== "";
}

import { data, type HeadersFunction } from "@remix-run/node";
import type { FieldErrors } from "~/services/validation";
import type { z } from "zod";
import { clientAddress } from "~/utils/client.server";
import { consumeRateLimit, enterFailureLimit, type RateLimitName } from "~/services/rate-limit.server";
import { isHoneypotFilled, parseForm } from "~/services/validation";

export type FormFailure<Values extends Record<string, string> = Record<string, string>> = {
  formError?: string;
  fieldErrors?: FieldErrors;
  retryAfterSeconds?: number;
  values?: Values;
};

/** A form that could not be accepted: its messages (i18n keys) and the values to show again. Never the passwords. */
export function formFailure<Values extends Record<string, string>>(status: number, failure: FormFailure<Values>) {
  const headers = new Headers();
  if (failure.retryAfterSeconds) headers.set("Retry-After", String(failure.retryAfterSeconds));
  return data(failure, { status, headers });
}

/** The given text fields of a form, as strings, for showing a failed form again. */
export function pickValues<Name extends string>(form: FormData, names: readonly Name[]): Record<Name, string> {
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "").slice(0, 300)])) as Record<
    Name,
    string
  >;
}

export const TOO_MANY_TRIES = "auth:errors.tooManyTries";
export const SPAM = "auth:validation.spam";

/**
 * Route `headers` for pages whose actions can answer 429: a document request
 * only carries the headers a route's `headers` function passes on.
 */
export const passRetryAfter: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

type PublicFormCheck<T, Name extends string> =
  | { ok: true; data: T; values: Record<Name, string>; address: string }
  | { ok: false; response: ReturnType<typeof formFailure> };

export type PublicFormInputCheck<T, Name extends string> =
  | { ok: true; data: T; values: Record<Name, string>; address: string }
  | { ok: false; status: 400 | 429; failure: FormFailure<Record<Name, string>> };

/**
 * The checks every public account form makes before its own work, in order:
 * the honeypot, the rate limit (per address and per the email tried; for
 * registration, the address's refusals of emails that have an account), then
 * the form's schema. The pages and the /api router both use it.
 */
export async function checkPublicFormInput<T, Name extends string>(
  request: Request,
  form: FormData,
  options: { limit: RateLimitName | "register"; schema: z.ZodType<T, z.ZodTypeDef, unknown>; fields: readonly Name[] },
): Promise<PublicFormInputCheck<T, Name>> {
  const values = pickValues(form, options.fields);
  if (isHoneypotFilled(form)) return { ok: false, status: 400, failure: { formError: SPAM, values } };
  const address = clientAddress(request);
  const limit =
    options.limit === "register"
      ? await enterFailureLimit("register", address).then((gate) => (gate.ok ? (gate.leave(), gate) : gate))
      : await consumeRateLimit(options.limit, { address, account: String(form.get("email") ?? "") });
  if (!limit.ok)
    return {
      ok: false,
      status: 429,
      failure: { formError: TOO_MANY_TRIES, retryAfterSeconds: limit.retryAfterSeconds, values },
    };
  const parsed = parseForm(options.schema, form);
  if (!parsed.success) return { ok: false, status: 400, failure: { fieldErrors: parsed.fieldErrors, values } };
  return { ok: true, data: parsed.data, values, address };
}

/** checkPublicFormInput for a page: a failure comes back as the response to return. */
export async function checkPublicForm<T, Name extends string>(
  request: Request,
  form: FormData,
  options: { limit: RateLimitName | "register"; schema: z.ZodType<T, z.ZodTypeDef, unknown>; fields: readonly Name[] },
): Promise<PublicFormCheck<T, Name>> {
  const checked = await checkPublicFormInput(request, form, options);
  if (checked.ok) return checked;
  return { ok: false, response: formFailure(checked.status, checked.failure) };
}

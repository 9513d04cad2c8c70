import { data, type HeadersFunction } from "@remix-run/node";
import type { FieldErrors } from "~/services/validation";

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
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "").slice(0, 300)])) as Record<Name, string>;
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

/**
 * The one shape of our own JSON endpoints' refusals (watch progress, download
 * licences, resumable uploads): `{ error, key?, fieldErrors? }` — `error` in
 * English for logs and scripts, `key` (an i18n key) for pages to translate,
 * `fieldErrors` as field name → i18n keys. Never cached. The old clients'
 * /api paths keep their own shape (`apiFailure` in app/api/http.server.ts).
 */
export function jsonError(
  status: number,
  error: string,
  extra: {
    key?: string;
    fieldErrors?: Record<string, string[]>;
    headers?: HeadersInit;
    /** Facts a client acts on (the screens in use, say), beside the message. */
    details?: Record<string, unknown>;
  } = {},
): Response {
  const headers = new Headers(extra.headers);
  headers.set("Cache-Control", "no-store");
  const body: Record<string, unknown> = { error, ...extra.details };
  if (extra.key) body.key = extra.key;
  if (extra.fieldErrors) body.fieldErrors = extra.fieldErrors;
  return Response.json(body, { status, headers });
}

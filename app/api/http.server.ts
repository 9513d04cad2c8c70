import { englishText } from "~/i18n/translate.server";
import { lingerOn } from "~/utils/request-body.server";
import type { FieldErrors } from "~/services/validation";

/**
 * What every /api handler shares: JSON answers in the old clients' envelope
 * (`{ success, message }`), errors thrown as ApiError, request bodies read as
 * JSON or URL-encoded (bounded), and the same-origin rule for browser writes.
 */
export type ApiStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 429 | 500;

export class ApiError extends Error {
  constructor(
    public readonly status: ApiStatus,
    public readonly body: string | Record<string, string>,
    public readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === "string" ? body : "Invalid input");
    this.name = "ApiError";
  }
}

export const NOT_SIGNED_IN = "Sign in first";
export const NOT_ALLOWED = "Not allowed";
export const NOT_FOUND = "Not found";
export const INTERNAL_ERROR_KEY = "auth:errors.internal";

/** Field errors (i18n keys) as the old clients read them: one English message per field. */
export function fieldMessages(fieldErrors: FieldErrors | Partial<Record<string, string[]>>): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const [field, keys] of Object.entries(fieldErrors)) {
    if (keys && keys.length > 0) messages[field] = englishText(keys[0]);
  }
  return messages;
}

export function apiJson(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Cache-Control", "no-store");
  return Response.json(body, { status: init.status ?? 200, headers });
}

/** The old clients' refusal: `{ success: false, message }`, never cached. Every /api path and legacy file route answers so. */
export function apiFailure(status: number, message: string | Record<string, string>, headers?: HeadersInit): Response {
  return apiJson({ success: false, message }, { status, headers });
}

export function apiErrorResponse(error: ApiError): Response {
  return apiFailure(error.status, error.body, error.headers);
}

export function internalErrorResponse(): Response {
  return apiFailure(500, englishText(INTERNAL_ERROR_KEY));
}

/** Bodies of account and profile calls are small; anything larger is refused before it is read in full. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Too large is refused at once: by its declared length before a byte is read, or as soon as it runs past the limit. */
async function readLimitedBytes(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  // The unread body is read and dropped behind the answer (the router's settleRequestBody).
  if (declared > MAX_BODY_BYTES) throw new ApiError(413, "Request body too large");
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      // What the client still sends is read and dropped behind the 413, so that it hears it.
      lingerOn(request, reader);
      throw new ApiError(413, "Request body too large");
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

const JSON_TYPES = new Set(["application/json", "text/json"]);

/**
 * A request body as field values. JSON objects, URL-encoded and (small)
 * multipart forms are accepted (old clients sent any of them). Only strings
 * and finite numbers are kept (a phone number sent as a number still reads);
 * arrays, objects, nulls, booleans and file parts read as missing, so the
 * schema says which field is wrong.
 */
export async function readFields(request: Request): Promise<Record<string, string>> {
  const contentType = request.headers.get("Content-Type") ?? "";
  const type = contentType.split(";")[0].trim().toLowerCase();
  const bytes = await readLimitedBytes(request);
  const text = new TextDecoder().decode(bytes);
  const looksLikeJson = /^\s*[{[]/.test(text);
  let raw: unknown;
  if (type === "application/x-www-form-urlencoded") {
    raw = Object.fromEntries(new URLSearchParams(text));
  } else if (type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();
    } catch {
      throw new ApiError(400, "The multipart body could not be read");
    }
    raw = Object.fromEntries([...form.entries()].filter(([, entry]) => typeof entry === "string"));
  } else if (
    JSON_TYPES.has(type) ||
    type.endsWith("+json") ||
    ((type === "" || type === "text/plain") && looksLikeJson)
  ) {
    if (text.trim() === "") raw = {};
    else {
      try {
        raw = JSON.parse(text);
      } catch {
        throw new ApiError(400, "The body is not valid JSON");
      }
    }
  } else if (text.trim() === "") {
    raw = {};
  } else {
    throw new ApiError(400, "Send the fields as JSON or as a URL-encoded form");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new ApiError(400, "Send the fields as a JSON object");
  // No prototype: a field named "__proto__" is just a field.
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === "string") fields[name] = value;
    else if (typeof value === "number" && Number.isFinite(value)) fields[name] = String(value);
  }
  return fields;
}

export function toFormData(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

export { englishText } from "~/i18n/translate.server";
export { isLingering, lingerOnUnread } from "~/utils/request-body.server";
export { isCrossSiteBrowserRequest, isSameOriginRequest } from "~/utils/origin.server";

import { codeRefusalAnswer } from "~/routes-support/phone-code.server";
import type { CodeRefusal } from "~/services/phone/codes.server";
import { apiFailure, englishText } from "../http.server";

/** A code that could not be sent, as an app is told: the pages' status and words, in English. */
export function codeRefusalResponse(refusal: CodeRefusal): Response {
  const { status, failure } = codeRefusalAnswer(refusal);
  const headers: Record<string, string> = failure.retryAfterSeconds
    ? { "Retry-After": String(failure.retryAfterSeconds) }
    : {};
  const minutes = Math.ceil((failure.retryAfterSeconds ?? 60) / 60);
  return apiFailure(status, englishText(failure.formError!, { minutes }), headers);
}

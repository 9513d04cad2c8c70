import { redirect } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import type { PhoneCodePurpose } from "~/db/schema";
import type { CodeRefusal } from "~/services/phone/codes.server";
import { startPhoneCode } from "~/services/phone/codes.server";
import { readNumberForCode } from "~/services/phone/phone-accounts.server";
import { looksLikePhoneNumber } from "~/services/phone/phone-shape";
import { networkOf } from "~/services/rate-limit.server";
import { isHoneypotFilled } from "~/services/validation";
import { clientAddress } from "~/utils/client.server";
import { safeRedirectPath } from "~/utils/redirect";
import { formFailure, SPAM, type FormFailure } from "./form-response.server";

/** The page where a code sent by SMS is typed. */
export function codePagePath(id: string): string {
  return `/phone-code/${id}`;
}

/**
 * What a person is told when a code cannot be sent, and with which status: the caps are "too many" (429
 * with when to come back), a number the gateway will not reach is the person's to fix (400), and a gateway
 * or budget that cannot send now is the service's (503).
 */
export function codeRefusalAnswer(refusal: CodeRefusal): { status: 400 | 429 | 503; failure: FormFailure } {
  switch (refusal.reason) {
    case "capNumber":
    case "capNetwork":
      return {
        status: 429,
        failure: {
          formError: `auth:phone.refused.${refusal.reason}`,
          retryAfterSeconds: refusal.retryAfterSeconds,
        },
      };
    case "invalid_number":
    case "dnd":
    case "opted_out":
      return { status: 400, failure: { formError: `auth:phone.refused.${refusal.reason}` } };
    default:
      return { status: 503, failure: { formError: "auth:phone.refused.unavailable", retryAfterSeconds: 60 } };
  }
}

/** The network a request speaks for: the caps on codes count by it. */
export function requestNetwork(request: Request): string {
  return networkOf(clientAddress(request));
}

/**
 * "Send me a code" at a sign-in door, and the reset by SMS: the written number gets a code (if an account
 * has it) and the person goes to the code page either way.
 */
export async function sendCodeToWrittenNumber(request: Request, form: FormData, purpose: "sign_in" | "reset") {
  const written = String(form.get("email") ?? "").slice(0, 254);
  const values = { email: written };
  if (isHoneypotFilled(form)) return formFailure(400, { formError: SPAM, values });
  if (!looksLikePhoneNumber(written))
    return formFailure(400, { fieldErrors: { email: ["auth:phone.codeNeedsNumber"] }, values });
  return sendCodeToNumber(request, {
    written,
    field: "email",
    values,
    purpose,
    redirectTo: purpose === "sign_in" ? safeRedirectPath(form.get("redirectTo"), "") || null : null,
  });
}

/**
 * A form's written number gets a code (where it can work) and the person goes to the code page; a number
 * that cannot get one is said beside `field`, a refusal (caps, gateway) above the form.
 */
export async function sendCodeToNumber(
  request: Request,
  input: {
    written: string;
    field: string;
    values: Record<string, string>;
    purpose: PhoneCodePurpose;
    accountId?: string;
    redirectTo?: string | null;
  },
) {
  const number = readNumberForCode(input.written);
  if (!number.ok) return formFailure(400, { fieldErrors: { [input.field]: [number.message] }, values: input.values });
  const { language } = await getRequestT(request, "auth");
  const started = await startPhoneCode(getDb(), {
    phone: number.e164,
    purpose: input.purpose,
    accountId: input.accountId ?? null,
    redirectTo: input.redirectTo ?? null,
    language,
    network: requestNetwork(request),
  });
  if (!started.ok) {
    const answer = codeRefusalAnswer(started);
    return formFailure(answer.status, { ...answer.failure, values: input.values });
  }
  return redirect(codePagePath(started.id), { status: 303 });
}

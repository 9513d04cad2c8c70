import { getDb } from "~/db/client.server";
import { startPhoneCode, resendPhoneCode } from "~/services/phone/codes.server";
import { codeRefusalResponse } from "./code-refusal.server";
import { readNumberForCode, redeemPhoneCode, setSmsNotices } from "~/services/phone/phone-accounts.server";
import { networkOf } from "~/services/rate-limit.server";
import { newPasswordSchema, parseForm } from "~/services/validation";
import { clientAddress } from "~/utils/client.server";
import type { ApiRoute, HandlerContext } from "../types";
import { apiFailure, apiJson, englishText, fieldMessages, readFields, toFormData } from "../http.server";
import { signedInAnswer } from "./accounts.server";

/**
 * The phone flows for apps: ask a code (sign-in, reset, a number added to the signed-in account), send it
 * again, give it back. The same rules, caps and answers as the pages (/register, /login, /reset and the
 * code page); a code is known to the app by its `codeId`, never by the number.
 */
const PURPOSES = { signin: "sign_in", reset: "reset" } as const;

async function askCode(
  { request, caller }: HandlerContext,
  purpose: "sign_in" | "reset" | "add_phone",
  fields: Record<string, string>,
) {
  const number = readNumberForCode(String(fields.phoneNumber ?? ""));
  if (!number.ok) return apiFailure(400, { phoneNumber: englishText(number.message) });
  const started = await startPhoneCode(getDb(), {
    phone: number.e164,
    purpose,
    accountId: purpose === "add_phone" ? caller!.account.id : null,
    language: "en",
    network: networkOf(clientAddress(request)),
  });
  if (!started.ok) return codeRefusalResponse(started);
  return apiJson(
    { success: true, message: englishText("auth:phone.codeSentApi"), codeId: started.id },
    { status: 202 },
  );
}

async function askSignInCode(context: HandlerContext) {
  const fields = await readFields(context.request);
  const purpose = PURPOSES[String(fields.purpose ?? "signin") as keyof typeof PURPOSES];
  if (!purpose) return apiFailure(400, { purpose: "purpose must be signin or reset" });
  return askCode(context, purpose, fields);
}

async function resend({ request }: HandlerContext) {
  const fields = await readFields(request);
  const sent = await resendPhoneCode(getDb(), String(fields.codeId ?? ""), {
    language: "en",
    network: networkOf(clientAddress(request)),
  });
  if (sent.ok) return apiJson({ success: true, codeId: sent.id }, { status: 202 });
  if (sent.reason === "unknown") return apiFailure(404, englishText("auth:phone.expired"));
  if (sent.reason === "tooSoon")
    return apiFailure(429, englishText("auth:phone.tooSoon"), { "Retry-After": String(sent.retryAfterSeconds) });
  return codeRefusalResponse(sent);
}

async function verify({ request, caller }: HandlerContext) {
  const fields = await readFields(request);
  const db = getDb();
  const codeId = String(fields.codeId ?? "").slice(0, 64);
  const code = String(fields.code ?? "").slice(0, 20);
  let newPassword: string | undefined;
  if (fields.password !== undefined || fields.password2 !== undefined) {
    const parsed = parseForm(newPasswordSchema, toFormData(fields));
    if (!parsed.success) return apiFailure(400, fieldMessages(parsed.fieldErrors));
    newPassword = parsed.data.password;
  }
  const redeemed = await redeemPhoneCode(
    db,
    codeId,
    code,
    { newPassword, newPin: fields.pin, signedInAccountId: caller?.account.id ?? null },
    { ipAddress: clientAddress(request) },
  );
  if (!redeemed.ok) {
    const messages = {
      wrong: [400, "auth:phone.wrong"],
      expired: [400, "auth:phone.expired"],
      taken: [409, "auth:phone.taken"],
      blocked: [403, "auth:phone.blocked"],
      passwordNeeded: [400, "auth:validation.passwordRequired"],
      pinNeeded: [400, "profiles:errors.pinFormat"],
    } as const;
    const [status, key] = messages[redeemed.reason];
    return apiJson(
      {
        success: false,
        message: englishText(key),
        ...(redeemed.reason === "wrong" ? { triesLeft: redeemed.triesLeft } : {}),
      },
      { status },
    );
  }
  if (redeemed.purpose === "sign_up" || redeemed.purpose === "sign_in")
    return signedInAnswer(request, redeemed.account, redeemed.account.role === "provider" ? "provider" : "member");
  const message =
    redeemed.purpose === "reset"
      ? "auth:reset.done"
      : redeemed.purpose === "pin_reset"
        ? "profiles:pin.saved"
        : "auth:phone.added";
  return apiJson({ success: true, message: englishText(message) });
}

async function smsNotices({ request, caller }: HandlerContext) {
  const fields = await readFields(request);
  const on = ["true", "1", "on"].includes(String(fields.on ?? "").toLowerCase());
  const off = ["false", "0", "off"].includes(String(fields.on ?? "").toLowerCase());
  if (!on && !off) return apiFailure(400, { on: "on must be true or false" });
  if (!setSmsNotices(getDb(), caller!.account, on)) return apiFailure(409, englishText("auth:phone.noticesNeedNumber"));
  return apiJson({ success: true, smsNotices: on });
}

export const phoneHandlers: ApiRoute[] = [
  { method: "POST", path: "/user/phone/code", access: "anyone", handle: askSignInCode },
  { method: "POST", path: "/user/phone/resend", access: "anyone", handle: resend },
  { method: "POST", path: "/user/phone/verify", access: "anyone", handle: verify },
  {
    method: "POST",
    path: "/user/phone/add",
    access: "signedIn",
    handle: async (context) => askCode(context, "add_phone", await readFields(context.request)),
  },
  { method: "PUT", path: "/user/sms-notices", access: "signedIn", handle: smsNotices },
];

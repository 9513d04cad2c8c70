import { createApiToken, roleFlags } from "~/auth/api-tokens.server";
import { authenticator, SignInError } from "~/auth/authenticator.server";
import { startSession } from "~/auth/session.server";
import { rememberDevice } from "~/auth/known-devices.server";
import { getDb } from "~/db/client.server";
import {
  createProvider,
  EMAIL_TAKEN,
  registerViewer,
  signInNameOf,
  type Account,
  type Door,
} from "~/services/accounts.server";
import { CLIENT_ADDRESS_HEADER, CLIENT_PROTOCOL_HEADER, clientAddress } from "~/utils/client.server";
import { parseForm, providerRegistrationSchema, registrationSchema, type FieldErrors } from "~/services/validation";
import { checkPublicFormInput } from "~/routes-support/form-response.server";
import { startPhoneSignUp } from "~/services/phone/phone-accounts.server";
import { networkOf } from "~/services/rate-limit.server";
import { codeRefusalResponse } from "./code-refusal.server";
import type { ApiRoute, HandlerContext } from "../types";
import { ApiError, apiJson, englishText, fieldMessages, readFields, toFormData } from "../http.server";

/** Sign-in and registration: the same doors, rules and rate limits as /login, /cp, /register and the admin's provider form. */

const FORWARDED_HEADERS = [CLIENT_ADDRESS_HEADER, CLIENT_PROTOCOL_HEADER, "User-Agent", "Cookie"];

/**
 * The sign-in form as the door's form strategy reads it: the same strategy
 * (validation, honeypot, rate limit, door rules) signs in page and API callers.
 */
function asSignInForm(request: Request, fields: Record<string, string>): Request {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Request(request.url, { method: "POST", headers, body: new URLSearchParams(fields) });
}

export function userDetails(account: Account) {
  return { name: account.name, email: account.email, phoneNumber: account.phoneNumber, Id: account.id };
}

async function signIn(request: Request, door: Door): Promise<Response> {
  const fields = await readFields(request);
  let account: Account;
  try {
    account = await authenticator.authenticate(door, asSignInForm(request, fields));
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds) headers["Retry-After"] = String(error.retryAfterSeconds);
    const message = englishText(error.messageKey, { seconds: error.retryAfterSeconds, ...error.values });
    const blocked = error.messageKey === "auth:errors.blocked" || error.messageKey === "auth:errors.pending";
    return apiJson({ success: false, message, isBlocked: blocked }, { status: error.status, headers });
  }
  return signedInAnswer(request, account, door);
}

/** A signed-in caller's answer at a door: the token, the role's flags and the details; the session and known-device cookies. */
export async function signedInAnswer(request: Request, account: Account, door: Door): Promise<Response> {
  const cookie = await startSession(account.id, {
    userAgent: request.headers.get("User-Agent"),
    ipAddress: clientAddress(request),
  });
  const token = await createApiToken(account);
  const flags = roleFlags(account.role);
  const body =
    door === "member"
      ? {
          success: true,
          token,
          isUser: flags.isUser,
          isAdmin: flags.isAdmin,
          isBlocked: false,
          userDetails: userDetails(account),
        }
      : {
          success: true,
          token,
          isCp: flags.isCp,
          isBlocked: false,
          userDetails: { ...userDetails(account), providerName: account.providerName },
        };
  const headers = new Headers({ "Set-Cookie": cookie });
  const known = await rememberDevice(getDb(), request, signInNameOf(account));
  if (known) headers.append("Set-Cookie", known);
  return apiJson(body, { headers });
}

/** A refused registration: 409 when the only problem is an email already in use, else 400; messages as an object of fields. */
function registrationRefused(fieldErrors: FieldErrors, envelope: (body: object) => object): Response {
  const onlyEmailTaken = Object.keys(fieldErrors).length === 1 && fieldErrors.email?.[0] === EMAIL_TAKEN;
  return apiJson(envelope({ success: false, message: fieldMessages(fieldErrors) }), {
    status: onlyEmailTaken ? 409 : 400,
  });
}

async function registerUser({ request }: HandlerContext): Promise<Response> {
  const form = toFormData(await readFields(request));
  const checked = await checkPublicFormInput(request, form, {
    limit: "register",
    schema: registrationSchema,
    fields: ["name", "phoneNumber", "email"],
  });
  if (!checked.ok) {
    const { failure, status } = checked;
    if (failure.fieldErrors) return registrationRefused(failure.fieldErrors, (body) => body);
    const headers: Record<string, string> = failure.retryAfterSeconds
      ? { "Retry-After": String(failure.retryAfterSeconds) }
      : {};
    throw new ApiError(
      status,
      englishText(failure.formError ?? "auth:validation.spam", { seconds: failure.retryAfterSeconds }),
      headers,
    );
  }
  const details = checked.data;
  if (!details.email) {
    // No email: a code goes to the number; POST /api/user/phone/verify with it makes the account.
    const started = await startPhoneSignUp(getDb(), details, {
      language: "en",
      network: networkOf(checked.address),
    });
    if (started.ok)
      return apiJson(
        { success: true, message: englishText("auth:phone.codeSentApi"), codeId: started.id },
        { status: 202 },
      );
    if (started.fieldErrors) return registrationRefused(started.fieldErrors, (body) => body);
    return codeRefusalResponse(started);
  }
  const result = await registerViewer(getDb(), { ...details, email: details.email }, { ipAddress: checked.address });
  if (!result.ok) return registrationRefused(result.fieldErrors, (body) => body);
  return apiJson({ success: true, message: englishText("auth:register.success") }, { status: 201 });
}

/** The original answered this one inside `data`; both shapes are sent so either reading works. */
const withDataEnvelope = (body: object) => ({ ...body, data: body });

async function registerProvider({ request, caller }: HandlerContext): Promise<Response> {
  const form = toFormData(await readFields(request));
  const parsed = parseForm(providerRegistrationSchema, form);
  if (!parsed.success) return registrationRefused(parsed.fieldErrors, withDataEnvelope);
  const result = await createProvider(getDb(), parsed.data, {
    actorId: caller!.account.id,
    ipAddress: clientAddress(request),
  });
  if (!result.ok) return registrationRefused(result.fieldErrors, withDataEnvelope);
  return apiJson(
    withDataEnvelope({ success: true, message: englishText("admin:registerProvider.created"), _id: result.value.id }),
    { status: 201 },
  );
}

export const accountHandlers: ApiRoute[] = [
  { method: "POST", path: "/user/login", access: "anyone", handle: ({ request }) => signIn(request, "member") },
  { method: "POST", path: "/cp/login", access: "anyone", handle: ({ request }) => signIn(request, "provider") },
  { method: "POST", path: "/user/register", access: "anyone", handle: registerUser },
  { method: "POST", path: "/cp/register", access: ["admin"], handle: registerProvider },
];

import { createApiToken } from "~/auth/api-tokens.server";
import { startSession } from "~/auth/session.server";
import { getDb } from "~/db/client.server";
import { changePassword, getAccountById, updateProfile, type Account } from "~/services/accounts.server";
import { clientAddress } from "~/utils/client.server";
import { changePasswordSchema, parseForm, profileSchema, providerProfileSchema } from "~/services/validation";
import type { ApiRoute, HandlerContext } from "../types";
import {
  ApiError,
  apiJson,
  englishText,
  fieldMessages,
  NOT_ALLOWED,
  NOT_FOUND,
  readFields,
  toFormData,
} from "../http.server";

/** Profiles and passwords, through the same account service as /editprofile and /provider/profile. */

/**
 * The account a "that user, admin" path names: the caller's own, or any
 * account for an administrator. Someone else's id is 403 for others, whether
 * or not it exists, so the path cannot be used to probe for accounts.
 */
function targetAccount({ params, caller }: HandlerContext, name: string, options: { adminMayAct: boolean }): Account {
  const id = params[name];
  const self = caller!.account;
  if (id !== self.id && !(options.adminMayAct && self.role === "admin")) throw new ApiError(403, NOT_ALLOWED);
  const target = id === self.id ? self : getAccountById(getDb(), id);
  if (!target) throw new ApiError(404, NOT_FOUND);
  return target;
}

function getProfile(context: HandlerContext) {
  const target = targetAccount(context, "userId", { adminMayAct: true });
  return apiJson({
    success: true,
    name: target.name,
    email: target.email,
    phoneNumber: target.phoneNumber,
    ...(target.role === "provider" ? { providerName: target.providerName } : {}),
  });
}

async function saveProfile(
  context: HandlerContext,
  target: Account,
  schema: typeof profileSchema | typeof providerProfileSchema,
) {
  const { request, caller } = context;
  const parsed = parseForm(schema, toFormData(await readFields(request)));
  if (!parsed.success) return apiJson({ success: false, message: fieldMessages(parsed.fieldErrors) }, { status: 400 });
  const result = updateProfile(getDb(), target.id, parsed.data, {
    actorId: caller!.account.id,
    ipAddress: clientAddress(request),
  });
  if (!result.ok) return apiJson({ success: false, message: fieldMessages(result.fieldErrors) }, { status: 409 });
  return apiJson({ success: true, message: englishText("auth:profile.changed") });
}

async function editUserProfile(context: HandlerContext) {
  return saveProfile(context, targetAccount(context, "userId", { adminMayAct: true }), profileSchema);
}

async function editProviderProfile(context: HandlerContext) {
  const target = targetAccount(context, "providerId", { adminMayAct: true });
  if (target.role !== "provider") throw new ApiError(404, NOT_FOUND);
  return saveProfile(context, target, providerProfileSchema);
}

/**
 * Only the account itself changes its password (an administrator sends a
 * reset link instead). Every session and token ends; the caller gets a fresh
 * token, and a fresh cookie when it called with one.
 */
async function changeOwnPassword(context: HandlerContext) {
  const { request, caller } = context;
  const target = targetAccount(context, "userId", { adminMayAct: false });
  const parsed = parseForm(changePasswordSchema, toFormData(await readFields(request)));
  if (!parsed.success) return apiJson({ success: false, message: fieldMessages(parsed.fieldErrors) }, { status: 400 });
  const address = clientAddress(request);
  const result = await changePassword(getDb(), target.id, parsed.data, { actorId: target.id, ipAddress: address });
  if (!result.ok) return apiJson({ success: false, message: fieldMessages(result.fieldErrors) }, { status: 400 });
  const account = getAccountById(getDb(), target.id)!;
  const headers: Record<string, string> = {};
  if (caller!.via === "cookie")
    headers["Set-Cookie"] = await startSession(account.id, {
      userAgent: request.headers.get("User-Agent"),
      ipAddress: address,
    });
  return apiJson(
    { success: true, message: englishText("auth:profile.passwordChanged"), token: await createApiToken(account) },
    { headers },
  );
}

export const profileHandlers: ApiRoute[] = [
  { method: "GET", path: "/user/profile/{userId}", access: "signedIn", handle: getProfile },
  { method: "PUT", path: "/user/profile/edit/{userId}", access: "signedIn", handle: editUserProfile },
  { method: "PUT", path: "/user/profile/password/{userId}", access: "signedIn", handle: changeOwnPassword },
  { method: "PUT", path: "/cp/profile/edit/{providerId}", access: ["provider", "admin"], handle: editProviderProfile },
];

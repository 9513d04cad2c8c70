import type { SignedInAccount } from "~/auth/guards.server";
import { startSession } from "~/auth/session.server";
import { getDb } from "~/db/client.server";
import { changePassword, updateProfile } from "~/services/accounts.server";
import { clientAddress } from "~/utils/client.server";
import { changePasswordSchema, parseForm, profileSchema, providerProfileSchema } from "~/services/validation";
import { formFailure, pickValues } from "~/routes-support/form-response.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/read-form.server";
import { formatPhoneNumber } from "~/services/phone/numbers.server";
import { setSmsNotices } from "~/services/phone/phone-accounts.server";
import { sendCodeToNumber } from "./phone-code.server";

/**
 * The two forms of a profile page (viewer /editprofile, provider
 * /provider/profile), told apart by `intent`. Kept here so both pages save
 * the same way.
 */
export const PROFILE_FIELDS = ["name", "email", "phoneNumber", "providerName"] as const;

/** What a profile page shows of the account (both pages alike). */
export function profileView(user: SignedInAccount) {
  return {
    name: user.name,
    email: user.email,
    phoneNumber: user.phoneNumber,
    verifiedPhone: user.verifiedPhone ? formatPhoneNumber(user.verifiedPhone) : null,
    smsNotices: user.smsNotices,
  };
}

export async function handleProfileForms(
  request: Request,
  user: SignedInAccount,
  options: {
    successPath: string;
    passwordPath: string;
    /** Said instead of a 500 page when saving fails (the provider's profile promises a message of its own). */
    serverErrorKey?: string;
  },
) {
  const form = await readForm(request);
  if (!options.serverErrorKey) return saveProfileForms(request, form, user, options);
  try {
    return await saveProfileForms(request, form, user, options);
  } catch (error) {
    if (error instanceof Response) throw error;
    // The person sees the promised message; the operator sees the cause.
    console.error("[profile] save failed", error);
    return formFailure(500, {
      formError: options.serverErrorKey,
      values: { ...pickValues(form, PROFILE_FIELDS), intent: String(form.get("intent") ?? "profile") },
    });
  }
}

async function saveProfileForms(
  request: Request,
  form: FormData,
  user: SignedInAccount,
  options: { successPath: string; passwordPath: string },
) {
  const intent = form.get("intent");
  const address = clientAddress(request);
  const db = getDb();

  if (intent === "addPhone") {
    const written = String(form.get("verifyPhone") ?? "").slice(0, 40);
    return sendCodeToNumber(request, {
      written,
      field: "verifyPhone",
      values: { intent: "addPhone", verifyPhone: written },
      purpose: "add_phone",
      accountId: user.id,
    });
  }

  if (intent === "smsNotices") {
    const on = form.get("smsNotices") === "on";
    if (!setSmsNotices(db, user, on)) return formFailure(400, { formError: "auth:phone.noticesNeedNumber" });
    return redirectWithToast(
      options.passwordPath,
      { type: "success", key: on ? "auth:phone.profile.noticesTurnedOn" : "auth:phone.profile.noticesTurnedOff" },
      { status: 303 },
    );
  }

  if (intent === "password") {
    const parsed = parseForm(changePasswordSchema, form);
    if (!parsed.success) return formFailure(400, { fieldErrors: parsed.fieldErrors, values: { intent: "password" } });
    const result = await changePassword(db, user.id, parsed.data, { actorId: user.id, ipAddress: address });
    if (!result.ok) return formFailure(400, { fieldErrors: result.fieldErrors, values: { intent: "password" } });
    // Every session ended with the old password; this one continues under a new id.
    const cookie = await startSession(user.id, { userAgent: request.headers.get("User-Agent"), ipAddress: address });
    return redirectWithToast(
      options.passwordPath,
      { type: "success", key: "auth:profile.passwordChanged" },
      { status: 303, headers: { "Set-Cookie": cookie } },
    );
  }

  const values = { ...pickValues(form, PROFILE_FIELDS), intent: "profile" };
  const schema = user.role === "provider" ? providerProfileSchema : profileSchema;
  const parsed = parseForm(schema, form);
  if (!parsed.success) return formFailure(400, { fieldErrors: parsed.fieldErrors, values });
  const result = updateProfile(db, user.id, parsed.data, { actorId: user.id, ipAddress: address });
  if (!result.ok) return formFailure(400, { fieldErrors: result.fieldErrors, values });
  return redirectWithToast(options.successPath, { type: "success", key: "auth:profile.changed" }, { status: 303 });
}

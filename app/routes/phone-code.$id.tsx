import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { PinField } from "~/components/profiles/pin-field";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { landingPath, signedInHeaders } from "~/auth/authenticator.server";
import { getOptionalUser } from "~/auth/guards.server";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { AuthCard } from "~/components/auth/sign-in-form";
import { Link } from "~/components/ui/link";
import { Field, FormError, SubmitButton, useErrorToasts } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { afterSignInPath } from "~/services/profiles.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { getRequestT } from "~/i18n/translate.server";
import { useTranslation } from "~/i18n/use-translation";
import { codePagePath, codeRefusalAnswer, requestNetwork } from "~/routes-support/phone-code.server";
import { formFailure, passRetryAfter, type FormFailure } from "~/routes-support/form-response.server";
import { CODE_TRIES, describePhoneCode, resendPhoneCode } from "~/services/phone/codes.server";
import { maskPhoneNumber } from "~/services/phone/numbers.server";
import { redeemPhoneCode } from "~/services/phone/phone-accounts.server";
import { newPasswordSchema, parseForm } from "~/services/validation";
import { clientAddress } from "~/utils/client.server";
import { metaTitleMeta } from "~/utils/meta";
import { readForm } from "~/utils/read-form.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const headers = passRetryAfter;

export const meta = metaTitleMeta;

/**
 * The page where a code sent by SMS is typed: for a sign-up, a sign-in, a
 * reset (with the new password) or a number added on the profile. Its address
 * is random and shows the number half hidden; it looks the same whether or
 * not the number has an account.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "auth");
  const state = describePhoneCode(getDb(), params.id ?? "");
  if (!state) throw data({ metaTitle: t("phone.metaTitle") }, { status: 404 });
  return {
    metaTitle: t("phone.metaTitle"),
    number: maskPhoneNumber(state.phone),
    purpose: state.purpose,
    expired: state.expired,
    resendInSeconds: state.resendInSeconds,
    tries: CODE_TRIES,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const db = getDb();
  const id = params.id ?? "";
  const form = await readForm(request);
  const { language } = await getRequestT(request, "auth");
  if (form.get("intent") === "resend") {
    const sent = await resendPhoneCode(db, id, { language, network: requestNetwork(request) });
    if (sent.ok)
      return redirectWithToast(codePagePath(sent.id), { type: "success", key: "auth:phone.resent" }, { status: 303 });
    if (sent.reason === "unknown") return formFailure(404, { formError: "auth:phone.expired" });
    if (sent.reason === "tooSoon")
      return formFailure(429, { formError: "auth:phone.tooSoon", retryAfterSeconds: sent.retryAfterSeconds });
    const answer = codeRefusalAnswer(sent);
    return formFailure(answer.status, answer.failure);
  }

  const code = String(form.get("code") ?? "").slice(0, 20);
  if (!/^\s*\d[\d\s-]{4,10}\d\s*$/.test(code) || code.replace(/\D/g, "").length !== 6)
    return formFailure(400, { fieldErrors: { code: ["auth:phone.codeShape"] } });
  const state = describePhoneCode(db, id);
  if (!state) return formFailure(404, { formError: "auth:phone.expired" });
  let newPassword: string | undefined;
  if (state.purpose === "reset") {
    const parsed = parseForm(newPasswordSchema, form);
    if (!parsed.success) return formFailure(400, { fieldErrors: parsed.fieldErrors });
    newPassword = parsed.data.password;
  }
  const user = await getOptionalUser(request);
  const redeemed = await redeemPhoneCode(
    db,
    id,
    code,
    { newPassword, newPin: String(form.get("pin") ?? "").trim(), signedInAccountId: user?.id ?? null },
    { ipAddress: clientAddress(request) },
  );
  if (!redeemed.ok) {
    switch (redeemed.reason) {
      case "wrong":
        return formFailure(400, {
          fieldErrors: { code: [redeemed.triesLeft === 1 ? "auth:phone.wrongLast" : "auth:phone.wrong"] },
        });
      case "taken":
        return formFailure(409, { formError: "auth:phone.taken" });
      case "blocked":
        return formFailure(403, { formError: "auth:phone.blocked" });
      case "passwordNeeded":
        return formFailure(400, { fieldErrors: { password: ["auth:validation.passwordRequired"] } });
      case "pinNeeded":
        return formFailure(400, { fieldErrors: { pin: ["auth:phone.pinShape"] } });
      default:
        return formFailure(400, { formError: "auth:phone.expired" });
    }
  }
  const { account } = redeemed;
  switch (redeemed.purpose) {
    case "sign_up":
      return redirectWithToast(
        safeRedirectPath(redeemed.redirectTo, landingPath("viewer")),
        { type: "success", key: "auth:register.welcome", values: { name: account.name } },
        { status: 303, headers: await signedInHeaders(request, account) },
      );
    case "sign_in":
      return redirect(
        afterSignInPath(getDb(), account, safeRedirectPath(redeemed.redirectTo, landingPath(account.role))),
        {
          status: 303,
          headers: await signedInHeaders(request, account),
        },
      );
    case "reset":
      return redirectWithToast("/login", { type: "success", key: "auth:reset.done" }, { status: 303 });
    case "pin_reset":
      return redirectWithToast("/profiles", { type: "success", key: "auth:phone.pinSaved" }, { status: 303 });
    case "add_phone":
      return redirectWithToast(
        account.role === "provider" ? "/provider/profile" : "/editprofile",
        { type: "success", key: "auth:phone.added" },
        { status: 303 },
      );
  }
}

export default function PhoneCode() {
  const { t } = useTranslation("auth");
  const { number, purpose, expired, resendInSeconds } = useLoaderData<typeof loader>();
  const failure = useActionData<FormFailure>();
  useErrorToasts(failure);
  const gone = expired || failure?.formError === "auth:phone.expired";
  return (
    <AuthCard title={t(`phone.title.${purpose}`)} intro={t("phone.intro", { number })}>
      {gone ? (
        <p role="alert" className="mb-4 text-slate-100">
          {t("phone.expired")}
        </p>
      ) : (
        <Form method="post" className="grid gap-4" noValidate>
          <FormError errors={failure} />
          <Field
            label={t("phone.codeLabel")}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={12}
            required
            errors={failure?.fieldErrors?.code}
          />
          {purpose === "reset" ? <NewPasswordFields errors={failure?.fieldErrors} label="newPassword" /> : null}
          {purpose === "pin_reset" ? <PinField label={t("phone.newPin")} errors={failure?.fieldErrors?.pin} /> : null}
          <SubmitButton intent="verify" pendingText={t("phone.pending")}>
            {t(`phone.submit.${purpose}`)}
          </SubmitButton>
        </Form>
      )}
      <Form method="post" className="mt-4 grid gap-2 text-sm text-slate-300">
        <p>{resendInSeconds > 0 && !gone ? t("phone.resendWait", { seconds: resendInSeconds }) : t("phone.noCode")}</p>
        <SubmitButton
          intent="resend"
          pendingText={t("phone.resending")}
          className="justify-self-start rounded border border-white/20 px-4 py-2 font-semibold text-slate-100 hover:bg-white/10 aria-disabled:opacity-70"
        >
          {t("phone.resend")}
        </SubmitButton>
        <Link to="/login" className="text-brand-300 hover:underline">
          {t("reset.backToLogin")}
        </Link>
      </Form>
    </AuthCard>
  );
}

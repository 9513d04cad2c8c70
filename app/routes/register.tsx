import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useSearchParams } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { landingPath, signedInHeaders } from "~/auth/authenticator.server";
import { getOptionalUser } from "~/auth/guards.server";
import { AuthCard } from "~/components/auth/sign-in-form";
import { FormError, SubmitButton, useErrorToasts } from "~/components/ui/form";
import { AccountFields } from "~/components/auth/account-fields";
import { Honeypot } from "~/components/ui/honeypot";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { registerViewer } from "~/services/accounts.server";
import { startPhoneSignUp } from "~/services/phone/phone-accounts.server";
import { codePagePath, codeRefusalAnswer, requestNetwork } from "~/routes-support/phone-code.server";
import { registrationSchema } from "~/services/validation";
import { checkPublicForm, formFailure, type FormFailure, passRetryAfter } from "~/routes-support/form-response.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["auth"] };

const FIELDS = ["name", "phoneNumber", "email"] as const;

export const headers = passRetryAfter;

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) throw redirect(landingPath(user.role));
  const { t } = await getRequestT(request, "auth");
  return { metaTitle: t("register.metaTitle") };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const checked = await checkPublicForm(request, form, {
    limit: "register",
    schema: registrationSchema,
    fields: FIELDS,
  });
  if (!checked.ok) return checked.response;
  const { data: details, values, address } = checked;
  if (!details.email) {
    // No email: the phone number is the way in, proven by a code; the account is made when the code comes back.
    const { language } = await getRequestT(request, "auth");
    const started = await startPhoneSignUp(getDb(), details, {
      language,
      network: requestNetwork(request),
      redirectTo: safeRedirectPath(form.get("redirectTo"), "") || null,
    });
    if (started.ok) return redirect(codePagePath(started.id), { status: 303 });
    if (started.fieldErrors) return formFailure(400, { fieldErrors: started.fieldErrors, values });
    const answer = codeRefusalAnswer(started);
    return formFailure(answer.status, { ...answer.failure, values });
  }
  const result = await registerViewer(getDb(), { ...details, email: details.email }, { ipAddress: address });
  if (!result.ok) return formFailure(400, { fieldErrors: result.fieldErrors, values });

  // The new viewer is signed in at once and goes on where they were going (else to the films).
  const target = safeRedirectPath(form.get("redirectTo"), landingPath("viewer"));
  return redirectWithToast(
    target,
    { type: "success", key: "auth:register.welcome", values: { name: details.name } },
    { status: 303, headers: await signedInHeaders(request, result.value) },
  );
}

export default function Register() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<FormFailure<Record<(typeof FIELDS)[number], string>>>();
  const [searchParams] = useSearchParams();
  useErrorToasts(actionData);
  const errors = actionData?.fieldErrors;
  const values = actionData?.values;
  return (
    <AuthCard title={t("register.title")} intro={t("register.intro")}>
      <Form method="post" className="grid gap-4" noValidate>
        <FormError errors={actionData} />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <Honeypot />
        <AccountFields fields={["name", "phoneNumber", "email"]} optional={["email"]} values={values} errors={errors} />
        <p className="-mt-2 text-sm text-slate-400">{t("register.phoneHint")}</p>
        <NewPasswordFields errors={errors} />
        <SubmitButton pendingText={t("register.pending")}>{t("register.submit")}</SubmitButton>
        <p className="text-sm text-slate-300">
          {t("register.haveAccount")}{" "}
          <Link to="/login" className="text-brand-300 hover:underline">
            {t("register.loginLink")}
          </Link>
        </p>
      </Form>
    </AuthCard>
  );
}

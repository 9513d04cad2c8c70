import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { AuthCard } from "~/components/auth/sign-in-form";
import { FormError, SubmitButton, useErrorToasts } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { checkResetToken, resetPasswordWithToken } from "~/services/password-reset.server";
import { clientAddress } from "~/utils/client.server";
import { consumeRateLimit } from "~/services/rate-limit.server";
import { newPasswordSchema, parseForm } from "~/services/validation";
import { formFailure, TOO_MANY_TRIES, type FormFailure, passRetryAfter } from "~/routes-support/form-response.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const headers = passRetryAfter;

// The token is in the address; the site-wide Referrer-Policy (strict-origin-when-cross-origin)
// keeps it out of other sites' logs. A no-referrer policy here would make the browser send
// `Origin: null` with the form, which Remix refuses as cross-site.
export const meta = metaTitleMeta;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "auth");
  const status = checkResetToken(getDb(), params.token ?? "");
  return data({ metaTitle: t("reset.metaTitle"), valid: status.valid }, { status: status.valid ? 200 : 404 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const address = clientAddress(request);
  const limit = await consumeRateLimit("passwordReset", { address });
  if (!limit.ok) return formFailure(429, { formError: TOO_MANY_TRIES, retryAfterSeconds: limit.retryAfterSeconds });
  const form = await readForm(request);
  const parsed = parseForm(newPasswordSchema, form);
  if (!parsed.success) return formFailure(400, { fieldErrors: parsed.fieldErrors });
  const result = await resetPasswordWithToken(getDb(), params.token ?? "", parsed.data.password, {
    ipAddress: address,
  });
  if (!result.ok) return formFailure(400, { formError: "auth:reset.invalidLink" });
  return redirectWithToast("/login", { type: "success", key: "auth:reset.done" }, { status: 303 });
}

export default function ResetWithToken() {
  const { t } = useTranslation("auth");
  const { valid } = useLoaderData<typeof loader>();
  const actionData = useActionData<FormFailure>();
  useErrorToasts(actionData);
  if (!valid || actionData?.formError === "auth:reset.invalidLink") {
    return (
      <AuthCard title={t("reset.newTitle")}>
        <p role="alert" className="text-slate-100">
          {t("reset.invalidLink")}
        </p>
        <Link to="/reset" className="mt-4 inline-block text-brand-300 hover:underline">
          {t("reset.requestAnother")}
        </Link>
      </AuthCard>
    );
  }
  const errors = actionData?.fieldErrors;
  return (
    <AuthCard title={t("reset.newTitle")} intro={t("reset.newIntro")}>
      <Form method="post" className="grid gap-4" noValidate>
        <FormError errors={actionData} />
        <NewPasswordFields errors={errors} label="newPassword" />
        <SubmitButton pendingText={t("reset.newPending")}>{t("reset.newSubmit")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { Form, useActionData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { AuthCard } from "~/components/auth/sign-in-form";
import { AccountFields } from "~/components/auth/account-fields";
import { FormError, SubmitButton, useErrorToasts } from "~/components/ui/form";
import { Honeypot } from "~/components/ui/honeypot";
import { getRequestT } from "~/i18n/translate.server";
import { queuePasswordResetMail } from "~/jobs/mail-jobs.server";
import { resetRequestSchema } from "~/services/validation";
import { checkPublicForm, type FormFailure, passRetryAfter } from "~/routes-support/form-response.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";
import { sendCodeToWrittenNumber } from "~/routes-support/phone-code.server";
import { looksLikePhoneNumber } from "~/services/phone/phone-shape";

export const handle: TranslationHandle = { i18n: ["auth"] };

export const headers = passRetryAfter;

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "auth");
  return { metaTitle: t("reset.metaTitle") };
}

/** Ask for a reset link. The answer is the same whether or not an account uses the email. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const checked = await checkPublicForm(request, form, {
    limit: "passwordReset",
    schema: resetRequestSchema,
    fields: ["email"] as const,
  });
  if (!checked.ok) return checked.response;
  const { data: wanted, address } = checked;
  // A phone number: a code by SMS, typed with the new password on the code page.
  if (looksLikePhoneNumber(wanted.email)) return sendCodeToWrittenNumber(request, form, "reset");
  const { language } = await getRequestT(request, "auth");
  // Answered at once, the same for every email: the lookup and the mail happen in the job queue.
  queuePasswordResetMail(wanted.email, { language, ipAddress: address });
  return { sent: true as const };
}

export default function ResetRequest() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const failure =
    actionData && "sent" in actionData ? null : (actionData as FormFailure<{ email: string }> | undefined);
  useErrorToasts(failure);
  if (actionData && "sent" in actionData) {
    return (
      <AuthCard title={t("reset.title")}>
        <p role="status" className="text-slate-100">
          {t("reset.sent")}
        </p>
        <Link to="/login" className="mt-4 inline-block text-brand-300 hover:underline">
          {t("reset.backToLogin")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("reset.title")} intro={t("reset.intro")}>
      <Form method="post" className="grid gap-4" noValidate>
        <FormError errors={failure} />
        <Honeypot />
        <AccountFields fields={["signInName"]} values={failure?.values} errors={failure?.fieldErrors} />
        <SubmitButton pendingText={t("reset.pending")}>{t("reset.submit")}</SubmitButton>
        <Link to="/login" className="text-sm text-brand-300 hover:underline">
          {t("reset.backToLogin")}
        </Link>
      </Form>
    </AuthCard>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { Form, useActionData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { AuthCard } from "~/components/auth/sign-in-form";
import { AccountFields } from "~/components/auth/account-fields";
import { FormError, SubmitButton, useErrorToasts } from "~/components/ui/form";
import { Honeypot } from "~/components/ui/honeypot";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { applyAsProvider } from "~/services/accounts.server";
import { providerRegistrationSchema } from "~/services/validation";
import { checkPublicForm, formFailure, type FormFailure, passRetryAfter } from "~/routes-support/form-response.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["auth"] };

const FIELDS = ["providerName", "email", "phoneNumber"] as const;

export const headers = passRetryAfter;

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const { t } = await getRequestT(request, "auth");
  return { metaTitle: t("apply.metaTitle") };
}

/** An application to become a content creator: stored pending (and blocked) until an administrator approves it. */
export async function action({ request }: ActionFunctionArgs) {
  const checked = await checkPublicForm(request, await readForm(request), {
    limit: "register",
    schema: providerRegistrationSchema,
    fields: FIELDS,
  });
  if (!checked.ok) return checked.response;
  const { data: details, values, address } = checked;
  const result = await applyAsProvider(getDb(), details, { ipAddress: address });
  if (!result.ok) return formFailure(400, { fieldErrors: result.fieldErrors, values });
  return redirectWithToast("/cp", { type: "success", key: "auth:apply.success" }, { status: 303 });
}

export default function ContentProviderApplication() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<FormFailure<Record<(typeof FIELDS)[number], string>>>();
  useErrorToasts(actionData);
  const errors = actionData?.fieldErrors;
  const values = actionData?.values;
  return (
    <AuthCard title={t("apply.title")} intro={t("apply.intro")}>
      <Form method="post" className="grid gap-4" noValidate>
        <FormError errors={actionData} />
        <Honeypot />
        <AccountFields
          fields={["providerName", "email", "phoneNumber"]}
          labels={{ email: "fields.businessEmail" }}
          values={values}
          errors={errors}
        />
        <NewPasswordFields errors={errors} />
        <SubmitButton pendingText={t("apply.pending")}>{t("apply.submit")}</SubmitButton>
        <p className="text-sm text-slate-300">
          <Link to="/cp" className="text-brand-300 hover:underline">
            {t("cp.signInTitle")}
          </Link>
        </p>
      </Form>
    </AuthCard>
  );
}

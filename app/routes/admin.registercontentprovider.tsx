import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { AccountFields } from "~/components/auth/account-fields";
import { FormError, SubmitButton, useErrorToasts } from "~/components/ui/form";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { createProvider } from "~/services/accounts.server";
import { clientAddress } from "~/utils/client.server";
import { parseForm, providerRegistrationSchema } from "~/services/validation";
import { formFailure, pickValues, type FormFailure } from "~/routes-support/form-response.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { TranslationHandle } from "~/i18n/page-translations";
import { readForm } from "~/utils/read-form.server";

export const handle: TranslationHandle = { i18n: ["admin", "auth"] };

const FIELDS = ["providerName", "email", "phoneNumber"] as const;

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { t } = await getRequestT(request, "admin");
  return { metaTitle: t("registerProvider.metaTitle") };
}

/** An administrator registers a provider directly: approved, able to sign in at /cp at once. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const values = pickValues(form, FIELDS);
  const parsed = parseForm(providerRegistrationSchema, form);
  if (!parsed.success) return formFailure(400, { fieldErrors: parsed.fieldErrors, values });
  const result = await createProvider(getDb(), parsed.data, { actorId: admin.id, ipAddress: clientAddress(request) });
  if (!result.ok) return formFailure(400, { fieldErrors: result.fieldErrors, values });
  return redirectWithToast(
    "/admin/providerslist",
    { type: "success", key: "admin:registerProvider.created" },
    { status: 303 },
  );
}

export default function RegisterContentProvider() {
  const { t } = useTranslation("admin");
  const actionData = useActionData<FormFailure<Record<(typeof FIELDS)[number], string>>>();
  useErrorToasts(actionData);
  const errors = actionData?.fieldErrors;
  const values = actionData?.values;
  return (
    <section className="max-w-xl">
      <h1 className="text-3xl font-bold">{t("registerProvider.title")}</h1>
      <p className="mt-2 text-sm text-slate-300">{t("registerProvider.intro")}</p>
      <Form method="post" className="mt-6 grid gap-4" noValidate>
        <FormError errors={actionData} />
        <AccountFields
          fields={["providerName", "email", "phoneNumber"]}
          labels={{ email: "fields.businessEmail" }}
          values={values}
          errors={errors}
          autoComplete={false}
        />
        <NewPasswordFields errors={errors} />
        <SubmitButton pendingText={t("registerProvider.pending")}>{t("registerProvider.submit")}</SubmitButton>
      </Form>
    </section>
  );
}

import { Form, useActionData, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Field, FormError, SubmitButton, useErrorToasts, type FormErrors } from "~/components/ui/form";
import { Honeypot } from "~/components/ui/honeypot";

type SignInActionData = FormErrors & { values?: { email?: string } };

/** The email + password form of both doors; the action decides which door it is. */
export function SignInForm({ footer }: { footer?: ReactNode }) {
  const { t } = useTranslation("auth");
  const actionData = useActionData<SignInActionData>();
  const [searchParams] = useSearchParams();
  useErrorToasts(actionData);
  return (
    <Form method="post" className="grid gap-4" noValidate>
      <FormError errors={actionData} />
      <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
      <Honeypot />
      <Field
        label={t("fields.email")}
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={actionData?.values?.email ?? ""}
        errors={actionData?.fieldErrors?.email}
      />
      <Field
        label={t("fields.password")}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        errors={actionData?.fieldErrors?.password}
      />
      <SubmitButton pendingText={t("login.pending")}>{t("login.submit")}</SubmitButton>
      {footer}
    </Form>
  );
}

/** The narrow card the account pages sit in. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-12">
      <h1 className="text-3xl font-bold">{title}</h1>
      {intro ? <p className="mt-2 text-slate-300">{intro}</p> : null}
      <div className="mt-6 rounded-lg border border-white/10 bg-ink-900/60 p-6">{children}</div>
    </section>
  );
}

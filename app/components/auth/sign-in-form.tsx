import { Form, useActionData, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { AccountFields } from "./account-fields";
import { Field, FormError, SubmitButton, useErrorToasts, type FormErrors } from "~/components/ui/form";
import { Honeypot } from "~/components/ui/honeypot";

type SignInActionData = FormErrors & {
  values?: { email?: string };
  blocked?: { email: string; phone: string };
};

/**
 * The one message a blocked account gets at the door: what happened and whom
 * to write to (customer care from the configuration), with the address and
 * the number as links.
 */
function BlockedNotice({ contact }: { contact: { email: string; phone: string } }) {
  const { t } = useTranslation("auth");
  // The translated sentence with the email and the phone number made into links (wherever the language puts them).
  const template = t("errors.blocked", { email: "{{email}}", phone: "{{phone}}" }).split(
    /(\{\{email\}\}|\{\{phone\}\})/,
  );
  return (
    <p
      role="alert"
      data-testid="blocked-notice"
      className="rounded border border-red-400/40 bg-red-950 px-3 py-2 text-sm text-red-50"
    >
      {template.map((part, index) =>
        part === "{{email}}" ? (
          <a key={index} href={`mailto:${contact.email}`} className="font-semibold underline">
            {contact.email}
          </a>
        ) : part === "{{phone}}" ? (
          <a key={index} href={`tel:${contact.phone.replace(/[^+\d]/g, "")}`} className="font-semibold underline">
            {contact.phone}
          </a>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </p>
  );
}

/** The email + password form of both doors; the action decides which door it is. */
export function SignInForm({ footer }: { footer?: ReactNode }) {
  const { t } = useTranslation("auth");
  const actionData = useActionData<SignInActionData>();
  const [searchParams] = useSearchParams();
  useErrorToasts(actionData);
  return (
    <Form method="post" className="grid gap-4" noValidate>
      {actionData?.blocked ? <BlockedNotice contact={actionData.blocked} /> : <FormError errors={actionData} />}
      <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
      <Honeypot />
      <AccountFields fields={["signInName"]} values={actionData?.values} errors={actionData?.fieldErrors} />
      <Field
        label={t("fields.password")}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        errors={actionData?.fieldErrors?.password}
      />
      <SubmitButton intent="password" pendingText={t("login.pending")}>
        {t("login.submit")}
      </SubmitButton>
      {/* Without a password: a code by SMS to the number written above. */}
      <SubmitButton
        intent="code"
        pendingText={t("phone.pending")}
        className="rounded border border-white/20 px-5 py-2.5 font-semibold text-slate-100 hover:bg-white/10 aria-disabled:opacity-70"
      >
        {t("login.sendCode")}
      </SubmitButton>
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

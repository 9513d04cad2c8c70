import { Form, useActionData } from "@remix-run/react";
import { AccountFields } from "~/components/auth/account-fields";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { useTranslation } from "~/i18n/use-translation";
import { Field, SubmitButton, useErrorToasts, type FormErrors } from "~/components/ui/form";

export type ProfileActionData = FormErrors & {
  values?: Partial<Record<"name" | "email" | "phoneNumber" | "providerName" | "intent", string>>;
};

type Profile = { name: string; email: string; phoneNumber: string; providerName?: string | null };

/** Name, email, phone (and provider name for providers), sent with intent=profile. */
export function ProfileForm({
  profile,
  withProviderName,
  submitLabel,
}: {
  profile: Profile;
  withProviderName?: boolean;
  submitLabel?: string;
}) {
  const { t } = useTranslation("auth");
  const actionData = useActionData<ProfileActionData>();
  const mine = actionData?.values?.intent === "profile" ? actionData : undefined;
  const errors = mine?.fieldErrors;
  return (
    <Form method="post" className="grid gap-4" noValidate>
      <AccountFields
        fields={withProviderName ? ["providerName", "name", "phoneNumber", "email"] : ["name", "phoneNumber", "email"]}
        values={{ ...profile, ...mine?.values }}
        errors={errors}
      />
      <div>
        <SubmitButton intent="profile" pendingText={t("profile.updating")}>
          {submitLabel ?? t("profile.update")}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** Current password, new password and confirmation, sent with intent=password. */
export function ChangePasswordForm() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<ProfileActionData>();
  const errors = actionData?.values?.intent === "password" ? actionData.fieldErrors : undefined;
  return (
    <Form method="post" className="grid gap-4" noValidate>
      <Field
        label={t("fields.currentPassword")}
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        errors={errors?.currentPassword}
      />
      <NewPasswordFields errors={errors} label="newPassword" />
      <div>
        <SubmitButton intent="password" pendingText={t("profile.passwordPending")}>
          {t("profile.passwordSubmit")}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** Toasts for whichever form failed last (once per failure, with JavaScript). */
export function useProfileErrorToasts() {
  useErrorToasts(useActionData<ProfileActionData>());
}

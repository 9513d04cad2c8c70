import { Form, useActionData } from "@remix-run/react";
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
  const value = (field: keyof Profile) => mine?.values?.[field] ?? profile[field] ?? "";
  return (
    <Form method="post" className="grid gap-4" noValidate>
      {withProviderName ? (
        <Field
          label={t("fields.providerName")}
          name="providerName"
          required
          defaultValue={value("providerName")}
          errors={errors?.providerName}
        />
      ) : null}
      <Field
        label={t("fields.name")}
        name="name"
        autoComplete="name"
        required
        defaultValue={value("name")}
        errors={errors?.name}
      />
      <Field
        label={t("fields.phoneNumber")}
        name="phoneNumber"
        type="tel"
        autoComplete="tel"
        required
        defaultValue={value("phoneNumber")}
        errors={errors?.phoneNumber}
      />
      <Field
        label={t("fields.email")}
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={value("email")}
        errors={errors?.email}
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

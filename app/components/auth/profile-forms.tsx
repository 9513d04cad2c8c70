import { Form, useActionData } from "@remix-run/react";
import { AccountFields } from "~/components/auth/account-fields";
import { NewPasswordFields } from "~/components/auth/new-password-fields";
import { useTranslation } from "~/i18n/use-translation";
import type { ReactNode } from "react";
import { Field, FormError, SubmitButton, useErrorToasts, type FormErrors } from "~/components/ui/form";

export type ProfileActionData = FormErrors & {
  values?: Partial<Record<"name" | "email" | "phoneNumber" | "providerName" | "intent" | "verifyPhone", string>>;
};

type Profile = {
  name: string;
  email: string | null;
  phoneNumber: string;
  providerName?: string | null;
  /** The number proven by a code, written for people (+234 803 123 4567). */
  verifiedPhone?: string | null;
  smsNotices?: boolean;
};

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
        optional={profile.verifiedPhone ? ["email"] : []}
        values={{
          name: profile.name,
          email: profile.email,
          phoneNumber: profile.phoneNumber,
          providerName: profile.providerName,
          ...mine?.values,
        }}
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

/**
 * Signing in with a phone number: the verified number (or a form to add one, proven by a code), and the
 * switch for notices by SMS.
 */
export function PhoneSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation("auth");
  const actionData = useActionData<ProfileActionData>();
  const mine = actionData?.values?.intent === "addPhone" ? actionData : undefined;
  if (!profile.verifiedPhone)
    return (
      <Form method="post" className="grid gap-4" noValidate>
        <p className="text-sm text-slate-300">{t("phone.profile.addIntro")}</p>
        <Field
          label={t("phone.profile.number")}
          name="verifyPhone"
          type="tel"
          autoComplete="tel"
          required
          defaultValue={mine?.values?.verifyPhone ?? profile.phoneNumber}
          errors={mine?.fieldErrors?.verifyPhone}
        />
        <div>
          <SubmitButton intent="addPhone" pendingText={t("phone.pending")}>
            {t("phone.profile.sendCode")}
          </SubmitButton>
        </div>
      </Form>
    );
  return (
    <div className="grid gap-4">
      <p className="text-slate-100" data-testid="verified-phone">
        {t("phone.profile.verified", { number: profile.verifiedPhone })}
      </p>
      <Form method="post" className="grid gap-3">
        <input type="hidden" name="smsNotices" value={profile.smsNotices ? "off" : "on"} />
        <p className="text-sm text-slate-300">
          {profile.smsNotices ? t("phone.profile.noticesOn") : t("phone.profile.noticesOff")}
        </p>
        <div>
          <SubmitButton
            intent="smsNotices"
            pendingText={t("profile.updating")}
            className="rounded border border-white/20 px-4 py-2 font-semibold text-slate-100 hover:bg-white/10 aria-disabled:opacity-70"
          >
            {profile.smsNotices ? t("phone.profile.turnOff") : t("phone.profile.turnOn")}
          </SubmitButton>
        </div>
      </Form>
    </div>
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

/**
 * A profile page (the viewer's /editprofile, the provider's
 * /provider/profile): the details form under its title, anything the page
 * shows before it (`before`), then the password form.
 */
export function ProfilePage({
  title,
  profile,
  withProviderName,
  submitLabel,
  before,
  className,
}: {
  title: string;
  profile: Profile;
  withProviderName?: boolean;
  submitLabel?: string;
  before?: ReactNode;
  className: string;
}) {
  const { t } = useTranslation("auth");
  const actionData = useActionData<ProfileActionData>();
  useProfileErrorToasts();
  return (
    <section className={className}>
      <div>
        <h1 className="text-3xl font-bold">{title}</h1>
        <div className="mt-6 grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-6">
          <FormError errors={actionData} />
          {before}
          <ProfileForm profile={profile} withProviderName={withProviderName} submitLabel={submitLabel} />
        </div>
      </div>
      <div>
        <h2 className="text-2xl font-bold">{t("phone.profile.title")}</h2>
        <div className="mt-4 rounded-lg border border-white/10 bg-ink-900/60 p-6">
          <PhoneSection profile={profile} />
        </div>
      </div>
      <div>
        <h2 className="text-2xl font-bold">{t("profile.passwordTitle")}</h2>
        <div className="mt-4 rounded-lg border border-white/10 bg-ink-900/60 p-6">
          <ChangePasswordForm />
        </div>
      </div>
    </section>
  );
}

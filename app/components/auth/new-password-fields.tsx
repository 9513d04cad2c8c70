import { useTranslation } from "~/i18n/use-translation";
import { Field } from "~/components/ui/form";

/**
 * A new password and its confirmation, as every form that sets one asks for
 * them (registration, provider application and registration, reset, profile):
 * fields `password` and `password2`, checked again on the server.
 */
export function NewPasswordFields({
  errors,
  label = "password",
}: {
  errors?: Record<string, string[]>;
  /** "newPassword" where the person already has one (reset, profile). */
  label?: "password" | "newPassword";
}) {
  const { t } = useTranslation("auth");
  return (
    <>
      <Field
        label={t(`fields.${label}`)}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        errors={errors?.password}
      />
      <Field
        label={t("fields.password2")}
        name="password2"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        errors={errors?.password2}
      />
    </>
  );
}

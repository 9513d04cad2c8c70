import { useTranslation } from "~/i18n/use-translation";
import { Field } from "~/components/ui/form";

/** The fields of an account that every form asks for the same way (PRODUCT.md's form field names). */
export type AccountField = "providerName" | "name" | "phoneNumber" | "email" | "signInName";

/** `signInName` is the sign-in field: an email or a phone number, sent as `email` (the old forms' name). */
const INPUTS: Record<AccountField, { type?: string; autoComplete: string; name?: string }> = {
  providerName: { autoComplete: "organization" },
  name: { autoComplete: "name" },
  phoneNumber: { type: "tel", autoComplete: "tel" },
  email: { type: "email", autoComplete: "email" },
  signInName: { type: "text", autoComplete: "username", name: "email" },
};

/**
 * Some of an account's fields, in the order given: each labelled, typed and
 * filled in for the browser as every form of the app does it, with what was
 * sent before and the server's messages beside it.
 */
export function AccountFields({
  fields,
  values,
  errors,
  labels = {},
  autoComplete = true,
  optional = [],
}: {
  fields: readonly AccountField[];
  values?: Partial<Record<string, string | null | undefined>>;
  errors?: Partial<Record<string, string[]>>;
  /** Another label than the field's own (the provider's "Business email"), as a key of the auth catalogue. */
  labels?: Partial<Record<AccountField, string>>;
  /** False where the form is filled in for someone else (an administrator registering a provider). */
  autoComplete?: boolean;
  /** Fields a person may leave empty (the email at sign-up, where a phone number is a way in). */
  optional?: readonly AccountField[];
}) {
  const { t } = useTranslation("auth");
  return (
    <>
      {fields.map((field) => {
        const name = INPUTS[field].name ?? field;
        const isOptional = optional.includes(field);
        return (
          <Field
            key={field}
            label={t(labels[field] ?? (isOptional ? `fields.${field}Optional` : `fields.${field}`))}
            name={name}
            type={INPUTS[field].type}
            autoComplete={autoComplete ? INPUTS[field].autoComplete : "off"}
            required={!isOptional}
            defaultValue={values?.[name] ?? undefined}
            errors={errors?.[name]}
          />
        );
      })}
    </>
  );
}

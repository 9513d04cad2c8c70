import { useTranslation } from "~/i18n/use-translation";
import { Field } from "~/components/ui/form";

/** The fields of an account that every form asks for the same way (PRODUCT.md's form field names). */
export type AccountField = "providerName" | "name" | "phoneNumber" | "email";

const INPUTS: Record<AccountField, { type?: string; autoComplete: string }> = {
  providerName: { autoComplete: "organization" },
  name: { autoComplete: "name" },
  phoneNumber: { type: "tel", autoComplete: "tel" },
  email: { type: "email", autoComplete: "email" },
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
}: {
  fields: readonly AccountField[];
  values?: Partial<Record<string, string | null | undefined>>;
  errors?: Partial<Record<string, string[]>>;
  /** Another label than the field's own (the provider's "Business email"), as a key of the auth catalogue. */
  labels?: Partial<Record<AccountField, string>>;
  /** False where the form is filled in for someone else (an administrator registering a provider). */
  autoComplete?: boolean;
}) {
  const { t } = useTranslation("auth");
  return (
    <>
      {fields.map((name) => (
        <Field
          key={name}
          label={t(labels[name] ?? `fields.${name}`)}
          name={name}
          type={INPUTS[name].type}
          autoComplete={autoComplete ? INPUTS[name].autoComplete : "off"}
          required
          defaultValue={values?.[name] ?? undefined}
          errors={errors?.[name]}
        />
      ))}
    </>
  );
}

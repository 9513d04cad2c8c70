import { Form } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { Field, FormError, SubmitButton, type FormErrors } from "~/components/ui/form";
import { DetailsFields } from "~/components/studio/details-fields";

export type SeriesFormValues = {
  name: string;
  description: string;
  cast: string;
  categoryId: string;
  ageRating: string | null;
};

/**
 * A series' details: title, description, category, cast and poster — the
 * upload form's own field names. A multipart POST that works without
 * JavaScript; the server's field errors show beside each field.
 */
export function SeriesDetailsForm({
  action,
  categories,
  values,
  errors,
  submitLabel,
  pendingLabel,
  posterAccept,
}: {
  action: string;
  categories: { id: string; name: string }[];
  values?: SeriesFormValues;
  errors?: FormErrors | null;
  submitLabel: string;
  pendingLabel: string;
  posterAccept: string;
}) {
  const { t } = useTranslation("series");
  const fieldErrors = errors?.fieldErrors ?? {};
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={action}
      className="grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-5"
    >
      <FormError errors={errors} />
      <input type="hidden" name="intent" value="details" />
      <Field
        name="name"
        label={t("form.name")}
        errors={fieldErrors.name}
        required
        maxLength={200}
        defaultValue={values?.name}
      />
      <DetailsFields values={values} categories={categories} errors={fieldErrors} />
      <Field
        name="poster"
        type="file"
        label={t("form.poster")}
        accept={posterAccept}
        hint={t("form.posterHint")}
        errors={fieldErrors.poster}
      />
      <div>
        <SubmitButton intent="details" pendingText={pendingLabel}>
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

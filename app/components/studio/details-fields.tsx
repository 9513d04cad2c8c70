import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Field, SelectField, TextAreaField } from "~/components/ui/form";

/**
 * A title's or a series' description, category and cast, under the upload
 * form's own field names (`Description`, `Category`, `cast`): the same three
 * fields on the upload page, a title's edit page and the series forms.
 */
export function DetailsFields({
  values,
  categories,
  errors = {},
  categoryNote,
}: {
  values?: { description?: string; categoryId?: string; cast?: string };
  categories: readonly { id: string; name: string }[];
  errors?: Record<string, string[]>;
  /** Said instead of the category's menu where the category is not chosen here (an episode takes its series'). */
  categoryNote?: ReactNode;
}) {
  const { t } = useTranslation("studio");
  return (
    <>
      <TextAreaField
        name="Description"
        label={t("upload.description")}
        rows={4}
        maxLength={5000}
        defaultValue={values?.description}
        errors={errors.Description}
      />
      {categoryNote ?? (
        <SelectField
          name="Category"
          label={t("upload.category")}
          defaultValue={values?.categoryId ?? categories[0]?.id}
          options={categories.map((category) => ({ value: category.id, label: category.name }))}
          errors={errors.Category}
        />
      )}
      <Field
        name="cast"
        label={t("upload.cast")}
        errors={errors.cast}
        maxLength={1000}
        hint={t("upload.castHint")}
        defaultValue={values?.cast}
      />
    </>
  );
}

import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Field, SelectField, TextAreaField } from "~/components/ui/form";
import { AGE_RATINGS } from "~/db/age-ratings";

/**
 * A title's or a series' description, category, age rating and cast, under the
 * upload form's own field names (`Description`, `Category`, `ageRating`, `cast`):
 * the same fields on the upload page, a title's edit page and the series forms.
 */
export function DetailsFields({
  values,
  categories,
  errors = {},
  categoryNote,
  withRating = true,
}: {
  values?: { description?: string; categoryId?: string; cast?: string; ageRating?: string | null };
  categories: readonly { id: string; name: string }[];
  errors?: Record<string, string[]>;
  /** Said instead of the category's menu where the category is not chosen here (an episode takes its series'). */
  categoryNote?: ReactNode;
  /** An episode carries its series' rating: no menu of its own. */
  withRating?: boolean;
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
      {withRating ? (
        <SelectField
          name="ageRating"
          label={t("upload.ageRating")}
          hint={t("upload.ageRatingHint")}
          defaultValue={values?.ageRating ?? ""}
          options={[
            { value: "", label: t("upload.ageRatingNone") },
            ...AGE_RATINGS.map((rating) => ({ value: rating, label: t(`ageRatings.${rating}`) })),
          ]}
          errors={errors.ageRating}
        />
      ) : null}
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

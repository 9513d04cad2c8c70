import { Form } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { Field, FormError, SubmitButton, type FormErrors } from "~/components/ui/form";
import { DetailsFields } from "./details-fields";

export type TitleDetailsValues = {
  name: string;
  description: string;
  cast: string;
  categoryId: string;
  ageRating: string | null;
  poster: string | null;
};

/**
 * A title's details and poster, under the upload form's own field names. A
 * multipart POST that works without JavaScript (the server's field errors
 * show beside each field); with it, Remix sends it and the button says
 * "Saving…" until the page comes back with its toast. An episode's category
 * is its series' and is only shown.
 */
export function TitleDetailsForm({
  action,
  values,
  categories,
  seriesName,
  errors,
  posterAccept,
}: {
  action: string;
  values: TitleDetailsValues;
  categories: { id: string; name: string }[];
  seriesName: string | null;
  errors?: FormErrors | null;
  posterAccept: string;
}) {
  const { t } = useTranslation("studio");
  const fieldErrors = errors?.fieldErrors ?? {};
  const categoryName = categories.find((category) => category.id === values.categoryId)?.name ?? "";
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={action}
      className="grid gap-4 rounded-lg border border-white/10 bg-ink-900/60 p-4 sm:p-5"
      data-testid="title-details-form"
    >
      <FormError errors={errors} />
      <Field
        name="name"
        label={seriesName ? t("edit.episodeTitle") : t("upload.movieTitle")}
        errors={fieldErrors.name}
        required
        maxLength={200}
        defaultValue={values.name}
      />
      <DetailsFields
        values={values}
        categories={categories}
        errors={fieldErrors}
        withRating={!seriesName}
        categoryNote={
          seriesName ? (
            <p className="text-sm text-slate-300">
              {t("edit.categoryOfSeries", { category: categoryName, series: seriesName })}
            </p>
          ) : undefined
        }
      />
      <div className="grid gap-2">
        <span className="text-sm font-medium text-slate-200">{t("upload.poster")}</span>
        {values.poster ? (
          <img
            src={values.poster}
            alt={t("edit.currentPoster")}
            width={150}
            height={100}
            className="h-[100px] w-[150px] rounded border border-white/10 object-cover"
          />
        ) : null}
        <Field
          name="poster"
          type="file"
          label={t("edit.newPoster")}
          accept={posterAccept}
          hint={t("edit.posterHint")}
          errors={fieldErrors.poster}
        />
      </div>
      <p className="text-xs text-slate-400">{t("edit.liveAtOnce")}</p>
      <div>
        <SubmitButton pendingText={t("edit.saving")}>{t("edit.save")}</SubmitButton>
      </div>
    </Form>
  );
}

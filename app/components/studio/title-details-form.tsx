import { Form } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Field, FieldErrorList, FormError, SubmitButton, type FormErrors } from "~/components/ui/form";

export type TitleDetailsValues = {
  name: string;
  description: string;
  cast: string;
  categoryId: string;
  poster: string | null;
};

const inputClass = (invalid: boolean) =>
  `w-full rounded border bg-ink-900 px-3 py-2 text-slate-50 focus:outline-none focus:ring-2 focus:ring-brand-500 ${invalid ? "border-red-400" : "border-white/15"}`;

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
  const id = useId();
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
      <div className="grid gap-1">
        <label htmlFor={`${id}-description`} className="text-sm font-medium text-slate-200">
          {t("upload.description")}
        </label>
        <textarea
          id={`${id}-description`}
          name="Description"
          rows={4}
          maxLength={5000}
          defaultValue={values.description}
          className={inputClass(Boolean(fieldErrors.Description))}
          aria-describedby={fieldErrors.Description ? `${id}-description-error` : undefined}
        />
        <FieldErrorList id={`${id}-description-error`} name="Description" errors={fieldErrors.Description} />
      </div>
      {seriesName ? (
        <p className="text-sm text-slate-300">
          {t("edit.categoryOfSeries", { category: categoryName, series: seriesName })}
        </p>
      ) : (
        <div className="grid gap-1">
          <label htmlFor={`${id}-category`} className="text-sm font-medium text-slate-200">
            {t("upload.category")}
          </label>
          <select
            id={`${id}-category`}
            name="Category"
            defaultValue={values.categoryId}
            className={inputClass(Boolean(fieldErrors.Category))}
            aria-invalid={fieldErrors.Category ? true : undefined}
            aria-describedby={fieldErrors.Category ? `${id}-category-error` : undefined}
          >
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
          <FieldErrorList id={`${id}-category-error`} name="Category" errors={fieldErrors.Category} />
        </div>
      )}
      <Field
        name="cast"
        label={t("upload.cast")}
        errors={fieldErrors.cast}
        maxLength={1000}
        hint={t("upload.castHint")}
        defaultValue={values.cast}
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
        <label htmlFor={`${id}-poster`} className="text-sm text-slate-300">
          {t("edit.newPoster")}
        </label>
        <input
          id={`${id}-poster`}
          name="poster"
          type="file"
          accept={posterAccept}
          aria-invalid={fieldErrors.poster ? true : undefined}
          aria-describedby={`${id}-poster-hint${fieldErrors.poster ? ` ${id}-poster-error` : ""}`}
          className="max-w-full text-sm text-slate-200 file:mr-3 file:rounded file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:text-slate-100"
        />
        <p id={`${id}-poster-hint`} className="text-xs text-slate-400">
          {t("edit.posterHint")}
        </p>
        <FieldErrorList id={`${id}-poster-error`} name="poster" errors={fieldErrors.poster} />
      </div>
      <p className="text-xs text-slate-400">{t("edit.liveAtOnce")}</p>
      <div>
        <SubmitButton pendingText={t("edit.saving")}>{t("edit.save")}</SubmitButton>
      </div>
    </Form>
  );
}

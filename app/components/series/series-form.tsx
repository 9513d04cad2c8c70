import { Form } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Field, FormError, SubmitButton, type FormErrors } from "~/components/ui/form";

export type SeriesFormValues = { name: string; description: string; cast: string; categoryId: string };

const inputClass = (invalid: boolean) =>
  `rounded border bg-ink-900 px-3 py-2 text-slate-50 focus:outline-none focus:ring-2 focus:ring-brand-500 ${invalid ? "border-red-400" : "border-white/15"}`;

function Messages({ id, messages }: { id: string; messages?: string[] }) {
  const { t } = useTranslation();
  if (!messages?.length) return null;
  return (
    <ul id={id} className="text-sm text-red-300">
      {messages.map((message) => (
        <li key={message}>{t(message)}</li>
      ))}
    </ul>
  );
}

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
  const id = useId();
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
      <div className="grid gap-1">
        <label htmlFor={`${id}-description`} className="text-sm font-medium text-slate-200">
          {t("form.description")}
        </label>
        <textarea
          id={`${id}-description`}
          name="Description"
          rows={3}
          maxLength={5000}
          defaultValue={values?.description}
          className={inputClass(Boolean(fieldErrors.Description))}
          aria-describedby={fieldErrors.Description ? `${id}-description-error` : undefined}
        />
        <Messages id={`${id}-description-error`} messages={fieldErrors.Description} />
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-category`} className="text-sm font-medium text-slate-200">
          {t("form.category")}
        </label>
        <select
          id={`${id}-category`}
          name="Category"
          defaultValue={values?.categoryId ?? categories[0]?.id}
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
        <Messages id={`${id}-category-error`} messages={fieldErrors.Category} />
      </div>
      <Field
        name="cast"
        label={t("form.cast")}
        errors={fieldErrors.cast}
        maxLength={1000}
        defaultValue={values?.cast}
      />
      <div className="grid gap-1">
        <label htmlFor={`${id}-poster`} className="text-sm font-medium text-slate-200">
          {t("form.poster")}
        </label>
        <input
          id={`${id}-poster`}
          name="poster"
          type="file"
          accept={posterAccept}
          aria-invalid={fieldErrors.poster ? true : undefined}
          aria-describedby={`${id}-poster-hint${fieldErrors.poster ? ` ${id}-poster-error` : ""}`}
          className="text-sm text-slate-200 file:mr-3 file:rounded file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:text-slate-100"
        />
        <p id={`${id}-poster-hint`} className="text-xs text-slate-400">
          {t("form.posterHint")}
        </p>
        <Messages id={`${id}-poster-error`} messages={fieldErrors.poster} />
      </div>
      <div>
        <SubmitButton intent="details" pendingText={pendingLabel}>
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

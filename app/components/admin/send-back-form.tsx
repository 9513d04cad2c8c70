import { Form } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { FieldErrorList } from "~/components/ui/form";
import { RETURN_REASONS } from "~/db/return-reasons";

/**
 * "Send back…" on a row of the administrator's tables: a reason from the
 * list and their own words, then a button that names the title. A
 * <details> opens it, so it works without JavaScript; a refused try opens it
 * again with the messages.
 */
export function SendBackForm({
  idField,
  id,
  name,
  back,
  errors,
  values,
}: {
  idField: "movieId" | "seriesId";
  id: string;
  name: string;
  back: string;
  errors?: Record<string, string[]>;
  values?: { reason: string; note: string };
}) {
  const { t } = useTranslation("admin");
  const fieldId = useId();
  const open = Boolean(errors);
  return (
    <details className="w-full" open={open} data-send-back={id}>
      <summary className="inline-block cursor-pointer list-none rounded border border-amber-400/40 px-2 py-1 text-xs text-amber-100 hover:bg-amber-950">
        {t("review.sendBack")}
      </summary>
      <Form
        method="post"
        className="mt-2 grid max-w-sm gap-2 rounded border border-amber-400/30 bg-ink-900 p-3 text-sm"
      >
        <input type="hidden" name={idField} value={id} />
        <input type="hidden" name="back" value={back} />
        <label htmlFor={`${fieldId}-reason`} className="text-slate-200">
          {t("review.reason")}
        </label>
        <select
          id={`${fieldId}-reason`}
          name="reason"
          required
          defaultValue={values?.reason ?? ""}
          aria-invalid={errors?.reason ? true : undefined}
          aria-describedby={errors?.reason ? `${fieldId}-reason-error` : undefined}
          className="rounded border border-white/15 bg-ink-900 px-2 py-1.5 text-slate-50"
        >
          <option value="" disabled>
            {t("review.chooseReason")}
          </option>
          {RETURN_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {t(`review.reasons.${reason}`)}
            </option>
          ))}
        </select>
        <FieldErrorList id={`${fieldId}-reason-error`} name="reason" errors={errors?.reason} />
        <label htmlFor={`${fieldId}-note`} className="text-slate-200">
          {t("review.note")}
        </label>
        <textarea
          id={`${fieldId}-note`}
          name="note"
          rows={3}
          maxLength={500}
          defaultValue={values?.note ?? ""}
          aria-invalid={errors?.note ? true : undefined}
          aria-describedby={errors?.note ? `${fieldId}-note-error` : `${fieldId}-note-hint`}
          className="rounded border border-white/15 bg-ink-900 px-2 py-1.5 text-slate-50"
        />
        <p id={`${fieldId}-note-hint`} className="text-xs text-slate-400">
          {t("review.noteHint")}
        </p>
        <FieldErrorList id={`${fieldId}-note-error`} name="note" errors={errors?.note} />
        <div>
          <button
            type="submit"
            name="intent"
            value="sendBack"
            className="rounded bg-amber-600 px-3 py-1.5 text-xs font-semibold text-white hover:bg-amber-500"
          >
            {t("review.sendBackNamed", { name })}
          </button>
        </div>
      </Form>
    </details>
  );
}

import { Form } from "@remix-run/react";
import { useId, type ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { FieldErrorList, SubmitButton } from "~/components/ui/form";
import { PASS_PERIODS } from "~/db/pass-periods";
import { PLAN_LIMITS, PLAN_RUNGS, type PlanFormFields } from "~/services/plan-rules";
import { useQualityLabel } from "~/components/plans/plan-parts";

/** The plan form's values as the page shows them (prices already written as the reader writes numbers). */
export type PlanFormValues = PlanFormFields;

export const EMPTY_PLAN_VALUES: PlanFormValues = {
  name: "",
  nameHa: "",
  description: "",
  descriptionHa: "",
  premium: true,
  screens: "1",
  maxRung: "720",
  downloadsAllowed: true,
  maxDownloads: "5",
  downloadDays: "7",
  downloadPlayHours: "48",
  prices: {},
};

const inputClass = "w-full min-w-0 rounded border bg-ink-900 px-2 py-1.5 text-sm text-slate-50";

function Labelled({
  label,
  name,
  errors,
  hint,
  children,
}: {
  label: string;
  name: string;
  errors?: Record<string, string[]>;
  hint?: string;
  children: (props: { id: string; invalid: boolean; describedBy: string | undefined }) => ReactNode;
}) {
  const id = useId();
  const messages = errors?.[name];
  const invalid = Boolean(messages?.length);
  const describedBy =
    [invalid ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="grid min-w-0 gap-1 text-sm">
      <label htmlFor={id} className="text-slate-200">
        {label}
      </label>
      {children({ id, invalid, describedBy })}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      <FieldErrorList id={`${id}-error`} name={name} errors={messages} />
    </div>
  );
}

function TextInput({
  label,
  name,
  value,
  errors,
  hint,
  ...rest
}: {
  label: string;
  name: string;
  value: string;
  errors?: Record<string, string[]>;
  hint?: string;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "name" | "defaultValue">) {
  return (
    <Labelled label={label} name={name} errors={errors} hint={hint}>
      {({ id, invalid, describedBy }) => (
        <input
          id={id}
          name={name}
          defaultValue={value}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={`${inputClass} ${invalid ? "border-red-400" : "border-white/15"}`}
          {...rest}
        />
      )}
    </Labelled>
  );
}

function TextArea({
  label,
  name,
  value,
  errors,
}: {
  label: string;
  name: string;
  value: string;
  errors?: Record<string, string[]>;
}) {
  return (
    <Labelled label={label} name={name} errors={errors}>
      {({ id, invalid, describedBy }) => (
        <textarea
          id={id}
          name={name}
          defaultValue={value}
          rows={2}
          maxLength={PLAN_LIMITS.descriptionLength}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={`${inputClass} ${invalid ? "border-red-400" : "border-white/15"}`}
        />
      )}
    </Labelled>
  );
}

/**
 * One plan's form (a new plan, or an existing one): names and descriptions
 * in English and Hausa, a price for each pass length it sells (a pass plan),
 * and what it allows. Works without JavaScript; the server checks it all.
 */
export function PlanForm({
  intent,
  planId,
  code,
  values,
  errors,
  free,
  chooseKind,
  currencySymbol,
  submitLabel,
}: {
  intent: "create" | "update";
  planId?: string;
  code?: string;
  values: PlanFormValues;
  errors?: Record<string, string[]>;
  /** The free plan sells nothing: no price fields. */
  free: boolean;
  /** A new plan may be the free plan while none exists. */
  chooseKind?: boolean;
  currencySymbol: string;
  submitLabel: string;
}) {
  const { t } = useTranslation("admin");
  const quality = useQualityLabel();
  return (
    <Form method="post" className="mt-3 grid gap-4" noValidate data-plan-form={code ?? "new"}>
      {planId ? <input type="hidden" name="planId" value={planId} /> : null}
      {errors?.form ? <FieldErrorList id={`${code ?? "new"}-form-error`} name="form" errors={errors.form} /> : null}
      {chooseKind ? (
        <fieldset className="grid gap-1 text-sm">
          <legend className="mb-1 font-medium">{t("plans.fields.kind")}</legend>
          <label className="flex items-start gap-2">
            <input type="radio" name="kind" value="pass" defaultChecked className="mt-1" />
            <span>{t("plans.kind.pass")}</span>
          </label>
          <label className="flex items-start gap-2">
            <input type="radio" name="kind" value="free" className="mt-1" />
            <span>{t("plans.kind.free")}</span>
          </label>
          <FieldErrorList id={`${code ?? "new"}-kind-error`} name="kind" errors={errors?.kind} />
        </fieldset>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput
          label={t("plans.fields.name")}
          name="name"
          value={values.name}
          errors={errors}
          maxLength={PLAN_LIMITS.nameLength}
        />
        <TextInput
          label={t("plans.fields.nameHa")}
          name="nameHa"
          value={values.nameHa}
          errors={errors}
          maxLength={PLAN_LIMITS.nameLength}
        />
        <TextArea label={t("plans.fields.description")} name="description" value={values.description} errors={errors} />
        <TextArea
          label={t("plans.fields.descriptionHa")}
          name="descriptionHa"
          value={values.descriptionHa}
          errors={errors}
        />
      </div>
      {free && !chooseKind ? null : (
        <fieldset className="grid gap-2 text-sm" data-plan-prices={code ?? "new"}>
          <legend className="mb-1 font-medium">{t("plans.fields.prices", { symbol: currencySymbol })}</legend>
          <p className="text-xs text-slate-400">{t("plans.pricesHint")}</p>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {PASS_PERIODS.map((period) => (
              <TextInput
                key={period}
                label={t(`plans.fields.price.${period}`)}
                name={`price_${period}`}
                value={values.prices[period] ?? ""}
                errors={errors?.[period] ? { [`price_${period}`]: errors[period] } : undefined}
                inputMode="decimal"
                autoComplete="off"
              />
            ))}
          </div>
          <FieldErrorList id={`${code ?? "new"}-prices-error`} name="prices" errors={errors?.prices} />
        </fieldset>
      )}
      <fieldset className="grid gap-3 text-sm">
        <legend className="mb-1 font-medium">{t("plans.fields.allows")}</legend>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="premium" defaultChecked={values.premium} />
          {t("plans.fields.premium")}
        </label>
        <div className="grid grid-cols-2 gap-2">
          <TextInput
            label={t("plans.fields.screens")}
            name="screens"
            value={values.screens}
            errors={errors}
            type="number"
            min={PLAN_LIMITS.screens.min}
            max={PLAN_LIMITS.screens.max}
          />
          <Labelled label={t("plans.fields.maxRung")} name="maxRung" errors={errors}>
            {({ id, invalid, describedBy }) => (
              <select
                id={id}
                name="maxRung"
                defaultValue={values.maxRung}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                className={`${inputClass} ${invalid ? "border-red-400" : "border-white/15"}`}
              >
                {PLAN_RUNGS.map((rung) => (
                  <option key={rung} value={rung}>
                    {quality(rung)}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
        </div>
      </fieldset>
      <fieldset className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3" data-plan-downloads={code ?? "new"}>
        <legend className="mb-1 font-medium">{t("plans.fields.downloads")}</legend>
        <label className="col-span-2 flex items-center gap-2 sm:col-span-3">
          <input type="checkbox" name="downloadsAllowed" defaultChecked={values.downloadsAllowed} />
          {t("plans.fields.downloadsAllowed")}
        </label>
        <TextInput
          label={t("plans.fields.maxDownloads")}
          name="maxDownloads"
          value={values.maxDownloads}
          errors={errors}
          type="number"
          min={PLAN_LIMITS.maxDownloads.min}
          max={PLAN_LIMITS.maxDownloads.max}
        />
        <TextInput
          label={t("plans.fields.downloadDays")}
          name="downloadDays"
          value={values.downloadDays}
          errors={errors}
          type="number"
          min={PLAN_LIMITS.downloadDays.min}
          max={PLAN_LIMITS.downloadDays.max}
        />
        <TextInput
          label={t("plans.fields.downloadPlayHours")}
          name="downloadPlayHours"
          value={values.downloadPlayHours}
          errors={errors}
          type="number"
          min={PLAN_LIMITS.downloadPlayHours.min}
          max={PLAN_LIMITS.downloadPlayHours.max}
        />
      </fieldset>
      <div>
        <SubmitButton intent={intent} pendingText={t("plans.saving")}>
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

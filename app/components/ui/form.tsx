import { useNavigation } from "@remix-run/react";
import {
  useEffect,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useTranslation } from "~/i18n/use-translation";
import { showToast } from "./toaster";

/**
 * Form pieces that work before JavaScript: errors come from the server in the
 * action's data and render beside each field; with JavaScript each message
 * also shows once as an error toast.
 */
export type FormErrors = { formError?: string; fieldErrors?: Record<string, string[]>; retryAfterSeconds?: number };

/** What a field's control carries: its id for the label, its name, and what describes it. */
type ControlProps = {
  id: string;
  name: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

/** A label, a control, its hint and the server's messages: the one markup of every field of every form. */
function FieldShell({
  label,
  name,
  errors,
  hint,
  control,
}: {
  label: ReactNode;
  name: string;
  errors?: string[];
  hint?: ReactNode;
  control: (props: ControlProps, invalid: boolean) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);
  const describedBy = [invalid ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      {control({ id, name, "aria-invalid": invalid || undefined, "aria-describedby": describedBy }, invalid)}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      <FieldErrorList id={errorId} name={name} errors={errors} />
    </div>
  );
}

/** A text box's look, red-edged when the server refused what was sent. */
export const controlClass = (invalid: boolean) =>
  `rounded border bg-ink-900 px-3 py-2 text-slate-50 placeholder:text-slate-500 read-only:opacity-70 focus:ring-2 focus:ring-brand-500 focus:outline-none ${
    invalid ? "border-red-400" : "border-white/15"
  }`;

const FILE_CONTROL =
  "max-w-full text-sm text-slate-200 file:mr-3 file:rounded file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:text-slate-100";

type FieldProps = { label: ReactNode; name: string; errors?: string[]; hint?: ReactNode };

/** A field's own props apart from its control's. */
function fieldParts<Rest>({ label, name, errors, hint, ...control }: FieldProps & Rest) {
  return [{ label, name, errors, hint }, control] as const;
}

export function Field(props: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const [field, input] = fieldParts(props);
  return (
    <FieldShell
      {...field}
      control={(control, invalid) => (
        <input {...control} className={input.type === "file" ? FILE_CONTROL : controlClass(invalid)} {...input} />
      )}
    />
  );
}

export function TextAreaField(props: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const [field, textarea] = fieldParts(props);
  return (
    <FieldShell
      {...field}
      control={(control, invalid) => (
        <textarea {...control} className={`w-full ${controlClass(invalid)}`} {...textarea} />
      )}
    />
  );
}

/** A labelled choice among `options` (value and text each). */
export function SelectField({
  options,
  ...props
}: FieldProps & { options: readonly { value: string; label: string }[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  const [field, select] = fieldParts(props);
  return (
    <FieldShell
      {...field}
      control={(control, invalid) => (
        <select {...control} className={`w-full ${controlClass(invalid)}`} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** A field's messages (i18n keys), for inputs that are not a `Field` (a textarea, a select). */
export function FieldErrorList({ id, name, errors }: { id: string; name: string; errors?: string[] }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="text-sm text-red-300" data-field-error={name}>
      {errors.map((message) => (
        <li key={message}>{t(message)}</li>
      ))}
    </ul>
  );
}

/** How long to wait, for a message to say in seconds or in minutes. */
function waitValues(seconds: number) {
  return { seconds, minutes: Math.max(1, Math.ceil(seconds / 60)) };
}

/** A message about the whole form (wrong credentials, blocked account, too many tries). */
export function FormError({ errors }: { errors?: FormErrors | null }) {
  const { t } = useTranslation();
  if (!errors?.formError) return null;
  return (
    <p role="alert" className="rounded border border-red-400/40 bg-red-950 px-3 py-2 text-sm text-red-50">
      {t(errors.formError, waitValues(errors.retryAfterSeconds ?? 60))}
    </p>
  );
}

/** Submit button that says what it does, and what it is doing while the form is in flight. */
export function SubmitButton({
  children,
  pendingText,
  intent,
  className,
}: {
  children: ReactNode;
  pendingText: ReactNode;
  intent?: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state !== "idle" &&
    navigation.formMethod?.toLowerCase() === "post" &&
    (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      aria-disabled={pending || undefined}
      className={
        className ??
        "rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 aria-disabled:cursor-wait aria-disabled:opacity-70"
      }
      onClick={(event) => {
        if (pending) event.preventDefault();
      }}
    >
      {pending ? pendingText : children}
    </button>
  );
}

/** With JavaScript: one error toast per message of the latest failed submission. */
export function useErrorToasts(errors: FormErrors | null | undefined) {
  useEffect(() => {
    if (!errors) return;
    const messages = [
      ...(errors.formError ? [errors.formError] : []),
      ...Object.values(errors.fieldErrors ?? {}).flat(),
    ].filter((message, index, all) => all.indexOf(message) === index);
    for (const key of messages) {
      showToast({
        type: "error",
        key,
        values: errors.retryAfterSeconds ? waitValues(errors.retryAfterSeconds) : undefined,
      });
    }
  }, [errors]);
}

import { Form } from "@remix-run/react";

/**
 * One change to one row of an administrator's table (approve, feature,
 * Free/Premium …): a small form that posts the row's id under `idField`, the
 * `intent` and the page to come back to. Works without JavaScript.
 */
export function RowAction({
  idField,
  id,
  intent,
  back,
  label,
  ariaLabel,
}: {
  idField: string;
  id: string;
  intent: string;
  back: string;
  label: string;
  /** Names the row too ("Approve Gidan Haya"): a screen reader hears which row's button it is. */
  ariaLabel: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name={idField} value={id} />
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        name="intent"
        value={intent}
        aria-label={ariaLabel}
        className="rounded border border-white/20 px-2 py-1 text-xs hover:bg-white/5"
      >
        {label}
      </button>
    </Form>
  );
}

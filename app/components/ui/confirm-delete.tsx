import { Form } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import type { ReactNode } from "react";

/**
 * The second step of a delete that works without JavaScript: the row's Delete
 * link opens this panel (`?confirm=<id>`), and only its POST deletes.
 */
export function ConfirmDelete({
  title,
  text,
  confirmLabel,
  cancelLabel,
  cancelTo,
  action,
  hidden,
}: {
  title: ReactNode;
  text: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  cancelTo: string;
  action?: string;
  hidden: Record<string, string>;
}) {
  return (
    <div
      role="alertdialog"
      aria-labelledby="confirm-title"
      className="mt-6 rounded-lg border border-red-400/40 bg-red-950/60 p-5"
    >
      <h2 id="confirm-title" className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-red-100">{text}</p>
      <div className="mt-4 flex gap-3">
        <Form method="post" action={action}>
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button
            type="submit"
            name="intent"
            value="delete"
            className="rounded bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-500"
          >
            {confirmLabel}
          </button>
        </Form>
        <Link to={cancelTo} className="rounded border border-white/20 px-4 py-2 text-sm hover:bg-white/5">
          {cancelLabel}
        </Link>
      </div>
    </div>
  );
}

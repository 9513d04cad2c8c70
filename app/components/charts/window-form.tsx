import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";

/** The period a dashboard covers (`?days=`), and any other choice, as a plain GET form: it works without JavaScript. */
export function WindowForm({
  days,
  windows,
  children,
}: {
  days: number;
  windows: readonly number[];
  children?: ReactNode;
}) {
  const { t } = useTranslation("dashboards");
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" data-testid="dashboard-window">
      <label className="grid gap-1 text-sm">
        <span className="text-slate-200">{t("window.label")}</span>
        <select
          name="days"
          defaultValue={String(days)}
          className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50"
        >
          {windows.map((count) => (
            <option key={count} value={count}>
              {t("window.option", { count })}
            </option>
          ))}
        </select>
      </label>
      {children}
      <button
        type="submit"
        className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
      >
        {t("window.show")}
      </button>
    </Form>
  );
}

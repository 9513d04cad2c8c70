import { Form, useActionData, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId } from "react";
import { FieldErrorList } from "~/components/ui/form";
import { useTranslation } from "~/i18n/use-translation";
import { Pagination } from "~/components/ui/pagination";
import { showToast } from "~/components/ui/toaster";
import { useHydrated } from "~/components/ui/use-hydrated";
import { dateFormatter, type DateFormat } from "~/utils/dates";

export type AccountRow = {
  id: string;
  name: string;
  email: string | null;
  phoneNumber: string;
  blocked: boolean;
  createdAt: string;
  /** Titles (providers) or the last sign-in (viewers). */
  extra: string | number | null;
};

type FetcherResult = {
  ok: boolean;
  intent: string;
  accountId: string;
  blocked?: boolean;
  toasts: { type: "success" | "error"; key: string }[];
  fieldErrors?: { reason?: string[] };
  values?: { reason: string };
};

/** The search form, the accounts table with Block/Unblock and Reset per row, and paging. */
export function AccountsTable({
  list: { rows, page, pageCount, q: query, selfId },
  extraHeader,
  nameHeader,
}: {
  /** The page of accounts as loadAccountsPage gives it. */
  list: { rows: AccountRow[]; page: number; pageCount: number; q: string; selfId: string };
  extraHeader: string;
  nameHeader: string;
}) {
  const { t, i18n } = useTranslation("admin");
  const dateFormat = dateFormatter(i18n.language);
  return (
    <div className="mt-6">
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
        <label className="grid gap-1 text-sm">
          <span className="text-slate-200">{t("accounts.search")}</span>
          <input
            type="search"
            name="q"
            defaultValue={query}
            className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50"
          />
        </label>
        <button
          type="submit"
          className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {t("accounts.searchButton")}
        </button>
      </Form>
      {rows.length === 0 ? (
        <p className="mt-6 rounded-lg border border-white/10 bg-ink-900/60 p-6 text-slate-300">{t("accounts.empty")}</p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-lg border border-white/10">
          <table className="w-full min-w-[760px] text-left text-sm">
            <thead className="bg-ink-800 text-slate-300">
              <tr>
                <th scope="col" className="px-3 py-3">
                  {nameHeader}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t("accounts.columns.email")}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t("accounts.columns.phone")}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t("accounts.columns.status")}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t("accounts.columns.joined")}
                </th>
                <th scope="col" className="px-3 py-3">
                  {extraHeader}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t("accounts.columns.actions")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/5">
              {rows.map((row) => (
                <AccountRowView key={row.id} row={row} self={row.id === selfId} dateFormat={dateFormat} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pageCount={pageCount} />
    </div>
  );
}

function AccountRowView({ row, self, dateFormat }: { row: AccountRow; self: boolean; dateFormat: DateFormat }) {
  const { t } = useTranslation("admin");
  const fetcher = useFetcher<FetcherResult>();
  const hydrated = useHydrated();
  const location = useLocation();
  const back = `${location.pathname}${location.search}`;
  const reasonId = useId();
  // A block refused for its reason: from the fetcher (JavaScript) or the page's own answer (without).
  const pageAnswer = useActionData<FetcherResult>();
  const refused = [fetcher.data, pageAnswer].find(
    (answer) => answer?.accountId === row.id && answer.intent === "block" && answer.fieldErrors,
  );

  // Optimistic: while the request is out the row already shows the new state; while the
  // list reloads it shows what the server answered; then the list's own value.
  const pendingIntent = fetcher.formData?.get("intent");
  const blocked =
    fetcher.state === "loading" && fetcher.data?.blocked !== undefined
      ? fetcher.data.blocked
      : pendingIntent === "block" || pendingIntent === "unblock"
        ? pendingIntent === "block"
        : row.blocked;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    for (const toast of fetcher.data.toasts) showToast(toast);
  }, [fetcher.state, fetcher.data]);

  return (
    <tr data-account-id={row.id} data-blocked={blocked ? "true" : "false"}>
      <td className="px-3 py-3 font-medium">{row.name}</td>
      <td className="px-3 py-3">{row.email ?? "—"}</td>
      <td className="px-3 py-3">{row.phoneNumber}</td>
      <td className="px-3 py-3" data-status>
        {blocked ? (
          <span className="text-red-300">{t("accounts.status.blocked")}</span>
        ) : (
          <span className="text-emerald-300">{t("accounts.status.active")}</span>
        )}
      </td>
      <td className="px-3 py-3">
        <time dateTime={row.createdAt}>{dateFormat.format(new Date(row.createdAt))}</time>
      </td>
      <td className="px-3 py-3 tabular-nums">
        {row.extra === null ? "—" : typeof row.extra === "number" ? row.extra : dateFormat.format(new Date(row.extra))}
      </td>
      <td className="px-3 py-3">
        <div className="flex flex-wrap gap-2">
          {self ? null : blocked ? (
            <fetcher.Form method="post">
              <input type="hidden" name="accountId" value={row.id} />
              <input type="hidden" name="back" value={back} />
              {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
              <button
                type="submit"
                name="intent"
                value="unblock"
                aria-label={t("accounts.unblockNamed", { name: row.name })}
                className="rounded bg-emerald-700 px-3 py-1.5 text-xs font-semibold text-white hover:bg-emerald-600"
              >
                {t("accounts.unblock")}
              </button>
            </fetcher.Form>
          ) : (
            // Blocking is confirmed: the form opens first, and asks why.
            <details open={Boolean(refused)} data-block-form={row.id}>
              <summary className="cursor-pointer list-none rounded bg-red-700 px-3 py-1.5 text-xs font-semibold text-white hover:bg-red-600">
                {t("accounts.blockOpen")}
              </summary>
              <fetcher.Form
                method="post"
                // On a phone the form is a sheet over the page's foot (the table scrolls sideways, and a form
                // inside its last column would be cut off); from 640 px it opens in the row.
                className="fixed inset-x-3 bottom-3 z-40 grid gap-2 rounded-lg border border-white/15 bg-ink-900 p-4 text-xs shadow-xl sm:static sm:mt-2 sm:w-64 sm:max-w-full sm:border-0 sm:bg-transparent sm:p-0 sm:shadow-none"
                key={fetcher.data?.ok ? "done" : "open"}
              >
                <input type="hidden" name="accountId" value={row.id} />
                <input type="hidden" name="back" value={back} />
                {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
                <label htmlFor={reasonId} className="text-slate-200">
                  {t("accounts.blockReason")}
                </label>
                <textarea
                  id={reasonId}
                  name="reason"
                  required
                  rows={2}
                  maxLength={500}
                  defaultValue={refused?.values?.reason ?? ""}
                  aria-invalid={refused ? true : undefined}
                  aria-describedby={`${reasonId}-hint${refused ? ` ${reasonId}-error` : ""}`}
                  className="rounded border border-white/15 bg-ink-900 px-2 py-1.5 text-sm text-slate-50"
                />
                <p id={`${reasonId}-hint`} className="text-slate-400">
                  {t("accounts.blockHint")}
                </p>
                <FieldErrorList id={`${reasonId}-error`} name="reason" errors={refused?.fieldErrors?.reason} />
                <button
                  type="submit"
                  name="intent"
                  value="block"
                  aria-label={t("accounts.blockNamed", { name: row.name })}
                  className="rounded bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-600"
                >
                  {t("accounts.blockConfirm", { name: row.name })}
                </button>
              </fetcher.Form>
            </details>
          )}
          <Form method="post">
            <input type="hidden" name="accountId" value={row.id} />
            <input type="hidden" name="back" value={back} />
            <button
              type="submit"
              name="intent"
              value="reset"
              aria-label={t("accounts.resetNamed", { name: row.name })}
              className="rounded border border-white/20 px-3 py-1.5 text-xs hover:bg-white/5"
            >
              {t("accounts.reset")}
            </button>
          </Form>
        </div>
      </td>
    </tr>
  );
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { DataTable } from "~/components/ui/data-table";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { requireAdmin } from "~/auth/guards.server";
import { Pagination } from "~/components/ui/pagination";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { AUDIT_ACTIONS, listAudit } from "~/services/audit.server";
import { pageParam } from "~/utils/paging";
import { dateFormatter } from "~/utils/dates";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["admin"] };

export const meta = metaTitleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const wanted = url.searchParams.get("action") ?? "";
  const action = (AUDIT_ACTIONS as readonly string[]).includes(wanted) ? wanted : "";
  const actor = (url.searchParams.get("actor") ?? "").slice(0, 200);
  const page = pageParam(url);
  const list = listAudit(getDb(), { action: action || undefined, actorEmail: actor || undefined, page });
  const { t } = await getRequestT(request, "admin");
  return {
    metaTitle: t("audit.metaTitle"),
    action,
    actor,
    actions: AUDIT_ACTIONS,
    page: list.page,
    pageCount: Math.max(1, Math.ceil(list.total / list.pageSize)),
    rows: list.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  };
}

export default function AuditLog() {
  const { t, i18n } = useTranslation("admin");
  const { rows, action, actor, actions, page, pageCount } = useLoaderData<typeof loader>();
  const dateFormat = dateFormatter(i18n.language, "dateTimeSeconds");
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("audit.title")}</h1>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm">
          <span className="text-slate-200">{t("audit.action")}</span>
          <select
            name="action"
            defaultValue={action}
            className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50"
          >
            <option value="">{t("audit.anyAction")}</option>
            {actions.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="text-slate-200">{t("audit.actor")}</span>
          <input
            type="search"
            name="actor"
            defaultValue={actor}
            className="rounded border border-white/15 bg-ink-900 px-3 py-2 text-slate-50"
          />
        </label>
        <button
          type="submit"
          className="rounded bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          {t("audit.filter")}
        </button>
      </Form>
      <DataTable
        dense
        minWidth="min-w-[720px]"
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ "data-audit-action": row.action })}
        empty={t("audit.empty")}
        columns={[
          {
            key: "when",
            header: t("audit.columns.when"),
            cell: (row) => <time dateTime={row.createdAt}>{dateFormat.format(new Date(row.createdAt))}</time>,
          },
          { key: "actor", header: t("audit.columns.actor"), cell: (row) => row.actorEmail ?? t("audit.system") },
          {
            key: "action",
            header: t("audit.columns.action"),
            className: "font-mono text-xs",
            cell: (row) => row.action,
          },
          {
            key: "target",
            header: t("audit.columns.target"),
            cell: (row) => (
              <>
                {row.targetName ? <span className="block">{row.targetName}</span> : null}
                <span className="font-mono text-xs">
                  {row.targetType ? `${row.targetType}:${row.targetId ?? ""}` : "—"}
                </span>
              </>
            ),
          },
          {
            key: "note",
            header: t("audit.columns.note"),
            className: "max-w-xs break-words",
            cell: (row) => (row.note ? <span data-audit-note>{row.note}</span> : "—"),
          },
          { key: "address", header: t("audit.columns.address"), cell: (row) => row.ipAddress ?? "—" },
        ]}
      />
      <Pagination page={page} pageCount={pageCount} />
    </section>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireAdmin } from "~/auth/guards.server";
import { AccountsTable } from "~/components/admin/accounts-table";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { listAccounts } from "~/services/accounts.server";
import { titleCounts } from "~/services/admin-accounts.server";
import { accountsAction } from "~/routes-support/admin-accounts-action.server";
import { pageParam } from "~/utils/paging";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["admin"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

const PAGE_SIZE = 20;

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const page = pageParam(url);
  const db = getDb();
  const list = listAccounts(db, { role: "provider", providerStatus: "approved", search: q, page, pageSize: PAGE_SIZE });
  const pending = listAccounts(db, { role: "provider", providerStatus: "pending", page: 1, pageSize: 100 });
  const titles = titleCounts(
    db,
    list.rows.map((row) => row.id),
  );
  const { t } = await getRequestT(request, "admin");
  return {
    metaTitle: t("providers.metaTitle"),
    selfId: admin.id,
    q,
    page: list.page,
    total: list.total,
    pageCount: Math.max(1, Math.ceil(list.total / list.pageSize)),
    rows: list.rows.map((row) => ({
      id: row.id,
      name: row.providerName ?? row.name,
      email: row.email,
      phoneNumber: row.phoneNumber,
      blocked: row.blocked,
      createdAt: row.createdAt.toISOString(),
      extra: titles[row.id] ?? 0,
    })),
    applications: pending.rows.map((row) => ({
      id: row.id,
      name: row.providerName ?? row.name,
      email: row.email,
      phoneNumber: row.phoneNumber,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  return accountsAction(request, "provider", "/admin/providerslist");
}

export default function ProvidersList() {
  const { t } = useTranslation("admin");
  const { rows, page, pageCount, q, total, selfId, applications } = useLoaderData<typeof loader>();
  return (
    <section>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold">{t("providers.title")}</h1>
          <p className="mt-1 text-sm text-slate-300">{t("accounts.count", { count: total })}</p>
        </div>
        <Link to="/admin/audit" className="text-sm text-brand-300 hover:underline">
          {t("providers.auditLink")}
        </Link>
      </div>

      <section
        aria-labelledby="applications-title"
        className="mt-6 rounded-lg border border-white/10 bg-ink-900/60 p-4"
        data-section="applications"
      >
        <h2 id="applications-title" className="text-lg font-semibold">
          {t("applications.title")}
        </h2>
        {applications.length === 0 ? (
          <p className="mt-2 text-sm text-slate-300">{t("applications.empty")}</p>
        ) : (
          <ul className="mt-3 divide-y divide-white/5">
            {applications.map((application) => (
              <li
                key={application.id}
                data-application-id={application.id}
                className="flex flex-wrap items-center justify-between gap-3 py-2"
              >
                <div>
                  <p className="font-medium">{application.name}</p>
                  <p className="text-xs text-slate-300">
                    {application.email} · {application.phoneNumber}
                  </p>
                </div>
                <Form method="post" className="flex gap-2">
                  <input type="hidden" name="accountId" value={application.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="approve"
                    aria-label={t("applications.approveNamed", { name: application.name })}
                    className="rounded bg-emerald-700 px-3 py-1.5 text-xs font-semibold text-white hover:bg-emerald-600"
                  >
                    {t("applications.approve")}
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value="reject"
                    aria-label={t("applications.rejectNamed", { name: application.name })}
                    className="rounded border border-white/20 px-3 py-1.5 text-xs hover:bg-white/5"
                  >
                    {t("applications.reject")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>

      <AccountsTable
        rows={rows}
        page={page}
        pageCount={pageCount}
        query={q}
        selfId={selfId}
        nameHeader={t("accounts.columns.providerName")}
        extraHeader={t("accounts.columns.titles")}
      />
    </section>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { Form, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { AccountsTable } from "~/components/admin/accounts-table";
import { getDb } from "~/db/client.server";
import { listAccounts, type Account } from "~/services/accounts.server";
import { titleCounts } from "~/services/admin-accounts.server";
import { accountsAction, loadAccountsPage } from "~/routes-support/admin-accounts-action.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["admin"] };

export const meta = metaTitleMeta;

const providerName = (account: Account) => account.providerName ?? account.name;

export async function loader({ request }: LoaderFunctionArgs) {
  const page = await loadAccountsPage(request, {
    query: { role: "provider", providerStatus: "approved" },
    metaTitle: "providers.metaTitle",
    nameOf: providerName,
    extraOf: (db, ids) => {
      const titles = titleCounts(db, ids);
      return (id) => titles[id] ?? 0;
    },
  });
  const pending = listAccounts(getDb(), { role: "provider", providerStatus: "pending", page: 1, pageSize: 100 });
  return {
    ...page,
    applications: pending.rows.map((row) => ({
      id: row.id,
      name: providerName(row),
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
  const list = useLoaderData<typeof loader>();
  const { total, applications } = list;
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
        list={list}
        nameHeader={t("accounts.columns.providerName")}
        extraHeader={t("accounts.columns.titles")}
      />
    </section>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { metaTitleMeta } from "~/utils/meta";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { AccountsTable } from "~/components/admin/accounts-table";
import { lastActivity } from "~/services/admin-accounts.server";
import { accountsAction, loadAccountsPage } from "~/routes-support/admin-accounts-action.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["admin"] };

export const meta = metaTitleMeta;

export function loader({ request }: LoaderFunctionArgs) {
  return loadAccountsPage(request, {
    query: { role: "viewer" },
    metaTitle: "users.metaTitle",
    extraOf: (db, ids) => {
      const activity = lastActivity(db, ids);
      return (id) => activity[id]?.toISOString() ?? null;
    },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  return accountsAction(request, "viewer", "/admin/userlist");
}

export default function UserList() {
  const { t } = useTranslation("admin");
  const list = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("users.title")}</h1>
      <p className="mt-1 text-sm text-slate-300">{t("accounts.count", { count: list.total })}</p>
      <AccountsTable
        list={list}
        nameHeader={t("accounts.columns.name")}
        extraHeader={t("accounts.columns.lastActivity")}
      />
    </section>
  );
}

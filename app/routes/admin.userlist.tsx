import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { AccountsTable } from "~/components/admin/accounts-table";
import { lastActivity } from "~/services/admin-accounts.server";
import { accountsAction, loadAccountsPage } from "~/routes-support/admin-accounts-action.server";
import type { TranslationHandle } from "~/i18n/page-translations";

export const handle: TranslationHandle = { i18n: ["admin"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.metaTitle ?? "Kallo" }];

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
  const { rows, page, pageCount, q, total, selfId } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("users.title")}</h1>
      <p className="mt-1 text-sm text-slate-300">{t("accounts.count", { count: total })}</p>
      <AccountsTable
        rows={rows}
        page={page}
        pageCount={pageCount}
        query={q}
        selfId={selfId}
        nameHeader={t("accounts.columns.name")}
        extraHeader={t("accounts.columns.lastActivity")}
      />
    </section>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireAdmin } from "~/auth/guards.server";
import { AccountsTable } from "~/components/admin/accounts-table";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { listAccounts } from "~/services/accounts.server";
import { lastActivity } from "~/services/admin-accounts.server";
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
  const list = listAccounts(db, { role: "viewer", search: q, page, pageSize: PAGE_SIZE });
  const activity = lastActivity(
    db,
    list.rows.map((row) => row.id),
  );
  const { t } = await getRequestT(request, "admin");
  return {
    metaTitle: t("users.metaTitle"),
    selfId: admin.id,
    q,
    page: list.page,
    total: list.total,
    pageCount: Math.max(1, Math.ceil(list.total / list.pageSize)),
    rows: list.rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      phoneNumber: row.phoneNumber,
      blocked: row.blocked,
      createdAt: row.createdAt.toISOString(),
      extra: activity[row.id]?.toISOString() ?? null,
    })),
  };
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

import { data } from "@remix-run/node";
import { requireAdmin } from "~/auth/guards.server";
import { getDb, type DB } from "~/db/client.server";
import type { Role } from "~/db/schema";
import { getRequestT } from "~/i18n/translate.server";
import {
  approveProviderApplication,
  BLOCK_REASON_REQUIRED,
  cleanBlockReason,
  rejectProviderApplication,
  setAccountBlocked,
} from "~/services/account-status.server";
import { getAccountById, listAccounts, type Account, type AccountListQuery } from "~/services/accounts.server";
import { pageParam } from "~/utils/paging";
import { requestPasswordReset } from "~/services/password-reset.server";
import { clientAddress } from "~/utils/client.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { siteAddress } from "~/utils/site-address.server";
import { readForm } from "~/utils/read-form.server";

type ToastOut = { type: "success" | "error"; key: string };
export type AccountActionResult = {
  ok: boolean;
  intent: string;
  accountId: string;
  blocked?: boolean;
  toasts: ToastOut[];
  /** A block refused for its reason: the message beside the field, and what was typed. */
  fieldErrors?: { reason?: string[] };
  values?: { reason: string };
};

const INTENTS = ["block", "unblock", "reset", "approve", "reject"] as const;
type Intent = (typeof INTENTS)[number];

/**
 * The row actions of /admin/providerslist and /admin/userlist. A plain form
 * POST comes back as a redirect with a toast; a fetcher (it sends via=fetcher)
 * gets the result as data and shows the toast itself.
 */
export async function accountsAction(request: Request, role: Role, listPath: string) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "") as Intent;
  const accountId = String(form.get("accountId") ?? "");
  const back = safeRedirectPath(form.get("back"), listPath);
  const viaFetcher = form.get("via") === "fetcher";
  if (!INTENTS.includes(intent) || !accountId)
    return data({ formError: "admin:errors.unknownAction" }, { status: 400 });

  const db = getDb();
  const target = getAccountById(db, accountId);
  const actor = { actorId: admin.id, ipAddress: clientAddress(request) };
  let result: AccountActionResult;
  if (!target || target.role !== role) {
    result = { ok: false, intent, accountId, toasts: [{ type: "error", key: "admin:errors.accountNotFound" }] };
  } else if (intent === "block" && !cleanReason(form).ok) {
    // A block is confirmed with a reason on the page (the /api may give none).
    const checked = cleanReason(form);
    const error = checked.ok ? BLOCK_REASON_REQUIRED : checked.error;
    result = {
      ok: false,
      intent,
      accountId,
      blocked: target.blocked,
      toasts: [{ type: "error", key: error }],
      fieldErrors: { reason: [error] },
      values: { reason: String(form.get("reason") ?? "").slice(0, 600) },
    };
  } else if (intent === "block" || intent === "unblock") {
    const checked = cleanReason(form);
    const note = intent === "block" && checked.ok ? { reason: checked.reason, confirmed: true } : undefined;
    const outcome = setAccountBlocked(db, accountId, intent === "block", actor, note);
    result = outcome.ok
      ? {
          ok: true,
          intent,
          accountId,
          blocked: outcome.account.blocked,
          toasts: [
            {
              type: "success",
              key: intent === "block" ? "admin:accounts.blockedToast" : "admin:accounts.unblockedToast",
            },
          ],
        }
      : {
          ok: false,
          intent,
          accountId,
          blocked: target.blocked,
          toasts: [
            { type: "error", key: intent === "block" ? "admin:accounts.blockError" : "admin:accounts.unblockError" },
            { type: "error", key: outcome.error },
          ],
        };
  } else if (intent === "reset" && !target.email) {
    // No email to send a link to: the person resets with a code to their number at /reset.
    result = { ok: false, intent, accountId, toasts: [{ type: "error", key: "admin:accounts.resetByPhone" }] };
  } else if (intent === "reset" && target.email) {
    const { language } = await getRequestT(request, "admin");
    await requestPasswordReset(db, target.email, {
      baseUrl: siteAddress(),
      language,
      ipAddress: actor.ipAddress,
      actorId: admin.id,
    });
    result = { ok: true, intent, accountId, toasts: [{ type: "success", key: "admin:accounts.resetSent" }] };
  } else if (target.role !== "provider" || target.providerStatus !== "pending") {
    result = { ok: false, intent, accountId, toasts: [{ type: "error", key: "admin:errors.notPending" }] };
  } else {
    if (intent === "approve") approveProviderApplication(db, accountId, actor);
    else rejectProviderApplication(db, accountId, actor);
    result = {
      ok: true,
      intent,
      accountId,
      toasts: [
        { type: "success", key: intent === "approve" ? "admin:applications.approved" : "admin:applications.rejected" },
      ],
    };
  }

  if (viaFetcher) return data(result, { status: result.ok ? 200 : 400 });
  // Without JavaScript a refused block comes back as the page, its form open with the message.
  if (result.fieldErrors) return data(result, { status: 400 });
  return redirectWithToast(back, result.toasts, { status: 303 });
}

/** The block form's reason: required (non-empty) and at most 500 characters. */
function cleanReason(form: FormData): { ok: true; reason: string } | { ok: false; error: string } {
  const checked = cleanBlockReason(String(form.get("reason") ?? "").slice(0, 2000));
  if (!checked.ok) return checked;
  return checked.reason ? { ok: true, reason: checked.reason } : { ok: false, error: BLOCK_REASON_REQUIRED };
}

const ACCOUNTS_PAGE_SIZE = 20;

/**
 * The loader of the administrator's account tables (/admin/providerslist,
 * /admin/userlist): one searched page of a role's accounts, with one fact per
 * row beside them (`extraOf`: titles, last activity).
 */
export async function loadAccountsPage<Extra>(
  request: Request,
  options: {
    query: Omit<AccountListQuery, "search" | "page" | "pageSize">;
    metaTitle: string;
    nameOf?: (account: Account) => string;
    extraOf: (db: DB, ids: string[]) => (id: string) => Extra;
  },
) {
  const admin = await requireAdmin(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const db = getDb();
  const list = listAccounts(db, { ...options.query, search: q, page: pageParam(url), pageSize: ACCOUNTS_PAGE_SIZE });
  const extra = options.extraOf(
    db,
    list.rows.map((row) => row.id),
  );
  const { t } = await getRequestT(request, "admin");
  return {
    metaTitle: t(options.metaTitle),
    selfId: admin.id,
    q,
    page: list.page,
    total: list.total,
    pageCount: Math.max(1, Math.ceil(list.total / list.pageSize)),
    rows: list.rows.map((row) => ({
      id: row.id,
      name: options.nameOf ? options.nameOf(row) : row.name,
      email: row.email,
      phoneNumber: row.phoneNumber,
      blocked: row.blocked,
      createdAt: row.createdAt.toISOString(),
      extra: extra(row.id),
    })),
  };
}

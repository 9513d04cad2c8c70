import { getDb } from "~/db/client.server";
import { getAccountById, listAccounts, type Account } from "~/services/accounts.server";
import { ACCOUNT_NOT_FOUND, cleanBlockReason, setAccountBlocked } from "~/services/account-status.server";
import { clientAddress } from "~/utils/client.server";
import { LIST_PAGE_SIZE, type ApiRoute, type HandlerContext } from "../types";
import { ApiError, apiJson, englishText, readFields } from "../http.server";
import { pageParam } from "~/utils/paging";

/** The administrator's account lists and block/unblock, over the same service as /admin/providerslist and /admin/userlist. */

export function providerRecord(account: Account) {
  return {
    _id: account.id,
    name: account.name,
    providerName: account.providerName ?? account.name,
    email: account.email,
    phoneNumber: account.phoneNumber,
    isBlocked: account.blocked,
  };
}

export function viewerRecord(account: Account) {
  return {
    _id: account.id,
    name: account.name,
    email: account.email,
    phoneNumber: account.phoneNumber,
    isBlocked: account.blocked,
  };
}

function listOf(role: "provider" | "viewer") {
  return ({ request }: HandlerContext) => {
    const page = pageParam(request);
    const result = listAccounts(getDb(), { role, page, pageSize: LIST_PAGE_SIZE });
    const rows = result.rows.map(role === "provider" ? providerRecord : viewerRecord);
    return apiJson(rows, { headers: { "X-Total-Count": String(result.total), "X-Page": String(page) } });
  };
}

/** Block or unblock an account of one role: a provider path never touches a viewer, nor the reverse. */
function setBlocked(role: "provider" | "viewer", blocked: boolean) {
  return async ({ request, params, caller }: HandlerContext) => {
    // The old clients send no body; a block may give its reason as `reason` (JSON or a form), kept in the audit log.
    const reasonText = blocked ? ((await readFields(request)).reason ?? "") : "";
    const reason = cleanBlockReason(reasonText);
    if (!reason.ok) throw new ApiError(400, englishText(reason.error));
    const db = getDb();
    const target = getAccountById(db, params.id);
    if (!target || target.role !== role) throw new ApiError(404, englishText(ACCOUNT_NOT_FOUND));
    const outcome = setAccountBlocked(
      db,
      target.id,
      blocked,
      { actorId: caller!.account.id, ipAddress: clientAddress(request) },
      blocked ? { reason: reason.reason, confirmed: false } : undefined,
    );
    if (!outcome.ok) {
      const status = outcome.error === ACCOUNT_NOT_FOUND ? 404 : 409;
      throw new ApiError(
        status,
        `${englishText(blocked ? "admin:accounts.blockError" : "admin:accounts.unblockError")}: ${englishText(outcome.error)}`,
      );
    }
    const record = role === "provider" ? providerRecord(outcome.account) : viewerRecord(outcome.account);
    const message = englishText(blocked ? "admin:accounts.blockedToast" : "admin:accounts.unblockedToast");
    // The record's fields at the top, as the original answered with the record itself.
    return apiJson({ success: true, message, ...record, user: record });
  };
}

export const adminHandlers: ApiRoute[] = [
  { method: "GET", path: "/cp/allusers", access: ["admin"], handle: listOf("provider") },
  { method: "GET", path: "/cp/user/allusers", access: ["admin"], handle: listOf("viewer") },
  { method: "PUT", path: "/cp/block/{id}", access: ["admin"], handle: setBlocked("provider", true) },
  { method: "PUT", path: "/cp/unblock/{id}", access: ["admin"], handle: setBlocked("provider", false) },
  { method: "PUT", path: "/cp/user/block/{id}", access: ["admin"], handle: setBlocked("viewer", true) },
  { method: "PUT", path: "/cp/user/unblock/{id}", access: ["admin"], handle: setBlocked("viewer", false) },
];

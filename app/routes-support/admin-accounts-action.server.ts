import { data } from "@remix-run/node";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import type { Role } from "~/db/schema";
import { getRequestT } from "~/i18n/translate.server";
import { approveProviderApplication, getAccountById, rejectProviderApplication } from "~/services/accounts.server";
import { setAccountBlocked } from "~/services/admin-accounts.server";
import { requestPasswordReset } from "~/services/password-reset.server";
import { clientAddress } from "~/utils/client.server";
import { safeRedirectPath } from "~/utils/redirect";
import { redirectWithToast } from "~/utils/toast.server";
import { siteAddress } from "~/utils/site-address.server";

type ToastOut = { type: "success" | "error"; key: string };
export type AccountActionResult = {
  ok: boolean;
  intent: string;
  accountId: string;
  blocked?: boolean;
  toasts: ToastOut[];
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
  const form = await request.formData();
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
  } else if (intent === "block" || intent === "unblock") {
    const outcome = setAccountBlocked(db, accountId, intent === "block", actor);
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
  } else if (intent === "reset") {
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
  return redirectWithToast(back, result.toasts, { status: 303 });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/auth/guards.server";
import { getDb } from "~/db/client.server";
import { getRequestT } from "~/i18n/translate.server";
import { isBillingTable } from "~/services/billing-admin.server";
import { billingCsvLines } from "~/services/billing-export.server";
import { safeFileName } from "~/utils/csv";

/**
 * GET /admin/userpayment/export?table=payments|subscribers|status|codes[&q=…][&batch=…]
 * — one of the billing tables as CSV (what the search shows, every page),
 * streamed a page at a time. Administrators only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    await requireAdmin(request);
  } catch (error) {
    // Signed out: the redirect to sign in. Signed in with another role: a plain 403 for a file download.
    if (error instanceof Response) throw error;
    return Response.json({ success: false, message: "Not allowed" }, { status: 403 });
  }
  const url = new URL(request.url);
  const table = url.searchParams.get("table");
  if (!isBillingTable(table)) return Response.json({ success: false, message: "Unknown table" }, { status: 400 });
  const search = (url.searchParams.get("q") ?? "").slice(0, 100);
  const batchId = (url.searchParams.get("batch") ?? "").slice(0, 40) || undefined;
  const { t } = await getRequestT(request, "billing");
  const lines = billingCsvLines(getDb(), table, { search, batchId }, t);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  const name = safeFileName(
    `kallo-${batchId ? `vouchers-${batchId}` : table}-${new Date().toISOString().slice(0, 10)}.csv`,
  );
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "~/db/client.server";
import { cardGateway, verifyAndCompletePayment } from "~/services/payments.server";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * GET /payments/paystack/callback?reference=… — Paystack sends the payer
 * back here. Nothing in the query is trusted: the transaction is verified
 * with Paystack server to server, then completed (once, whichever of this
 * and the webhook comes first), and the payer lands on /payment.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const reference = (url.searchParams.get("reference") ?? url.searchParams.get("trxref") ?? "").trim();
  const outcome = await verifyAndCompletePayment(getDb(), cardGateway(), reference);
  const type = outcome === "granted" || outcome === "already" ? "success" : outcome === "pending" ? "info" : "error";
  return redirectWithToast("/payment", { type, key: `billing:outcome.${outcome}` }, { status: 303 });
}

import type { ActionFunctionArgs } from "@remix-run/node";
import { apiFailure } from "~/api/http.server";
import { getDb } from "~/db/client.server";
import { cardGateway, handlePaystackWebhook } from "~/services/payments.server";

/** Paystack's events are small; anything larger is not one of them. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * POST /payments/paystack/webhook — Paystack's events. The `x-paystack-signature`
 * header is checked against the raw body before anything is read from it;
 * a successful charge is applied once per reference.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiFailure(405, "Method not allowed", { Allow: "POST" });
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_BODY_BYTES) return apiFailure(413, "Too large");
  const raw = Buffer.from(await request.arrayBuffer());
  if (raw.byteLength > MAX_BODY_BYTES) return apiFailure(413, "Too large");
  const result = handlePaystackWebhook(getDb(), cardGateway(), raw, request.headers.get("x-paystack-signature"));
  if (result.status !== 200) console.warn(`[payments] webhook refused: ${result.outcome}`);
  return Response.json({ success: result.status === 200, outcome: result.outcome }, { status: result.status });
}

export function loader() {
  return apiFailure(405, "Method not allowed", { Allow: "POST" });
}

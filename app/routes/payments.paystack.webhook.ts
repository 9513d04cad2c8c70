import type { ActionFunctionArgs } from "@remix-run/node";
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
  if (request.method !== "POST")
    return Response.json(
      { success: false, message: "Method not allowed" },
      { status: 405, headers: { Allow: "POST" } },
    );
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_BODY_BYTES) return Response.json({ success: false, message: "Too large" }, { status: 413 });
  const raw = Buffer.from(await request.arrayBuffer());
  if (raw.byteLength > MAX_BODY_BYTES) return Response.json({ success: false, message: "Too large" }, { status: 413 });
  const result = handlePaystackWebhook(getDb(), cardGateway(), raw, request.headers.get("x-paystack-signature"));
  if (result.status !== 200) console.warn(`[payments] webhook refused: ${result.outcome}`);
  return Response.json({ success: result.status === 200, outcome: result.outcome }, { status: result.status });
}

export function loader() {
  return Response.json({ success: false, message: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}

import { createHmac, timingSafeEqual } from "node:crypto";
import type { PaystackChannel } from "~/utils/payment-channels";

/**
 * Paystack's transaction API, as documented: initialize a transaction (the
 * payer is sent to `authorization_url`), verify it by reference, and check
 * the signature of a webhook event. Amounts are in the currency's minor unit.
 */
export type PaystackConfig = { secretKey: string; baseUrl: string; channels: readonly PaystackChannel[] };

export class PaystackError extends Error {
  constructor(
    message: string,
    public readonly status?: number,
  ) {
    super(message);
    this.name = "PaystackError";
  }
}

/** A charge as Paystack reports it (verify's `data`, or a webhook event's `data`). */
export type PaystackCharge = {
  reference: string;
  status: string;
  amountMinor: number;
  currency: string;
  paidAt: Date | null;
  gatewayResponse: string | null;
};

const TIMEOUT_MS = 15_000;

async function call(
  config: PaystackConfig,
  path: string,
  init: { method: "GET" | "POST"; body?: unknown },
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      method: init.method,
      headers: {
        Authorization: `Bearer ${config.secretKey}`,
        "Content-Type": "application/json",
        Accept: "application/json",
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new PaystackError(`Paystack could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
  let json: Record<string, unknown>;
  try {
    json = (await response.json()) as Record<string, unknown>;
  } catch {
    throw new PaystackError(`Paystack answered ${response.status} without JSON`, response.status);
  }
  if (!response.ok || json.status !== true) {
    throw new PaystackError(
      typeof json.message === "string" ? json.message : `Paystack answered ${response.status}`,
      response.status,
    );
  }
  return json;
}

export async function initializeTransaction(
  config: PaystackConfig,
  input: {
    email: string;
    amountMinor: number;
    currency: string;
    reference: string;
    callbackUrl: string;
    metadata?: Record<string, unknown>;
  },
): Promise<{ authorizationUrl: string; accessCode: string | null; reference: string }> {
  const json = await call(config, "/transaction/initialize", {
    method: "POST",
    body: {
      email: input.email,
      amount: input.amountMinor,
      currency: input.currency,
      reference: input.reference,
      callback_url: input.callbackUrl,
      // Only the ways the operator turned on (Paystack offers those of them the account has).
      channels: config.channels,
      metadata: input.metadata ?? {},
    },
  });
  const data = (json.data ?? {}) as Record<string, unknown>;
  if (typeof data.authorization_url !== "string" || !/^https?:\/\//.test(data.authorization_url)) {
    throw new PaystackError("Paystack did not return an authorization URL");
  }
  return {
    authorizationUrl: data.authorization_url,
    accessCode: typeof data.access_code === "string" ? data.access_code : null,
    reference: typeof data.reference === "string" ? data.reference : input.reference,
  };
}

/** A transaction's `data` object (from verify or an event) in our terms; null when it lacks the essentials. */
export function readCharge(data: unknown): PaystackCharge | null {
  if (!data || typeof data !== "object") return null;
  const record = data as Record<string, unknown>;
  if (typeof record.reference !== "string" || typeof record.status !== "string") return null;
  const amount = typeof record.amount === "number" ? record.amount : Number(record.amount);
  if (!Number.isInteger(amount) || typeof record.currency !== "string") return null;
  const paidAtText = record.paid_at ?? record.paidAt;
  const paidAt = typeof paidAtText === "string" && !Number.isNaN(Date.parse(paidAtText)) ? new Date(paidAtText) : null;
  return {
    reference: record.reference,
    status: record.status,
    amountMinor: amount,
    currency: record.currency.toUpperCase(),
    paidAt,
    gatewayResponse: typeof record.gateway_response === "string" ? record.gateway_response.slice(0, 200) : null,
  };
}

export async function verifyTransaction(config: PaystackConfig, reference: string): Promise<PaystackCharge> {
  const json = await call(config, `/transaction/verify/${encodeURIComponent(reference)}`, { method: "GET" });
  const charge = readCharge(json.data);
  if (!charge) throw new PaystackError("Paystack's verification lacked the transaction's details");
  return charge;
}

/** Paystack signs each webhook body: hex HMAC-SHA512 of the raw bytes, keyed with the secret key. */
export function signPaystackBody(secretKey: string, rawBody: Buffer | string): string {
  return createHmac("sha512", secretKey).update(rawBody).digest("hex");
}

/** Compare the `x-paystack-signature` header with the body's signature in constant time. */
export function isValidPaystackSignature(
  secretKey: string,
  rawBody: Buffer | string,
  header: string | null | undefined,
): boolean {
  if (!header || !/^[0-9a-f]{128}$/i.test(header.trim())) return false;
  const expected = Buffer.from(signPaystackBody(secretKey, rawBody), "hex");
  const given = Buffer.from(header.trim(), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

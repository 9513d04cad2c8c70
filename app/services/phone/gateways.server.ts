import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { storagePaths } from "~/media/storage.server";
import { getEnv, type SmsSettings } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";

/**
 * The SMS gateways: Africa's Talking through its official SDK, Termii through
 * its HTTP API, and — when no gateway is set — a folder (STORAGE_DIR/sms/, one
 * file a message) and the log, as mail is without SMTP. Each answer is read
 * into one shape; a refusal carries a reason the person can be told.
 */
export type SmsRefusal = "no_balance" | "invalid_number" | "dnd" | "opted_out" | "gateway";

export type GatewayAnswer =
  { ok: true; messageId: string | null; costMinor: number | null } | { ok: false; refusal: SmsRefusal; detail: string };

export type SmsGateway = { name: SmsSettings["provider"]; send(to: string, text: string): Promise<GatewayAnswer> };

const TIMEOUT_MS = 15_000;

export function fileGateway(directory: string = storagePaths().sms): SmsGateway {
  return {
    name: "file",
    async send(to, text) {
      await fs.promises.mkdir(directory, { recursive: true });
      const id = createId(8);
      const file = path.join(directory, `${new Date().toISOString().replace(/[:.]/g, "-")}-${id}.txt`);
      await fs.promises.writeFile(file, `To: ${to}\n\n${text}\n`, { mode: 0o600 });
      const { logLevel } = getEnv();
      if (logLevel === "info" || logLevel === "debug") console.info(`[sms] to ${to}: ${text} (saved to ${file})`);
      return { ok: true, messageId: id, costMinor: 0 };
    },
  };
}

/**
 * Africa's Talking's recipient status codes (docs: SMS → Sending → status codes). 100–102 mean taken;
 * the rest are refusals.
 */
const AT_REFUSALS: Record<number, SmsRefusal> = {
  401: "gateway", // RiskHold
  402: "gateway", // InvalidSenderId
  403: "invalid_number", // InvalidPhoneNumber
  404: "invalid_number", // UnsupportedNumberType
  405: "no_balance", // InsufficientBalance
  406: "opted_out", // UserInBlacklist: the person sent STOP
  407: "gateway", // CouldNotRoute
  409: "dnd", // DoNotDisturbRejection
};

/** "NGN 2.2000" → 220 (minor units, two digits): what Africa's Talking says a message cost. */
export function costOfAtAnswer(cost: unknown): number | null {
  const match = /([\d.]+)\s*$/.exec(String(cost ?? ""));
  return match ? Math.round(Number(match[1]) * 100) : null;
}

type AtRecipient = { statusCode?: number; status?: string; cost?: string; messageId?: string };
type AtClient = { SMS: { send(options: { to: string[]; message: string; from?: string }): Promise<unknown> } };

export function africasTalkingGateway(settings: NonNullable<SmsSettings["africasTalking"]>): SmsGateway {
  const sdkRequire = createRequire(createRequire(import.meta.url).resolve("africastalking"));
  const AfricasTalking = sdkRequire("africastalking") as (options: { username: string; apiKey: string }) => AtClient;
  if (settings.apiUrl) sendToApiAddress(sdkRequire, settings.apiUrl);
  const client = AfricasTalking({ username: settings.username, apiKey: settings.apiKey });
  return {
    name: "africastalking",
    async send(to, text) {
      let answer: { SMSMessageData?: { Message?: string; Recipients?: AtRecipient[] } };
      try {
        answer = (await client.SMS.send({
          to: [to],
          message: text,
          ...(settings.senderId ? { from: settings.senderId } : {}),
        })) as typeof answer;
      } catch (error) {
        return { ok: false, refusal: "gateway", detail: describeFailure(error) };
      }
      const recipient = answer?.SMSMessageData?.Recipients?.[0];
      if (!recipient) {
        const message = String(answer?.SMSMessageData?.Message ?? "no recipient in the answer");
        // "InvalidPhoneNumber" comes back as a message with no recipient when the number cannot be read.
        return { ok: false, refusal: /invalid/i.test(message) ? "invalid_number" : "gateway", detail: message };
      }
      const code = Number(recipient.statusCode);
      if (code >= 100 && code <= 102)
        return { ok: true, messageId: recipient.messageId ?? null, costMinor: costOfAtAnswer(recipient.cost) };
      return { ok: false, refusal: AT_REFUSALS[code] ?? "gateway", detail: `${code} ${recipient.status ?? ""}`.trim() };
    },
  };
}

/**
 * The SDK has its addresses built in (api.africastalking.com, or the sandbox's for the username "sandbox").
 * AT_API_URL sends its requests elsewhere — a stand-in in the tests, an egress relay — through the public
 * interceptor of the axios the SDK itself loads; nothing of the SDK is changed.
 */
const readdressed = new WeakSet<object>();
let atApiUrl: string | undefined;
function sendToApiAddress(sdkRequire: NodeRequire, apiUrl: string): void {
  atApiUrl = apiUrl;
  const axios = sdkRequire("axios") as {
    interceptors: { request: { use(f: (config: { url?: string }) => { url?: string }): void } };
  };
  if (readdressed.has(axios)) return;
  readdressed.add(axios);
  axios.interceptors.request.use((config) => {
    const target = atApiUrl;
    if (target && config.url)
      config.url = config.url.replace(/^https:\/\/api\.(sandbox\.)?africastalking\.com/, target);
    return config;
  });
}

/** Termii's answers carry a message; its refusals are read from it (the API has no codes of its own). */
function termiiRefusal(status: number, message: string): SmsRefusal {
  if (/balance|insufficient|fund/i.test(message)) return "no_balance";
  if (/dnd|do[- ]not[- ]disturb/i.test(message)) return "dnd";
  if (/opt(ed)?[- ]?out|blacklist|stop/i.test(message)) return "opted_out";
  if (/invalid.*(number|phone|recipient)|(number|phone).*invalid/i.test(message) || status === 422)
    return "invalid_number";
  return "gateway";
}

export function termiiGateway(settings: NonNullable<SmsSettings["termii"]>, price: () => number): SmsGateway {
  return {
    name: "termii",
    async send(to, text) {
      let response: Response;
      try {
        response = await fetch(`${settings.baseUrl}/api/sms/send`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({
            api_key: settings.apiKey,
            to: to.replace(/^\+/, ""),
            from: settings.senderId,
            sms: text,
            type: "plain",
            channel: settings.channel,
          }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        return { ok: false, refusal: "gateway", detail: describeFailure(error) };
      }
      const body = (await response.json().catch(() => ({}))) as { message?: string; message_id?: string };
      const message = String(body.message ?? response.statusText);
      if (response.ok && body.message_id)
        // Termii says the balance left, not what one message cost: the operator's SMS_PRICE stands for it.
        return { ok: true, messageId: String(body.message_id), costMinor: price() };
      return { ok: false, refusal: termiiRefusal(response.status, message), detail: `${response.status} ${message}` };
    },
  };
}

function describeFailure(error: unknown): string {
  if (error && typeof error === "object") {
    const response = (error as { response?: { status?: number; data?: unknown } }).response;
    if (response)
      return `${response.status ?? ""} ${typeof response.data === "string" ? response.data : JSON.stringify(response.data ?? "")}`.trim();
    if (error instanceof Error) return error.message;
  }
  return String(error);
}

let chosen: { settings: SmsSettings; gateway: SmsGateway } | undefined;

/** The gateway the settings name (made once per settings). */
export function smsGateway(): SmsGateway {
  const settings = getEnv().sms;
  if (chosen?.settings === settings) return chosen.gateway;
  const gateway =
    settings.provider === "africastalking"
      ? africasTalkingGateway(settings.africasTalking!)
      : settings.provider === "termii"
        ? termiiGateway(settings.termii!, () => getEnv().sms.priceMinor)
        : fileGateway();
  chosen = { settings, gateway };
  return gateway;
}

import { timingSafeEqual } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiFailure } from "~/api/http.server";
import { getDb } from "~/db/client.server";
import { optOutOfSmsNotices } from "~/services/phone/phone-accounts.server";
import { getEnv } from "~/utils/env.server";
import { readForm } from "~/utils/read-form.server";

/**
 * POST /sms/opt-out?key=<SMS_CALLBACK_KEY> — Africa's Talking's opt-out
 * callback (form fields `senderId`, `phoneNumber`): a person who sent STOP to
 * the sender gets no more notices by SMS. Set the callback address with the key
 * in the gateway's dashboard; without SMS_CALLBACK_KEY there is no such page.
 */
export async function action({ request }: ActionFunctionArgs) {
  const key = getEnv().sms.callbackKey;
  if (!key) return apiFailure(404, "Not found");
  if (request.method !== "POST") return apiFailure(405, "Method not allowed", { Allow: "POST" });
  const given = Buffer.from(new URL(request.url).searchParams.get("key") ?? "");
  const expected = Buffer.from(key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return apiFailure(403, "Not allowed");
  const form = await readForm(request);
  const stopped = optOutOfSmsNotices(getDb(), String(form.get("phoneNumber") ?? "").slice(0, 40));
  return Response.json({ success: true, stopped });
}

export function loader() {
  return apiFailure(405, "Method not allowed", { Allow: "POST" });
}

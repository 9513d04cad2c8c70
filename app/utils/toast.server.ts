import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";
import { getEnv } from "./env.server";

/**
 * Flash toasts that survive a redirect: the action puts one in a short-lived
 * cookie, the root loader reads it once and clears it. The message is a
 * translation key (with values) so it shows in the reader's language.
 */
const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("success"),
  key: z.string(),
  values: z.record(z.union([z.string(), z.number()])).optional(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = z.input<typeof toastSchema>;

const TOAST_KEY = "toasts";
const TOAST_COOKIE = "kallo_toast";

const toastStorage = createCookieSessionStorage({
  cookie: {
    name: TOAST_COOKIE,
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    // Made Secure by the server on https requests (scripts/serve.ts).
    secure: false,
    get secrets() {
      return getEnv().sessionSecrets;
    },
  },
});

/** Set-Cookie header value that carries these toasts to the next page. */
export async function createToastHeaders(...toasts: ToastInput[]): Promise<Headers> {
  const session = await toastStorage.getSession();
  session.flash(
    TOAST_KEY,
    toasts.map((toast) => toastSchema.parse(toast)),
  );
  return new Headers({ "Set-Cookie": await toastStorage.commitSession(session) });
}

export async function redirectWithToast(url: string, toast: ToastInput | ToastInput[], init?: ResponseInit) {
  const headers = await createToastHeaders(...(Array.isArray(toast) ? toast : [toast]));
  const extra = new Headers(init?.headers);
  extra.forEach((value, key) => headers.append(key, value));
  return redirect(url, { ...init, headers });
}

/** Read (and consume) the toasts waiting for this request. */
export async function getToasts(request: Request): Promise<{ toasts: Toast[]; headers: Headers | null }> {
  const cookies = request.headers.get("Cookie");
  // Most pages have none waiting: no parsing and signature check of every cookie for nothing.
  if (!cookies?.includes(`${TOAST_COOKIE}=`)) return { toasts: [], headers: null };
  const session = await toastStorage.getSession(cookies);
  const parsed = z.array(toastSchema).safeParse(session.get(TOAST_KEY));
  const toasts = parsed.success ? parsed.data : [];
  if (toasts.length === 0) return { toasts, headers: null };
  return { toasts, headers: new Headers({ "Set-Cookie": await toastStorage.destroySession(session) }) };
}

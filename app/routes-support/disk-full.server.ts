import type { ServerBuild } from "@remix-run/node";
import { isDiskFullError } from "~/db/database-room.server";
import { getLanguage } from "~/i18n/language.server";
import { englishText, getFixedT } from "~/i18n/translate.server";
import { plainPage } from "./plain-page.server";

/**
 * A change that cannot be saved because the disk is full (even after the
 * database gave up its room, db/database-room.server.ts) is answered 503 with
 * a page that says so, in the reader's language — never 500. entry.server's
 * handleError notes the request; its document and data answers, and the /api
 * router, then answer with what is here.
 */
const metDiskFull = new WeakSet<Request>();

/** Note a request whose loader or action met a full disk (true when the error was one). */
export function noteDiskFull(request: Request, error: unknown): boolean {
  if (!isDiskFullError(error)) return false;
  if (!metDiskFull.has(request)) {
    metDiskFull.add(request);
    console.error(`[disk] ${request.method} ${new URL(request.url).pathname}: not saved, the disk is full (503)`);
  }
  return true;
}

export function hasMetDiskFull(request: Request): boolean {
  return metDiskFull.has(request);
}

/** Seconds a client is asked to wait before trying again. */
const RETRY_AFTER_SECONDS = "120";

export async function diskFullPage(request: Request): Promise<Response> {
  const language = await getLanguage(request);
  const t = getFixedT(language, "common");
  const html = plainPage(language, {
    title: t("errors.diskFullTitle"),
    text: t("errors.diskFullText"),
    link: { href: "/", label: t("errors.goHome") },
  });
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": RETRY_AFTER_SECONDS,
    },
  });
}

/** The old clients' JSON shape: `{ success: false, message }`, 503. */
export function diskFullJson(): Response {
  return Response.json(
    { success: false, message: englishText("common:errors.diskFullText") },
    { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": RETRY_AFTER_SECONDS } },
  );
}

/** A data request's answer (a form sent by script): 503 instead of 500, what Remix made kept. */
export function diskFullData(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Retry-After", RETRY_AFTER_SECONDS);
  headers.set("Cache-Control", "no-store");
  return new Response(response.body, { status: 503, headers });
}

type Handler = (args: { request: Request }) => unknown;

/**
 * Resource routes (a route module without a page: /watch-progress, /logout,
 * the payment webhook, the stream and file routes) answer a full disk 503 too:
 * Remix answers what they throw with a bare 500, without the document or data
 * hooks above. Their loaders and actions are wrapped once, as the server takes
 * the build (scripts/serve.ts): a page for a browser's navigation, the JSON
 * shape for everything else.
 */
export function answerDiskFullInResourceRoutes(routes: ServerBuild["routes"]): number {
  let wrapped = 0;
  for (const route of Object.values(routes)) {
    const module = route?.module as unknown as Record<string, unknown> | undefined;
    if (!module || module.default) continue;
    const guarded: Record<string, unknown> = { ...module };
    for (const name of ["loader", "action"] as const) {
      const handler = module[name] as Handler | undefined;
      if (typeof handler !== "function") continue;
      guarded[name] = async (args: { request: Request }) => {
        try {
          return await handler(args);
        } catch (error) {
          if (error instanceof Response || !noteDiskFull(args.request, error)) throw error;
          const navigation = args.request.headers.get("Sec-Fetch-Mode") === "navigate";
          return navigation || (args.request.headers.get("Accept") ?? "").includes("text/html")
            ? diskFullPage(args.request)
            : diskFullJson();
        }
      };
      wrapped++;
    }
    route.module = guarded as unknown as typeof route.module;
  }
  return wrapped;
}

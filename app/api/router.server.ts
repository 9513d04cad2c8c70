import { phoneHandlers } from "./handlers/phone.server";
import { getApiCaller, type ApiCaller } from "~/auth/api-tokens.server";
import { isDiskFullError } from "~/db/database-room.server";
import { diskFullJson } from "~/routes-support/disk-full.server";
import { accountHandlers } from "./handlers/accounts.server";
import { adminHandlers } from "./handlers/admin.server";
import { movieHandlers } from "./handlers/movies.server";
import { profileHandlers } from "./handlers/profiles.server";
import { titleEditHandlers } from "./handlers/title-edits.server";
import { viewingHandlers } from "./handlers/viewings.server";
import { viewerProfileHandlers } from "./handlers/viewer-profiles.server";
import {
  ApiError,
  apiErrorResponse,
  apiJson,
  internalErrorResponse,
  isCrossSiteBrowserRequest,
  isLingering,
  lingerOnUnread,
  isSameOriginRequest,
  NOT_ALLOWED,
  NOT_FOUND,
  NOT_SIGNED_IN,
} from "./http.server";
import { buildOpenApiDocument } from "./openapi.server";
import type { Access, ApiRoute } from "./types";

/**
 * The compatibility router for the old clients' /api paths: one table of
 * routes (method, path pattern, who may call), checked here in one place,
 * each handled by a thin translation over the services the pages use.
 */
/** Path ids are server-made (letters and digits); anything else can name nothing. */
const ID_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

export const API_ROUTES: readonly ApiRoute[] = [
  ...accountHandlers,
  ...phoneHandlers,
  ...viewerProfileHandlers,
  ...adminHandlers,
  ...profileHandlers,
  ...movieHandlers,
  ...titleEditHandlers,
  ...viewingHandlers,
  {
    method: "GET",
    path: "/openapi.json",
    access: "anyone",
    handle: ({ request }) => apiJson(buildOpenApiDocument(request, API_ROUTES)),
  },
];

type Compiled = { route: ApiRoute; pattern: RegExp; names: string[] };
const compiled: Compiled[] = API_ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1]);
      return "([^/]+)";
    })
    .join("/");
  return { route, pattern: new RegExp(`^${source}/?$`), names };
});

function match(pathname: string) {
  const candidates: Array<{ route: ApiRoute; params: Record<string, string> }> = [];
  for (const { route, pattern, names } of compiled) {
    const found = pattern.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    let valid = true;
    names.forEach((name, index) => {
      let value: string;
      try {
        value = decodeURIComponent(found[index + 1]);
      } catch {
        value = "";
      }
      if (!ID_SEGMENT.test(value)) valid = false;
      params[name] = value;
    });
    if (valid) candidates.push({ route, params });
  }
  return candidates;
}

function allowed(access: Access, caller: ApiCaller): boolean {
  if (access === "anyone" || access === "signedIn") return true;
  return access.includes(caller.account.role);
}

async function dispatch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/^\/api(?=\/|$)/, "") || "/";
  const candidates = match(pathname);
  if (candidates.length === 0) throw new ApiError(404, NOT_FOUND);
  const method = request.method === "HEAD" ? "GET" : request.method;
  const found = candidates.find((candidate) => candidate.route.method === method);
  if (!found) {
    const allow = [...new Set(candidates.map((candidate) => candidate.route.method))].join(", ");
    throw new ApiError(405, "Method not allowed", { Allow: allow });
  }
  const { route, params } = found;
  const writes = method !== "GET";

  let caller: ApiCaller | null = null;
  if (route.access === "anyone") {
    // Anyone may sign in or register, but not from another site's page.
    if (writes && isCrossSiteBrowserRequest(request)) throw new ApiError(403, "Cross-site requests are not accepted");
  } else {
    caller = await getApiCaller(request);
    if (!caller) throw new ApiError(401, NOT_SIGNED_IN, { "WWW-Authenticate": 'Bearer realm="kallo"' });
    // The cookie rides along on any site's form or fetch; only our own pages may write with it.
    if (writes && caller.via === "cookie" && !isSameOriginRequest(request)) {
      throw new ApiError(
        403,
        "Cookie-authenticated changes must come from this site (send Origin) or use a Bearer token",
      );
    }
    if (!allowed(route.access, caller)) throw new ApiError(403, NOT_ALLOWED);
  }
  return route.handle({ request, params, caller });
}

/** Answer any /api request: always JSON, never an HTML page or a stack trace. */
export async function handleApiRequest(request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await dispatch(request);
  } catch (error) {
    if (error instanceof ApiError) response = apiErrorResponse(error);
    else if (isDiskFullError(error)) {
      console.error(`[disk] ${request.method} ${new URL(request.url).pathname}: not saved, the disk is full (503)`);
      response = diskFullJson();
    } else {
      console.error(`[api] ${request.method} ${new URL(request.url).pathname} failed`, error);
      response = internalErrorResponse();
    }
  }
  return settleRequestBody(request, response);
}

/**
 * A refusal can come before the body was read (401 or 403 before an upload,
 * 413 by Content-Length, 507 by a declared size the disk has no room for) or
 * with part of it unread. Left on a kept-alive connection, those bytes would
 * be taken for the next request; closing the connection instead would reset
 * a client still sending, which then never reads the answer. So the answer
 * goes out now and the rest of the body is read and dropped behind it, for a
 * bounded time and size (lingerOn, app/utils/request-body.server.ts); once
 * it has ended the connection carries the next request.
 *
 * Only a body some reader holds, or a refused multipart body read part way
 * by a handler that did not linger on it, cannot be read on: its connection
 * closes after the answer.
 */
function settleRequestBody(request: Request, response: Response): Response {
  if (!request.body || isLingering(request) || lingerOnUnread(request)) return response;
  if (!request.bodyUsed || (response.status >= 400 && isMultipart(request)))
    response.headers.set("Connection", "close");
  return response;
}

function isMultipart(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/");
}

import type { ApiCaller } from "~/auth/api-tokens.server";
import type { Role } from "~/db/schema";

/**
 * What the /api router and its handlers share: a route's shape, the context a
 * handler gets, and the page size of the old clients' lists. Handlers import
 * this, never the router, so imports only point down.
 */
export type Access = "anyone" | "signedIn" | readonly Role[];

export type HandlerContext = {
  request: Request;
  params: Record<string, string>;
  /** Present whenever the route's access is not "anyone". */
  caller: ApiCaller | null;
};

export type ApiRoute = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path after /api, with `{name}` for one segment. */
  path: string;
  access: Access;
  handle: (context: HandlerContext) => Promise<Response> | Response;
};

/** Rows per page of the /api lists that page (`?page=`). */
export const LIST_PAGE_SIZE = 100;

import { createHash } from "node:crypto";
import { SESSION_COOKIE_NAME } from "~/utils/cookie-names";

/**
 * How pages and their `.data` answers may be cached (decision 032). Resource
 * routes (posters, films, streams, category images) set their own rules.
 *
 * - Rendered for a session, or setting a cookie (a sign-in, a flash toast):
 *   names the viewer, their plan, their history — no cache may keep it (the
 *   browser's, a proxy's, the service worker's, which stores only what may be
 *   stored). The same URL read signed out is another answer.
 * - Anything else (a signed-out visitor's landing page, plans, terms, …): the
 *   browser keeps it and asks again on each visit with the weak ETag, and an
 *   unchanged page is answered 304 with no body. Not a shared cache: every
 *   document carries a CSP nonce made for that answer alone, which a proxy
 *   would hand to everyone (see the decision for why hashes cannot replace it).
 *
 * Both vary by what picks the language and the person: the cookies, else
 * Accept-Language.
 */
export const PERSONAL_CACHE_CONTROL = "private, no-store";
export const SIGNED_OUT_CACHE_CONTROL = "private, no-cache";
const VARY = ["Cookie", "Accept-Language"];

export type PageAudience = "personal" | "signed-out";

function appendVary(headers: Headers): void {
  const present = new Set(
    (headers.get("Vary") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const name of VARY) if (!present.has(name.toLowerCase())) headers.append("Vary", name);
}

/** Set Cache-Control and Vary on a page or data answer; says which kind it is. */
export function applyCachePolicy(request: Request, headers: Headers): PageAudience {
  const cookies = request.headers.get("Cookie") ?? "";
  const hasSession = cookies.split(";").some((pair) => pair.trim().startsWith(`${SESSION_COOKIE_NAME}=`));
  const setsCookie = headers.getSetCookie().length > 0;
  const audience: PageAudience = hasSession || setsCookie ? "personal" : "signed-out";
  headers.set("Cache-Control", audience === "personal" ? PERSONAL_CACHE_CONTROL : SIGNED_OUT_CACHE_CONTROL);
  appendVary(headers);
  return audience;
}

/**
 * The validator of a signed-out page: a hash of its HTML with this answer's
 * nonce taken out, so the same page rendered again (with a new nonce) has the
 * same tag. Weak, because the bytes do differ by that nonce.
 */
export function pageEtag(html: string, nonce: string): string {
  const digest = createHash("sha256").update(html.replaceAll(nonce, "")).digest("base64url");
  return `W/"${digest.slice(0, 27)}"`;
}

/** Does If-None-Match name this tag? Weak comparison, as RFC 9110 has it for GET and HEAD. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}

/**
 * Answer a finished signed-out page: 304 with no body when the browser's copy
 * is still this page, else the page with its ETag. The 304 carries only what
 * refreshes the stored copy (validator, caching, Vary) and never a
 * Content-Security-Policy: a new nonce in it would replace the stored one and
 * block the stored page's own scripts.
 */
export function answerSignedOutPage(
  request: Request,
  html: string,
  nonce: string,
  init: { status: number; headers: Headers },
): Response {
  const etag = pageEtag(html, nonce);
  if (etagMatches(request.headers.get("If-None-Match"), etag)) {
    const headers = new Headers({ ETag: etag });
    for (const name of ["Cache-Control", "Vary"]) {
      const value = init.headers.get(name);
      if (value) headers.set(name, value);
    }
    return new Response(null, { status: 304, headers });
  }
  init.headers.set("ETag", etag);
  const body = Buffer.from(html);
  init.headers.set("Content-Length", String(body.length));
  return new Response(request.method === "HEAD" ? null : body, init);
}

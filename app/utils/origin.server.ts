import { getEnv } from "./env.server";

function ownOrigins(request: Request): string[] {
  const origins = [new URL(request.url).origin];
  const publicUrl = getEnv().publicUrl;
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return origins;
}

/** Whether the browser says this request comes from one of our own pages. */
export function isSameOriginRequest(request: Request): boolean {
  if (request.headers.get("Sec-Fetch-Site") === "same-origin") return true;
  const origin = request.headers.get("Origin");
  return origin !== null && ownOrigins(request).includes(origin);
}

/** A browser request from another site (it sent Origin or Sec-Fetch-Site saying so); scripts and apps send neither. */
export function isCrossSiteBrowserRequest(request: Request): boolean {
  if (isSameOriginRequest(request)) return false;
  const site = request.headers.get("Sec-Fetch-Site");
  return request.headers.has("Origin") || (site !== null && site !== "none");
}

import { getEnv } from "./env.server";

/**
 * The site's own address for links that leave it (password-reset mail):
 * PUBLIC_URL, never the Host or X-Forwarded-Host of a request, which anyone
 * can set (a reset link pointing at their own site would hand them the
 * token). `npm run demo` sets PUBLIC_URL to its local address; in production
 * without it this is null, and the start-up log says so.
 */
export function siteAddress(): string | null {
  return getEnv().publicUrl ?? null;
}

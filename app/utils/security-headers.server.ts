import { createHash, randomBytes } from "node:crypto";
import { getEnv } from "./env.server";
import { HOLD_EARLY_PLAY } from "./hold-early-play";

/** The watch page's one inline script of its own, allowed by its hash (utils/hold-early-play.ts). */
const HOLD_EARLY_PLAY_HASH = `'sha256-${createHash("sha256").update(HOLD_EARLY_PLAY).digest("base64")}'`;

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The enforced Content-Security-Policy for documents: scripts only with this
 * request's nonce (and what they load) or the player's hold script's hash, no
 * framing, no plugins.
 */
export function contentSecurityPolicy(nonce: string, mediaOrigin = getEnv().s3?.origin): string {
  // Films held in the media bucket are read from its (or its CDN's) signed addresses.
  const media = mediaOrigin ? ` ${mediaOrigin}` : "";
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' ${HOLD_EARLY_PLAY_HASH} 'strict-dynamic' 'self'`,
    // Inline style attributes come from server-rendered layout (carousel widths, progress bars).
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `media-src 'self' blob:${media}`,
    "font-src 'self'",
    `connect-src 'self'${media}`,
    // The service worker; nothing runs in a worker made from a blob.
    "worker-src 'self'",
    "manifest-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** Headers every response of ours carries, documents or not. */
export function applySecurityHeaders(headers: Headers, nonce?: string): Headers {
  if (nonce) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");
  return headers;
}

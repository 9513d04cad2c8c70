/** Refused bodies up to this size are still read (and dropped), so the client gets its answer on a kept-alive connection. */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;

/** Requests whose body was abandoned half read: their connection must close after the answer. */
const abandoned = new WeakSet<Request>();

export function wasAbandoned(request: Request): boolean {
  return abandoned.has(request);
}

/** Remember that a request's body was left half read (its connection must close after the answer). */
export function markAbandoned(request: Request): void {
  abandoned.add(request);
}

/**
 * Requests whose refused body is still being read and dropped after the
 * answer (a lingering close: app/media/multipart-upload.server.ts). Their
 * answer must not say `Connection: close`: Node closes the socket as soon as
 * such an answer is written, and a client still sending then gets a reset
 * (EPIPE) instead of the answer. The reading itself cuts the connection if
 * the client goes on sending for too long.
 */
const lingering = new WeakSet<Request>();

export function isLingering(request: Request): boolean {
  return lingering.has(request);
}

/** Remember that a request's refused body is read to its end (or cut after a while) after the answer. */
export function markLingering(request: Request): void {
  lingering.add(request);
}

/** Read a body to its end, or give up (and remember it) past `limit` bytes. True when read to the end. */
export async function drainBody(request: Request, limit = DRAIN_LIMIT_BYTES): Promise<boolean> {
  if (!request.body || request.bodyUsed) return !abandoned.has(request);
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (declared > limit) {
    abandoned.add(request);
    return false;
  }
  let drained = false;
  try {
    drained = await drainReader(request.body.getReader(), limit);
  } catch {
    // Locked by a reader that stopped: nothing more to read here.
  }
  if (!drained) abandoned.add(request);
  return drained;
}

/** Read a body's reader to its end and drop what it gives, or give up (cancelling it) past `limit` bytes. True when read to the end. */
export async function drainReader(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<boolean> {
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      total += value.byteLength;
      if (total > limit) break;
    }
  } catch {
    // The client went away.
  }
  await reader.cancel().catch(() => {});
  return false;
}

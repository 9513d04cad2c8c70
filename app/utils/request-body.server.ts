import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

/**
 * A "lingering close", as web servers do it: a request refused before its
 * body has been read to its end is answered at once, and what the client
 * still sends is read and dropped behind the answer.
 *
 * Why not simply `Connection: close`: Node destroys the socket as soon as
 * such an answer has been written (res._last: resOnFinish calls
 * socket.destroySoon()). A client still sending its body — a browser
 * uploading a film, a form over the limit — then meets a reset: its write
 * fails (EPIPE) and it rarely reads the answer waiting for it ("connection
 * reset", "fetch failed" instead of our message). And leaving the rest
 * unread stalls the client until the connection times out.
 *
 * Read on instead, the connection stays as it is: once the body has ended it
 * carries the next request. A client still sending after LINGER_MS, or more
 * than LINGER_BYTES after the answer, has its connection cut; it has had the
 * time to read the answer.
 */
export const LINGER_MS = 30_000;
export const LINGER_BYTES = 64 * 1024 * 1024;

const lingeringStreams = new WeakSet<Readable>();

/**
 * Read and drop the rest of a body (a node request, or a stream over one)
 * in the background, up to LINGER_MS and LINGER_BYTES; past either the
 * stream is destroyed, which destroys the connection under it.
 */
export function lingerOnStream(body: Readable): void {
  if (lingeringStreams.has(body) || body.destroyed || body.readableEnded) return;
  lingeringStreams.add(body);
  let dropped = 0;
  const cut = () => body.destroy();
  const timer = setTimeout(cut, LINGER_MS).unref();
  const done = () => clearTimeout(timer);
  body.on("data", (chunk: Uint8Array) => {
    dropped += chunk.byteLength;
    if (dropped > LINGER_BYTES) cut();
  });
  body.once("end", done);
  body.once("close", done);
  // The client went away: nothing is left to read.
  body.on("error", done);
  body.resume();
}

/** Requests whose body is read and dropped behind their answer (lingerOn): that answer must not close the connection. */
const lingering = new WeakSet<Request>();

export function isLingering(request: Request): boolean {
  return lingering.has(request);
}

/**
 * Read and drop the rest of a refused request's body behind its answer (see
 * LINGER_MS above), from where it stands: its own stream if nothing has read
 * it, or the reader or node stream a handler stopped reading it with. False
 * when it cannot be read on (held by a reader that was not given).
 */
export function lingerOn(request: Request, from?: Readable | ReadableStreamDefaultReader<Uint8Array>): boolean {
  if (lingering.has(request)) return true;
  let body: Readable;
  if (from instanceof Readable) body = from;
  else {
    from?.releaseLock();
    if (!request.body || request.body.locked) return false;
    body = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);
  }
  lingering.add(request);
  lingerOnStream(body);
  return true;
}

/** lingerOn for a body nothing has read yet (an answer that came before it); false when there is none, or it was read. */
export function lingerOnUnread(request: Request): boolean {
  return Boolean(request.body) && !request.bodyUsed && lingerOn(request);
}

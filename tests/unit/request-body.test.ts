import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LINGER_BYTES, LINGER_MS, lingerOn, lingerOnStream, lingerOnUnread } from "~/utils/request-body.server";

/** Let the stream's queued reads and events run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("lingering on a refused body (request-body.server)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads and drops what the client still sends, and leaves a body that ends in time whole", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    // As a request on a kept-alive connection: ending does not destroy it.
    const body = new PassThrough({ autoDestroy: false });
    lingerOnStream(body);
    body.write(Buffer.alloc(1024 * 1024));
    body.end(Buffer.alloc(1024));
    await settle();
    expect(body.readableEnded).toBe(true);
    // The timer is cleared once the body has ended: the connection stays for the next request.
    vi.advanceTimersByTime(LINGER_MS + 1);
    expect(body.destroyed).toBe(false);
  });

  it("cuts a client still sending after LINGER_MS", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const body = new PassThrough();
    lingerOnStream(body);
    body.write(Buffer.alloc(1024));
    await settle();
    vi.advanceTimersByTime(LINGER_MS - 1);
    expect(body.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(body.destroyed).toBe(true);
  });

  it("cuts a client that sends more than LINGER_BYTES after the answer", async () => {
    const body = new PassThrough({ highWaterMark: 1024 * 1024 });
    lingerOnStream(body);
    const chunk = Buffer.alloc(4 * 1024 * 1024);
    let sent = 0;
    while (!body.destroyed && sent <= LINGER_BYTES + chunk.length) {
      body.write(chunk);
      sent += chunk.length;
      await settle();
    }
    expect(body.destroyed).toBe(true);
    expect(sent).toBeGreaterThan(LINGER_BYTES);
  });

  it("lingers on a request's unread body once, and not on one already read", async () => {
    const unread = new Request("http://kallo.test/upload", {
      method: "POST",
      body: new Blob([new Uint8Array(10)]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(lingerOnUnread(unread)).toBe(true);
    expect(lingerOn(unread)).toBe(true);

    const read = new Request("http://kallo.test/upload", { method: "POST", body: "done" });
    await read.text();
    expect(lingerOnUnread(read)).toBe(false);
    expect(lingerOnUnread(new Request("http://kallo.test/"))).toBe(false);
  });
});

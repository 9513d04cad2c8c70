import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderDeadline } from "~/utils/render-deadline.server";

// Only the deadline's own timer is faked: stream events still come on the next ticks.
beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
afterEach(() => vi.useRealTimers());

describe("a page render's deadline", () => {
  it("aborts a render still writing when the time is up", () => {
    const abort = vi.fn();
    renderDeadline(abort, 6_000).watch(new PassThrough());
    vi.advanceTimersByTime(5_999);
    expect(abort).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(abort).toHaveBeenCalledTimes(1);
  });

  it("is dropped once the page is written, or the stream closed, or the shell failed: no timer is left holding the render", async () => {
    const abort = vi.fn();
    const written = new PassThrough();
    renderDeadline(abort, 6_000).watch(written);
    const closed = new PassThrough();
    renderDeadline(abort, 6_000).watch(closed);
    const failed = renderDeadline(abort, 6_000);
    const unwatched = renderDeadline(abort, 6_000);
    expect(vi.getTimerCount()).toBe(4);

    written.end("<html></html>");
    closed.destroy();
    failed.done();
    await new Promise((resolve) => setImmediate(resolve));
    expect(vi.getTimerCount()).toBe(1);
    unwatched.done();
    vi.advanceTimersByTime(10_000);
    expect(abort).not.toHaveBeenCalled();
  });
});

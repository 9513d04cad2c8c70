import type { Writable } from "node:stream";

/**
 * A page render's deadline: `abort` runs if the render has not finished
 * within `ms`. `watch` ties it to the stream React writes the page into: once
 * React has ended that stream (or it was closed: the visitor left), the
 * deadline is dropped. A timer left to fire would keep the whole render —
 * loader data, React's own state — alive until then (at 300 pages a second
 * with a six-second deadline, 1,800 finished renders held and promoted to the
 * old generation), and end a finished stream a second time.
 */
export function renderDeadline(abort: () => void, ms: number) {
  const timer = setTimeout(abort, ms);
  const done = () => clearTimeout(timer);
  return {
    watch(stream: Writable) {
      stream.once("finish", done).once("close", done);
    },
    /** The render ended without a stream (its shell failed). */
    done,
  };
}

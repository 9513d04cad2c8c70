/**
 * The listening socket of a server with several workers, held by the primary for the server's whole life
 * (docs/decisions/061-release-night.md). Node's cluster closes its shared socket when its last worker leaves
 * — both workers down at once (a crash under load, a rollback) meant every new connection was refused until a
 * replacement listened. Here the primary accepts each connection without reading from it (`pauseOnConnect`,
 * the pattern Node's child_process documents for handing sockets on) and hands it to the next worker that
 * serves, in turn; while none does, connections wait in the primary (at most HOLD_MS, then they are closed),
 * and go to the first worker that comes up. The client only sees a slower answer.
 *
 * A connection is handed over with the primary keeping its own copy until the worker says it took it: a
 * worker that dies in between (killed, crashed, before the primary heard of its end) does not take the
 * connection with it — it goes to another worker.
 *
 * The worker's end is `takeConnections` (scripts/serve.ts): it serves each socket it is given as if its own
 * server had accepted it, and tells the primary when it serves and when it stops taking more.
 */
import net from "node:net";
import type { Worker } from "node:cluster";

/** The messages of the hand-over (our own, beside the cluster's). */
export const CONNECTION_MESSAGE = "connection";
export const SERVING_MESSAGE = "serving";
export const CLOSING_MESSAGE = "closing";
export const TOOK_MESSAGE = "took";

/** How long a connection may wait for a worker before it is closed. */
const HOLD_MS = 60_000;
/** At most this many connections wait at once (the kernel's own queue holds more behind them). */
const MOST_HELD = 4_096;

type Held = { socket: net.Socket; since: number };

export type FrontDoor = {
  /** Resolves once the socket listens; rejects with the listen error (a port in use, say). */
  listening: Promise<void>;
  /** The worker serves: connections go to it from now on. */
  add(worker: Worker): void;
  /** The worker stops taking connections (it stops). */
  remove(worker: Worker): void;
  /** The worker took connection `id`: the primary's copy is closed. */
  took(id: number): void;
  /** The worker ended: connections it had not taken go to another one. */
  lost(worker: Worker): void;
  /** Connections waiting for a worker now (tests, the log). */
  waiting(): number;
  /** Stop accepting; connections still waiting are closed. */
  close(): Promise<void>;
};

export function openFrontDoor(port: number, host?: string): FrontDoor {
  const serving: Worker[] = [];
  const held: Held[] = [];
  /** Handed to a worker, not yet taken. */
  const handed = new Map<number, Held & { worker: Worker }>();
  let lastId = 0;
  let next = 0;
  let closed = false;

  const sweep = setInterval(() => {
    const now = Date.now();
    while (held.length && now - held[0].since > HOLD_MS) held.shift()!.socket.destroy();
  }, 1_000);
  sweep.unref();

  const give = (entry: Held): void => {
    if (entry.socket.destroyed) return;
    if (serving.length === 0) {
      if (held.length >= MOST_HELD) entry.socket.destroy();
      else held.push(entry);
      return;
    }
    const worker = serving[next++ % serving.length];
    const id = ++lastId;
    handed.set(id, { ...entry, worker });
    // The worker gets its own copy of the socket's descriptor; the primary's is closed once the worker took it.
    // `at`: when the connection was accepted — its first request's deadline counts from there.
    worker.send({ kallo: CONNECTION_MESSAGE, id, at: entry.since }, entry.socket, { keepOpen: true }, (error) => {
      if (!error || !handed.delete(id)) return;
      // The worker went away in between: the connection goes to another one (or waits).
      remove(worker);
      give(entry);
    });
  };

  const remove = (worker: Worker): void => {
    const index = serving.indexOf(worker);
    if (index >= 0) serving.splice(index, 1);
  };

  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    // A client that leaves while it waits is no longer waited for.
    socket.once("error", () => socket.destroy());
    give({ socket, since: Date.now() });
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    const ready = () => {
      server.off("error", reject);
      server.on("error", (error) => console.error(`[serve] the listening socket: ${error.message}`));
      resolve();
    };
    if (host) server.listen(port, host, ready);
    else server.listen(port, ready);
  });

  return {
    listening,
    add(worker) {
      if (closed || serving.includes(worker)) return;
      serving.push(worker);
      for (const entry of held.splice(0)) give(entry);
    },
    remove,
    took(id) {
      handed.get(id)?.socket.destroy();
      handed.delete(id);
    },
    lost(worker) {
      remove(worker);
      for (const [id, entry] of handed)
        if (entry.worker === worker) {
          handed.delete(id);
          give(entry);
        }
    },
    waiting: () => held.length,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        clearInterval(sweep);
        for (const entry of held.splice(0)) entry.socket.destroy();
        for (const entry of handed.values()) entry.socket.destroy();
        handed.clear();
        // Not waiting for its callback: that waits until every connection ever handed to a worker has closed
        // (Node counts them across processes), and the workers' kept-alive ones close only as the workers stop.
        if (server.listening) server.close();
        resolve();
      }),
  };
}

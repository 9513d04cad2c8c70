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
 * Both ends of the hand-over live here: the primary's (`openFrontDoor`, `onceServing`) and the worker's
 * (`takeConnections`), which serves each socket it is given as if its own server had accepted it and tells the
 * primary when it serves, when it took a connection and when it stops taking more.
 */
import cluster, { type Worker } from "node:cluster";
import type http from "node:http";
import net from "node:net";

/** The messages of the hand-over (our own, beside the cluster's). */
const CONNECTION_MESSAGE = "connection";
const SERVING_MESSAGE = "serving";
const CLOSING_MESSAGE = "closing";
const TOOK_MESSAGE = "took";
type DoorMessage = { kallo: string; id?: unknown; at?: unknown };

function doorMessage(message: unknown, kind: string): DoorMessage | null {
  return typeof message === "object" && message !== null && (message as { kallo?: unknown }).kallo === kind
    ? (message as DoorMessage)
    : null;
}

/* ---------- the primary's end ---------- */

/** Call `then` once the worker serves (it takes connections from the primary's socket). */
export function onceServing(worker: Worker, then: () => void): void {
  const hear = (message: unknown) => {
    if (!doorMessage(message, SERVING_MESSAGE)) return;
    worker.off("message", hear);
    then();
  };
  worker.on("message", hear);
}

/** How long a connection may wait for a worker before it is closed. */
const HOLD_MS = 60_000;
/** At most this many connections wait at once (the kernel's own queue holds more behind them). */
const MOST_HELD = 4_096;

type Held = { socket: net.Socket; since: number };

export type FrontDoor = {
  /** Resolves once the socket listens; rejects with the listen error (a port in use, say). */
  listening: Promise<void>;
  /** The worker stops taking connections (it is told to stop). */
  remove(worker: Worker): void;
  /** Connections waiting for a worker now (tests, the log). */
  waiting(): number;
  /** Stop accepting; connections still waiting are closed. */
  close(): Promise<void>;
};

/**
 * Listen on `port` and hand connections to the workers that say they serve — those `accepts` still takes
 * (not one being retired, none while the server stops) — until they say they close or they end.
 */
export function openFrontDoor(port: number, host: string | undefined, accepts: (worker: Worker) => boolean): FrontDoor {
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

  const add = (worker: Worker): void => {
    if (closed || serving.includes(worker)) return;
    serving.push(worker);
    for (const entry of held.splice(0)) give(entry);
  };
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (doorMessage(message, SERVING_MESSAGE) && accepts(worker)) add(worker);
    else if (doorMessage(message, CLOSING_MESSAGE)) remove(worker);
    else {
      const took = doorMessage(message, TOOK_MESSAGE);
      if (!took) return;
      // The worker took the connection: the primary's copy is closed.
      handed.get(Number(took.id))?.socket.destroy();
      handed.delete(Number(took.id));
    }
  });
  // A worker that ended: the connections it had not taken go to another one.
  cluster.on("exit", (worker: Worker) => {
    remove(worker);
    for (const [id, entry] of handed)
      if (entry.worker === worker) {
        handed.delete(id);
        give(entry);
      }
  });

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
    remove,
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

/* ---------- the worker's end ---------- */

export type HandedOver = {
  /** When the primary accepted this socket, for its first request (then forgotten); null for later ones. */
  acceptedAt(socket: net.Socket): number | null;
  /** Take no more; resolves when every connection handed over has ended. */
  close(): Promise<void>;
};

/**
 * Serve the connections the primary hands over as if `server` had accepted them. The server does not listen
 * itself, so it is told it does ("listening" starts Node's tracking of its connections: idle ones closed on
 * a stop, header timeouts); the primary hears "serving" once it is ready, "took" for each connection, and
 * "closing" when it stops taking them.
 */
export function takeConnections(server: http.Server): HandedOver {
  const open = new Set<net.Socket>();
  const accepted = new WeakMap<net.Socket, number>();
  let closing = false;
  let allEnded: (() => void) | null = null;
  process.on("message", (message: unknown, socket: unknown) => {
    const handOver = doorMessage(message, CONNECTION_MESSAGE);
    if (!handOver || !(socket instanceof net.Socket)) return;
    if (typeof handOver.at === "number") accepted.set(socket, handOver.at);
    process.send?.({ kallo: TOOK_MESSAGE, id: handOver.id }, undefined, undefined, () => undefined);
    open.add(socket);
    socket.once("close", () => {
      open.delete(socket);
      if (closing && open.size === 0) allEnded?.();
    });
    // Stopping already (the primary had not yet heard): this connection's answer says "Connection: close".
    server.emit("connection", socket);
    socket.resume();
  });
  server.emit("listening");
  process.send?.({ kallo: SERVING_MESSAGE });
  return {
    acceptedAt(socket) {
      const at = accepted.get(socket) ?? null;
      accepted.delete(socket);
      return at;
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        if (process.connected) process.send?.({ kallo: CLOSING_MESSAGE }, undefined, undefined, () => undefined);
        server.close();
        if (open.size === 0) resolve();
        else allEnded = resolve;
      }),
  };
}

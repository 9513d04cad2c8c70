import cluster, { type Worker } from "node:cluster";

/**
 * The processes of one Kallo that serves with several (WORKERS > 1, Node's
 * cluster; docs/decisions/030-workers.md). The primary forks the workers and
 * keeps what they must share in memory; every worker serves requests, and one
 * of them, the "background" worker, also runs the job queue and the sweeps.
 * This module is both ends of their conversation over the cluster's channel:
 *
 * - the role of this process (`runsBackgroundWork`);
 * - notes to the other workers, passed on by the primary (`tellOtherWorkers`,
 *   `onWorkerNote`): "a job was queued";
 * - questions to the primary (`askPrimary`): "every worker's metrics";
 * - shared slots, kept by the primary (`takeSharedSlot`): the lock on one
 *   upload, N password hashes at once across the whole box. A worker that
 *   dies gives its slots back with it.
 *
 * Without a cluster (WORKERS=1, development, tests) there is no one to tell:
 * notes go nowhere, and callers use their in-process way.
 */

/** Set by the primary on each worker it forks. */
export const WORKER_ROLE_ENV = "KALLO_WORKER_ROLE";
export type WorkerRole = "background" | "serving";

/** This process's role among the workers, or null when it is not a cluster worker (one process does everything). */
export function workerRole(): WorkerRole | null {
  if (!inCluster()) return null;
  return process.env[WORKER_ROLE_ENV] === "background" ? "background" : "serving";
}

/** Whether this process runs the job queue, the backfills and the sweeps: the only process, or the background worker. */
export function runsBackgroundWork(): boolean {
  return workerRole() !== "serving";
}

/** Whether this process is a worker of a Kallo cluster (it has a primary to talk to). */
export function inCluster(): boolean {
  return cluster.isWorker && typeof process.send === "function";
}

/* ---------- the messages ---------- */

type Note = { kind: string } & Record<string, unknown>;

/** Everything on the channel that is ours carries `kallo` (prom-client's own messages do not). */
type ToPrimary =
  | { kallo: "note"; note: Note }
  | { kallo: "ask"; id: number; question: string }
  | { kallo: "slot.take"; id: number; name: string; limit: number; waitMs?: number }
  | { kallo: "slot.give"; id: number };

type ToWorker =
  | { kallo: "note"; note: Note }
  | { kallo: "answer"; id: number; value?: unknown; error?: string }
  | { kallo: "slot.granted"; id: number }
  | { kallo: "slot.refused"; id: number }
  | { kallo: "slot.wanted"; id: number };

function isOurs(message: unknown): message is { kallo: string } {
  return typeof message === "object" && message !== null && typeof (message as { kallo?: unknown }).kallo === "string";
}

/* ---------- the worker's end ---------- */

// One state per process, kept on globalThis: the server script and the app's build each load their own copy of this module.
type WorkerEnd = {
  noteHandlers: Map<string, Set<(note: Note) => void>>;
  pendingAnswers: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
  slotRequests: Map<number, { granted: () => void; wanted?: () => void; refused?: () => void }>;
  lastRequestId: number;
  listening: boolean;
};
const globalForCluster = globalThis as unknown as { __kalloWorkerEnd?: WorkerEnd };
const workerEnd: WorkerEnd = (globalForCluster.__kalloWorkerEnd ??= {
  noteHandlers: new Map(),
  pendingAnswers: new Map(),
  slotRequests: new Map(),
  lastRequestId: 0,
  listening: false,
});
const { noteHandlers, pendingAnswers, slotRequests } = workerEnd;

function toPrimary(message: ToPrimary): void {
  // A channel closed under us (the primary is gone) means this worker is about to exit anyway.
  if (process.connected) process.send!(message, undefined, undefined, () => undefined);
}

function listen(): void {
  if (workerEnd.listening) return;
  workerEnd.listening = true;
  process.on("message", (message: unknown) => {
    if (!isOurs(message)) return;
    const ours = message as ToWorker;
    switch (ours.kallo) {
      case "note":
        for (const handler of noteHandlers.get(ours.note.kind) ?? []) handler(ours.note);
        break;
      case "answer": {
        const pending = pendingAnswers.get(ours.id);
        pendingAnswers.delete(ours.id);
        if (ours.error !== undefined) pending?.reject(new Error(ours.error));
        else pending?.resolve(ours.value);
        break;
      }
      case "slot.granted":
        slotRequests.get(ours.id)?.granted();
        break;
      case "slot.wanted":
        slotRequests.get(ours.id)?.wanted?.();
        break;
      case "slot.refused":
        slotRequests.get(ours.id)?.refused?.();
        break;
    }
  });
}

/** Tell every other worker something (the primary passes it on); nothing happens outside a cluster. */
export function tellOtherWorkers(kind: string, fields: Record<string, unknown> = {}): void {
  if (!inCluster()) return;
  toPrimary({ kallo: "note", note: { ...fields, kind } });
}

/** Hear the notes of a kind: from other workers, or from the primary ("stop"). */
export function onWorkerNote(kind: string, handler: (note: Note) => void): void {
  if (!inCluster()) return;
  listen();
  let handlers = noteHandlers.get(kind);
  if (!handlers) noteHandlers.set(kind, (handlers = new Set()));
  handlers.add(handler);
}

/** Ask the primary a question it was set up to answer (`coordinateWorkers`). */
export function askPrimary<T>(question: string, timeoutMs = 10_000): Promise<T> {
  if (!inCluster()) return Promise.reject(new Error("not a cluster worker"));
  listen();
  const id = ++workerEnd.lastRequestId;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      pendingAnswers.delete(id);
      reject(new Error(`the primary did not answer "${question}" within ${timeoutMs} ms`));
    }, timeoutMs);
    pendingAnswers.set(id, {
      resolve: (value) => (clearTimeout(timer), resolve(value as T)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    });
    toPrimary({ kallo: "ask", id, question });
  });
}

/** A slot was not taken in time, or its asker gave up waiting. */
export class SlotNotTaken extends Error {
  readonly name = "SlotNotTaken";
}

/**
 * Wait for one of `limit` slots of this name, shared by every worker; resolves
 * with the function that gives it back. `onWanted` is called while it is held
 * whenever another request waits for the name (so a lock holder can let go).
 * Rejects with SlotNotTaken after `timeoutMs` — at once when the slots' usual hold times the queue ahead
 * says its turn would come later — or when `signal` aborts.
 */
export function takeSharedSlot(
  name: string,
  options: { limit?: number; timeoutMs?: number; signal?: AbortSignal; onWanted?: () => void } = {},
): Promise<() => void> {
  if (!inCluster()) return Promise.reject(new Error("not a cluster worker"));
  listen();
  const id = ++workerEnd.lastRequestId;
  return new Promise((resolve, reject) => {
    let given = false;
    let timer: NodeJS.Timeout | undefined;
    const give = () => {
      if (given) return;
      given = true;
      slotRequests.delete(id);
      toPrimary({ kallo: "slot.give", id });
    };
    const settle = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };
    const fail = (why: string) => {
      settle();
      give();
      reject(new SlotNotTaken(`${name}: ${why}`));
    };
    const onAbort = () => fail("the request ended while it waited");
    slotRequests.set(id, {
      granted: () => {
        settle();
        resolve(give);
      },
      wanted: options.onWanted,
      refused: () => fail("its turn would not come in time"),
    });
    toPrimary({ kallo: "slot.take", id, name, limit: options.limit ?? 1, waitMs: options.timeoutMs });
    if (options.timeoutMs !== undefined) timer = setTimeout(() => fail("timed out"), options.timeoutMs);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/* ---------- the primary's end ---------- */

type SlotTaker = { owner: number; id: number };

/**
 * The slots the workers share, kept by the primary: per name, who holds one
 * (at most `limit`) and who waits, first come first served. Plain bookkeeping;
 * `tell` delivers its answers to a worker.
 */
export class SharedSlots {
  private readonly byName = new Map<
    string,
    { limit: number; holders: Array<SlotTaker & { since: number }>; waiting: SlotTaker[]; usualHoldMs: number }
  >();
  private readonly nameOf = new Map<string, string>();

  constructor(private readonly tell: (owner: number, message: ToWorker) => void) {}

  /** The usual hold of each name, kept while no one holds or waits (an average of the last ones). */
  private readonly usualHold = new Map<string, number>();

  take(owner: number, id: number, name: string, limit: number, waitMs?: number): void {
    let slot = this.byName.get(name);
    if (!slot)
      this.byName.set(name, (slot = { limit, holders: [], waiting: [], usualHoldMs: this.usualHold.get(name) ?? 0 }));
    slot.limit = Math.max(1, limit);
    // Its turn would come long after its wait ends (those ahead of it, each holding as long as usual, some of them
    // giving up on the way): refused now.
    if (
      waitMs !== undefined &&
      slot.holders.length >= slot.limit &&
      ((slot.waiting.length + 1) * slot.usualHoldMs) / slot.limit > 2 * waitMs
    ) {
      this.tell(owner, { kallo: "slot.refused", id });
      return;
    }
    this.nameOf.set(`${owner}:${id}`, name);
    if (slot.holders.length < slot.limit && slot.waiting.length === 0) {
      slot.holders.push({ owner, id, since: Date.now() });
      this.tell(owner, { kallo: "slot.granted", id });
      return;
    }
    slot.waiting.push({ owner, id });
    for (const holder of slot.holders) this.tell(holder.owner, { kallo: "slot.wanted", id: holder.id });
  }

  /** A slot given back, or a wait given up. */
  give(owner: number, id: number): void {
    const key = `${owner}:${id}`;
    const name = this.nameOf.get(key);
    if (name === undefined) return;
    this.nameOf.delete(key);
    const slot = this.byName.get(name)!;
    const isThis = (taker: SlotTaker) => taker.owner === owner && taker.id === id;
    const held = slot.holders.find(isThis);
    if (held)
      slot.usualHoldMs = slot.usualHoldMs
        ? slot.usualHoldMs * 0.8 + (Date.now() - held.since) * 0.2
        : Date.now() - held.since;
    slot.holders = slot.holders.filter((taker) => !isThis(taker));
    slot.waiting = slot.waiting.filter((taker) => !isThis(taker));
    while (slot.holders.length < slot.limit && slot.waiting.length > 0) {
      const next = slot.waiting.shift()!;
      slot.holders.push({ ...next, since: Date.now() });
      this.tell(next.owner, { kallo: "slot.granted", id: next.id });
    }
    if (slot.holders.length === 0 && slot.waiting.length === 0) {
      this.usualHold.set(name, slot.usualHoldMs);
      this.byName.delete(name);
    }
  }

  /** A worker has gone: what it held is free, what it waited for is no longer wanted. */
  forget(owner: number): void {
    for (const key of [...this.nameOf.keys()]) {
      const [keyOwner, id] = key.split(":").map(Number);
      if (keyOwner === owner) this.give(owner, id);
    }
  }

  /** Who holds and waits for a name (tests). */
  state(name: string): { holders: SlotTaker[]; waiting: SlotTaker[] } {
    const slot = this.byName.get(name);
    return {
      holders: (slot?.holders ?? []).map(({ owner, id }) => ({ owner, id })),
      waiting: [...(slot?.waiting ?? [])],
    };
  }
}

/** Send a note to one worker (the primary's "stop"). */
export function tellWorker(worker: Worker, kind: string, fields: Record<string, unknown> = {}): void {
  if (worker.isConnected())
    worker.send({ kallo: "note", note: { ...fields, kind } } satisfies ToWorker, () => undefined);
}

/**
 * In the primary: pass notes between the workers, answer their questions,
 * and keep their shared slots.
 */
export function coordinateWorkers(answers: Record<string, () => Promise<unknown>>): void {
  const send = (owner: number, message: ToWorker) => {
    const worker = cluster.workers?.[owner];
    if (worker?.isConnected()) worker.send(message, () => undefined);
  };
  const slots = new SharedSlots(send);
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (!isOurs(message)) return;
    const ours = message as ToPrimary;
    switch (ours.kallo) {
      case "note":
        for (const other of Object.values(cluster.workers ?? {}))
          if (other && other.id !== worker.id) send(other.id, { kallo: "note", note: ours.note });
        break;
      case "ask": {
        const answer = answers[ours.question];
        if (!answer) {
          send(worker.id, { kallo: "answer", id: ours.id, error: `no answer to "${ours.question}"` });
          break;
        }
        answer().then(
          (value) => send(worker.id, { kallo: "answer", id: ours.id, value }),
          (error: unknown) =>
            send(worker.id, {
              kallo: "answer",
              id: ours.id,
              error: error instanceof Error ? error.message : String(error),
            }),
        );
        break;
      }
      case "slot.take":
        slots.take(worker.id, ours.id, ours.name, ours.limit, ours.waitMs);
        break;
      case "slot.give":
        slots.give(worker.id, ours.id);
        break;
    }
  });
  cluster.on("exit", (worker: Worker) => slots.forget(worker.id));
}

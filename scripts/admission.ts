/**
 * Admission by priority and deadline, in each worker (docs/decisions/061-release-night.md). A surge — a new
 * film released, a school signing in at once — must make the box slower, never make it fail: a page that
 * cannot be rendered in time is told "busy, try again in N s" (503 with Retry-After, in the reader's
 * language) at once, instead of being rendered too late for anyone to see it or aborted into a 500.
 *
 * - **Lanes**: bytes of films already playing (segments, ranges, the files of a download), the build's
 *   files and the health check are never held here; then pages (documents, their data, every other call),
 *   sign-ins (which wait for a password check), new uploads. A waiting page always goes before a waiting
 *   sign-in, and both before an upload; sign-ins may hold at most half of the places, uploads a quarter,
 *   so a wave of sign-ins waiting for their password checks never keeps pages out.
 * - **How many at once** is found as it goes, the additive-increase, multiplicative-decrease limit of
 *   Netflix's concurrency-limits (AIMDLimit): one more place for every `limit` pages answered quickly
 *   while the places were at least half used; a tenth fewer when a page took longer than SLOW_PAGE_MS.
 *   Node renders one page at a time per process: more at once only makes each later.
 * - **Deadlines** count from the request's arrival: a page 15 s, a sign-in 60 s (what a phone's browser or
 *   a proxy waits before it gives up and asks again), an upload's start 30 s. A request is turned away as
 *   soon as the wait ahead of it plus its lane's usual time (an average of the last answers) would pass
 *   its deadline — at once when the queue is already too long, or when its time in the queue runs out.
 * - A client that leaves while waiting leaves the queue.
 */
export type Lane = "page" | "signin" | "upload";

export const DEADLINE_MS: Record<Lane, number> = { page: 15_000, signin: 60_000, upload: 30_000 };
const PRIORITY: Record<Lane, number> = { page: 0, signin: 1, upload: 2 };
/** The share of the places a lane may hold at once. */
const SHARE: Record<Lane, number> = { page: 1, signin: 0.5, upload: 0.25 };
/** A page that took longer than this says the box is past what it can do at once. */
export const SLOW_PAGE_MS = 1_500;
/** Room for the answer to reach the client on a box whose every step runs late. */
const ANSWER_MARGIN_MS = 2_000;
const FIRST_LIMIT = 8;
const LEAST_LIMIT = 2;
const MOST_LIMIT = 16;
/** A decrease at most this often: one slow burst is one signal, not twenty. */
const DECREASE_EVERY_MS = 250;

/** The lane of a request, or null when it is never held (playing bytes, the build's files, health). */
export function laneOf(method: string, pathname: string): Lane | null {
  if (
    pathname.startsWith("/stream/") ||
    pathname.startsWith("/api/files/") ||
    pathname.startsWith("/downloads/licences") ||
    pathname === "/healthz" ||
    pathname === "/metrics"
  )
    return null;
  // A resumable upload's bytes (PATCH) and its offset (HEAD) belong to an upload already admitted.
  if (pathname.startsWith("/provider/uploads/tus/") && method !== "POST") return null;
  if (method === "POST") {
    if (/^\/(login|cp|register|reset(\/[^/]+)?|api\/(user\/)?(login|register))(\.data)?\/?$/.test(pathname))
      return "signin";
    if (/^\/(provider\/uploads(\/tus)?\/?|provider\/Movieupload(\.data)?|api\/upload\/movies)$/.test(pathname))
      return "upload";
  }
  return "page";
}

export type Admitted = { ok: true; leave: () => void } | { ok: false; retryAfterSeconds: number };

type Waiter = {
  lane: Lane;
  arrivedAt: number;
  /** The latest moment it may start and still be answered within its deadline. */
  startBy: number;
  admit: (admitted: Admitted) => void;
  timer?: NodeJS.Timeout;
};

export class Admission {
  limit = FIRST_LIMIT;
  private inFlight: Record<Lane, number> = { page: 0, signin: 0, upload: 0 };
  private queue: Waiter[] = [];
  /** The usual time of each lane's answers (ms), an exponentially weighted average. */
  private usual: Record<Lane, number> = { page: 200, signin: 1_000, upload: 500 };
  private lastDecrease = 0;
  private growth = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get total(): number {
    return this.inFlight.page + this.inFlight.signin + this.inFlight.upload;
  }

  waiting(): number {
    return this.queue.length;
  }

  /** Wait for a place; turned away when the deadline (counted from `arrivedAt`) cannot be met. */
  enter(lane: Lane, arrivedAt: number, signal?: AbortSignal): Promise<Admitted> {
    const now = this.now();
    // A sign-in's usual time is mostly its wait for a password check, which keeps its own deadline.
    const startBy = arrivedAt + DEADLINE_MS[lane] - (lane === "signin" ? 0 : this.usual[lane]) - ANSWER_MARGIN_MS;
    // Already past the moment it had to start (it waited for a worker, say): told at once.
    if (now > startBy) return Promise.resolve(this.busy(lane, this.queue.length));
    const before = this.queue.some((waiter) => PRIORITY[waiter.lane] <= PRIORITY[lane]);
    if (!before && this.hasRoom(lane)) return Promise.resolve(this.take(lane));
    // Those ahead of it (its lane and those before it) share the places: about this long before its turn.
    const ahead = this.queue.filter((waiter) => PRIORITY[waiter.lane] <= PRIORITY[lane]).length;
    const wait = ((ahead + 1) * this.usual[lane]) / Math.max(1, this.placesFor(lane));
    if (now + wait > startBy) return Promise.resolve(this.busy(lane, ahead));
    return new Promise<Admitted>((resolve) => {
      const waiter: Waiter = { lane, arrivedAt, startBy, admit: resolve };
      waiter.timer = setTimeout(() => this.drop(waiter, this.busy(lane, this.queue.indexOf(waiter))), startBy - now);
      const index = this.queue.findIndex(
        (other) => PRIORITY[other.lane] > PRIORITY[lane] || (other.lane === lane && other.arrivedAt > arrivedAt),
      );
      this.queue.splice(index < 0 ? this.queue.length : index, 0, waiter);
      signal?.addEventListener("abort", () => this.drop(waiter, { ok: false, retryAfterSeconds: 1 }), {
        once: true,
      });
    });
  }

  private placesFor(lane: Lane): number {
    return Math.max(1, Math.floor(this.limit * SHARE[lane]));
  }

  private hasRoom(lane: Lane): boolean {
    return this.total < this.limit && this.inFlight[lane] < this.placesFor(lane);
  }

  private busy(lane: Lane, ahead: number): Admitted {
    const seconds = Math.ceil(((Math.max(0, ahead) + 1) * this.usual[lane]) / Math.max(1, this.placesFor(lane)) / 1000);
    return { ok: false, retryAfterSeconds: Math.min(30, Math.max(2, seconds)) };
  }

  private drop(waiter: Waiter, answer: Admitted): void {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return;
    this.queue.splice(index, 1);
    clearTimeout(waiter.timer);
    waiter.admit(answer);
  }

  private take(lane: Lane): Admitted {
    this.inFlight[lane] += 1;
    const startedAt = this.now();
    let left = false;
    return {
      ok: true,
      leave: () => {
        if (left) return;
        left = true;
        this.inFlight[lane] -= 1;
        this.learn(lane, this.now() - startedAt);
        this.next();
      },
    };
  }

  private learn(lane: Lane, took: number): void {
    this.usual[lane] = this.usual[lane] * 0.8 + took * 0.2;
    if (lane !== "page") return;
    const now = this.now();
    if (took > SLOW_PAGE_MS) {
      if (now - this.lastDecrease >= DECREASE_EVERY_MS) {
        this.lastDecrease = now;
        this.limit = Math.max(LEAST_LIMIT, Math.floor(this.limit * 0.9));
      }
    } else if ((this.total + 1) * 2 >= this.limit) {
      this.growth += 1;
      if (this.growth >= this.limit) {
        this.growth = 0;
        this.limit = Math.min(MOST_LIMIT, this.limit + 1);
      }
    }
  }

  /** Let in whoever may go now, highest lane first; those whose time ran out were already told. */
  private next(): void {
    for (let index = 0; index < this.queue.length && this.total < this.limit;) {
      const waiter = this.queue[index];
      if (!this.hasRoom(waiter.lane)) {
        index += 1;
        continue;
      }
      this.queue.splice(index, 1);
      clearTimeout(waiter.timer);
      waiter.admit(this.take(waiter.lane));
    }
  }
}

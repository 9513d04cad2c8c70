import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Admission, laneOf, SLOW_PAGE_MS } from "../../scripts/admission";
import { busyAnswer } from "~/routes-support/busy.server";

/**
 * Admission by lane and deadline (scripts/admission.ts): playing bytes are never held; a page goes before a
 * waiting sign-in, a sign-in before an upload; a request that cannot start in time is told "busy" with how
 * long to wait — at once when the queue ahead is too long, else when its time runs out.
 */
describe("the lanes", () => {
  it("never holds the bytes of films playing, a resumable upload's bytes, or health", () => {
    for (const path of ["/stream/abc/720p/seg-1.m4s", "/api/files/abc.mp4", "/healthz", "/downloads/licences/x"])
      expect(laneOf("GET", path)).toBeNull();
    expect(laneOf("PATCH", "/provider/uploads/tus/abc")).toBeNull();
    expect(laneOf("POST", "/provider/uploads/tus/")).toBe("upload");
  });

  it("tells pages, sign-ins and new uploads apart", () => {
    expect(laneOf("GET", "/movies")).toBe("page");
    expect(laneOf("GET", "/WatchMovie.data")).toBe("page");
    expect(laneOf("POST", "/login")).toBe("signin");
    expect(laneOf("POST", "/cp")).toBe("signin");
    expect(laneOf("POST", "/api/user/login")).toBe("signin");
    expect(laneOf("POST", "/register.data")).toBe("signin");
    expect(laneOf("POST", "/provider/Movieupload")).toBe("upload");
    expect(laneOf("POST", "/api/upload/movies")).toBe("upload");
    expect(laneOf("POST", "/comments")).toBe("page");
  });
});

describe("admission", () => {
  let now = 1_000_000;
  beforeEach(() => {
    vi.useFakeTimers();
    now = 1_000_000;
  });
  afterEach(() => vi.useRealTimers());
  const clock = () => now;
  const advance = async (ms: number) => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };

  it("lets a waiting page in before a waiting sign-in and a sign-in before an upload", async () => {
    const admission = new Admission(clock);
    const held = await Promise.all(Array.from({ length: admission.limit }, () => admission.enter("page", now)));
    const order: string[] = [];
    for (const lane of ["upload", "signin", "page"] as const)
      void admission.enter(lane, now).then((answer) => answer.ok && order.push(lane));
    for (const answer of held) if (answer.ok) answer.leave();
    await advance(0);
    expect(order).toEqual(["page", "signin", "upload"]);
  });

  it("turns a page away with Retry-After when its 15 s would pass in the queue, and at once when already late", async () => {
    const admission = new Admission(clock);
    for (let i = 0; i < admission.limit; i++) await admission.enter("page", now);
    const waiting = admission.enter("page", now);
    await advance(13_000);
    const answer = await waiting;
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.retryAfterSeconds).toBeGreaterThanOrEqual(2);
    // A request that reached this worker 14 s after its connection was accepted starts no render.
    const late = await new Admission(clock).enter("page", now - 14_000);
    expect(late.ok).toBe(false);
  });

  it("keeps sign-ins to half the places, so pages still get in while sign-ins wait for their checks", async () => {
    const admission = new Admission(clock);
    let admitted = 0;
    for (let i = 0; i < admission.limit; i++)
      void admission.enter("signin", now).then((answer) => answer.ok && admitted++);
    await advance(0);
    expect(admitted).toBe(admission.limit / 2);
    expect(admission.waiting()).toBe(admission.limit / 2);
    expect((await admission.enter("page", now)).ok).toBe(true);
  });

  it("takes fewer at once when pages come back slow, more when they are quick and the places are used", async () => {
    const admission = new Admission(clock);
    const first = admission.limit;
    const slow = await admission.enter("page", now);
    now += SLOW_PAGE_MS + 1;
    if (slow.ok) slow.leave();
    expect(admission.limit).toBeLessThan(first);
    const lowered = admission.limit;
    for (let round = 0; round < 40; round++) {
      const batch = await Promise.all(Array.from({ length: admission.limit }, () => admission.enter("page", now)));
      now += 20;
      for (const answer of batch) if (answer.ok) answer.leave();
    }
    expect(admission.limit).toBeGreaterThan(lowered);
  });
});

describe("the busy answer", () => {
  it("is a page in the reader's language that comes back by itself, 503 with Retry-After", async () => {
    const answer = await busyAnswer(
      new Request("http://kallo.test/movies", { headers: { "Accept-Language": "ha-NG,ha;q=0.9" } }),
      7,
    );
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("7");
    const html = await answer.text();
    expect(html).toContain('lang="ha"');
    expect(html).toContain("Kallo na da cunkoso");
    expect(html).toContain('http-equiv="refresh" content="7"');
  });

  it("is the old JSON shape for /api, and no refresh after a form (it would send the form again)", async () => {
    const api = await busyAnswer(new Request("http://kallo.test/api/movies"), 4);
    expect(api.status).toBe(503);
    expect(await api.json()).toMatchObject({ success: false });
    const form = await busyAnswer(new Request("http://kallo.test/login", { method: "POST" }), 4);
    const formPage = await form.text();
    expect(formPage).not.toContain("http-equiv");
    expect(formPage).toContain("Please try again in 4 seconds");
  });
});

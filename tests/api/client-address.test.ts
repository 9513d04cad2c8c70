import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startApiWorld } from "./helpers";
import type { ApiWorld } from "./helpers";

/**
 * The sign-in limit counts the client's real address: a client's own
 * X-Forwarded-For changes nothing unless it comes from a proxy the operator
 * trusts (TRUST_PROXY).
 */
let world: ApiWorld;

beforeAll(async () => {
  process.env.TRUST_PROXY = "0";
  process.env.SIGN_IN_FAILURES_PER_ADDRESS = "10";
  world = await startApiWorld("client-address");
});
afterAll(async () => {
  delete process.env.TRUST_PROXY;
  await world?.stop();
});

async function failedSignIns(addresses: (i: number) => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    const result = await call(world, "/api/user/login", {
      json: { email: `nobody${i}@api.test`, password: "wrong-password" },
      headers: { "X-Forwarded-For": addresses(i) },
    });
    statuses.push(result.status);
  }
  return statuses;
}

describe("the address the sign-in limit counts", () => {
  it("is the connection's when no proxy is trusted: eleven failures claiming eleven addresses are still one client", async () => {
    const statuses = await failedSignIns((i) => `198.51.100.${i + 1}`);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("is the one a trusted proxy reports (TRUST_PROXY=loopback): eleven addresses are eleven clients", async () => {
    process.env.TRUST_PROXY = "loopback";
    await world.restart();
    const statuses = await failedSignIns((i) => `203.0.113.${i + 1}`);
    expect(statuses.every((status) => status === 401)).toBe(true);
  });

  it("lets only METRICS_ALLOW (loopback by default) read /metrics: requests by route and status, media bytes, jobs and the disk", async () => {
    await fetch(`${world.url}/movies`, { redirect: "manual" });
    await call(world, "/api/user/login", { json: { email: "nobody@api.test", password: "wrong-password" } });
    const local = await fetch(`${world.url}/metrics`);
    expect(local.status).toBe(200);
    expect(local.headers.get("Content-Type")).toMatch(/^text\/plain/);
    const text = await local.text();
    expect(text).toMatch(/kallo_http_requests_total\{route="\/movies",method="GET",status="\d+"\} \d+/);
    expect(text).toMatch(
      /kallo_http_request_duration_seconds_bucket\{le="0.1",route="\/api\/user\/login",method="POST"\} \d+/,
    );
    expect(text).toMatch(/kallo_disk_bytes\{what="free"\} \d+/);
    expect(text).toContain("kallo_unfinished_uploads 0");
    // The same box, but a trusted proxy says the client is elsewhere: refused.
    const remote = await fetch(`${world.url}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.50" } });
    expect(remote.status).toBe(404);
  });
});

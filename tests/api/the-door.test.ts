import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts } from "~/db/schema";
import { hashPassword } from "~/services/passwords.server";
import { PASSWORD, seedAccount, startApiWorld, type ApiWorld } from "./helpers";

/**
 * The sign-in door with small limits (5 failures per network, 12 for the
 * whole service, one password check at a time, a second's wait for it): the
 * people who know their passwords get in, guessers wait wherever they come
 * from, and every sign-in gets an answer.
 */
let world: ApiWorld;
beforeAll(async () => {
  world = await startApiWorld("door", {
    SIGN_IN_FAILURES_PER_ADDRESS: "5",
    SIGN_IN_FAILURES_SERVICE_WIDE: "12",
    PASSWORD_HASH_CONCURRENCY: "1",
    PASSWORD_CHECK_WAIT_SECONDS: "1",
  });
});
afterAll(async () => {
  await world?.stop();
});

type Answer = { status: number; retryAfter: number; knownCookie: string | null; sessionCookie: string | null };

function signIn(email: string, password: string, address: string, cookie?: string): Promise<Answer> {
  return signInAt(world, email, password, address, cookie);
}

async function signInAt(
  server: ApiWorld,
  email: string,
  password: string,
  address: string,
  cookie?: string,
): Promise<Answer> {
  const response = await fetch(`${server.url}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
    headers: { "X-Forwarded-For": address, ...(cookie ? { Cookie: cookie } : {}) },
  });
  await response.arrayBuffer();
  const known = response.headers.getSetCookie().find((value) => value.startsWith("kallo_known="));
  const session = response.headers.getSetCookie().find((value) => !value.startsWith("kallo_known="));
  return {
    sessionCookie: session ? session.split(";")[0] : null,
    status: response.status,
    retryAfter: Number(response.headers.get("Retry-After") ?? 0),
    knownCookie: known ? known.split(";")[0] : null,
  };
}

describe("the sign-in door", () => {
  it("answers every sign-in: one whose password cannot be checked within the bound is told to come back (503)", async () => {
    const people = Array.from({ length: 40 }, () => seedAccount(world, "viewer"));
    const answers = await Promise.all(
      people.map((person, index) => signIn(person.email, PASSWORD, `198.18.7.${index + 1}`)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 303 || status === 503)).toBe(true);
    expect(statuses.filter((status) => status === 303).length).toBeGreaterThan(0);
    const busy = answers.filter((answer) => answer.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((answer) => answer.retryAfter === 5)).toBe(true);
    // Told to come back, they get in.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const [index, answer] of answers.entries())
      if (answer.status === 503) expect((await signIn(people[index].email, PASSWORD, "198.18.7.200")).status).toBe(303);
  }, 60_000);

  it("lets a known device in past its network's failures and the service's brake; holds new devices", async () => {
    const owner = seedAccount(world, "viewer");
    const home = "2001:db8:40:1::10";
    const first = await signIn(owner.email, PASSWORD, home);
    expect(first.status).toBe(303);
    const phone = first.knownCookie!;
    expect(phone).toBeTruthy();

    // Someone in the same home (another address of its /64) guesses five times: the network is locked.
    for (let i = 0; i < 5; i++)
      expect((await signIn(`nobody${i}@api.test`, "wrong-password", `2001:db8:40:1::${100 + i}`)).status).toBe(401);
    const someoneElse = seedAccount(world, "viewer");
    const newDevice = await signIn(someoneElse.email, PASSWORD, "2001:db8:40:1:ffff::1");
    expect(newDevice.status).toBe(429);
    expect(newDevice.retryAfter).toBeGreaterThan(0);
    // Another /64 is not held; the owner's phone gets in from the locked one.
    expect((await signIn(someoneElse.email, PASSWORD, "2001:db8:40:2::1")).status).toBe(303);
    expect((await signIn(owner.email, PASSWORD, home, phone)).status).toBe(303);

    // Stuffing from many addresses, each under its own limit, fills the service's brake (12 here; each network
    // counts toward it at most a twentieth of it, one failure here).
    for (let i = 0; i < 12; i++)
      expect((await signIn(`stuffed${i}@api.test`, "wrong-password", `203.0.113.${i + 1}`)).status).toBe(401);
    // The brake slows new devices, it does not shut them out: one try a minute per network is still checked.
    const stranger = seedAccount(world, "viewer");
    expect((await signIn(stranger.email, PASSWORD, "192.0.2.77")).status).toBe(303);
    const neighbour = seedAccount(world, "viewer");
    const braked = await signIn(neighbour.email, PASSWORD, "192.0.2.77");
    expect(braked.status).toBe(429);
    expect(braked.retryAfter).toBeGreaterThan(0);
    expect(braked.retryAfter).toBeLessThanOrEqual(60);
    // An app without cookies on its own network is not held behind the others.
    expect((await signIn(neighbour.email, PASSWORD, "192.0.2.79")).status).toBe(303);
    // The people who signed in on their devices before are not held by it.
    expect((await signIn(owner.email, PASSWORD, "192.0.2.78", phone)).status).toBe(303);
  }, 60_000);
});

describe("the door against a few guessers", () => {
  let door: ApiWorld;
  beforeAll(async () => {
    door = await startApiWorld("door-few", { SIGN_IN_FAILURES_PER_ADDRESS: "20", SIGN_IN_FAILURES_SERVICE_WIDE: "40" });
  });
  afterAll(async () => {
    await door?.stop();
  });
  const at = (email: string, password: string, address: string, cookie?: string) =>
    signInAt(door, email, password, address, cookie);

  it("two addresses guessing cannot close the door on new devices: each counts at most a twentieth of the brake", async () => {
    for (let i = 0; i < 20; i++) {
      expect((await at(`guess${i}@api.test`, "wrong-password", "198.51.100.1")).status).toBe(401);
      expect((await at(`guess${i}@api.test`, "wrong-password", "198.51.100.2")).status).toBe(401);
    }
    // 40 failures made, 4 counted toward the brake of 40: a new device anywhere else signs in.
    const newcomer = seedAccount(door, "viewer");
    expect((await at(newcomer.email, PASSWORD, "192.0.2.90")).status).toBe(303);
  }, 60_000);

  it("a known device stands only with the password it signed in with, and its own wrong guesses stop at a few", async () => {
    const owner = seedAccount(door, "viewer");
    const phone = (await at(owner.email, PASSWORD, "192.0.2.100")).knownCookie!;
    expect(phone).toBeTruthy();
    // The cookie guesses on: ten wrong passwords are counted for this device alone, never against the account.
    for (let i = 0; i < 10; i++)
      expect((await at(owner.email, "wrong-password", "192.0.2.101", phone)).status).toBe(401);
    // The owner's new phone is not slowed by them (the account's delay counts unknown devices only).
    expect((await at(owner.email, PASSWORD, "192.0.2.102")).status).toBe(303);
    // Past its ten, the device is a new one: its further guesses meet the account's growing delay.
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await at(owner.email, "wrong-password", "192.0.2.103", phone)).status);
    expect(answers).toContain(429);

    // A password change ends the standing of every device that signed in with the old one.
    const other = seedAccount(door, "viewer");
    const tablet = (await at(other.email, PASSWORD, "192.0.2.110")).knownCookie!;
    const stillKnown = await at(other.email, PASSWORD, "192.0.2.111", tablet);
    expect(stillKnown.status).toBe(303);
    door.db
      .update(accounts)
      .set({ passwordHash: await hashPassword("a-new-password-1") })
      .where(eq(accounts.id, other.id))
      .run();
    for (let i = 0; i < 5; i++)
      expect((await at(other.email, "wrong-password", "192.0.2.112", tablet)).status).toBe(401);
    // Five failures from devices it does not know: the account's delay now holds the old cookie too.
    const held = await at(other.email, "a-new-password-1", "192.0.2.113", tablet);
    expect(held.status).toBe(429);
  }, 60_000);
});

describe("what the door stores and sends", () => {
  it("says Allow on a 405, and writes no stack for a client's bad request (a refused upload, an old ?_data= call)", async () => {
    const wrongMethod = await fetch(`${world.url}/movies`, { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("Allow")).toBe("GET, HEAD");
    const before = world.server.errors().length;
    const viewer = seedAccount(world, "viewer");
    const cookie = (await signIn(viewer.email, PASSWORD, "192.0.2.150")).sessionCookie!;
    const body = new FormData();
    body.append("file", new Blob([new Uint8Array(256 * 1024)]), "film.mp4");
    const refused = await fetch(`${world.url}/provider/uploads`, {
      method: "POST",
      body,
      headers: { Cookie: cookie, "X-Forwarded-For": "192.0.2.150" },
      redirect: "manual",
    });
    expect(refused.status).toBeGreaterThanOrEqual(300);
    expect(refused.status).toBeLessThan(500);
    for (const path of ["/movies?_data=routes/movies", "/?_data=root"])
      expect((await fetch(`${world.url}${path}`)).status).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(world.server.errors().slice(before)).not.toMatch(/\n\s+at /);
  });

  it("stores a name without control characters or line breaks", async () => {
    const email = `door-${Date.now()}@api.test`;
    const response = await fetch(`${world.url}/register`, {
      method: "POST",
      body: new URLSearchParams({
        name: "Amina\u0000\r\nBello\u001b[31m",
        email,
        phoneNumber: "+234 800 000 0002",
        password: "a-long-password-1",
        password2: "a-long-password-1",
      }),
      redirect: "manual",
      headers: { "X-Forwarded-For": "198.18.9.1" },
    });
    expect(response.status).toBe(303);
    const row = world.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.email, email)).get();
    expect(row?.name).toBe("Amina Bello[31m");
  });

  it("says nosniff on every answer: JSON, CSV, scripts, pages, errors", async () => {
    for (const path of ["/healthz", "/api/movies/all", "/search-suggestions?q=a", "/", "/no-such-page"]) {
      const response = await fetch(`${world.url}${path}`, { headers: { "X-Forwarded-For": "198.18.9.2" } });
      await response.arrayBuffer();
      expect(response.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
    }
  });
});

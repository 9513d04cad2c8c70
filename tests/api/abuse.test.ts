import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { movieRenditions, plans } from "~/db/schema";
import { call, login, PASSWORD, seedAccount, seedMovie, startApiWorld } from "./helpers";
import type { ApiWorld } from "./helpers";

/** What an outside probe tried against the running server: forged headers and absurd parameters. */
let world: ApiWorld;

beforeAll(async () => {
  world = await startApiWorld("abuse");
});
afterAll(async () => {
  await world?.stop();
});

describe("forged headers and absurd parameters", () => {
  it("never builds a link in mail from the request's Host or X-Forwarded-Host (reset-link poisoning)", async () => {
    const victim = seedAccount(world, "viewer");
    const mailDir = path.join(world.root, "mail");
    // As the probe sent it: a forged Host (and X-Forwarded-Host), no Origin, like curl.
    const body = new URLSearchParams({ email: victim.email }).toString();
    const response = await new Promise<{ status: number }>((resolve, reject) => {
      const request = http.request(`${world.url}/reset`, {
        method: "POST",
        headers: {
          Host: "evil.example",
          "X-Forwarded-Host": "evil.example",
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
        },
      });
      request.on("response", (answer) => {
        answer.resume();
        resolve({ status: answer.statusCode ?? 0 });
      });
      request.on("error", reject);
      request.end(body);
    });
    expect(response.status).toBeLessThan(500);
    // The mail goes out from the job queue: wait until its file is written whole.
    const mailTo = () =>
      (fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : [])
        .map((file) => fs.readFileSync(path.join(mailDir, file), "utf8"))
        .find((text) => text.includes(victim.email) && /\/reset\//.test(text.replace(/=\r?\n/g, "")));
    await expect.poll(mailTo, { timeout: 10_000 }).toBeDefined();
    const mail = mailTo()!;
    expect(mail).not.toContain("evil.example");
    expect(mail.replace(/=\r?\n/g, "")).toMatch(/\/reset\/[A-Za-z0-9_-]{20,}/);
  });

  it("answers an absurd page number with the first page, never a 500", async () => {
    const admin = await login(world, seedAccount(world, "admin"));
    const viewer = await login(world, seedAccount(world, "viewer"));
    for (const [pathname, who] of [
      ["/admin/userlist?page=99999999999999999999", admin],
      ["/admin/audit?page=-4", admin],
      ["/payment?page=1e99", viewer],
      ["/history?page=abc", viewer],
      ["/api/cp/user/allusers?page=99999999999999999999", admin],
    ] as const) {
      const response = await fetch(`${world.url}${pathname}`, { headers: { Cookie: who.cookie } });
      expect(response.status, pathname).toBe(200);
      await response.arrayBuffer();
    }
  });

  it("answers a reset request at once, the same for every email: the mail goes out from the job queue", async () => {
    // A mail server that takes the connection and never says a word: sending would hang.
    const silent = net.createServer(() => undefined).listen(0, "127.0.0.1");
    await new Promise((resolve) => silent.once("listening", resolve));
    process.env.SMTP_URL = `smtp://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    try {
      await world.restart();
      const known = seedAccount(world, "viewer");
      for (const email of [known.email, "nobody-at-all@api.test"]) {
        const started = Date.now();
        const response = await fetch(`${world.url}/reset`, {
          method: "POST",
          body: new URLSearchParams({ email }),
          headers: { "X-Forwarded-For": "198.51.100.99" },
        });
        expect(response.status, email).toBe(200);
        await response.arrayBuffer();
        expect(Date.now() - started, email).toBeLessThan(3000);
      }
    } finally {
      delete process.env.SMTP_URL;
      silent.close();
      await world.restart();
    }
  });
});

describe("guessing a password without locking its owner out", () => {
  it("delays an account's tries from unknown devices more and more, never walls it, and lets a device that signed in before straight through", async () => {
    const owner = seedAccount(world, "viewer");
    // The owner signed in on their phone once: it remembers that (a signed cookie).
    const first = await call(world, "/api/user/login", { json: { email: owner.email, password: PASSWORD } });
    expect(first.status).toBe(200);
    const known = first.headers.getSetCookie().find((value) => value.startsWith("kallo_known="));
    expect(known).toBeDefined();
    const phone = known!.split(";")[0];

    // Someone guesses from many addresses: five tries, then a growing delay (no password is checked while it runs).
    const guesses: Array<{ status: number; retryAfter: number }> = [];
    for (let i = 0; i < 8; i++) {
      const result = await call(world, "/api/user/login", { json: { email: owner.email, password: `guess-${i}` } });
      guesses.push({ status: result.status, retryAfter: Number(result.headers.get("Retry-After") ?? 0) });
    }
    expect(guesses.slice(0, 5).map((guess) => guess.status)).toEqual([401, 401, 401, 401, 401]);
    expect(
      guesses.slice(5).every((guess) => guess.status === 429 && guess.retryAfter >= 1 && guess.retryAfter <= 2),
    ).toBe(true);

    // The owner's phone is not held up, from any address, even a forged "device" cookie is not taken for it.
    const fromPhone = await call(world, "/api/user/login", {
      json: { email: owner.email, password: PASSWORD },
      headers: { Cookie: phone },
    });
    expect(fromPhone.status).toBe(200);
    const forged = await call(world, "/api/user/login", {
      json: { email: owner.email, password: PASSWORD },
      headers: { Cookie: `kallo_known=${Buffer.from(JSON.stringify(["x"])).toString("base64")}` },
    });
    expect(forged.status).toBe(429);

    // A new device waits out the short delay, then gets in: a delay, not a wall.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const newDevice = await call(world, "/api/user/login", { json: { email: owner.email, password: PASSWORD } });
    expect(newDevice.status).toBe(200);
    const rejected = await call(world, "/api/user/login", { json: { email: owner.email, password: "guess-again" } });
    expect(rejected.status).toBe(401);
  });
});

describe("a crowd behind one address (a school, a café, a carrier's NAT)", () => {
  it("signs 15 people in at once, and again and again, without refusing anyone: only failures count", async () => {
    const people = Array.from({ length: 15 }, () => seedAccount(world, "viewer"));
    const signIn = (email: string) =>
      fetch(`${world.url}/login`, {
        method: "POST",
        body: new URLSearchParams({ email, password: PASSWORD }),
        redirect: "manual",
        headers: { "X-Forwarded-For": "198.18.0.15" },
      }).then(async (response) => (await response.arrayBuffer(), response.status));
    for (let round = 0; round < 2; round++) {
      const statuses = await Promise.all(people.map((person) => signIn(person.email)));
      expect(statuses).toEqual(people.map(() => 303));
    }
  });
});

describe("malformed requests", () => {
  it("answers a JSON or a cut-off multipart body to a page's form with 400, never a 500", async () => {
    const viewer = await login(world, seedAccount(world, "viewer"));
    const json = await call(world, "/editprofile", {
      method: "POST",
      body: JSON.stringify({ name: "x" }),
      cookie: viewer.cookie,
      headers: { "Content-Type": "application/json" },
    });
    expect(json.status).toBe(400);
    const truncated = await call(world, "/editprofile", {
      method: "POST",
      body: '--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\nabc',
      cookie: viewer.cookie,
      headers: { "Content-Type": "multipart/form-data; boundary=XX" },
    });
    expect(truncated.status).toBe(400);
    // Signed out, the same body is sent to sign in first, as before.
    const signedOut = await call(world, "/login", {
      method: "POST",
      body: "{}",
      headers: { "Content-Type": "application/json" },
    });
    expect(signedOut.status).toBe(400);
  });

  it("answers an absolute-form request target (GET http://host/path) as the path, on every kind of path", async () => {
    const host = new URL(world.url).host;
    for (const [target, status] of [
      [`http://${host}/`, 200],
      [`http://elsewhere.example/healthz`, 200],
      [`http://${host}/api/movies/all`, 200],
      [`http://${host}/movies`, 302],
      [`http://${host}/no-such-page`, 404],
      ["*", 400],
      ["mailto:someone@example.com", 400],
    ] as const) {
      const answer = await rawRequest(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer, target).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    }
  });
});

/** One request written as given on its own connection; the whole answer as text. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(world.url);
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("posters of titles not yet published", () => {
  it("are served only to their provider and administrators, never cached; published posters stay public", async () => {
    const owner = await login(world, seedAccount(world, "provider"));
    const other = await login(world, seedAccount(world, "provider"));
    const viewer = await login(world, seedAccount(world, "viewer"));
    const admin = await login(world, seedAccount(world, "admin"));
    const waiting = await seedMovie(world, owner.account.id, { approved: false, withFiles: true });
    const url = `/api/files/thumbnail/${waiting.id}-card.jpg`;
    expect((await call(world, url)).status).toBe(404);
    expect((await call(world, url, { cookie: viewer.cookie })).status).toBe(404);
    expect((await call(world, url, { token: other.token })).status).toBe(404);
    for (const who of [{ cookie: owner.cookie }, { token: owner.token }, { cookie: admin.cookie }]) {
      const seen = await call(world, url, who);
      expect(seen.status).toBe(200);
      expect(seen.headers.get("Cache-Control")).toBe("private, no-store");
    }
    const published = await seedMovie(world, owner.account.id, { approved: true, withFiles: true });
    const open = await call(world, `/api/files/thumbnail/${published.id}-card.jpg`);
    expect(open.status).toBe(200);
    expect(open.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  });
});

describe("download licences", () => {
  it("go only to who may play the title, from our own pages; a licence is deleted only by its own account", async () => {
    const owner = await login(world, seedAccount(world, "provider"));
    const viewer = await login(world, seedAccount(world, "viewer"));
    const other = await login(world, seedAccount(world, "viewer"));
    const otherProvider = await login(world, seedAccount(world, "provider"));
    const title = await seedMovie(world, owner.account.id, { approved: true });
    // The free plan (this world has no others), downloads allowed as the migration sets.
    world.db.insert(plans).values({ id: "apifreeplan", code: "FREE", name: "Free" }).onConflictDoNothing().run();
    world.db
      .insert(movieRenditions)
      .values({ movieId: title.id, rung: 144, width: 256, height: 144, status: "ready", sizeBytes: 123_456 })
      .run();
    const ask = (who: { cookie?: string; token?: string; origin?: string | null }) =>
      call(world, "/downloads/licences", { method: "POST", json: { movieId: title.id, rung: 144 }, ...who });

    expect((await ask({})).status).toBe(401);
    expect((await ask({ token: otherProvider.token })).status).toBe(403);
    expect((await ask({ cookie: viewer.cookie, origin: "https://evil.example" })).status).toBe(403);
    expect(
      (await call(world, "/downloads/licences", { method: "POST", body: "not json", cookie: viewer.cookie })).status,
    ).toBe(400);
    const issued = await ask({ cookie: viewer.cookie });
    expect(issued.status).toBe(201);
    expect(issued.body.media).toEqual({ url: `/stream/${title.id}/144p.mp4`, sizeBytes: 123_456 });
    const id: string = issued.body.licence.terms.id;

    const standing = await call(world, `/downloads/licences?ids=${id},nonsense`);
    expect(standing.body.standings).toEqual({ [id]: "ok" });
    expect((await call(world, `/downloads/licences/${id}`, { method: "DELETE" })).status).toBe(401);
    expect((await call(world, `/downloads/licences/${id}`, { method: "DELETE", cookie: other.cookie })).status).toBe(
      404,
    );
    expect((await call(world, `/downloads/licences/${id}`, { method: "DELETE", cookie: viewer.cookie })).status).toBe(
      200,
    );
    expect((await call(world, `/downloads/licences?ids=${id}`)).body.standings).toEqual({ [id]: "revoked" });
  });

  it("give a device that decodes AV1 the AV1 + Opus rung's file and size, and refuse a family the title lacks", async () => {
    const owner = await login(world, seedAccount(world, "provider"));
    const viewer = await login(world, seedAccount(world, "viewer"));
    const title = await seedMovie(world, owner.account.id, { approved: true });
    world.db.insert(plans).values({ id: "apifreeplan", code: "FREE", name: "Free" }).onConflictDoNothing().run();
    world.db
      .insert(movieRenditions)
      .values([
        { movieId: title.id, rung: 240, width: 426, height: 240, status: "ready", sizeBytes: 200_000 },
        { movieId: title.id, rung: 240, codec: "av1", width: 426, height: 240, status: "ready", sizeBytes: 130_000 },
      ])
      .run();
    const ask = (json: Record<string, unknown>) =>
      call(world, "/downloads/licences", {
        method: "POST",
        json: { movieId: title.id, ...json },
        cookie: viewer.cookie,
      });
    const av1 = await ask({ rung: 240, codec: "av1" });
    expect(av1.status).toBe(201);
    expect(av1.body.media).toEqual({ url: `/stream/${title.id}/240p-av1.mp4`, sizeBytes: 130_000 });
    // Without a codec: H.264, as every client asked before AV1.
    expect((await ask({ rung: 240 })).body.media).toEqual({ url: `/stream/${title.id}/240p.mp4`, sizeBytes: 200_000 });
    expect((await ask({ rung: 240, codec: "vp9" })).status).toBe(400);
    // No AV1 144p was made.
    expect((await ask({ rung: 144, codec: "av1" })).status).toBe(400);
    // The AV1 rung's bytes through the stream route's own checks: the viewer's, not a stranger's.
    const bytes = await call(world, `/stream/${title.id}/240p-av1.mp4`, { headers: { Range: "bytes=0-9" } });
    expect(bytes.status).toBe(401);
  });
});

describe("writes whose Origin names another host than the one they arrived for", () => {
  /** A raw request, so Host and X-Forwarded-Host are sent as given. */
  const post = (pathname: string, headers: Record<string, string>, body = "email=a%40b.example&password=x") =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(`${world.url}${pathname}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          ...headers,
        },
      });
      request.on("response", (answer) => {
        let text = "";
        answer.setEncoding("utf8");
        answer.on("data", (chunk: string) => (text += chunk));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, text }));
      });
      request.on("error", reject);
      request.end(body);
    });
  const own = () => world.url.replace("http://", "");

  it("are answered 403 with a message, never Remix's 500, on pages and on /api", async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ["/login", { Origin: "https://kallo.example" }],
      // Origin matches Host, but the proxy says the request was for another host.
      ["/login", { Origin: world.url, "X-Forwarded-Host": "kallo.example" }],
      ["/login", { Origin: "null" }],
      ["/login", { Origin: "not a url" }],
      ["/api/user/login", { Origin: "https://elsewhere.example" }],
      ["/api/user/login", { Origin: "null" }],
    ];
    for (const [pathname, headers] of cases) {
      const answer = await post(pathname, headers);
      expect({ pathname, headers, status: answer.status }).toEqual({ pathname, headers, status: 403 });
      expect(answer.text).toContain("must be made from Kallo's own pages");
    }
    // The same sign-in from our own page goes through to the form's own answer.
    const mine = await post("/login", { Origin: world.url, Host: own() });
    expect(mine.status).toBeLessThan(500);
    expect(mine.status).not.toBe(403);
  });

  it("lets a Bearer call to /api through whatever page it comes from", async () => {
    const viewer = await login(world, seedAccount(world, "viewer"));
    const answer = await post(
      `/api/files/watched`,
      {
        Origin: "https://elsewhere.example",
        Authorization: `Bearer ${viewer.token}`,
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength("{}")),
      },
      "{}",
    );
    expect(answer.status).not.toBe(403);
    expect(answer.status).toBeLessThan(500);
  });
});

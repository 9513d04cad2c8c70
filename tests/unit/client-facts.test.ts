import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { allowList, isAllowed } from "~/utils/address-list";
import { clientAddress, isHttpsRequest } from "~/utils/client.server";
import { parseTrustProxy, type TrustProxy } from "~/utils/env.server";
import { mediaKind, routeLabel } from "~/utils/metrics.server";
import { capBodies, clientFacts, sameOriginWrites, startupLines } from "../../scripts/serve";

/**
 * "Who is the client" and "is this https", decided once by the server for
 * every request: from the socket unless a trusted proxy said otherwise, and
 * cookies Secure exactly on https.
 */
const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

async function serverWith(trustProxy: TrustProxy, publicHttps = false): Promise<string> {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(clientFacts({ publicHttps }));
  app.get("/", (req, res) => {
    // What the app sees, through the same helpers the app uses.
    const request = new Request("http://x/", { headers: req.headers as Record<string, string> });
    res.setHeader("Set-Cookie", ["kallo_session=abc; Path=/; HttpOnly; SameSite=Lax"]);
    res.json({ address: clientAddress(request), https: isHttpsRequest(request) });
  });
  const server = http.createServer(app).listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function ask(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return {
    ...(await response.json()),
    cookie: response.headers.get("Set-Cookie") ?? "",
    hsts: response.headers.get("Strict-Transport-Security"),
  } as {
    address: string;
    https: boolean;
    cookie: string;
    hsts: string | null;
  };
}

describe("the client's address and scheme", () => {
  it("come from the connection when no proxy is trusted: X-Forwarded-For, X-Forwarded-Proto and our own headers from a client change nothing", async () => {
    const url = await serverWith(false);
    const seen = await ask(url, {
      "X-Forwarded-For": "203.0.113.9",
      "X-Forwarded-Proto": "https",
      "X-Kallo-Client-Address": "198.51.100.1",
      "X-Kallo-Client-Protocol": "https",
    });
    expect(seen).toMatchObject({ address: "127.0.0.1", https: false, hsts: null });
    expect(seen.cookie).not.toMatch(/Secure/i);
  });

  it("come from a trusted proxy's headers (the address it appended, the scheme it saw), and cookies are Secure on https", async () => {
    const url = await serverWith(["loopback"]);
    const seen = await ask(url, { "X-Forwarded-For": "198.51.100.7, 203.0.113.9", "X-Forwarded-Proto": "https" });
    expect(seen).toMatchObject({ address: "203.0.113.9", https: true });
    expect(seen.cookie).toMatch(/; Secure$/);
    expect(seen.hsts).toBe("max-age=31536000");
    const plain = await ask(url, { "X-Forwarded-For": "203.0.113.10" });
    expect(plain).toMatchObject({ address: "203.0.113.10", https: false, hsts: null });
  });

  it("count the nearest N proxies with TRUST_PROXY=N, no more", async () => {
    const url = await serverWith(1);
    expect(await ask(url, { "X-Forwarded-For": "198.51.100.7, 203.0.113.9" })).toMatchObject({
      address: "203.0.113.9",
    });
  });

  it("treat every request as https when PUBLIC_URL is https", async () => {
    const url = await serverWith(false, true);
    const seen = await ask(url);
    expect(seen.https).toBe(true);
    expect(seen.cookie).toMatch(/; Secure$/);
  });

  it("say at start how the site is reached and when cookies are Secure, and warn about a public address on plain http", () => {
    const lan = startupLines({ port: 3000 });
    expect(lan.join("\n")).toContain("http://localhost:3000");
    expect(lan.join("\n")).toContain("cookies are Secure on https requests, plain on http");
    expect(lan.join("\n")).not.toContain("warning");
    expect(lan.join("\n")).toContain("PUBLIC_URL is not set: password-reset mails name their link's path only");
    // With HOST, only the address listened on: never localhost nor another interface's.
    const bound = startupLines({ port: 3000, host: "10.231.8.1" })[0];
    expect(bound).toBe("[serve] http://10.231.8.1:3000 (HOST)");
    expect(startupLines({ port: 3000, host: "::1" })[0]).toBe("[serve] http://[::1]:3000 (HOST)");
    expect(startupLines({ port: 3000, publicUrl: "http://kallo.example.com" }).join("\n")).toContain(
      "warning: PUBLIC_URL http://kallo.example.com is a public address on plain http",
    );
    expect(startupLines({ port: 3000, publicUrl: "http://192.168.1.20:3000" }).join("\n")).not.toContain("warning");
    expect(startupLines({ port: 3000, trustProxy: 1, publicUrl: "https://kallo.example.com" }).join("\n")).toContain(
      "cookies are Secure always",
    );
  });
});

describe("TRUST_PROXY", () => {
  it("takes a number of proxies or a list of addresses and subnets, and refuses anything else", () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy("0")).toBe(false);
    expect(parseTrustProxy("2")).toBe(2);
    expect(parseTrustProxy("loopback, 10.0.0.0/8, fd00::/8")).toEqual(["loopback", "10.0.0.0/8", "fd00::/8"]);
    expect(parseTrustProxy("true")).toBeNull();
    expect(parseTrustProxy("10.0.0.0/33")).toBeNull();
    expect(parseTrustProxy("caddy")).toBeNull();
  });
});

describe("metrics labels and METRICS_ALLOW", () => {
  it("label requests by route pattern, never by raw id or file name", () => {
    expect(routeLabel("/WatchMovie")).toBe("/WatchMovie");
    expect(routeLabel("/stream/abcdefabcdef1234/240p.m3u8")).toBe("/stream/:id/:file");
    expect(routeLabel("/api/files/abcdefabcdef1234.mp4")).toBe("/api/files/:file");
    expect(routeLabel("/provider/uploads/tus/abcdefabcdef1234")).toBe("/provider/uploads/tus");
    expect(routeLabel("/build/_shared/chunk-ABC.js")).toBe("/build/*");
    expect(mediaKind("/api/files/thumbnail/x-card.jpg")).toBe("poster");
    expect(mediaKind("/stream/x/240p.mp4")).toBe("ladder");
    expect(mediaKind("/movies")).toBeNull();
  });

  it("allow loopback by default, addresses and subnets when listed, nobody when empty, and refuse nonsense", () => {
    const loopback = allowList("loopback")!;
    expect(isAllowed(loopback, "127.0.0.1")).toBe(true);
    expect(isAllowed(loopback, "::1")).toBe(true);
    expect(isAllowed(loopback, "10.0.0.1")).toBe(false);
    expect(isAllowed(loopback, "unknown")).toBe(false);
    const office = allowList("10.0.0.0/8, 192.168.1.20")!;
    expect(isAllowed(office, "10.2.3.4")).toBe(true);
    expect(isAllowed(office, "192.168.1.21")).toBe(false);
    expect(isAllowed(allowList("")!, "127.0.0.1")).toBe(false);
    expect(allowList("prometheus.lan")).toBeNull();
  });
});

describe("body limits, for every route at once", () => {
  async function capped(): Promise<string> {
    const app = express();
    // Who is calling, as the app's sessions would say (a header stands in for them here).
    app.use(capBodies({ roleOf: async (req) => (req.headers["x-role"] as "admin" | "provider" | undefined) ?? null }));
    app.all("*", (req, res) => {
      req.resume();
      req.on("end", () => res.json({ ok: true }));
    });
    const server = http.createServer(app).listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("answers 413 to any body over 64 kB, takes a file form's 12 MB only from its role, and lets film uploads through to their own limits", async () => {
    const url = await capped();
    const big = "a=" + "x".repeat(100 * 1024);
    const login = await fetch(`${url}/login`, {
      method: "POST",
      body: big,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(login.status).toBe(413);
    expect(await login.text()).toContain("The request is too large: the limit is 64 kB.");
    const api = await fetch(`${url}/api/user/login`, {
      method: "POST",
      body: big,
      headers: { "Content-Type": "application/json" },
    });
    expect(api.status).toBe(413);
    expect(await api.json()).toEqual({ success: false, message: "The request is too large: the limit is 64 kB." });
    // A multipart body to a page that takes no file: the same 64 kB.
    const multipart = new FormData();
    multipart.append("email", "a@b.c");
    multipart.append("file", new Blob([new Uint8Array(11 * 1024 * 1024)]), "big.bin");
    expect((await fetch(`${url}/login`, { method: "POST", body: multipart })).status).toBe(413);
    expect(
      (
        await fetch(`${url}/login`, {
          method: "POST",
          body: "email=a%40b.c",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        })
      ).status,
    ).toBe(200);

    const image = new FormData();
    image.append("image", new Blob([new Uint8Array(5 * 1024 * 1024)]), "tile.jpg");
    const asAdmin = { "X-Role": "admin" };
    expect((await fetch(`${url}/admin/moviecategory`, { method: "POST", body: image, headers: asAdmin })).status).toBe(
      200,
    );
    // Signed out, or the wrong role: refused before the body is read.
    expect((await fetch(`${url}/admin/moviecategory`, { method: "POST", body: image })).status).toBe(403);
    expect(
      (await fetch(`${url}/admin/moviecategory`, { method: "POST", body: image, headers: { "X-Role": "provider" } }))
        .status,
    ).toBe(403);
    const poster = new FormData();
    poster.append("poster", new Blob([new Uint8Array(3 * 1024 * 1024)]), "poster.jpg");
    expect(
      (await fetch(`${url}/provider/series/abc`, { method: "POST", body: poster, headers: { "X-Role": "provider" } }))
        .status,
    ).toBe(200);
    const huge = new FormData();
    huge.append("image", new Blob([new Uint8Array(13 * 1024 * 1024)]), "tile.jpg");
    expect((await fetch(`${url}/admin/moviecategory`, { method: "POST", body: huge, headers: asAdmin })).status).toBe(
      413,
    );
    const film = new FormData();
    film.append("movie", new Blob([new Uint8Array(20 * 1024 * 1024)]), "film.mp4");
    expect((await fetch(`${url}/provider/Movieupload`, { method: "POST", body: film })).status).toBe(200);
    expect(
      (await fetch(`${url}/provider/uploads/tus/abc`, { method: "PATCH", body: new Uint8Array(20 * 1024 * 1024) }))
        .status,
    ).toBe(200);
  });

  it("wants the length of a body outside the upload routes (411 for chunked)", async () => {
    const url = await capped();
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("email=a"));
        controller.close();
      },
    });
    const response = await fetch(`${url}/login`, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(response.status).toBe(411);
  });
});

describe("one Origin check for every change", () => {
  it("refuses a change a browser says comes from another site (on /api unless it carries a Bearer token), and lets our own pages and scripts through", async () => {
    const app = express();
    app.use(sameOriginWrites({ publicUrl: "https://kallo.example" }));
    app.all("*", (req, res) => res.json({ ok: true, forwardedHost: req.headers["x-forwarded-host"] ?? null }));
    const server = http.createServer(app).listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (pathname: string, headers: Record<string, string>) =>
      fetch(`${url}${pathname}`, {
        method: "POST",
        body: "x=1",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      });
    for (const pathname of ["/provider/uploads", "/watch-progress", "/logout", "/language", "/login"]) {
      const refused = await post(pathname, { Origin: "http://evil.example" });
      expect(refused.status, pathname).toBe(403);
      expect(await refused.text()).toContain("must be made from Kallo's own pages");
    }
    expect((await post("/logout", { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect((await post("/logout", { Origin: url })).status).toBe(200);
    expect((await post("/logout", { Origin: "https://kallo.example" })).status).toBe(200);
    expect((await post("/logout", {})).status).toBe(200);
    // /api: a Bearer call is not judged by its Origin; anything else from another host would be Remix's 500.
    const foreignApi = await post("/api/user/login", { Origin: "http://evil.example" });
    expect(foreignApi.status).toBe(403);
    expect(await foreignApi.json()).toMatchObject({ success: false });
    expect(
      (await post("/api/files/watched", { Origin: "http://evil.example", Authorization: "Bearer t" })).status,
    ).toBe(200);
    expect((await post("/api/user/login", { Origin: url })).status).toBe(200);
    expect((await post("/api/user/login", {})).status).toBe(200);
    // Our public address behind a proxy that did not pass the host on: Remix is told the public host.
    const behindProxy = await post("/logout", { Origin: "https://kallo.example" });
    expect(behindProxy.status).toBe(200);
    expect(await behindProxy.json()).toMatchObject({ forwardedHost: "kallo.example" });
    expect((await fetch(`${url}/logout`, { headers: { Origin: "http://evil.example" } })).status).toBe(200);
  });
});

import { decodeJwt } from "jose";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, auditLog } from "~/db/schema";
import { accountRow, call, isErrorEnvelope, login, PASSWORD, rowCount, seedAccount } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";
import { BLOCKED_MESSAGE, expectGuarded, startContractWorld } from "./contract-world";

/** The /api table's account rows: sign-in, registration, the administrator's lists and blocks, tokens, profiles and passwords. */
let world: ApiWorld;
let admin: Credentials;
let viewer: Credentials;
let otherViewer: Credentials;
let provider: Credentials;
let otherProvider: Credentials;

beforeAll(async () => {
  ({ world, admin, viewer, otherViewer, provider, otherProvider } = await startContractWorld("contract-accounts"));
});
afterAll(async () => {
  await world?.stop();
});

describe("POST /api/user/login", () => {
  it("signs a viewer in: token (userId, exp in seconds, role flags), userDetails and the page session cookie", async () => {
    const account = seedAccount(world, "viewer", { name: "Amina Bello" });
    const result = await call(world, "/api/user/login", {
      json: { email: account.email.toUpperCase(), password: PASSWORD },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      success: true,
      isUser: true,
      isAdmin: false,
      isBlocked: false,
      userDetails: { name: "Amina Bello", email: account.email, phoneNumber: "+234 800 000 0001", Id: account.id },
    });
    const claims = decodeJwt(result.body.token);
    expect(claims.userId).toBe(account.id);
    expect(claims.isUser).toBe(true);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 3600);
    expect(claims.exp).toBeLessThan(Date.now() / 1000 + 31 * 24 * 3600);
    const cookie = result.headers.getSetCookie().find((value) => value.startsWith("kallo_session="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // The cookie is the pages' own session: /profile renders for it.
    const page = await fetch(`${world.url}/profile`, {
      headers: { Cookie: cookie!.split(";")[0] },
      redirect: "manual",
    });
    expect(page.status).toBe(200);
  });

  it("accepts a URL-encoded body and flags an administrator", async () => {
    const result = await call(world, "/api/user/login", { form: { email: admin.account.email, password: PASSWORD } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, isUser: false, isAdmin: true, isBlocked: false });
    expect(decodeJwt(result.body.token).isAdmin).toBe(true);
    const multipart = new FormData();
    multipart.set("email", viewer.account.email);
    multipart.set("password", PASSWORD);
    const asMultipart = await call(world, "/api/user/login", { method: "POST", body: multipart });
    expect(asMultipart.status).toBe(200);
    expect(asMultipart.body.isUser).toBe(true);
  });

  it("refuses a wrong password, a provider at this door, a blocked account, a bad payload and a cross-site page", async () => {
    const wrong = await call(world, "/api/user/login", {
      json: { email: viewer.account.email, password: "wrong-password" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, message: "Incorrect login credentials" });
    expect(wrong.headers.getSetCookie()).toHaveLength(0);

    const providerHere = await call(world, "/api/user/login", {
      json: { email: provider.account.email, password: PASSWORD },
    });
    expect(providerHere.status).toBe(401);
    expect(providerHere.body.message).toBe("Incorrect login credentials");

    const blocked = seedAccount(world, "viewer", { blocked: true });
    const refused = await call(world, "/api/user/login", { json: { email: blocked.email, password: PASSWORD } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      isBlocked: true,
      message: BLOCKED_MESSAGE,
    });

    for (const json of [{}, { email: viewer.account.email }, { email: ["a"], password: 5 }]) {
      const bad = await call(world, "/api/user/login", { json });
      expect(bad.status).toBe(400);
      expect(isErrorEnvelope(bad)).toBe(true);
    }
    const notJson = await call(world, "/api/user/login", {
      body: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);

    const crossSite = await call(world, "/api/user/login", {
      json: { email: viewer.account.email, password: PASSWORD },
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toHaveLength(0);
  });

  it("is rate limited like the sign-in page: the 11th failure in a minute from one address is 429 with Retry-After", async () => {
    const headers = { "X-Forwarded-For": "203.0.113.77" };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const result = await call(world, "/api/user/login", {
        json: { email: `nobody${i}@api.test`, password: "wrong-password" },
        headers,
      });
      statuses.push(result.status);
      if (result.status === 429) {
        expect(result.headers.get("Retry-After")).toMatch(/^\d+$/);
        expect(result.body.success).toBe(false);
      }
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("POST /api/user/register", () => {
  it("registers a viewer (JSON or URL-encoded) and answers with the page's message", async () => {
    const before = rowCount(world, accounts);
    const json = await call(world, "/api/user/register", {
      json: {
        name: "Musa Sani",
        email: "musa.sani@api.test",
        phoneNumber: "+234 801 234 5678",
        password: "long-enough-1",
        password2: "long-enough-1",
      },
    });
    expect(json.status).toBe(201);
    expect(json.body).toEqual({ success: true, message: "Registration successful. You can now sign in." });
    const form = await call(world, "/api/user/register", {
      form: {
        name: "Hauwa",
        email: "hauwa@api.test",
        phoneNumber: "08012345678",
        password: "long-enough-2",
        password2: "long-enough-2",
      },
    });
    expect(form.status).toBe(201);
    expect(rowCount(world, accounts)).toBe(before + 2);
    const stored = world.db.select().from(accounts).where(eq(accounts.email, "musa.sani@api.test")).get();
    expect(stored).toMatchObject({ role: "viewer", name: "Musa Sani", blocked: false });
  });

  it("refuses bad fields with an object of field messages, a used email with 409, and a cross-site page", async () => {
    const before = rowCount(world, accounts);
    const bad = await call(world, "/api/user/register", {
      json: { name: "", email: "not-an-email", phoneNumber: "x", password: "short", password2: "other" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect(bad.body.message).toMatchObject({
      name: "Name is required",
      email: "Email is invalid",
      phoneNumber: "Phone number is invalid",
      password: "Password must be at least 8 characters",
    });
    const mismatch = await call(world, "/api/user/register", {
      json: {
        name: "A",
        email: "mismatch@api.test",
        phoneNumber: "08012345678",
        password: "long-enough-1",
        password2: "long-enough-2",
      },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toEqual({ password2: "Passwords must match" });
    const taken = await call(world, "/api/user/register", {
      json: {
        name: "A",
        email: viewer.account.email,
        phoneNumber: "08012345678",
        password: "long-enough-1",
        password2: "long-enough-1",
      },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toEqual({ email: "Email already exists" });
    const crossSite = await call(world, "/api/user/register", {
      json: {
        name: "A",
        email: "cross@api.test",
        phoneNumber: "08012345678",
        password: "long-enough-1",
        password2: "long-enough-1",
      },
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(rowCount(world, accounts)).toBe(before);
  });
});

describe("POST /api/cp/login", () => {
  it("signs a provider in with a token flagged isCp", async () => {
    const result = await call(world, "/api/cp/login", { json: { email: provider.account.email, password: PASSWORD } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, isCp: true, isBlocked: false });
    expect(decodeJwt(result.body.token)).toMatchObject({
      userId: provider.account.id,
      isCp: true,
      isUser: false,
      isAdmin: false,
    });
    expect(result.headers.getSetCookie().some((value) => value.startsWith("kallo_session="))).toBe(true);
  });

  it("refuses a viewer at this door, a wrong password, a waiting application, a blocked provider and a bad payload", async () => {
    const viewerHere = await call(world, "/api/cp/login", {
      json: { email: viewer.account.email, password: PASSWORD },
    });
    expect(viewerHere.status).toBe(401);
    expect(viewerHere.body.message).toBe("Incorrect login credentials");
    const wrong = await call(world, "/api/cp/login", {
      json: { email: provider.account.email, password: "nope-nope-nope" },
    });
    expect(wrong.status).toBe(401);
    const pending = seedAccount(world, "provider", { providerStatus: "pending", blocked: true });
    const waiting = await call(world, "/api/cp/login", { json: { email: pending.email, password: PASSWORD } });
    expect(waiting.status).toBe(403);
    expect(waiting.body.isBlocked).toBe(true);
    const blocked = seedAccount(world, "provider", { blocked: true });
    const refused = await call(world, "/api/cp/login", { json: { email: blocked.email, password: PASSWORD } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: false,
      isBlocked: true,
      message: BLOCKED_MESSAGE,
    });
    const bad = await call(world, "/api/cp/login", { json: { password: PASSWORD } });
    expect(bad.status).toBe(400);
  });
});

describe("POST /api/cp/register", () => {
  const payload = (email: string) => ({
    providerName: "Kano Films",
    email,
    phoneNumber: "+234 802 000 0000",
    password: "provider-pass-1",
    password2: "provider-pass-1",
  });

  it("lets an administrator register an approved provider who can sign in at once", async () => {
    const result = await call(world, "/api/cp/register", { json: payload("kano.films@api.test"), token: admin.token });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ success: true, message: expect.any(String), data: { success: true } });
    const stored = world.db.select().from(accounts).where(eq(accounts.email, "kano.films@api.test")).get();
    expect(stored).toMatchObject({
      role: "provider",
      providerStatus: "approved",
      blocked: false,
      providerName: "Kano Films",
    });
    const signIn = await call(world, "/api/cp/login", {
      json: { email: "kano.films@api.test", password: "provider-pass-1" },
    });
    expect(signIn.status).toBe(200);
  });

  it("refuses no credentials, viewers and providers, bad fields, a used email, and a cross-site cookie", async () => {
    const before = rowCount(world, accounts);
    await expectGuarded(world, "POST", "/api/cp/register", [viewer, provider], payload("nobody@api.test"));
    const bad = await call(world, "/api/cp/register", { json: { providerName: "", email: "x" }, token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatchObject({ providerName: "Provider name is required", email: "Email is invalid" });
    expect(bad.body.data.success).toBe(false);
    const taken = await call(world, "/api/cp/register", { json: payload(provider.account.email), token: admin.token });
    expect(taken.status).toBe(409);
    const crossSite = await call(world, "/api/cp/register", {
      json: payload("cross@api.test"),
      cookie: admin.cookie,
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    const noOrigin = await call(world, "/api/cp/register", {
      json: payload("no-origin@api.test"),
      cookie: admin.cookie,
      origin: null,
    });
    expect(noOrigin.status).toBe(403);
    expect(rowCount(world, accounts)).toBe(before);
    // Our own page, by cookie, is fine (Origin or Sec-Fetch-Site).
    const own = await call(world, "/api/cp/register", { json: payload("own-page@api.test"), cookie: admin.cookie });
    expect(own.status).toBe(201);
    const fetchSite = await call(world, "/api/cp/register", {
      json: payload("fetch-site@api.test"),
      cookie: admin.cookie,
      origin: null,
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    expect(fetchSite.status).toBe(201);
  });
});

describe("GET /api/cp/allusers and GET /api/cp/user/allusers", () => {
  it("lists providers (with providerName) and viewers to an administrator, each only its role", async () => {
    const providers = await call(world, "/api/cp/allusers", { token: admin.token });
    expect(providers.status).toBe(200);
    expect(Array.isArray(providers.body)).toBe(true);
    const row = providers.body.find((entry: { _id: string }) => entry._id === provider.account.id);
    expect(row).toEqual({
      _id: provider.account.id,
      name: expect.any(String),
      providerName: `Studio ${provider.account.id}`,
      email: provider.account.email,
      phoneNumber: "+234 800 000 0001",
      isBlocked: false,
    });
    expect(providers.body.some((entry: { _id: string }) => entry._id === viewer.account.id)).toBe(false);
    expect(Number(providers.headers.get("X-Total-Count"))).toBeGreaterThanOrEqual(2);

    const viewers = await call(world, "/api/cp/user/allusers", { cookie: admin.cookie });
    expect(viewers.status).toBe(200);
    const viewerRow = viewers.body.find((entry: { _id: string }) => entry._id === viewer.account.id);
    expect(viewerRow).toEqual({
      _id: viewer.account.id,
      name: expect.any(String),
      email: viewer.account.email,
      phoneNumber: "+234 800 000 0001",
      isBlocked: false,
    });
    expect(viewers.body.some((entry: { _id: string }) => entry._id === provider.account.id)).toBe(false);
  });

  it("refuses no credentials, viewers and providers", async () => {
    await expectGuarded(world, "GET", "/api/cp/allusers", [viewer, provider]);
    await expectGuarded(world, "GET", "/api/cp/user/allusers", [viewer, provider]);
  });
});

describe("PUT /api/cp/block/{id} and PUT /api/cp/unblock/{id}", () => {
  it("blocks a provider and unblocks the same provider (not a viewer), answering with the record", async () => {
    const target = seedAccount(world, "provider");
    const blocked = await call(world, `/api/cp/block/${target.id}`, { method: "PUT", token: admin.token });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({
      success: true,
      message: "User blocked",
      _id: target.id,
      isBlocked: true,
      providerName: `Studio ${target.id}`,
    });
    expect(accountRow(world, target.id)?.blocked).toBe(true);
    const unblocked = await call(world, `/api/cp/unblock/${target.id}`, { method: "PUT", token: admin.token });
    expect(unblocked.status).toBe(200);
    expect(unblocked.body).toMatchObject({
      success: true,
      message: "User unblocked",
      _id: target.id,
      isBlocked: false,
    });
    expect(accountRow(world, target.id)?.blocked).toBe(false);
  });

  it("refuses no credentials, viewers and providers, a viewer's id (404), an unknown id (404)", async () => {
    const target = seedAccount(world, "provider");
    await expectGuarded(world, "PUT", `/api/cp/block/${target.id}`, [viewer, provider]);
    await expectGuarded(world, "PUT", `/api/cp/unblock/${target.id}`, [viewer, provider]);
    expect(accountRow(world, target.id)?.blocked).toBe(false);
    const aViewer = seedAccount(world, "viewer");
    const viewerId = await call(world, `/api/cp/block/${aViewer.id}`, { method: "PUT", token: admin.token });
    expect(viewerId.status).toBe(404);
    expect(accountRow(world, aViewer.id)?.blocked).toBe(false);
    const blockedViewer = seedAccount(world, "viewer", { blocked: true });
    expect(
      (await call(world, `/api/cp/unblock/${blockedViewer.id}`, { method: "PUT", token: admin.token })).status,
    ).toBe(404);
    expect(accountRow(world, blockedViewer.id)?.blocked).toBe(true);
    expect((await call(world, "/api/cp/block/nosuchaccount1", { method: "PUT", token: admin.token })).status).toBe(404);
  });
});

describe("PUT /api/cp/user/block/{id} and PUT /api/cp/user/unblock/{id}", () => {
  it("blocks and unblocks a viewer", async () => {
    const target = seedAccount(world, "viewer");
    const blocked = await call(world, `/api/cp/user/block/${target.id}`, { method: "PUT", cookie: admin.cookie });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ success: true, message: "User blocked", _id: target.id, isBlocked: true });
    const unblocked = await call(world, `/api/cp/user/unblock/${target.id}`, { method: "PUT", token: admin.token });
    expect(unblocked.body).toMatchObject({ success: true, message: "User unblocked", isBlocked: false });
    expect(accountRow(world, target.id)?.blocked).toBe(false);
  });

  it("keeps a reason given with the block in the audit log; none is needed", async () => {
    const target = seedAccount(world, "viewer");
    const blocked = await call(world, `/api/cp/user/block/${target.id}`, {
      method: "PUT",
      token: admin.token,
      json: { reason: "  Spam in the comments  " },
    });
    expect(blocked.status).toBe(200);
    const entry = world.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "account.block"), eq(auditLog.targetId, target.id)))
      .get();
    expect(entry?.details).toEqual({ reason: "Spam in the comments", confirmed: false });
    const tooLong = seedAccount(world, "viewer");
    const refused = await call(world, `/api/cp/user/block/${tooLong.id}`, {
      method: "PUT",
      token: admin.token,
      json: { reason: "x".repeat(501) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, message: "The reason can be at most 500 characters" });
    expect(accountRow(world, tooLong.id)?.blocked).toBe(false);
  });

  it("no longer touches providers: a provider's id is 404 and the provider stays as it was", async () => {
    const blockedProvider = seedAccount(world, "provider", { blocked: true });
    const result = await call(world, `/api/cp/user/unblock/${blockedProvider.id}`, {
      method: "PUT",
      token: admin.token,
    });
    expect(result.status).toBe(404);
    expect(accountRow(world, blockedProvider.id)?.blocked).toBe(true);
    const activeProvider = seedAccount(world, "provider");
    expect(
      (await call(world, `/api/cp/user/block/${activeProvider.id}`, { method: "PUT", token: admin.token })).status,
    ).toBe(404);
    expect(accountRow(world, activeProvider.id)?.blocked).toBe(false);
  });

  it("refuses no credentials, viewers and providers, an unknown id, and a cross-site cookie", async () => {
    const target = seedAccount(world, "viewer");
    await expectGuarded(world, "PUT", `/api/cp/user/block/${target.id}`, [viewer, provider]);
    await expectGuarded(world, "PUT", `/api/cp/user/unblock/${target.id}`, [viewer, provider]);
    expect((await call(world, "/api/cp/user/block/nosuchaccount1", { method: "PUT", token: admin.token })).status).toBe(
      404,
    );
    const crossSite = await call(world, `/api/cp/user/block/${target.id}`, {
      method: "PUT",
      cookie: admin.cookie,
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(accountRow(world, target.id)?.blocked).toBe(false);
  });
});

describe("tokens end with the account", () => {
  it("a blocked account's token and cookie stop working at once", async () => {
    const account = seedAccount(world, "viewer");
    const credentials = await login(world, account);
    expect((await call(world, `/api/user/profile/${account.id}`, { token: credentials.token })).status).toBe(200);
    await call(world, `/api/cp/user/block/${account.id}`, { method: "PUT", token: admin.token });
    const byToken = await call(world, `/api/user/profile/${account.id}`, { token: credentials.token });
    expect(byToken.status).toBe(401);
    const byCookie = await call(world, `/api/user/profile/${account.id}`, { cookie: credentials.cookie });
    expect(byCookie.status).toBe(401);
    // Unblocking does not bring the old token back.
    await call(world, `/api/cp/user/unblock/${account.id}`, { method: "PUT", token: admin.token });
    expect((await call(world, `/api/user/profile/${account.id}`, { token: credentials.token })).status).toBe(401);
  });

  it("a forged or expired-looking token is refused", async () => {
    const [header, payload] = viewer.token.split(".");
    const forged = `${header}.${payload}.${Buffer.from("forged-signature").toString("base64url")}`;
    expect((await call(world, `/api/user/profile/${viewer.account.id}`, { token: forged })).status).toBe(401);
    const otherClaims = Buffer.from(JSON.stringify({ ...decodeJwt(viewer.token), userId: admin.account.id })).toString(
      "base64url",
    );
    expect(
      (
        await call(world, `/api/user/profile/${admin.account.id}`, {
          token: `${header}.${otherClaims}.${viewer.token.split(".")[2]}`,
        })
      ).status,
    ).toBe(401);
  });
});

describe("GET /api/user/profile/{userId}", () => {
  it("answers name, email and phoneNumber to the account itself (token or cookie) and to an administrator", async () => {
    const own = await call(world, `/api/user/profile/${viewer.account.id}`, { token: viewer.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      name: expect.any(String),
      email: viewer.account.email,
      phoneNumber: "+234 800 000 0001",
    });
    expect((await call(world, `/api/user/profile/${viewer.account.id}`, { cookie: viewer.cookie })).status).toBe(200);
    const byAdmin = await call(world, `/api/user/profile/${viewer.account.id}`, { token: admin.token });
    expect(byAdmin.body.email).toBe(viewer.account.email);
  });

  it("refuses no credentials, another viewer, a provider, and an unknown id", async () => {
    const anonymous = await call(world, `/api/user/profile/${viewer.account.id}`);
    expect(anonymous.status).toBe(401);
    expect((await call(world, `/api/user/profile/${viewer.account.id}`, { token: otherViewer.token })).status).toBe(
      403,
    );
    expect((await call(world, `/api/user/profile/${viewer.account.id}`, { token: provider.token })).status).toBe(403);
    expect((await call(world, "/api/user/profile/nosuchaccount1", { token: admin.token })).status).toBe(404);
    // Someone else's unknown id says nothing about whether it exists.
    expect((await call(world, "/api/user/profile/nosuchaccount1", { token: viewer.token })).status).toBe(403);
  });
});

describe("PUT /api/user/profile/edit/{userId}", () => {
  it("saves the account's own profile, and an administrator may edit anyone's", async () => {
    const account = seedAccount(world, "viewer");
    const credentials = await login(world, account);
    const own = await call(world, `/api/user/profile/edit/${account.id}`, {
      method: "PUT",
      json: { name: "Zainab Umar", email: `z.${account.email}`, phoneNumber: "+234 803 111 2222" },
      token: credentials.token,
    });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ success: true, message: "Profile Changed" });
    expect(accountRow(world, account.id)).toMatchObject({
      name: "Zainab Umar",
      email: `z.${account.email}`,
      phoneNumber: "+234 803 111 2222",
    });
    const byAdmin = await call(world, `/api/user/profile/edit/${account.id}`, {
      method: "PUT",
      form: { name: "Zainab U.", email: `z.${account.email}`, phoneNumber: "+234 803 111 2222" },
      token: admin.token,
    });
    expect(byAdmin.status).toBe(200);
    expect(accountRow(world, account.id)?.name).toBe("Zainab U.");
  });

  it("refuses no credentials, another viewer, a provider, bad fields, a used email, and a cross-site cookie — nothing changes", async () => {
    const before = accountRow(world, viewer.account.id);
    const good = { name: "Changed", email: `changed.${viewer.account.email}`, phoneNumber: "+234 803 111 2222" };
    expect(
      (await call(world, `/api/user/profile/edit/${viewer.account.id}`, { method: "PUT", json: good })).status,
    ).toBe(401);
    expect(
      (
        await call(world, `/api/user/profile/edit/${viewer.account.id}`, {
          method: "PUT",
          json: good,
          token: otherViewer.token,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(world, `/api/user/profile/edit/${viewer.account.id}`, {
          method: "PUT",
          json: good,
          token: provider.token,
        })
      ).status,
    ).toBe(403);
    const bad = await call(world, `/api/user/profile/edit/${viewer.account.id}`, {
      method: "PUT",
      json: { name: "", email: "no", phoneNumber: null },
      token: viewer.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatchObject({
      name: "Name is required",
      email: "Email is invalid",
      phoneNumber: "Phone number is required",
    });
    const taken = await call(world, `/api/user/profile/edit/${viewer.account.id}`, {
      method: "PUT",
      json: { ...good, email: admin.account.email },
      token: viewer.token,
    });
    expect(taken.status).toBe(409);
    const crossSite = await call(world, `/api/user/profile/edit/${viewer.account.id}`, {
      method: "PUT",
      json: good,
      cookie: viewer.cookie,
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(accountRow(world, viewer.account.id)).toEqual(before);
  });
});

describe("PUT /api/user/profile/password/{userId}", () => {
  it("changes the account's own password: the old token and cookie stop working, the new token works", async () => {
    const account = seedAccount(world, "viewer");
    const credentials = await login(world, account);
    const result = await call(world, `/api/user/profile/password/${account.id}`, {
      method: "PUT",
      json: { currentPassword: PASSWORD, password: "brand-new-pass-1", password2: "brand-new-pass-1" },
      cookie: credentials.cookie,
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, token: expect.any(String) });
    const freshCookie = result.headers
      .getSetCookie()
      .find((value) => value.startsWith("kallo_session="))!
      .split(";")[0];
    expect((await call(world, `/api/user/profile/${account.id}`, { token: credentials.token })).status).toBe(401);
    expect((await call(world, `/api/user/profile/${account.id}`, { cookie: credentials.cookie })).status).toBe(401);
    expect((await call(world, `/api/user/profile/${account.id}`, { token: result.body.token })).status).toBe(200);
    expect((await call(world, `/api/user/profile/${account.id}`, { cookie: freshCookie })).status).toBe(200);
    const oldPassword = await call(world, "/api/user/login", { json: { email: account.email, password: PASSWORD } });
    expect(oldPassword.status).toBe(401);
    expect(
      (await call(world, "/api/user/login", { json: { email: account.email, password: "brand-new-pass-1" } })).status,
    ).toBe(200);
  });

  it("refuses no credentials, an administrator on someone else, another viewer, a wrong current password and bad fields", async () => {
    const account = seedAccount(world, "viewer");
    const credentials = await login(world, account);
    const before = accountRow(world, account.id);
    const body = { currentPassword: PASSWORD, password: "brand-new-pass-1", password2: "brand-new-pass-1" };
    const pathname = `/api/user/profile/password/${account.id}`;
    expect((await call(world, pathname, { method: "PUT", json: body })).status).toBe(401);
    expect((await call(world, pathname, { method: "PUT", json: body, token: admin.token })).status).toBe(403);
    expect((await call(world, pathname, { method: "PUT", json: body, token: otherViewer.token })).status).toBe(403);
    const wrong = await call(world, pathname, {
      method: "PUT",
      json: { ...body, currentPassword: "not-the-password" },
      token: credentials.token,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toEqual({ currentPassword: "Current password is incorrect" });
    const bad = await call(world, pathname, {
      method: "PUT",
      json: { currentPassword: PASSWORD, password: "short", password2: "short" },
      token: credentials.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual({ password: "Password must be at least 8 characters" });
    expect(accountRow(world, account.id)).toEqual(before);
    expect((await call(world, `/api/user/profile/${account.id}`, { token: credentials.token })).status).toBe(200);
  });
});

describe("PUT /api/cp/profile/edit/{providerId}", () => {
  it("saves the provider's own profile, and an administrator may edit any provider", async () => {
    const account = seedAccount(world, "provider");
    const credentials = await login(world, account);
    const own = await call(world, `/api/cp/profile/edit/${account.id}`, {
      method: "PUT",
      json: { name: "Sadiq", email: account.email, phoneNumber: "+234 804 000 1111", providerName: "Sadiq Pictures" },
      token: credentials.token,
    });
    expect(own.status).toBe(200);
    expect(own.body.success).toBe(true);
    expect(accountRow(world, account.id)).toMatchObject({
      name: "Sadiq",
      providerName: "Sadiq Pictures",
      phoneNumber: "+234 804 000 1111",
    });
    const byAdmin = await call(world, `/api/cp/profile/edit/${account.id}`, {
      method: "PUT",
      json: { name: "Sadiq", email: account.email, phoneNumber: "+234 804 000 1111", providerName: "Sadiq Studios" },
      token: admin.token,
    });
    expect(byAdmin.status).toBe(200);
    expect(accountRow(world, account.id)?.providerName).toBe("Sadiq Studios");
  });

  it("refuses no credentials, a viewer, another provider, a viewer's id, and bad fields (message object)", async () => {
    const before = accountRow(world, provider.account.id);
    const body = {
      name: "X",
      email: provider.account.email,
      phoneNumber: "+234 804 000 1111",
      providerName: "Taken Over",
    };
    const pathname = `/api/cp/profile/edit/${provider.account.id}`;
    await expectGuarded(world, "PUT", pathname, [viewer], body);
    expect((await call(world, pathname, { method: "PUT", json: body, token: otherProvider.token })).status).toBe(403);
    expect(
      (
        await call(world, `/api/cp/profile/edit/${viewer.account.id}`, {
          method: "PUT",
          json: body,
          token: admin.token,
        })
      ).status,
    ).toBe(404);
    const bad = await call(world, pathname, {
      method: "PUT",
      json: { name: "X", email: provider.account.email, phoneNumber: "+234 804 000 1111" },
      token: provider.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, message: { providerName: "Provider name is required" } });
    expect(accountRow(world, provider.account.id)).toEqual(before);
  });
});

import { decodeJwt } from "jose";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, auditLog, movies as moviesTable, plans, watchEvents } from "~/db/schema";
import { grantPass } from "~/services/passes.server";
import {
  accountRow,
  call,
  isErrorEnvelope,
  login,
  movieRow,
  PASSWORD,
  rowCount,
  seedAccount,
  seedMovie,
  startApiWorld,
  uniqueId,
} from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * One block per row of the /api table (docs/product.md): the success shape the old
 * clients read, and the refusals (no credentials, wrong role, wrong owner,
 * bad payload).
 */
/** The brief's words, punctuated, and whom to write to (the default customer care the API servers run with). */
const BLOCKED_MESSAGE =
  "Your account is blocked. Contact the Administrator: write to care@kallo.local or call +234 800 000 0000, giving the email address you sign in with.";

let world: ApiWorld;
let admin: Credentials;
let viewer: Credentials;
let otherViewer: Credentials;
let provider: Credentials;
let otherProvider: Credentials;

beforeAll(async () => {
  // Ten failed sign-ins from one address are enough to show the refusal (the default allows 100).
  process.env.SIGN_IN_FAILURES_PER_ADDRESS = "10";
  world = await startApiWorld("contract");
  const seeded = {
    admin: seedAccount(world, "admin"),
    viewer: seedAccount(world, "viewer"),
    otherViewer: seedAccount(world, "viewer"),
    provider: seedAccount(world, "provider"),
    otherProvider: seedAccount(world, "provider"),
  };
  [admin, viewer, otherViewer, provider, otherProvider] = await Promise.all([
    login(world, seeded.admin),
    login(world, seeded.viewer),
    login(world, seeded.otherViewer),
    login(world, seeded.provider),
    login(world, seeded.otherProvider),
  ]);
});
afterAll(async () => {
  await world?.stop();
});

/** The refusals every protected path shares: nobody (401), and each role in `wrongRoles` (403). */
async function expectGuarded(method: string, pathname: string, wrongRoles: Credentials[], json?: unknown) {
  const anonymous = await call(world, pathname, { method, json });
  expect(anonymous.status).toBe(401);
  expect(isErrorEnvelope(anonymous)).toBe(true);
  const badToken = await call(world, pathname, { method, json, token: "not.a.token" });
  expect(badToken.status).toBe(401);
  for (const wrong of wrongRoles) {
    const refused = await call(world, pathname, { method, json, token: wrong.token });
    expect(refused.status, `${wrong.account.role} on ${method} ${pathname}`).toBe(403);
    expect(isErrorEnvelope(refused)).toBe(true);
  }
}

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
    await expectGuarded("POST", "/api/cp/register", [viewer, provider], payload("nobody@api.test"));
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
    await expectGuarded("GET", "/api/cp/allusers", [viewer, provider]);
    await expectGuarded("GET", "/api/cp/user/allusers", [viewer, provider]);
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
    await expectGuarded("PUT", `/api/cp/block/${target.id}`, [viewer, provider]);
    await expectGuarded("PUT", `/api/cp/unblock/${target.id}`, [viewer, provider]);
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
    await expectGuarded("PUT", `/api/cp/user/block/${target.id}`, [viewer, provider]);
    await expectGuarded("PUT", `/api/cp/user/unblock/${target.id}`, [viewer, provider]);
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
    await expectGuarded("PUT", pathname, [viewer], body);
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

describe("GET /api/movies/all", () => {
  it("lists published titles only, to anyone, in the original's field names", async () => {
    const published = await seedMovie(world, provider.account.id, { withFiles: true, name: "Gidan Badamasi" });
    const waiting = await seedMovie(world, provider.account.id, { approved: false });
    const processing = await seedMovie(world, provider.account.id, { status: "processing" });
    const result = await call(world, "/api/movies/all");
    expect(result.status).toBe(200);
    const row = result.body.find((entry: { _id: string }) => entry._id === published.id);
    expect(row).toEqual({
      _id: published.id,
      MovieName: "Gidan Badamasi",
      filename: `${published.id}.mp4`,
      thumbnail: `${published.id}-card.jpg`,
      description: `About ${published.id}`,
      uploadedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      views: 0,
      size: expect.any(Number),
    });
    expect(row.size).toBeGreaterThan(0);
    const ids = result.body.map((entry: { _id: string }) => entry._id);
    expect(ids).not.toContain(waiting.id);
    expect(ids).not.toContain(processing.id);
    // The thumbnail and file names are what /api/files serves.
    const poster = await fetch(`${world.url}/api/files/thumbnail/${row.thumbnail}`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get("Content-Type")).toBe("image/jpeg");
  });
});

describe("GET /api/movies/all/{providerId}", () => {
  it("lists a provider's own titles in every status to that provider and to an administrator", async () => {
    const account = seedAccount(world, "provider");
    const credentials = await login(world, account);
    const ready = await seedMovie(world, account.id);
    const processing = await seedMovie(world, account.id, { status: "processing", approved: false });
    const someoneElse = await seedMovie(world, otherProvider.account.id);
    const own = await call(world, `/api/movies/all/${account.id}`, { token: credentials.token });
    expect(own.status).toBe(200);
    const ids = own.body.map((entry: { _id: string }) => entry._id).sort();
    expect(ids).toEqual([ready.id, processing.id].sort());
    expect(ids).not.toContain(someoneElse.id);
    expect(own.body.find((entry: { _id: string }) => entry._id === processing.id)).toMatchObject({
      MovieName: expect.any(String),
      status: "processing",
      size: 3,
    });
    const byAdmin = await call(world, `/api/movies/all/${account.id}`, { token: admin.token });
    expect(byAdmin.body).toHaveLength(2);
  });

  it("refuses no credentials, a viewer, another provider, and a viewer's id", async () => {
    await expectGuarded("GET", `/api/movies/all/${provider.account.id}`, [viewer]);
    expect((await call(world, `/api/movies/all/${provider.account.id}`, { token: otherProvider.token })).status).toBe(
      403,
    );
    expect((await call(world, `/api/movies/all/${viewer.account.id}`, { token: admin.token })).status).toBe(404);
  });
});

describe("POST /api/upload/movies (refusals; the whole upload is in media.test.ts)", () => {
  it("refuses no credentials, viewers and administrators, bad parts, and a cross-site cookie — nothing stored", async () => {
    const before = rowCount(world, moviesTable);
    const form = () => {
      const body = new FormData();
      body.set("name", "Refused");
      body.set("Category", world.categoryId);
      body.append("file", new Blob([Buffer.from("not a video at all")]), "movie.mp4");
      return body;
    };
    expect((await call(world, "/api/upload/movies", { method: "POST", body: form() })).status).toBe(401);
    expect(
      (await call(world, "/api/upload/movies", { method: "POST", body: form(), token: viewer.token })).status,
    ).toBe(403);
    expect((await call(world, "/api/upload/movies", { method: "POST", body: form(), token: admin.token })).status).toBe(
      403,
    );
    const wrongContent = await call(world, "/api/upload/movies", {
      method: "POST",
      body: form(),
      token: provider.token,
    });
    expect(wrongContent.status).toBe(400);
    expect(wrongContent.body.success).toBe(false);
    expect(wrongContent.body.message).toHaveProperty("movie");
    const missing = new FormData();
    missing.set("name", "No files");
    const noFile = await call(world, "/api/upload/movies", { method: "POST", body: missing, token: provider.token });
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toMatchObject({ movie: expect.any(String), Category: expect.any(String) });
    const notMultipart = await call(world, "/api/upload/movies", { json: { name: "x" }, token: provider.token });
    expect(notMultipart.status).toBe(400);
    const crossSite = await call(world, "/api/upload/movies", {
      method: "POST",
      body: form(),
      cookie: provider.cookie,
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(rowCount(world, moviesTable)).toBe(before);
  });
});

describe("DELETE /api/movies/delete/{movieId}", () => {
  it("lets the owning provider and an administrator delete a title", async () => {
    const own = await seedMovie(world, provider.account.id, { withFiles: true });
    const result = await call(world, `/api/movies/delete/${own.id}`, { method: "DELETE", token: provider.token });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true, message: "Movie deleted" });
    expect(movieRow(world, own.id)).toBeUndefined();
    const another = await seedMovie(world, otherProvider.account.id);
    const byAdmin = await call(world, `/api/movies/delete/${another.id}`, { method: "DELETE", cookie: admin.cookie });
    expect(byAdmin.status).toBe(200);
    expect(movieRow(world, another.id)).toBeUndefined();
  });

  it("refuses no credentials, a viewer, another provider, an unknown title and a cross-site cookie — the title stays", async () => {
    const movie = await seedMovie(world, provider.account.id);
    await expectGuarded("DELETE", `/api/movies/delete/${movie.id}`, [viewer]);
    const notOwner = await call(world, `/api/movies/delete/${movie.id}`, {
      method: "DELETE",
      token: otherProvider.token,
    });
    expect(notOwner.status).toBe(403);
    const crossSite = await call(world, `/api/movies/delete/${movie.id}`, {
      method: "DELETE",
      cookie: provider.cookie,
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(movieRow(world, movie.id)).toBeDefined();
    expect(
      (await call(world, "/api/movies/delete/nosuchmovie0001", { method: "DELETE", token: provider.token })).status,
    ).toBe(404);
  });
});

describe("PUT /api/files/movies/views/{movieId}", () => {
  it("counts one view per viewing: a second call in the same viewing does not count", async () => {
    const movie = await seedMovie(world, provider.account.id);
    const first = await call(world, `/api/files/movies/views/${movie.id}`, { method: "PUT", token: viewer.token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, counted: true, views: 1 });
    const again = await call(world, `/api/files/movies/views/${movie.id}`, { method: "PUT", cookie: viewer.cookie });
    expect(again.body).toEqual({ success: true, counted: false, views: 1 });
    const someoneElse = await call(world, `/api/files/movies/views/${movie.id}`, {
      method: "PUT",
      token: otherViewer.token,
    });
    expect(someoneElse.body).toEqual({ success: true, counted: true, views: 2 });
    expect(movieRow(world, movie.id)?.views).toBe(2);
  });

  it("refuses no credentials, a provider, an unknown or unpublished title, and a cross-site cookie", async () => {
    const movie = await seedMovie(world, provider.account.id);
    await expectGuarded("PUT", `/api/files/movies/views/${movie.id}`, [provider]);
    const unpublished = await seedMovie(world, provider.account.id, { approved: false });
    expect(
      (await call(world, `/api/files/movies/views/${unpublished.id}`, { method: "PUT", token: viewer.token })).status,
    ).toBe(404);
    expect(
      (await call(world, "/api/files/movies/views/nosuchmovie0001", { method: "PUT", token: viewer.token })).status,
    ).toBe(404);
    expect(
      (
        await call(world, `/api/files/movies/views/${movie.id}`, {
          method: "PUT",
          cookie: viewer.cookie,
          origin: "https://evil.example",
        })
      ).status,
    ).toBe(403);
    expect(movieRow(world, movie.id)?.views).toBe(0);
    expect(movieRow(world, unpublished.id)?.views).toBe(0);
  });
});

describe("POST /api/files/watched", () => {
  const historyOf = (accountId: string, movieId: string) =>
    world.db
      .select({ value: count() })
      .from(watchEvents)
      .where(and(eq(watchEvents.accountId, accountId), eq(watchEvents.movieId, movieId)))
      .get()!.value;

  it("records the title in the caller's history (userId may be sent; it must be the caller)", async () => {
    const movie = await seedMovie(world, provider.account.id);
    const result = await call(world, "/api/files/watched", {
      json: { userId: viewer.account.id, movieId: movie.id },
      token: viewer.token,
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    expect(historyOf(viewer.account.id, movie.id)).toBe(1);
    const byCookie = await call(world, "/api/files/watched", { form: { movieId: movie.id }, cookie: viewer.cookie });
    expect(byCookie.status).toBe(200);
    // Same viewing: still one history entry; "watched" alone does not count a view, the views call does (once).
    expect(historyOf(viewer.account.id, movie.id)).toBe(1);
    expect(movieRow(world, movie.id)?.views).toBe(0);
    await call(world, `/api/files/movies/views/${movie.id}`, { method: "PUT", token: viewer.token });
    expect(movieRow(world, movie.id)?.views).toBe(1);
  });

  it("refuses no credentials, a provider, someone else's userId, a missing or unknown movie", async () => {
    const movie = await seedMovie(world, provider.account.id);
    await expectGuarded("POST", "/api/files/watched", [provider], { movieId: movie.id });
    const forSomeoneElse = await call(world, "/api/files/watched", {
      json: { userId: otherViewer.account.id, movieId: movie.id },
      token: viewer.token,
    });
    expect(forSomeoneElse.status).toBe(403);
    const missing = await call(world, "/api/files/watched", {
      json: { userId: viewer.account.id },
      token: viewer.token,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual({ movieId: "movieId is required" });
    expect(
      (await call(world, "/api/files/watched", { json: { movieId: "nosuchmovie0001" }, token: viewer.token })).status,
    ).toBe(404);
    expect(historyOf(otherViewer.account.id, movie.id)).toBe(0);
    expect(historyOf(viewer.account.id, movie.id)).toBe(0);
  });
});

describe("GET /api/files/thumbnail/{thumbnail}", () => {
  it("serves a poster to anyone and answers 404 JSON for an unknown name", async () => {
    const movie = await seedMovie(world, provider.account.id, { withFiles: true });
    const poster = await fetch(`${world.url}/api/files/thumbnail/${movie.id}-card.jpg`);
    expect(poster.status).toBe(200);
    expect((await poster.arrayBuffer()).byteLength).toBeGreaterThan(100);
    const unknown = await call(world, "/api/files/thumbnail/nothing-here.jpg");
    expect(unknown.status).toBe(404);
    expect(isErrorEnvelope(unknown)).toBe(true);
  });
});

describe("GET /api/files/{filename} (byte ranges by cookie or by token)", () => {
  let movie: { id: string };
  let size: number;
  beforeAll(async () => {
    movie = await seedMovie(world, provider.account.id, { withFiles: true });
    size = movieRow(world, movie.id)!.sizeBytes;
  });

  it("plays after /api/user/login with only the cookie: 200, 206 for a range, 416 past the end, HEAD", async () => {
    const account = seedAccount(world, "viewer");
    const { cookie } = await login(world, account);
    const full = await fetch(`${world.url}/api/files/${movie.id}.mp4`, { headers: { Cookie: cookie } });
    expect(full.status).toBe(200);
    expect(full.headers.get("Content-Type")).toBe("video/mp4");
    expect((await full.arrayBuffer()).byteLength).toBe(size);
    const range = await fetch(`${world.url}/api/files/${movie.id}.mp4`, {
      headers: { Cookie: cookie, Range: "bytes=0-99" },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get("Content-Range")).toBe(`bytes 0-99/${size}`);
    expect((await range.arrayBuffer()).byteLength).toBe(100);
    const past = await fetch(`${world.url}/api/files/${movie.id}.mp4`, {
      headers: { Cookie: cookie, Range: `bytes=${size + 10}-` },
    });
    expect(past.status).toBe(416);
    expect(past.headers.get("Content-Range")).toBe(`bytes */${size}`);
    await past.arrayBuffer();
    const head = await fetch(`${world.url}/api/files/${movie.id}.mp4`, { method: "HEAD", headers: { Cookie: cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(String(size));
  });

  it("plays with only the Bearer token", async () => {
    const account = seedAccount(world, "viewer");
    const { token } = await login(world, account);
    const range = await fetch(`${world.url}/api/files/${movie.id}.mp4`, {
      headers: { Authorization: `Bearer ${token}`, Range: "bytes=10-" },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get("Content-Range")).toBe(`bytes 10-${size - 1}/${size}`);
    expect((await range.arrayBuffer()).byteLength).toBe(size - 10);
    const past = await fetch(`${world.url}/api/files/${movie.id}.mp4`, {
      headers: { Authorization: `Bearer ${token}`, Range: `bytes=${size}-${size + 5}` },
    });
    expect(past.status).toBe(416);
    await past.arrayBuffer();
    const head = await fetch(`${world.url}/api/files/${movie.id}.mp4`, {
      method: "HEAD",
      headers: { Authorization: `Bearer ${token}`, Range: "bytes=0-0" },
    });
    expect(head.status).toBe(206);
  });

  it("applies the pass and screens rules to token callers: Premium needs a pass, each /api login is one device", async () => {
    const premium = await seedMovie(world, provider.account.id, { withFiles: true, access: "premium" });
    const account = seedAccount(world, "viewer");
    const first = await login(world, account);
    const refused = await fetch(`${world.url}/api/files/${premium.id}.mp4`, {
      headers: { Authorization: `Bearer ${first.token}`, Range: "bytes=0-9" },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, reason: "pass_required" });

    const basic =
      world.db.select().from(plans).where(eq(plans.code, "BASIC")).get() ??
      world.db
        .insert(plans)
        .values({ id: uniqueId("pl"), code: "BASIC", name: "Basic", premium: true, screens: 1 })
        .returning()
        .get();
    world.db.transaction((tx) => grantPass(tx, { accountId: account.id, planId: basic.id, days: 7, source: "admin" }));
    const allowed = await fetch(`${world.url}/api/files/${premium.id}.mp4`, {
      headers: { Authorization: `Bearer ${first.token}`, Range: "bytes=0-9" },
    });
    expect(allowed.status).toBe(206);
    await allowed.arrayBuffer();

    // A second sign-in is a second device: one screen on BASIC, so it waits while the first plays.
    const second = await login(world, account);
    const busy = await fetch(`${world.url}/api/files/${premium.id}.mp4`, {
      headers: { Authorization: `Bearer ${second.token}`, Range: "bytes=0-9" },
    });
    expect(busy.status).toBe(403);
    expect(await busy.json()).toMatchObject({ success: false, reason: "screens", screens: 1 });
    // The first device keeps playing.
    const again = await fetch(`${world.url}/api/files/${premium.id}.mp4`, {
      headers: { Authorization: `Bearer ${first.token}`, Range: "bytes=10-19" },
    });
    expect(again.status).toBe(206);
    await again.arrayBuffer();
  });

  it("refuses no credentials, a bad token, another provider's title, and an unpublished title", async () => {
    const anonymous = await fetch(`${world.url}/api/files/${movie.id}.mp4`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ success: false });
    expect(
      (await fetch(`${world.url}/api/files/${movie.id}.mp4`, { headers: { Authorization: "Bearer nope" } })).status,
    ).toBe(401);
    expect(
      (
        await fetch(`${world.url}/api/files/${movie.id}.mp4`, {
          headers: { Authorization: `Bearer ${otherProvider.token}` },
        })
      ).status,
    ).toBe(403);
    const unpublished = await seedMovie(world, provider.account.id, { withFiles: true, approved: false });
    expect(
      (
        await fetch(`${world.url}/api/files/${unpublished.id}.mp4`, {
          headers: { Authorization: `Bearer ${viewer.token}` },
        })
      ).status,
    ).toBe(404);
    // Its owner may check it.
    const owner = await fetch(`${world.url}/api/files/${unpublished.id}.mp4`, {
      headers: { Authorization: `Bearer ${provider.token}`, Range: "bytes=0-9" },
    });
    expect(owner.status).toBe(206);
    await owner.arrayBuffer();
  });
});

describe("the router itself", () => {
  it("answers unknown /api paths and wrong methods with JSON, never the HTML Not Found page", async () => {
    for (const pathname of [
      "/api",
      "/api/",
      "/api/nothing",
      "/api/user",
      "/api/movies/all/a/b",
      "/api/files",
      "/api/cp/block/..%2F..%2Fetc",
    ]) {
      const result = await call(world, pathname, { token: admin.token });
      expect(result.status, pathname).toBe(404);
      expect(result.headers.get("Content-Type")).toMatch(/application\/json/);
      expect(isErrorEnvelope(result)).toBe(true);
    }
    const wrongMethod = await call(world, "/api/movies/all", { method: "DELETE", token: admin.token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("Allow")).toBe("GET");
    expect(isErrorEnvelope(wrongMethod)).toBe(true);
    const filesWrite = await call(world, "/api/files/something.mp4", { method: "POST", json: {}, token: viewer.token });
    expect(filesWrite.status).toBe(404);
  });

  it("answers JSON for paths with an encoded line break, which no Remix route pattern matches", async () => {
    // The routes' patterns stop at a line terminator, so these never reach the /api route module.
    for (const [method, pathname] of [
      ["DELETE", "/api/movies/delete/%E2%80%A8"],
      ["DELETE", "/api/movies/delete/a%0Ab"],
      ["GET", "/api/movies/all/%0D"],
      ["GET", "/api/files/x%E2%80%A9.mp4"],
      ["PUT", "/api/cp/block/%0A"],
    ]) {
      const result = await call(world, pathname, { method, token: admin.token });
      expect(result.status, pathname).toBe(404);
      expect(result.headers.get("Content-Type"), pathname).toMatch(/application\/json/);
      expect(isErrorEnvelope(result), pathname).toBe(true);
    }
  });

  it("refuses a body over the limit with 413 JSON", async () => {
    const result = await call(world, "/api/user/login", {
      json: { email: "big@api.test", password: "x".repeat(100_000) },
    });
    expect(result.status).toBe(413);
    expect(isErrorEnvelope(result)).toBe(true);
  });

  it("describes every path in an OpenAPI 3.1 document generated from the same schemas", async () => {
    const result = await call(world, "/api/openapi.json");
    expect(result.status).toBe(200);
    expect(result.body.openapi).toBe("3.1.0");
    const expected = [
      ["post", "/api/user/login"],
      ["post", "/api/user/register"],
      ["post", "/api/cp/login"],
      ["post", "/api/cp/register"],
      ["get", "/api/cp/allusers"],
      ["get", "/api/cp/user/allusers"],
      ["put", "/api/cp/block/{id}"],
      ["put", "/api/cp/unblock/{id}"],
      ["put", "/api/cp/user/block/{id}"],
      ["put", "/api/cp/user/unblock/{id}"],
      ["get", "/api/user/profile/{userId}"],
      ["put", "/api/user/profile/edit/{userId}"],
      ["put", "/api/user/profile/password/{userId}"],
      ["put", "/api/cp/profile/edit/{providerId}"],
      ["get", "/api/movies/all"],
      ["get", "/api/movies/all/{providerId}"],
      ["post", "/api/upload/movies"],
      ["delete", "/api/movies/delete/{movieId}"],
      ["put", "/api/files/movies/views/{movieId}"],
      ["post", "/api/files/watched"],
      ["get", "/api/files/thumbnail/{thumbnail}"],
      ["get", "/api/files/{filename}"],
    ];
    for (const [method, pathname] of expected)
      expect(result.body.paths[pathname]?.[method], `${method} ${pathname}`).toBeDefined();
    const register = result.body.paths["/api/user/register"].post.requestBody.content["application/json"].schema;
    expect(register.required).toEqual(["name", "phoneNumber", "email", "password", "password2"]);
    expect(register.properties.password.minLength).toBe(8);
    expect(register.properties.email.format).toBe("email");
  });
});

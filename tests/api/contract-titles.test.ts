import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { movies as moviesTable, plans, watchEvents } from "~/db/schema";
import { grantPass } from "~/services/passes.server";
import { createProfile, setPin } from "~/services/profiles.server";
import { call, isErrorEnvelope, login, movieRow, rowCount, seedAccount, seedMovie, uniqueId } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";
import { expectGuarded, startContractWorld } from "./contract-world";

/** The /api table's title and file rows: lists, upload refusals, deletes, views, watched, thumbnails, byte ranges, and the router itself. */
let world: ApiWorld;
let admin: Credentials;
let viewer: Credentials;
let otherViewer: Credentials;
let provider: Credentials;
let otherProvider: Credentials;

beforeAll(async () => {
  ({ world, admin, viewer, otherViewer, provider, otherProvider } = await startContractWorld("contract-titles"));
});
afterAll(async () => {
  await world?.stop();
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
    await expectGuarded(world, "GET", `/api/movies/all/${provider.account.id}`, [viewer]);
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
    await expectGuarded(world, "DELETE", `/api/movies/delete/${movie.id}`, [viewer]);
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
    await expectGuarded(world, "PUT", `/api/files/movies/views/${movie.id}`, [provider]);
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
    await expectGuarded(world, "POST", "/api/files/watched", [provider], { movieId: movie.id });
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
      ["post", "/api/user/phone/code"],
      ["post", "/api/user/phone/resend"],
      ["post", "/api/user/phone/verify"],
      ["post", "/api/user/phone/add"],
      ["put", "/api/user/sms-notices"],
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
    // The email may be left out: the number and a code by SMS are a way in.
    expect(register.required).toEqual(["name", "phoneNumber", "password", "password2"]);
    expect(register.properties.password.minLength).toBe(8);
    expect(register.properties.email.format).toBe("email");
  });
});

describe("profiles for apps: a token that watches as one profile", () => {
  it("a children's profile's token lists and streams only G and PG titles; leaving it asks the PIN; others are refused", async () => {
    const [childSafe, adult] = await Promise.all([
      seedMovie(world, provider.account.id, { withFiles: true }),
      seedMovie(world, provider.account.id, { withFiles: true }),
    ]);
    world.db.update(moviesTable).set({ ageRating: "G" }).where(eq(moviesTable.id, childSafe.id)).run();
    world.db.update(moviesTable).set({ ageRating: "18" }).where(eq(moviesTable.id, adult.id)).run();
    await setPin(world.db, viewer.account.id, "2580");
    const made = createProfile(world.db, viewer.account.id, {
      name: "Yara",
      avatar: "fish",
      language: null,
      dataSaver: null,
      children: true,
      locked: false,
    });
    if (!made.ok) throw new Error(made.reason);

    await expectGuarded(world, "GET", "/api/user/profiles", [provider]);
    await expectGuarded(world, "POST", `/api/user/profiles/${made.profile.id}/token`, [provider], {});
    const listed = await call(world, "/api/user/profiles", { token: viewer.token });
    expect(listed.body).toMatchObject({
      current: viewer.account.id,
      profiles: [{ id: viewer.account.id }, { id: made.profile.id, children: true }],
    });
    // Another account's profile is not this token's to take.
    expect(
      (await call(world, `/api/user/profiles/${made.profile.id}/token`, { json: {}, token: otherViewer.token })).status,
    ).toBe(404);

    const entered = await call(world, `/api/user/profiles/${made.profile.id}/token`, { json: {}, token: viewer.token });
    expect(entered.status).toBe(200);
    const childToken: string = entered.body.token;
    const ids = async (token: string) =>
      ((await call(world, "/api/movies/all", { token })).body as { _id: string }[]).map((row) => row._id);
    expect(await ids(childToken)).toContain(childSafe.id);
    expect(await ids(childToken)).not.toContain(adult.id);
    expect(await ids(viewer.token)).toEqual(expect.arrayContaining([childSafe.id, adult.id]));
    const stream = await call(world, `/api/files/${adult.id}.mp4`, { token: childToken });
    expect(stream.status).toBe(403);
    expect(stream.body.reason).toBe("children");
    expect(
      (await call(world, `/api/files/${childSafe.id}.mp4`, { token: childToken, headers: { Range: "bytes=0-9" } }))
        .status,
    ).toBe(206);

    // Leaving the children's profile: the PIN, counted.
    const back = `/api/user/profiles/${viewer.account.id}/token`;
    const wrong = await call(world, back, { json: { pin: "0000" }, token: childToken });
    expect([wrong.status, wrong.body.triesLeft]).toEqual([403, 4]);
    const right = await call(world, back, { json: { pin: "2580" }, token: childToken });
    expect(right.status).toBe(200);
    expect(await ids(right.body.token)).toContain(adult.id);
  });
});

import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { movies, resumableUploads } from "~/db/schema";
import { movieVideoPath, moviePosterPath, storagePaths } from "~/media/storage.server";
import { sweepExpiredUploads } from "~/services/resumable-uploads.server";
import { login, movieRow, seedAccount, sharedVideo, startApiWorld, waitUntilReady } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * Resumable uploads by the tus protocol at /provider/uploads/tus, spoken
 * byte for byte as any tus client would: create, HEAD, PATCH in pieces,
 * terminate; who may do it; the first bytes checked at once; one title per
 * upload however often its last request comes; a restart in the middle; the
 * sweep of abandoned uploads.
 */
const TUS = "/provider/uploads/tus";
let world: ApiWorld;
let provider: Credentials;
let otherProvider: Credentials;
let viewer: Credentials;
let video: Buffer;

beforeAll(async () => {
  world = await startApiWorld("resumable");
  [provider, otherProvider, viewer] = await Promise.all([
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "viewer")),
  ]);
  video = fs.readFileSync(await sharedVideo(world));
});
afterAll(async () => {
  delete process.env.DISK_RESERVE_MB;
  await world?.stop();
});

type As = { token?: string; cookie?: string; origin?: string };

function tus(
  pathname: string,
  init: { method: string; as?: As; headers?: Record<string, string>; body?: Uint8Array | FormData },
): Promise<Response> {
  const headers: Record<string, string> = { "Tus-Resumable": "1.0.0", ...init.headers };
  if (init.as?.token) headers.Authorization = `Bearer ${init.as.token}`;
  if (init.as?.cookie) headers.Cookie = init.as.cookie;
  if (init.as?.origin) headers.Origin = init.as.origin;
  return fetch(`${world.url}${pathname}`, { method: init.method, headers, body: init.body as BodyInit | undefined });
}

const b64 = (value: string) => Buffer.from(value).toString("base64");

function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${b64(value)}`)
    .join(",");
}

async function create(as: As, size: number, fields: Record<string, string> = {}): Promise<Response> {
  return tus(TUS, {
    method: "POST",
    as,
    headers: {
      "Upload-Length": String(size),
      "Upload-Metadata": metadata({
        name: "Kwana Casa'in",
        Description: "A drama from Kaduna",
        Category: world.categoryId,
        cast: "Ali Nuhu",
        filename: "kwana.mp4",
        ...fields,
      }),
    },
  });
}

async function createOk(as: As, size = video.length, fields: Record<string, string> = {}): Promise<string> {
  const response = await create(as, size, fields);
  expect(response.status, await response.clone().text()).toBe(201);
  const location = response.headers.get("Location")!;
  expect(location).toMatch(new RegExp(`^${TUS}/[a-z0-9]+$`));
  return location;
}

function patch(
  location: string,
  offset: number,
  bytes: Uint8Array,
  as: As = { token: provider.token },
): Promise<Response> {
  return tus(location, {
    method: "PATCH",
    as,
    headers: { "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
    body: bytes,
  });
}

async function offsetOf(location: string, as: As = { token: provider.token }): Promise<number | null> {
  const response = await tus(location, { method: "HEAD", as });
  return response.status === 200 ? Number(response.headers.get("Upload-Offset")) : null;
}

/** A PATCH of the whole film from 0 with only `sent` bytes written: the rest when the test says, or never. */
function openPatch(location: string, sent: number) {
  const { port } = new URL(world.url);
  const request = http.request({
    host: "127.0.0.1",
    port,
    path: location,
    method: "PATCH",
    // The whole film's length announced; `sent` bytes of it written now.
    headers: {
      "Content-Length": String(video.length),
      "Content-Type": "application/offset+octet-stream",
      "Upload-Offset": "0",
      "Tus-Resumable": "1.0.0",
      Authorization: `Bearer ${provider.token}`,
    },
  });
  const answer = new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on("response", (response) => {
      response.resume();
      resolve(response);
    });
    request.on("error", reject);
  });
  request.write(video.subarray(0, sent));
  return { answer, finish: (rest: Uint8Array) => request.end(rest) };
}

const idOf = (location: string) => location.split("/").pop()!;
const uploadRow = (location: string) =>
  world.db
    .select()
    .from(resumableUploads)
    .where(eq(resumableUploads.id, idOf(location)))
    .get();
const uploadFilesOf = (location: string) =>
  fs.readdirSync(storagePaths(world.root).uploads).filter((name) => name.startsWith(idOf(location)));
const titlesOf = (account: Credentials, name: string) =>
  world.db
    .select()
    .from(movies)
    .where(and(eq(movies.providerId, account.account.id), eq(movies.name, name)))
    .all();
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("resumable uploads (tus 1.0) at /provider/uploads/tus", () => {
  it("announces the protocol and its extensions to anyone who asks", async () => {
    const response = await fetch(`${world.url}${TUS}`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("Tus-Version")).toContain("1.0.0");
    expect(response.headers.get("Tus-Extension")).toEqual(expect.stringContaining("creation"));
    expect(response.headers.get("Tus-Extension")).toEqual(expect.stringContaining("termination"));
    expect(response.headers.get("Tus-Extension")).toEqual(expect.stringContaining("expiration"));
    expect(Number(response.headers.get("Tus-Max-Size"))).toBe(4096 * 1024 * 1024);
  });

  it("says an upload created empty expires UPLOAD_START_MINUTES on (50 by default), as the sweep removes it", async () => {
    const response = await create({ token: provider.token }, video.length, { name: "Nothing sent yet" });
    expect(response.status).toBe(201);
    const expires = Date.parse(response.headers.get("Upload-Expires")!);
    expect(Math.abs(expires - (Date.now() + 50 * 60 * 1000))).toBeLessThan(60_000);
    expect(
      (await tus(response.headers.get("Location")!, { method: "DELETE", as: { token: provider.token } })).status,
    ).toBe(204);
  });

  it("takes a film in pieces, says how far it got, and makes one title at the last byte, however often that request comes", async () => {
    const name = "Pieces";
    const location = await createOk({ token: provider.token }, video.length, { name });
    expect(await offsetOf(location)).toBe(0);
    const head = await tus(location, { method: "HEAD", as: { token: provider.token } });
    expect(head.headers.get("Upload-Length")).toBe(String(video.length));
    expect(head.headers.get("Cache-Control")).toBe("no-store");

    const first = await patch(location, 0, video.subarray(0, 1000));
    expect(first.status).toBe(204);
    expect(first.headers.get("Upload-Offset")).toBe("1000");
    // Expiry counts from the last byte received (UPLOAD_EXPIRY_HOURS, 24 by default).
    const expires = Date.parse(first.headers.get("Upload-Expires")!);
    expect(Math.abs(expires - (Date.now() + 24 * 60 * 60 * 1000))).toBeLessThan(60_000);
    // Bytes from the wrong place are refused without touching what is stored.
    expect((await patch(location, 500, video.subarray(500, 1500))).status).toBe(409);
    expect(await offsetOf(location)).toBe(1000);
    expect(titlesOf(provider, name)).toHaveLength(0);

    const last = await patch(location, 1000, video.subarray(1000));
    expect(last.status).toBe(204);
    expect(last.headers.get("Upload-Offset")).toBe(String(video.length));
    const movieId = last.headers.get("Kallo-Movie-Id")!;
    expect(movieId).toMatch(/^[a-z0-9]+$/);
    expect(movieRow(world, movieId)).toMatchObject({
      name,
      description: "A drama from Kaduna",
      cast: "Ali Nuhu",
      providerId: provider.account.id,
      sizeBytes: video.length,
    });
    expect(uploadRow(location)?.completedAt).toBeInstanceOf(Date);

    // The last request again (its answer was lost, say): no second title, and the upload says it is complete.
    const again = await patch(location, video.length, new Uint8Array(0));
    expect(again.status).toBe(204);
    expect(again.headers.get("Kallo-Movie-Id")).toBe(movieId);
    expect((await patch(location, 1000, video.subarray(1000))).status).toBe(409);
    expect(await offsetOf(location)).toBe(video.length);
    expect(titlesOf(provider, name)).toHaveLength(1);
    expect(uploadFilesOf(location)).toEqual([]);

    await waitUntilReady(world, movieId);
    // Byte for byte the film that was sent (it was already fit to play, so it is kept as it came).
    expect(sha256(fs.readFileSync(movieVideoPath(movieId, world.root)))).toBe(sha256(video));
  });

  it("takes a poster before the last byte and makes the title's posters from it, and another one after", async () => {
    const location = await createOk({ token: provider.token }, video.length, { name: "With poster" });
    const poster = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#c02020" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append("poster", new Blob([new Uint8Array(poster)]), "poster.jpg");
    const sent = await tus(`${location}/poster`, { method: "POST", as: { token: provider.token }, body: form });
    expect(sent.status).toBe(201);
    const last = await patch(location, 0, video);
    const movieId = last.headers.get("Kallo-Movie-Id")!;
    await waitUntilReady(world, movieId);
    const { dominant } = await sharp(moviePosterPath(movieId, "card", "jpg", world.root)).stats();
    expect(dominant.r).toBeGreaterThan(150);
    expect(dominant.g).toBeLessThan(80);

    const later = new FormData();
    later.append(
      "poster",
      new Blob([
        new Uint8Array(
          await sharp({ create: { width: 640, height: 360, channels: 3, background: "#2040d0" } })
            .png()
            .toBuffer(),
        ),
      ]),
      "later.png",
    );
    expect(
      (await tus(`${location}/poster`, { method: "POST", as: { token: provider.token }, body: later })).status,
    ).toBe(201);
    // Read as bytes: libvips would answer a second read of the same path from its cache.
    const after = (await sharp(fs.readFileSync(moviePosterPath(movieId, "card", "jpg", world.root))).stats()).dominant;
    expect(after.b).toBeGreaterThan(150);
    expect(after.r).toBeLessThan(80);
    // Not another provider's to change.
    expect(
      (await tus(`${location}/poster`, { method: "POST", as: { token: otherProvider.token }, body: later })).status,
    ).toBe(404);
  });

  it("refuses anonymous callers, viewers, other providers and other sites on every verb, and leaves the upload as it was", async () => {
    const location = await createOk({ token: provider.token });
    expect((await patch(location, 0, video.subarray(0, 2000))).status).toBe(204);
    const poster = new FormData();
    poster.append(
      "poster",
      new Blob([
        new Uint8Array(
          await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
            .png()
            .toBuffer(),
        ),
      ]),
      "p.png",
    );

    const verbs: Array<[string, (as: As) => Promise<Response>]> = [
      ["POST (create)", (as) => create(as, video.length)],
      ["HEAD", (as) => tus(location, { method: "HEAD", as })],
      ["PATCH", (as) => patch(location, 2000, video.subarray(2000, 3000), as)],
      ["DELETE", (as) => tus(location, { method: "DELETE", as })],
      ["POST poster", (as) => tus(`${location}/poster`, { method: "POST", as, body: poster })],
    ];
    const callers: Array<[string, As, number[]]> = [
      ["anonymous", {}, [401]],
      ["viewer", { token: viewer.token }, [403]],
      ["another provider", { token: otherProvider.token }, [404]],
      ["the owner's cookie from another site", { cookie: provider.cookie, origin: "http://evil.example" }, [403]],
    ];
    for (const [verb, send] of verbs) {
      for (const [who, as, statuses] of callers) {
        if (who === "another provider" && verb === "POST (create)") continue; // any provider may create their own
        if (who.includes("another site") && verb === "HEAD") continue; // reading is not a change
        const response = await send(as);
        expect(statuses, `${verb} by ${who}: ${response.status}`).toContain(response.status);
      }
    }
    // The owner's own page (same origin) may, with the cookie.
    expect(await offsetOf(location, { cookie: provider.cookie })).toBe(2000);
    expect(await offsetOf(location)).toBe(2000);
    expect(uploadRow(location)).toBeDefined();
    expect(
      (await patch(location, 2000, video.subarray(2000, 3000), { cookie: provider.cookie, origin: world.url })).status,
    ).toBe(204);
  });

  it("refuses a renamed non-video at its first bytes and removes the upload", async () => {
    const location = await createOk({ token: provider.token }, 50_000, { filename: "not-a-film.mp4", name: "Renamed" });
    const refused = await patch(
      location,
      0,
      Buffer.concat([Buffer.from("\x7fELF\x02\x01\x01\x00 a renamed program"), Buffer.alloc(4000)]),
    );
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ key: "studio:errors.contentMismatch" });
    expect(uploadRow(location)).toBeUndefined();
    expect(uploadFilesOf(location)).toEqual([]);
    expect(await offsetOf(location)).toBeNull();
    expect(titlesOf(provider, "Renamed")).toHaveLength(0);
  });

  it("refuses bad details, a film over MAX_UPLOAD_MB, and the wrong kind of file before a byte is sent", async () => {
    const noName = await create({ token: provider.token }, 1000, { name: "" });
    expect(noName.status).toBe(400);
    expect((await noName.json()).fieldErrors).toHaveProperty("name");
    const badCategory = await create({ token: provider.token }, 1000, { Category: "nosuchcategory" });
    expect((await badCategory.json()).fieldErrors).toHaveProperty("Category");
    const program = await create({ token: provider.token }, 1000, { filename: "setup.exe" });
    expect(program.status).toBe(400);
    expect((await program.json()).fieldErrors.movie).toEqual(["studio:errors.wrongExtension"]);
    const huge = await create({ token: provider.token }, 5 * 1024 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toMatch(/larger than the upload limit/);
    // A size both given and deferred is no size.
    const both = await tus(TUS, {
      method: "POST",
      as: { token: provider.token },
      headers: {
        "Upload-Defer-Length": "1",
        "Upload-Length": "1000",
        "Upload-Metadata": metadata({ name: "x", Category: world.categoryId, filename: "x.mp4" }),
      },
    });
    expect(both.status).toBe(400);
  });

  it("gives an upload up on DELETE: its row and bytes are gone", async () => {
    const location = await createOk({ token: provider.token });
    await patch(location, 0, video.subarray(0, 3000));
    expect(uploadFilesOf(location).length).toBeGreaterThan(0);
    expect((await tus(location, { method: "DELETE", as: { token: provider.token } })).status).toBe(204);
    expect(uploadRow(location)).toBeUndefined();
    expect(uploadFilesOf(location)).toEqual([]);
    expect(await offsetOf(location)).toBeNull();
  });

  it("sweeps uploads that received nothing for UPLOAD_EXPIRY_HOURS, and only those", async () => {
    const stale = await createOk({ token: provider.token });
    await patch(stale, 0, video.subarray(0, 3000));
    const fresh = await createOk({ token: provider.token });
    const day = 24 * 60 * 60 * 1000;
    // A day later for the stale one only: its file last changed a day ago.
    const past = new Date(Date.now() - day - 60_000);
    world.db
      .update(resumableUploads)
      .set({ createdAt: past })
      .where(eq(resumableUploads.id, idOf(stale)))
      .run();
    fs.utimesSync(path.join(storagePaths(world.root).uploads, idOf(stale)), past, past);
    const removed = sweepExpiredUploads(world.db, { root: world.root, expiryMs: day });
    expect(removed).toBe(1);
    expect(uploadRow(stale)).toBeUndefined();
    expect(uploadFilesOf(stale)).toEqual([]);
    expect(await offsetOf(stale)).toBeNull();
    expect(uploadRow(fresh)).toBeDefined();
    expect(await offsetOf(fresh)).toBe(0);
  });

  it("resumes after the server restarts, from the bytes it already had", async () => {
    const location = await createOk({ token: provider.token }, video.length, { name: "After restart" });
    const half = Math.floor(video.length / 2);
    await patch(location, 0, video.subarray(0, half));
    await world.restart();
    expect(await offsetOf(location)).toBe(half);
    const last = await patch(location, half, video.subarray(half));
    expect(last.status).toBe(204);
    const movieId = last.headers.get("Kallo-Movie-Id")!;
    await waitUntilReady(world, movieId);
    expect(sha256(fs.readFileSync(movieVideoPath(movieId, world.root)))).toBe(sha256(video));
  });

  it("takes an upload whose size comes later (creation-defer-length), and refuses a PATCH that is no upload's bytes (415)", async () => {
    const created = await tus(TUS, {
      method: "POST",
      as: { token: provider.token },
      headers: {
        "Upload-Defer-Length": "1",
        "Upload-Metadata": metadata({ name: "Size later", Category: world.categoryId, filename: "later.mp4" }),
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const location = created.headers.get("Location")!;
    const half = Math.floor(video.length / 2);
    expect((await patch(location, 0, video.subarray(0, half))).status).toBe(204);
    const wrongType = await tus(location, {
      method: "PATCH",
      as: { token: provider.token },
      headers: { "Upload-Offset": String(half), "Content-Type": "text/plain" },
      body: video.subarray(half),
    });
    expect(wrongType.status).toBe(415);
    expect(await offsetOf(location)).toBe(half);
    const last = await tus(location, {
      method: "PATCH",
      as: { token: provider.token },
      headers: {
        "Upload-Offset": String(half),
        "Upload-Length": String(video.length),
        "Content-Type": "application/offset+octet-stream",
      },
      body: video.subarray(half),
    });
    expect(last.status, await last.clone().text()).toBe(204);
    const movieId = last.headers.get("Kallo-Movie-Id")!;
    await waitUntilReady(world, movieId);
    expect(sha256(fs.readFileSync(movieVideoPath(movieId, world.root)))).toBe(sha256(video));
  });

  it("refuses, before a byte is sent, a film the disk has no room for beside its reserve (DISK_RESERVE_MB), on both upload paths", async () => {
    process.env.DISK_RESERVE_MB = String(1024 * 1024 * 1024);
    await world.restart();
    const refused = await create({ token: provider.token }, 1000);
    expect(refused.status).toBe(507);
    expect((await refused.json()).error).toMatch(/no room/);
    // The container's health check says so too (still 200: a restart would not help).
    const health = await fetch(`${world.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "degraded" });
    const form = new FormData();
    form.append("name", "No room");
    form.append("Category", world.categoryId);
    form.append("movie", new Blob([new Uint8Array(video)]), "no-room.mp4");
    const plain = await fetch(`${world.url}/provider/uploads`, {
      method: "POST",
      body: form,
      headers: { Cookie: provider.cookie, Origin: world.url, Accept: "application/json" },
    });
    expect(plain.status).toBe(507);
    expect((await plain.json()).formError).toBe("studio:errors.noSpace");
    delete process.env.DISK_RESERVE_MB;
    await world.restart();
  });

  it("at a stop: a PATCH that ends within the grace makes its title, one still sending at the deadline is answered with what is stored, and a HEAD finishes an upload whose bytes all landed without a title", async () => {
    // Long enough for the first one's rest, its probe and its title on a loaded box.
    process.env.SHUTDOWN_GRACE_SECONDS = "6";
    await world.restart();
    const half = Math.floor(video.length / 2);
    const ending = await createOk({ token: provider.token }, video.length, { name: "Ends in the grace" });
    const cut = await createOk({ token: provider.token }, video.length, { name: "Cut by a stop" });
    const landed = await createOk({ token: provider.token }, video.length, { name: "Landed without a title" });
    expect((await patch(landed, 0, video.subarray(0, half))).status).toBe(204);
    // Two requests each half sent when the server is told to stop.
    const ending1 = openPatch(ending, half);
    const cut1 = openPatch(cut, half);
    const stored = (location: string) => fs.statSync(path.join(storagePaths(world.root).uploads, idOf(location))).size;
    await expect.poll(() => [stored(ending), stored(cut)], { timeout: 30_000 }).toEqual([half, half]);
    const stopping = world.server.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The first one's rest comes now: the film is read and its title made, as on any day (never refused as unreadable).
    ending1.finish(video.subarray(half));
    const [endingAnswer, cutAnswer] = await Promise.all([ending1.answer, cut1.answer]);
    expect(endingAnswer.statusCode).toBe(204);
    expect(Number(endingAnswer.headers["upload-offset"])).toBe(video.length);
    const endingId = String(endingAnswer.headers["kallo-movie-id"]);
    expect(world.db.select().from(movies).where(eq(movies.id, endingId)).get()?.name).toBe("Ends in the grace");
    // The other one, silent to the deadline: answered with what the server holds.
    expect(cutAnswer.statusCode).toBe(204);
    expect(Number(cutAnswer.headers["upload-offset"])).toBe(half);
    await stopping;
    // The third one's last bytes landed on disk and the process died before its title was made.
    fs.appendFileSync(path.join(storagePaths(world.root).uploads, idOf(landed)), video.subarray(half));
    delete process.env.SHUTDOWN_GRACE_SECONDS;
    await world.restart();
    expect(await offsetOf(cut)).toBe(half);
    expect((await patch(cut, half, video.subarray(half))).status).toBe(204);
    // Its client asks where it stands (as tus clients do when an answer never came): the title is made then.
    const asked = await tus(landed, { method: "HEAD", as: { token: provider.token } });
    expect(asked.status).toBe(200);
    expect(asked.headers.get("Upload-Offset")).toBe(String(video.length));
    const landedId = asked.headers.get("Kallo-Movie-Id")!;
    expect(titlesOf(provider, "Landed without a title").map((title) => title.id)).toEqual([landedId]);
    expect(uploadFilesOf(landed)).toEqual([]);
    await waitUntilReady(world, landedId);
    expect(sha256(fs.readFileSync(movieVideoPath(landedId, world.root)))).toBe(sha256(video));
    // Asked again, it is the same title.
    expect((await tus(landed, { method: "HEAD", as: { token: provider.token } })).headers.get("Kallo-Movie-Id")).toBe(
      landedId,
    );
  });
});

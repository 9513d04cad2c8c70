import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filmReplacements, resumableUploads } from "~/db/schema";
import {
  call,
  isErrorEnvelope,
  login,
  movieRow,
  seedAccount,
  seedMovie,
  sharedVideo,
  startApiWorld,
  until,
} from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * The /api paths that edit a title and replace its film (and the resumable
 * upload's `replaces`): what a caller gets back, and who is refused — no
 * credentials (401), the wrong role or owner (403), an unknown title (404),
 * bad input (400), a second replacement at once (409).
 */
let world: ApiWorld;
let admin: Credentials;
let viewer: Credentials;
let provider: Credentials;
let otherProvider: Credentials;
let video: Buffer;

beforeAll(async () => {
  world = await startApiWorld("title-edits");
  [admin, viewer, provider, otherProvider] = await Promise.all([
    login(world, seedAccount(world, "admin")),
    login(world, seedAccount(world, "viewer")),
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "provider")),
  ]);
  video = fs.readFileSync(await sharedVideo(world));
});
afterAll(async () => {
  await world?.stop();
});

const searchFinds = (word: string, movieId: string) =>
  world.db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM movies_fts WHERE movies_fts MATCH ${word} AND movie_id = ${movieId}`,
  ).n === 1;

function filmForm(bytes: Buffer, name = "better-cut.mp4", field = "movie"): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)]), name);
  return form;
}

describe("PUT /api/movies/edit/{movieId}", () => {
  it("lets the owner edit the details sent (the rest keep their values); search follows at once", async () => {
    const own = await seedMovie(world, provider.account.id, { name: "Kuskure" });
    const result = await call(world, `/api/movies/edit/${own.id}`, {
      method: "PUT",
      json: { name: "Gyararre Labari", cast: "Rahama Sadau" },
      token: provider.token,
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      success: true,
      message: "Changes saved",
      changed: ["name", "cast"],
      movie: {
        _id: own.id,
        MovieName: "Gyararre Labari",
        cast: "Rahama Sadau",
        description: `About ${own.id}`,
        approved: true,
      },
    });
    expect(movieRow(world, own.id)).toMatchObject({ name: "Gyararre Labari", approved: true });
    expect(searchFinds("gyararre", own.id)).toBe(true);
    expect(searchFinds("kuskure", own.id)).toBe(false);
  });

  it("lets an administrator edit any title, by URL-encoded form too", async () => {
    const theirs = await seedMovie(world, otherProvider.account.id);
    const result = await call(world, `/api/movies/edit/${theirs.id}`, {
      method: "PUT",
      form: { Description: "Sabon bayani" },
      cookie: admin.cookie,
    });
    expect(result.status).toBe(200);
    expect(movieRow(world, theirs.id)?.description).toBe("Sabon bayani");
  });

  it("takes a new poster as multipart and gives it new addresses", async () => {
    const own = await seedMovie(world, provider.account.id, { withFiles: true });
    const form = new FormData();
    form.append("name", "With a poster");
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#225588" } })
      .png()
      .toBuffer();
    form.append("poster", new Blob([new Uint8Array(png)]), "poster.png");
    const result = await call(world, `/api/movies/edit/${own.id}`, {
      method: "PUT",
      body: form,
      token: provider.token,
    });
    expect(result.status, result.text).toBe(200);
    expect(result.body.changed).toEqual(["name", "poster"]);
    expect(movieRow(world, own.id)?.posterVersion).toBe(1);
    const notAnImage = new FormData();
    notAnImage.append("poster", new Blob([Buffer.from("plain text, not a picture")]), "poster.jpg");
    const refused = await call(world, `/api/movies/edit/${own.id}`, {
      method: "PUT",
      body: notAnImage,
      token: provider.token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toHaveProperty("poster");
    expect(movieRow(world, own.id)?.posterVersion).toBe(1);
  });

  it("refuses bad input with field messages, and changes nothing", async () => {
    const own = await seedMovie(world, provider.account.id, { name: "Unchanged" });
    const empty = await call(world, `/api/movies/edit/${own.id}`, {
      method: "PUT",
      json: { name: "  " },
      token: provider.token,
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ success: false, message: { name: "Movie Title is required" } });
    const category = await call(world, `/api/movies/edit/${own.id}`, {
      method: "PUT",
      json: { Category: "nosuchcategory" },
      token: provider.token,
    });
    expect(category.status).toBe(400);
    expect(category.body.message).toHaveProperty("Category");
    expect(movieRow(world, own.id)?.name).toBe("Unchanged");
  });

  it("refuses no credentials, viewers, another provider, cross-site cookies and unknown titles", async () => {
    const own = await seedMovie(world, provider.account.id, { name: "Mine" });
    const path = `/api/movies/edit/${own.id}`;
    const json = { name: "Taken over" };
    expect((await call(world, path, { method: "PUT", json })).status).toBe(401);
    for (const wrong of [viewer, otherProvider]) {
      const refused = await call(world, path, { method: "PUT", json, token: wrong.token });
      expect(refused.status, wrong.account.role).toBe(403);
      expect(isErrorEnvelope(refused)).toBe(true);
    }
    expect(
      (await call(world, path, { method: "PUT", json, cookie: provider.cookie, origin: "https://evil.example" }))
        .status,
    ).toBe(403);
    expect(
      (await call(world, "/api/movies/edit/nosuchtitle001", { method: "PUT", json, token: admin.token })).status,
    ).toBe(404);
    expect(movieRow(world, own.id)?.name).toBe("Mine");
  });
});

describe("POST and GET /api/movies/replace/{movieId}", () => {
  it("queues a new film for the owner, says where it stands, and swaps it in once its ladder is made", async () => {
    const own = await seedMovie(world, provider.account.id, { withFiles: true });
    const started = await call(world, `/api/movies/replace/${own.id}`, {
      body: filmForm(video),
      token: provider.token,
    });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({ success: true, replacementId: expect.any(String) });
    // One at a time.
    const second = await call(world, `/api/movies/replace/${own.id}`, { body: filmForm(video), token: provider.token });
    expect(second.status).toBe(409);
    await until(
      () =>
        world.db.select().from(filmReplacements).where(eq(filmReplacements.movieId, own.id)).get()?.status === "done",
      120_000,
      "the replacement to be swapped in",
    );
    const done = await call(world, `/api/movies/replace/${own.id}`, { token: provider.token });
    expect(done.body.replacement).toMatchObject({ status: "done", file: "better-cut.mp4", failureReason: null });
    expect(movieRow(world, own.id)?.mediaVersion).toBe(1);
    // An administrator may read where it stands.
    expect((await call(world, `/api/movies/replace/${own.id}`, { token: admin.token })).status).toBe(200);
  }, 150_000);

  it("refuses a file that is not a film, or that ffprobe cannot read, with the reason", async () => {
    const own = await seedMovie(world, provider.account.id, { withFiles: true });
    const renamed = await call(world, `/api/movies/replace/${own.id}`, {
      body: filmForm(Buffer.from("not a video at all, only text")),
      token: provider.token,
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.message).toHaveProperty("movie");
    const unreadable = await call(world, `/api/movies/replace/${own.id}`, {
      body: filmForm(Buffer.concat([video.subarray(0, 64), Buffer.alloc(50_000, 9)])),
      token: provider.token,
    });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.message.movie).toMatch(/could not be read as a video|no picture|seems damaged/);
    const wrongExtension = await call(world, `/api/movies/replace/${own.id}`, {
      body: filmForm(video, "film.flv"),
      token: provider.token,
    });
    expect(wrongExtension.status).toBe(400);
    expect(world.db.select().from(filmReplacements).where(eq(filmReplacements.movieId, own.id)).all()).toEqual([]);
  });

  it("refuses no credentials, viewers, administrators, another provider, and unknown titles", async () => {
    const own = await seedMovie(world, provider.account.id, { withFiles: true });
    const path = `/api/movies/replace/${own.id}`;
    expect((await call(world, path, { body: filmForm(video) })).status).toBe(401);
    for (const wrong of [viewer, admin, otherProvider]) {
      const refused = await call(world, path, { body: filmForm(video), token: wrong.token });
      expect(refused.status, wrong.account.role).toBe(403);
      expect(isErrorEnvelope(refused)).toBe(true);
    }
    expect(
      (await call(world, "/api/movies/replace/nosuchtitle001", { body: filmForm(video), token: provider.token }))
        .status,
    ).toBe(404);
    expect((await call(world, path, { token: otherProvider.token })).status).toBe(403);
    expect((await call(world, path, { token: viewer.token })).status).toBe(403);
    expect(world.db.select().from(filmReplacements).where(eq(filmReplacements.movieId, own.id)).all()).toEqual([]);
  });
});

describe("a resumable upload that replaces a film (tus metadata `replaces`)", () => {
  const tus = (
    pathname: string,
    init: { method: string; token: string; headers?: Record<string, string>; body?: Uint8Array },
  ) =>
    fetch(`${world.url}${pathname}`, {
      method: init.method,
      headers: { "Tus-Resumable": "1.0.0", Authorization: `Bearer ${init.token}`, ...init.headers },
      body: init.body as BodyInit | undefined,
    });
  const metadata = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
      .join(",");

  it("queues the replacement at the last byte and names the title; another provider's title is refused at creation", async () => {
    const own = await seedMovie(world, provider.account.id, { withFiles: true });
    const refused = await tus("/provider/uploads/tus", {
      method: "POST",
      token: otherProvider.token,
      headers: {
        "Upload-Length": String(video.length),
        "Upload-Metadata": metadata({ replaces: own.id, filename: "cut.mp4" }),
      },
    });
    expect(refused.status).toBe(403);
    const created = await tus("/provider/uploads/tus", {
      method: "POST",
      token: provider.token,
      headers: {
        "Upload-Length": String(video.length),
        "Upload-Metadata": metadata({ replaces: own.id, filename: "cut.mp4" }),
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const location = created.headers.get("Location")!;
    const finished = await tus(location, {
      method: "PATCH",
      token: provider.token,
      headers: { "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
      body: new Uint8Array(video),
    });
    expect(finished.status).toBe(204);
    expect(finished.headers.get("Kallo-Movie-Id")).toBe(own.id);
    const upload = world.db.select().from(resumableUploads).where(eq(resumableUploads.replacesMovieId, own.id)).get()!;
    expect(upload.completedAt).not.toBeNull();
    expect(world.db.select().from(filmReplacements).where(eq(filmReplacements.id, upload.movieId)).get()).toMatchObject(
      {
        movieId: own.id,
        originalName: "cut.mp4",
      },
    );
    // While it is made, a second replacement is refused before a byte is sent.
    const second = await tus("/provider/uploads/tus", {
      method: "POST",
      token: provider.token,
      headers: {
        "Upload-Length": String(video.length),
        "Upload-Metadata": metadata({ replaces: own.id, filename: "cut.mp4" }),
      },
    });
    if (
      world.db.select().from(filmReplacements).where(eq(filmReplacements.id, upload.movieId)).get()!.status ===
      "processing"
    )
      expect(second.status).toBe(409);
  });
});

describe("GET /api/openapi.json", () => {
  it("documents the edit and replace paths", async () => {
    const document = (await call(world, "/api/openapi.json")).body;
    expect(document.paths["/api/movies/edit/{movieId}"].put.requestBody.content).toHaveProperty("multipart/form-data");
    expect(document.paths["/api/movies/replace/{movieId}"].post.responses).toHaveProperty("202");
    expect(document.paths["/api/movies/replace/{movieId}"].get.responses["200"]).toBeDefined();
  });
});

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { movies } from "~/db/schema";
import { storagePaths } from "~/media/storage.server";
import { setSetting } from "~/services/settings.server";
import { call, login, movieRow, rowCount, seedAccount, sharedVideo, startApiWorld } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * The old web client's upload, end to end: its multipart layout (text parts,
 * then two parts named `file`, the movie first and the poster second) through
 * POST /api/upload/movies, answered once stored, processed until Ready and
 * then playable through /api/files.
 */
let world: ApiWorld;
let provider: Credentials;
let otherProvider: Credentials;
let viewer: Credentials;

/** This server closes a connection that moves no bytes for 2 s (UPLOAD_IDLE_SECONDS; 60 by default). */
const IDLE_SECONDS = 2;

beforeAll(async () => {
  process.env.UPLOAD_IDLE_SECONDS = String(IDLE_SECONDS);
  world = await startApiWorld("upload");
  [provider, otherProvider, viewer] = await Promise.all([
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "viewer")),
  ]);
  // Titles are published as soon as they are ready, so the viewer can play this one.
  setSetting(world.db, "autoApproveMovies", true);
});
afterAll(async () => {
  await world?.stop();
});

async function legacyUpload(fields: Array<[string, string]>, files: Array<{ name: string; bytes: Buffer }>) {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  for (const file of files) body.append("file", new Blob([new Uint8Array(file.bytes)]), file.name);
  return call(world, "/api/upload/movies", { method: "POST", body, token: provider.token });
}

describe("POST /api/upload/movies with the old multipart layout", () => {
  it("stores the movie and poster, answers only then, and the title becomes Ready and playable", async () => {
    const video = fs.readFileSync(await sharedVideo(world));
    const poster = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#225588" } })
      .jpeg()
      .toBuffer();
    const result = await legacyUpload(
      [
        // The original sent the uploader's id; the caller owns the title whatever it says.
        ["uploadedByUser", otherProvider.account.id],
        ["name", "Dan Kasa"],
        ["Category", world.categoryId],
        ["Description", "A short film from Kano"],
        ["releaseYear", "2024"],
      ],
      [
        { name: "dan-kasa.mp4", bytes: video },
        { name: "dan-kasa.jpg", bytes: poster },
      ],
    );
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      success: true,
      message: "Movie uploaded successfully",
      _id: expect.any(String),
    });
    const movieId: string = result.body._id;
    // Answered after the files are stored: the row and the source files exist already.
    const stored = movieRow(world, movieId);
    expect(stored).toMatchObject({
      name: "Dan Kasa",
      description: "A short film from Kano",
      providerId: provider.account.id,
      categoryId: world.categoryId,
    });
    expect(stored!.sizeBytes).toBe(video.length);

    let status = stored!.status;
    for (let i = 0; i < 240 && status === "processing"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const list = await call(world, `/api/movies/all/${provider.account.id}`, { token: provider.token });
      status = list.body.find((entry: { _id: string }) => entry._id === movieId)?.status;
    }
    expect(status).toBe("ready");
    const listed = await call(world, "/api/movies/all");
    const entry = listed.body.find((item: { _id: string }) => item._id === movieId);
    expect(entry).toMatchObject({
      MovieName: "Dan Kasa",
      filename: `${movieId}.mp4`,
      thumbnail: `${movieId}-card.jpg`,
    });
    const poster200 = await fetch(`${world.url}/api/files/thumbnail/${entry.thumbnail}`);
    expect(poster200.status).toBe(200);
    await poster200.arrayBuffer();
    const play = await fetch(`${world.url}/api/files/${entry.filename}`, {
      headers: { Authorization: `Bearer ${viewer.token}`, Range: "bytes=0-1023" },
    });
    expect(play.status).toBe(206);
    expect((await play.arrayBuffer()).byteLength).toBe(1024);
    // The other provider named in uploadedByUser does not see it as theirs.
    const theirs = await call(world, `/api/movies/all/${otherProvider.account.id}`, { token: otherProvider.token });
    expect(theirs.body.map((item: { _id: string }) => item._id)).not.toContain(movieId);
  });

  it("makes one title from an upload sent twice with the same key (a retry after a lost answer): the page form's field or a script's Idempotency-Key", async () => {
    const video = fs.readFileSync(await sharedVideo(world));
    const before = rowCount(world, movies);
    const formUpload = () => {
      const body = new FormData();
      body.append("uploadKey", "form-key-0123456789abcdef");
      body.append("name", "Sent twice");
      body.append("Category", world.categoryId);
      body.append("movie", new Blob([new Uint8Array(video)]), "twice.mp4");
      return call(world, "/provider/Movieupload", { method: "POST", body, cookie: provider.cookie });
    };
    const first = await formUpload();
    const again = await formUpload();
    expect([first.status, again.status]).toEqual([303, 303]);
    expect(again.headers.get("Location")).toBe("/provider/movielist");
    expect(rowCount(world, movies)).toBe(before + 1);

    const scripted = async () => {
      const body = new FormData();
      body.append("name", "Sent twice by a script");
      body.append("Category", world.categoryId);
      body.append("file", new Blob([new Uint8Array(video)]), "twice.mp4");
      return call(world, "/api/upload/movies", {
        method: "POST",
        body,
        token: provider.token,
        headers: { "Idempotency-Key": "script-key-0123456789" },
      });
    };
    const one = await scripted();
    const two = await scripted();
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(two.body._id).toBe(one.body._id);
    expect(rowCount(world, movies)).toBe(before + 2);
    // The key is the provider's own: another provider's same key makes their own title.
    const body = new FormData();
    body.append("name", "Same key, other provider");
    body.append("Category", world.categoryId);
    body.append("file", new Blob([new Uint8Array(video)]), "twice.mp4");
    const theirs = await call(world, "/api/upload/movies", {
      method: "POST",
      body,
      token: otherProvider.token,
      headers: { "Idempotency-Key": "script-key-0123456789" },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body._id).not.toBe(one.body._id);
    // The repeated uploads' bytes were not kept (the media jobs' own work files may be there).
    expect(fs.readdirSync(storagePaths(world.root).tmp).filter((name) => name.endsWith("upload.part"))).toEqual([]);
  });

  it("refuses a poster in the movie's place and a movie that is not one; nothing stays in the database or on disk", async () => {
    const before = rowCount(world, movies);
    const poster = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const swapped = await legacyUpload(
      [
        ["name", "Swapped"],
        ["Category", world.categoryId],
      ],
      [
        { name: "poster.png", bytes: poster },
        { name: "movie.mp4", bytes: fs.readFileSync(await sharedVideo(world)) },
      ],
    );
    expect(swapped.status).toBe(400);
    expect(swapped.body.success).toBe(false);
    expect(swapped.body.message).toHaveProperty("movie");
    const fake = await legacyUpload(
      [
        ["name", "Fake"],
        ["Category", world.categoryId],
      ],
      [{ name: "fake.mp4", bytes: Buffer.from("<html>definitely not a video</html>") }],
    );
    expect(fake.status).toBe(400);
    expect(fake.body.message.movie).toMatch(/./);
    expect(rowCount(world, movies)).toBe(before);
    // The earlier title's higher rungs and poster sizes may still be in the making in tmp/ (their work files go
    // when they finish); no upload is left there.
    const inTheMaking = (name: string) =>
      /-ladder-[a-z0-9]+$/.test(name) || /-poster-[a-z]+-\d+\.(avif|webp|jpg)$/.test(name);
    expect(fs.readdirSync(storagePaths(world.root).tmp).filter((name) => !inTheMaking(name))).toEqual([]);
    const mediaDirs = fs.existsSync(storagePaths(world.root).media)
      ? fs.readdirSync(storagePaths(world.root).media)
      : [];
    expect(mediaDirs.every((dir) => movieRow(world, path.basename(dir)))).toBe(true);
  });

  /** Post the old client's form as the bytes of one request, written piece by piece with pauses between. */
  async function tricklePost(
    pieces: number,
    pauseMs: (piece: number) => number,
  ): Promise<{ status: number; body: string } | { closed: string }> {
    const form = new FormData();
    form.append("name", `Trickled ${pieces}`);
    form.append("Category", world.categoryId);
    form.append("file", new Blob([new Uint8Array(fs.readFileSync(await sharedVideo(world)))]), "slow.mp4");
    const encoded = new Response(form);
    const bytes = Buffer.from(await encoded.arrayBuffer());
    const url = new URL("/api/upload/movies", world.url);
    return new Promise((resolve) => {
      const request = http.request(url, {
        method: "POST",
        headers: {
          "Content-Type": encoded.headers.get("content-type")!,
          "Content-Length": bytes.length,
          Authorization: `Bearer ${provider.token}`,
          "X-Forwarded-For": "10.9.9.9",
        },
      });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", (error) => resolve({ closed: error.message }));
      const size = Math.ceil(bytes.length / pieces);
      const send = async () => {
        for (let piece = 0; piece < pieces; piece++) {
          if (request.destroyed) return;
          request.write(bytes.subarray(piece * size, (piece + 1) * size));
          if (piece < pieces - 1) await new Promise((wait) => setTimeout(wait, pauseMs(piece)));
        }
        request.end();
      };
      void send();
    });
  }

  it("is never cut while bytes keep arriving: only a connection idle for UPLOAD_IDLE_SECONDS is closed", async () => {
    const before = rowCount(world, movies);
    // Three times the idle limit in all, but never idle for half of it: stored.
    const slow = await tricklePost(8, () => 800);
    expect(slow).toMatchObject({ status: 201 });
    expect(rowCount(world, movies)).toBe(before + 1);

    // Half the film, then nothing for twice the limit: the server closes the connection, and nothing of it stays.
    const stalled = await tricklePost(2, () => IDLE_SECONDS * 2000);
    expect(stalled).toHaveProperty("closed");
    expect(rowCount(world, movies)).toBe(before + 1);
    await expect
      .poll(() => fs.readdirSync(storagePaths(world.root).tmp).filter((name) => !/-ladder-[a-z0-9]+$/.test(name)), {
        timeout: 5000,
      })
      .toEqual([]);
  });
});

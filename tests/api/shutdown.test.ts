import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, movies } from "~/db/schema";
import { makeVideoFixture } from "../fixtures/media";
import { login, seedAccount, slowDownload, startApiWorld, seedDownloadableFilm, encodersOf } from "./helpers";
import type { ApiWorld } from "./helpers";

/**
 * `docker stop` sends SIGTERM: the server stops taking connections, lets a
 * download under way finish within SHUTDOWN_GRACE_SECONDS, puts the running
 * media job back in the queue (its encoder ended, the try not counted),
 * closes the database and exits 0. The next start finishes the job.
 */
let world: ApiWorld;
const GRACE_SECONDS = 8;

beforeAll(async () => {
  process.env.SHUTDOWN_GRACE_SECONDS = String(GRACE_SECONDS);
  world = await startApiWorld("shutdown");
});
afterAll(async () => {
  delete process.env.SHUTDOWN_GRACE_SECONDS;
  await world?.stop();
});

describe("a clean stop", () => {
  it("lets a slow download finish, queues the running job again, and exits 0; the next start finishes the job", async () => {
    const provider = await login(world, seedAccount(world, "provider"));
    const viewer = await login(world, seedAccount(world, "viewer"));
    // A film whose processing takes a while (20 s of 720p), uploaded the plain way.
    const film = await makeVideoFixture(world.fixtures, "mp4-large", 20);
    const form = new FormData();
    form.append("name", "Stopped mid-job");
    form.append("Category", world.categoryId);
    form.append("movie", new Blob([new Uint8Array(fs.readFileSync(film))]), "stopped.mp4");
    const upload = await fetch(`${world.url}/provider/uploads`, {
      method: "POST",
      body: form,
      headers: { Cookie: provider.cookie, Origin: world.url, Accept: "application/json" },
    });
    expect(upload.status).toBe(201);
    const { movieId } = (await upload.json()) as { movieId: string };

    // A viewer's download of another film, read slowly (about 1 MB/s) so it is under way at the signal.
    const watchedId = "shutdownwatched1";
    seedDownloadableFilm(world, watchedId, provider.account.id);

    await expect
      .poll(
        () =>
          world.db
            .select()
            .from(jobs)
            .where(eq(jobs.movieId, movieId))
            .all()
            .some((job) => job.status === "running"),
        { timeout: 20_000 },
      )
      .toBe(true);
    await expect.poll(() => encodersOf(world.root).length, { timeout: 20_000 }).toBeGreaterThan(0);

    const download = slowDownload(`${world.url}/api/files/${watchedId}.mp4`, viewer.token);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const child = world.server.process;
    const stoppedAt = Date.now();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    const [code, received] = await Promise.all([exited, download]);
    const seconds = (Date.now() - stoppedAt) / 1000;

    expect(code).toBe(0);
    expect(received).toEqual({ bytes: 4 * 1024 * 1024, complete: true });
    // Within the grace, and the few seconds a loaded box takes to stop the encoder and close the database after it.
    expect(seconds).toBeLessThan(GRACE_SECONDS + 4);
    // No encoder outlives the server, and its job waits in the queue with the try not counted.
    expect(encodersOf(world.root)).toEqual([]);
    const waiting = world.db.select().from(jobs).where(eq(jobs.movieId, movieId)).all();
    expect(waiting.some((job) => job.status === "queued")).toBe(true);
    expect(waiting.every((job) => job.status !== "running" && job.status !== "failed")).toBe(true);
    expect(waiting.find((job) => job.status === "queued")!.attempts).toBe(0);
    // New connections are refused once it has gone.
    await expect(fetch(`${world.url}/healthz`)).rejects.toThrow();

    await world.restart();
    await expect
      .poll(() => world.db.select().from(movies).where(eq(movies.id, movieId)).get()?.status, { timeout: 60_000 })
      .toBe("ready");
  });
});

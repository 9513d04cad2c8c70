import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, movies } from "~/db/schema";
import { mediaBinary } from "~/media/ffmpeg.server";
import { MOVIE_JOB } from "~/services/movie-processing.server";
import { storagePaths } from "~/media/storage.server";
import { setSetting } from "~/services/settings.server";
import { makeVideoFixture } from "../fixtures/media";
import { startServer } from "../../bench/lib";
import { call, login, RawConnection, seedAccount, seedMovie, startApiWorld, uniqueId, until } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * Fault drills: the server is killed with SIGKILL while a film uploads and
 * while ffmpeg prepares another, then started again on the same storage.
 */
let world: ApiWorld;
let provider: Credentials;

beforeAll(async () => {
  world = await startApiWorld("crash");
  provider = await login(world, seedAccount(world, "provider"));
  setSetting(world.db, "autoApproveMovies", true);
});
afterAll(async () => {
  await world?.stop();
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process runs (a zombie waiting for its parent to reap it counts as ended). */
function processRuns(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function killServer(): Promise<void> {
  const child = world.server.process;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** Start a multipart upload of a film and stop sending halfway (the connection stays open). */
function halfUpload(bytes: Buffer): http.ClientRequest {
  const boundary = "----drill";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nHalfway\r\n--${boundary}\r\nContent-Disposition: form-data; name="Category"\r\n\r\n${world.categoryId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="halfway.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const request = http.request(`${world.url}/api/upload/movies`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${provider.token}`,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": head.length + bytes.length * 2,
    },
  });
  request.on("error", () => undefined);
  request.write(head);
  request.write(bytes);
  return request;
}

describe("kill -9 in the middle of work", () => {
  it("ends the encoder with the server, sweeps the leftovers at the next start, and retries the job later with the try counted", async () => {
    const film = await makeVideoFixture(world.fixtures, "mp4-large", 8);
    const body = new FormData();
    body.append("name", "Long night");
    body.append("Category", world.categoryId);
    body.append("file", new Blob([new Uint8Array(fs.readFileSync(film))]), "long-night.mp4");
    const uploaded = await call(world, "/api/upload/movies", { method: "POST", body, token: provider.token });
    expect(uploaded.status).toBe(201);

    // ffmpeg is at work on it (the job records its pid), and another film is halfway up.
    const working = await until(
      () => world.db.select().from(jobs).where(isNotNull(jobs.toolPid)).get(),
      60_000,
      "a job's encoder",
    );
    const encoder = working.toolPid!;
    expect(processRuns(encoder)).toBe(true);
    const half = halfUpload(fs.readFileSync(film));
    const tmp = storagePaths(world.root).tmp;
    await until(
      () => fs.readdirSync(tmp).some((name) => name.endsWith("upload.part")),
      10_000,
      "the partial upload in tmp/",
    );

    await killServer();
    half.destroy();
    // The kernel ends the encoder with its parent: nothing runs on beside the next server.
    await until(() => !processRuns(encoder), 2_000, "the encoder to end");
    expect(fs.readdirSync(tmp).length).toBeGreaterThan(0);

    world.server = await startServer(world.root, world.port);
    await until(() => fs.readdirSync(tmp).length === 0, 10_000, "tmp/ to be swept");
    const recovered = world.db.select().from(jobs).where(eq(jobs.id, working.id)).get()!;
    expect(recovered).toMatchObject({ status: "queued", attempts: working.attempts, toolPid: null });
    expect(recovered.runAfter!.getTime()).toBeGreaterThan(Date.now() + 10_000);
  });

  it("ends an encoder a killed server left running, and gives up a job the server died under three times with a clear reason", async () => {
    const title = await seedMovie(world, provider.account.id, { status: "processing" });
    await killServer();
    // An encoder as one left behind where the kernel could not end it, and a job on its third try.
    const stale = spawn(
      mediaBinary("ffmpeg").path,
      ["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc2", "-f", "null", "-"],
      { stdio: "ignore" },
    );
    const staleEnded = new Promise((resolve) => stale.once("exit", resolve));
    const job = { id: uniqueId("job"), movieId: title.id };
    world.db
      .insert(jobs)
      .values({ ...job, kind: MOVIE_JOB, status: "running", attempts: 3, toolPid: stale.pid! })
      .run();

    world.server = await startServer(world.root, world.port);
    await Promise.race([staleEnded, wait(5_000).then(() => Promise.reject(new Error("the stale encoder still runs")))]);
    const given = world.db.select().from(jobs).where(eq(jobs.id, job.id)).get()!;
    expect(given.status).toBe("failed");
    expect(given.error).toMatch(/stopped during each of its 3 tries/);
    expect(world.db.select().from(movies).where(eq(movies.id, title.id)).get()).toMatchObject({
      status: "failed",
      failureReason: "interrupted",
    });
    // The provider reads why, in words, not the tool's output.
    const listed = await fetch(`${world.url}/provider/movielist`, { headers: { Cookie: provider.cookie } });
    expect(await listed.text()).toContain("The server stopped while preparing this film");
  });
});

/** A small file system for tmp/ (tmpfs needs root, as CI has; elsewhere this drill is skipped and says why). */
function mountSmall(dir: string, megabytes: number): boolean {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", dir], { stdio: "pipe" });
    return true;
  } catch (error) {
    console.warn(
      `[drill] the full-disk drill needs to mount a tmpfs (root): ${error instanceof Error ? error.message.split("\n")[0] : error}`,
    );
    return false;
  }
}

describe("the disk fills up in the middle of an upload", () => {
  it("stops the upload at once with 507 and a clear message, removes its partial file, and sign-ins go on", async () => {
    const tmp = storagePaths(world.root).tmp;
    if (!mountSmall(tmp, 6)) return;
    try {
      const film = await makeVideoFixture(world.fixtures, "mp4-large", 8);
      expect(fs.statSync(film).size).toBeGreaterThan(10_000_000);
      const body = new FormData();
      body.append("name", "Too big for the disk");
      body.append("Category", world.categoryId);
      body.append("file", new Blob([new Uint8Array(fs.readFileSync(film))]), "too-big.mp4");
      const started = Date.now();
      const answer = await call(world, "/api/upload/movies", { method: "POST", body, token: provider.token });
      expect(answer.status).toBe(507);
      expect(answer.text).toContain("The server has no room for this file right now");
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(fs.readdirSync(tmp)).toEqual([]);
      expect(world.db.select().from(movies).where(eq(movies.name, "Too big for the disk")).all()).toEqual([]);
      const signIn = await call(world, "/api/user/login", {
        json: { email: provider.account.email, password: "api-test-password-1" },
      });
      expect(signIn.status).not.toBe(500);
    } finally {
      execFileSync("umount", [tmp]);
    }
  });

  it("answers a client still sending the rest of the film, and leaves its connection usable", async () => {
    const tmp = storagePaths(world.root).tmp;
    if (!mountSmall(tmp, 6)) return;
    try {
      const film = fs.readFileSync(await makeVideoFixture(world.fixtures, "mp4-large", 8));
      const boundary = "----still-sending";
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nStill sending\r\n--${boundary}\r\nContent-Disposition: form-data; name="Category"\r\n\r\n${world.categoryId}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="still-sending.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
        ),
        film,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const host = new URL(world.url).host;
      const head =
        `POST /api/upload/movies HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${provider.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
      // More than the 6 MB disk: the server answers while some 6 MB more are still to come.
      const connection = await RawConnection.open(world);
      const answer = await connection.sendPastTheAnswer(head, body, 9 * 1024 * 1024);
      expect(connection.failure).toBeNull();
      expect(answer.status).toBe(507);
      expect(answer.body).toContain("The server has no room for this file right now");
      expect(fs.readdirSync(tmp)).toEqual([]);
      // The rest of the body was read to its end: the same connection takes the next request.
      await connection.send(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect((await connection.read()).status).toBe(200);
      connection.close();
    } finally {
      execFileSync("umount", [tmp]);
    }
  });
});

import { DEADLINE_MS } from "../../scripts/admission";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, movies } from "~/db/schema";
import { movieVideoPath, storagePaths } from "~/media/storage.server";
import { MOVIE_JOB } from "~/services/movie-processing.server";
import { LADDER_JOB } from "~/services/renditions.server";
import { makeVideoFixture } from "../fixtures/media";
import { pacedUpload } from "../fixtures/paced-upload";
import {
  call,
  login,
  PASSWORD,
  seedAccount,
  seedMovie,
  sharedVideo,
  slowDownload,
  startApiWorld,
  seedDownloadableFilm,
  encodersOf,
} from "./helpers";
import type { ApiWorld, Seeded } from "./helpers";

/**
 * Two workers (WORKERS=2) behave as one server: a session made on one is good
 * on the other, a sign-in limit counts both, a job queued by either runs once
 * (in the background worker, at once), two requests for one upload on two
 * workers never write into it together, /metrics sums both, a killed worker
 * is replaced, and SIGTERM stops them all as it stops one process: requests
 * under way finish, the running job goes back in the queue, exit code 0.
 *
 * Each answer names its process (WORKER_HEADER=1: `Kallo-Worker: <pid> <role>`);
 * a keep-alive connection stays with the worker that accepted it, so a test
 * picks its worker by its connection.
 */
let world: ApiWorld;
let viewer: Seeded;
let provider: Seeded;

beforeAll(async () => {
  process.env.WORKERS = "2";
  process.env.WORKER_HEADER = "1";
  process.env.SIGN_IN_FAILURES_PER_ADDRESS = "10";
  world = await startApiWorld("workers");
  viewer = seedAccount(world, "viewer");
  provider = seedAccount(world, "provider");
});
afterAll(async () => {
  delete process.env.WORKERS;
  delete process.env.WORKER_HEADER;
  await world?.stop();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string; pid: number; role: string };

/** One keep-alive connection: every request on it goes to the worker that accepted it. */
class Connection {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  send(
    pathname: string,
    options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
  ): Promise<Answer> {
    const method = options.method ?? "GET";
    // A write without a body says so (Content-Length: 0), as browsers do: the server refuses chunked bodies there.
    const body = options.body ?? (method === "GET" || method === "HEAD" ? undefined : "");
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${world.url}${pathname}`,
        {
          agent: this.agent,
          method,
          headers: {
            "X-Forwarded-For": "10.9.0.1",
            ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
            ...options.headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve(answerOf(response, Buffer.concat(chunks).toString())));
          response.on("error", reject);
        },
      );
      // A connection handed to a worker at the moment it is killed is lost with it: the client gives up.
      request.setTimeout(options.timeoutMs ?? 15_000, () =>
        request.destroy(new Error(`no answer to ${method} ${pathname}`)),
      );
      request.on("error", reject);
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function answerOf(response: http.IncomingMessage, text: string): Answer {
  const [pid, role] = String(response.headers["kallo-worker"] ?? "").split(" ");
  return { status: response.statusCode ?? 0, headers: response.headers, text, pid: Number(pid), role };
}

/** A connection to each of the two workers (the primary hands new connections out in turn). */
async function connectionToEachWorker(): Promise<{ background: Connection; serving: Connection }> {
  const found = new Map<string, Connection>();
  // The site answers once its first worker is up; the second starts after it (scripts/workers.ts).
  const giveUpAt = Date.now() + 60_000;
  while (found.size < 2 && Date.now() < giveUpAt) {
    const connection = new Connection();
    const { role } = await connection.send("/healthz");
    if (found.has(role)) {
      connection.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } else found.set(role, connection);
  }
  expect([...found.keys()].sort()).toEqual(["background", "serving"]);
  return { background: found.get("background")!, serving: found.get("serving")! };
}

/** The workers that answer now, by pid (a connection that gets no answer does not count). */
async function workerPids(): Promise<Map<number, string>> {
  const pids = new Map<number, string>();
  for (let i = 0; i < 200 && pids.size < 2; i++) {
    const connection = new Connection();
    try {
      const { pid, role } = await connection.send("/healthz");
      pids.set(pid, role);
    } catch {
      // lost with a killed worker
    } finally {
      connection.close();
    }
  }
  return pids;
}

/** The tus headers of a provider's calls. */
const tusHeaders = (token: string) => ({ "Tus-Resumable": "1.0.0", Authorization: `Bearer ${token}` });

/** Start a resumable upload of `size` bytes on this connection; its answer (201, Location). */
function createUpload(connection: Connection, token: string, name: string, size: number): Promise<Answer> {
  const b64 = (value: string) => Buffer.from(value).toString("base64");
  return connection.send("/provider/uploads/tus", {
    method: "POST",
    headers: {
      ...tusHeaders(token),
      "Upload-Length": String(size),
      "Upload-Metadata": `name ${b64(name)},Category ${b64(world.categoryId)},filename ${b64(`${name}.mp4`)}`,
    },
  });
}

/** Send `bytes` of a resumable upload from `offset`. */
function sendUpload(connection: Connection, location: string, token: string, offset: number, bytes: Buffer) {
  return connection.send(location, {
    method: "PATCH",
    body: bytes,
    headers: {
      ...tusHeaders(token),
      "Upload-Offset": String(offset),
      "Content-Type": "application/offset+octet-stream",
    },
  });
}

/** A title's jobs as the database has them now. */
const jobsOfTitle = (movieId: string) => world.db.select().from(jobs).where(eq(jobs.movieId, movieId)).all();

function processRuns(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

const runFile = () => path.join(world.root, ".kallo-server.json");

/** Ask the primary to reload (what `npm run reload` and `npm run upgrade` do): its answer from the run file. */
async function askPrimary(request: Record<string, string>): Promise<{ state: string; message: string }> {
  const id = `test-${Date.now()}-${Math.random()}`;
  fs.writeFileSync(path.join(world.root, ".kallo-server.control.json"), JSON.stringify({ id, ...request }));
  world.server.process.kill("SIGHUP");
  const answer = () =>
    (
      JSON.parse(fs.readFileSync(runFile(), "utf8")) as {
        lastControl?: { id: string; state: string; message: string };
      }
    ).lastControl;
  await expect.poll(() => (answer()?.id === id ? answer() : null), { timeout: 120_000, interval: 200 }).not.toBeNull();
  return answer()!;
}

/**
 * Clients asking for `paths` in turn, one request after another each, until stopped: two on kept-alive
 * connections (as browsers do), one opening a connection per request. A 5xx, a refusal or a cut is a failure.
 */
function keepAsking(paths: string[], address: string) {
  let asking = true;
  const failures: string[] = [];
  let answered = 0;
  const client = async (keepAlive: boolean) => {
    const agent = new http.Agent({ keepAlive, maxSockets: 1 });
    for (let turn = 0; asking; turn++) {
      const pathname = paths[turn % paths.length]!;
      await new Promise<void>((resolve) => {
        http
          .get(`${world.url}${pathname}`, { agent, headers: { "X-Forwarded-For": address } }, (response) => {
            response.resume();
            response.on("end", () => {
              if ((response.statusCode ?? 0) >= 500) failures.push(`${pathname}: status ${response.statusCode}`);
              else answered += 1;
              resolve();
            });
          })
          .on("error", (error: NodeJS.ErrnoException) => {
            failures.push(`${pathname}: ${error.code ?? error.message}`);
            resolve();
          });
      });
    }
    agent.destroy();
  };
  const clients = [client(true), client(true), client(false)];
  return {
    stop: async () => {
      asking = false;
      await Promise.all(clients);
      return { answered, failures };
    },
  };
}

const json = (value: unknown) => ({
  body: JSON.stringify(value),
  headers: { "Content-Type": "application/json" },
});

describe("two workers serve as one", () => {
  it("a session made on one worker is good on the other, and signing out on the other ends it everywhere", async () => {
    const { background, serving } = await connectionToEachWorker();
    const signIn = await serving.send("/api/user/login", {
      method: "POST",
      ...json({ email: viewer.email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers["set-cookie"] ?? []).find((value) => value.startsWith("kallo_session="))!;
    const session = cookie.split(";")[0];
    const token = JSON.parse(signIn.text).token as string;

    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) {
      for (const connection of [background, serving]) {
        const profile = await connection.send(`/api/user/profile/${viewer.id}`, { headers: { Cookie: session } });
        expect(profile.status).toBe(200);
        expect(JSON.parse(profile.text).email).toBe(viewer.email);
        answers.push(profile);
        const byToken = await connection.send(`/api/user/profile/${viewer.id}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(byToken.status).toBe(200);
      }
    }
    expect(new Set(answers.map((answer) => answer.pid)).size).toBe(2);

    const signOut = await background.send("/logout", { method: "POST", headers: { Cookie: session } });
    expect(signOut.status).toBe(303);
    const after = await serving.send(`/api/user/profile/${viewer.id}`, { headers: { Cookie: session } });
    expect(after.status).toBe(401);
    expect(new Set([signIn.pid, after.pid]).size).toBe(1);
    expect(signOut.pid).not.toBe(after.pid);
    background.close();
    serving.close();
  });

  it("a change to the catalogue shows on both workers' next page, though each kept the list it showed", async () => {
    const { background, serving } = await connectionToEachWorker();
    const title = await seedMovie(world, provider.id, { name: "Kogin Zinari" });
    const signIn = await serving.send("/api/user/login", {
      method: "POST",
      ...json({ email: viewer.email, password: PASSWORD }),
    });
    const session = (signIn.headers["set-cookie"] ?? [])
      .find((value) => value.startsWith("kallo_session="))!
      .split(";")[0];
    const search = async (connection: Connection) => {
      const page = await connection.send("/moviecategory?q=zinari", { headers: { Cookie: session } });
      expect(page.status).toBe(200);
      return page;
    };
    for (const connection of [background, serving]) {
      for (let i = 0; i < 2; i++) expect((await search(connection)).text).toContain("Kogin Zinari");
    }
    // Renamed (as an administrator's edit would, from any process): both lists change at once.
    world.db.update(movies).set({ name: "Kogin Azurfa" }).where(eq(movies.id, title.id)).run();
    const after = [await search(background), await search(serving)];
    for (const page of after) expect(page.text).not.toContain(`?id=${title.id}`);
    expect(new Set(after.map((page) => page.pid)).size).toBe(2);
    background.close();
    serving.close();
  });

  it("counts one sign-in limit for both workers: ten failures from one address over both, then 429", async () => {
    const { background, serving } = await connectionToEachWorker();
    const address = { "X-Forwarded-For": "203.0.113.77" };
    const answers: Answer[] = [];
    for (let i = 0; i < 10; i++) {
      const connection = i % 2 === 0 ? background : serving;
      answers.push(
        await connection.send("/api/user/login", {
          method: "POST",
          body: JSON.stringify({ email: `nobody${i}@api.test`, password: "wrong-password" }),
          headers: { "Content-Type": "application/json", ...address },
        }),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(401));
    expect(new Set(answers.map((answer) => answer.pid)).size).toBe(2);
    for (const connection of [background, serving]) {
      const refused = await connection.send("/api/user/login", {
        method: "POST",
        body: JSON.stringify({ email: "nobody@api.test", password: "wrong-password" }),
        headers: { "Content-Type": "application/json", ...address },
      });
      expect(refused.status).toBe(429);
    }
    background.close();
    serving.close();
  });

  it("runs a job queued by the serving worker once, in the background worker, at once", async () => {
    const { background, serving } = await connectionToEachWorker();
    // Reset mails are jobs: each asked for on the serving worker, each written once by the background worker.
    const mailDir = path.join(world.root, "mail");
    const mailsTo = (email: string) =>
      (fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []).filter((file) =>
        fs.readFileSync(path.join(mailDir, file), "utf8").includes(email),
      );
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const account = seedAccount(world, "viewer");
      const asked = await serving.send("/reset", {
        method: "POST",
        body: new URLSearchParams({ email: account.email }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": `10.9.1.${i + 1}` },
      });
      expect(asked.status).toBe(200);
      expect(asked.role).toBe("serving");
      const askedAt = Date.now();
      await expect.poll(() => mailsTo(account.email).length, { timeout: 10_000, interval: 20 }).toBe(1);
      waits.push(Date.now() - askedAt);
    }
    // The runner polls every 2 s; a job announced over the cluster's channel starts well before that.
    console.log(`[workers] reset mails written ${waits.join(", ")} ms after the serving worker answered`);
    expect(Math.max(...waits)).toBeLessThan(1500);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(fs.readdirSync(mailDir)).toHaveLength(3);
    background.close();
    serving.close();
  });

  it("never lets two requests for one upload on two workers write into it together, and makes one title, processed once", async () => {
    const { background, serving } = await connectionToEachWorker();
    const video = fs.readFileSync(await sharedVideo(world));
    const signIn = await serving.send("/api/cp/login", {
      method: "POST",
      ...json({ email: provider.email, password: PASSWORD }),
    });
    const token = JSON.parse(signIn.text).token as string;
    const created = await createUpload(serving, token, "Two doors", video.length);
    expect(created.status).toBe(201);
    expect(created.role).toBe("serving");
    const location = String(created.headers.location);
    const stored = path.join(storagePaths(world.root).uploads, location.split("/").pop()!);
    const half = Math.floor(video.length / 2);

    // The first PATCH, on the serving worker, sends half the film and then stalls (a dropped phone, say).
    const first = http.request(`${world.url}${location}`, {
      agent: serving.agent,
      method: "PATCH",
      headers: {
        ...tusHeaders(token),
        "X-Forwarded-For": "10.9.0.1",
        "Upload-Offset": "0",
        "Content-Type": "application/offset+octet-stream",
        "Content-Length": String(video.length),
      },
    });
    const firstAnswer = new Promise<{ status: number; offset?: string }>((resolve) => {
      first.on("response", (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, offset: response.headers["upload-offset"] as string | undefined });
      });
      first.on("error", () => resolve({ status: 0 }));
    });
    first.write(video.subarray(0, half));
    await expect.poll(() => (fs.existsSync(stored) ? fs.statSync(stored).size : 0), { timeout: 10_000 }).toBe(half);

    // The client resumes on the other worker: it asks the first request to let go, and sends the rest.
    const second = await sendUpload(background, location, token, half, video.subarray(half));
    expect(second.status).toBe(204);
    expect(second.headers["upload-offset"]).toBe(String(video.length));
    expect(second.role).toBe("background");
    const movieId = String(second.headers["kallo-movie-id"]);

    // The stalled request wakes up and sends bytes for the same places: they must not land. (Let go, it
    // answers with the offset it had reached, or not at all.)
    first.end(Buffer.alloc(video.length - half, 0x55));
    const stalled = await firstAnswer;
    if (stalled.status === 204) expect(stalled.offset).toBe(String(half));

    await expect
      .poll(() => world.db.select().from(movies).where(eq(movies.id, movieId)).get()?.status, {
        timeout: 60_000,
      })
      .toBe("ready");
    const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
    expect(sha256(fs.readFileSync(movieVideoPath(movieId, world.root)))).toBe(sha256(video));

    // Its processing ran once: one job of each kind, done at the first try.
    const jobsOf = (kind: string) =>
      world.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.movieId, movieId), eq(jobs.kind, kind)))
        .all();
    await expect.poll(() => jobsOf(MOVIE_JOB).map((job) => [job.status, job.attempts])).toEqual([["done", 1]]);
    await expect
      .poll(() => jobsOf(LADDER_JOB).map((job) => [job.status, job.attempts]), { timeout: 60_000 })
      .toEqual([["done", 1]]);
    background.close();
    serving.close();
  });

  it("sums both workers' counts in /metrics, and reads the jobs once", async () => {
    const { background, serving } = await connectionToEachWorker();
    for (let i = 0; i < 3; i++) await background.send("/no-such-page-for-metrics");
    for (let i = 0; i < 4; i++) await serving.send("/no-such-page-for-metrics");
    const metrics = await background.send("/metrics", { headers: { "X-Forwarded-For": "127.0.0.1" } });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(
      /^kallo_http_requests_total\{route="\/no-such-page-for-metrics",method="GET",status="404"\} 7$/m,
    );
    const doneJobs = world.db.select().from(jobs).where(eq(jobs.status, "done")).all().length;
    const shown = metrics.text.match(/^kallo_jobs\{kind="[^"]+",status="done"\} (\d+)$/gm) ?? [];
    expect(shown.reduce((sum, line) => sum + Number(line.split(" ").pop()), 0)).toBe(doneJobs);
    background.close();
    serving.close();
  });

  it("moves both workers to a build one at a time on SIGHUP, refusing no request; refuses a build the database is not migrated for", async () => {
    const primary = world.server.process;
    expect(JSON.parse(fs.readFileSync(runFile(), "utf8"))).toMatchObject({ pid: primary.pid, workers: 2 });
    const build = fs.realpathSync("build");

    // A build whose migrations the database has not taken: refused, and the workers stay.
    const ahead = fs.mkdtempSync(path.join(world.root, "build-ahead-"));
    for (const file of ["index.js", "server"]) fs.symlinkSync(path.join(build, file), path.join(ahead, file));
    fs.cpSync(path.join(build, "drizzle"), path.join(ahead, "drizzle"), { recursive: true });
    const journalFile = path.join(ahead, "drizzle", "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: Record<string, unknown>[] };
    journal.entries.push({ ...journal.entries.at(-1), idx: 999, when: Date.now() + 86_400_000, tag: "0999_ahead" });
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    fs.writeFileSync(path.join(ahead, "drizzle", "0999_ahead.sql"), "SELECT 1;");
    const before = await workerPids();
    const refused = await askPrimary({ action: "reload", build: ahead });
    expect(refused.state).toBe("refused");
    expect(refused.message).toContain("needs migrations the database has not taken (0999_ahead)");
    expect([...(await workerPids()).keys()].sort()).toEqual([...before.keys()].sort());

    // Clients asking all along, on kept-alive connections and new ones: none refused, none cut, none answered 5xx.
    const clients = keepAsking(["/healthz"], "10.9.3.1");
    const moved = await askPrimary({ action: "reload", build });
    const { answered, failures } = await clients.stop();
    expect(moved.state, moved.message).toBe("done");
    expect(moved.message).toMatch(/^2 workers moved to .* one at a time/);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(50);
    const after = await workerPids();
    expect([...after.values()].sort()).toEqual(["background", "serving"]);
    for (const pid of before.keys()) expect(after.has(pid)).toBe(false);
  }, 180_000);

  it("moves both workers to a build while kept-alive clients browse and a phone uploads a film: the upload ends whole, nothing refused, cut or 5xx", async () => {
    const uploader = await login(world, provider);
    const film = fs.readFileSync(await sharedVideo(world));
    const connection = new Connection();
    const created = await createUpload(connection, uploader.token, "Sent through a reload", film.length);
    connection.close();
    expect(created.status).toBe(201);
    // At a phone's pace, in one request as the page sends it (8 MiB): the reload meets it mid-request, and the
    // worker it is on waits for it no longer than SHUTDOWN_GRACE_SECONDS.
    const upload = pacedUpload({
      location: new URL(String(created.headers.location), world.url).href,
      headers: { Authorization: `Bearer ${uploader.token}`, "X-Forwarded-For": "10.9.4.1" },
      bytes: film,
      bytesPerSecond: Math.ceil(film.length / 22),
    });
    const browsing = keepAsking(["/", "/movies", "/healthz"], "10.9.4.2");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const before = await workerPids();
    const moved = await askPrimary({ action: "reload", build: fs.realpathSync("build") });
    const sent = await upload;
    const { answered, failures } = await browsing.stop();
    console.log(
      `[drill] reload under an upload: ${moved.message}; pages ${answered} answered, ${failures.length} failed; upload of ${film.length} bytes ${sent.finished ? "finished" : "NOT finished"} in ${sent.seconds.toFixed(1)} s, ${sent.interruptions.length} interruptions (${sent.interruptions.join(", ") || "none"}), ${sent.shortAnswers} early answers, ${sent.resentBytes} bytes sent twice (${sent.answers.join("; ")})`,
    );
    expect(moved.state, moved.message).toBe("done");
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(20);
    expect(sent.finished).toBe(true);
    // A stopping worker answers the request under way with what it holds (204 and the offset): never a cut.
    expect(sent.interruptions).toEqual([]);
    // What it sends again is what was on its way when the worker answered: under a second of the phone's pace.
    expect(sent.resentBytes).toBeLessThan(Math.ceil(film.length / 22));
    const after = await workerPids();
    for (const pid of before.keys()) expect(after.has(pid)).toBe(false);
    // The title is made of the whole film.
    const title = world.db.select().from(movies).where(eq(movies.name, "Sent through a reload")).get();
    expect(title).toBeDefined();
    await expect.poll(() => fs.existsSync(movieVideoPath(title!.id, world.root)), { timeout: 30_000 }).toBe(true);
  }, 180_000);

  it("replaces a killed worker; the new background worker runs the jobs", async () => {
    const before = await workerPids();
    expect([...before.values()].sort()).toEqual(["background", "serving"]);
    const killed = [...before].find(([, role]) => role === "background")![0];
    process.kill(killed, "SIGKILL");
    await expect
      .poll(
        async () => {
          const now = await workerPids();
          return now.size === 2 && !now.has(killed) ? [...now.values()].sort() : null;
        },
        { timeout: 150_000, interval: 500 },
      )
      .toEqual(["background", "serving"]);

    const account = seedAccount(world, "viewer");
    const connection = new Connection();
    const asked = await connection.send("/reset", {
      method: "POST",
      body: new URLSearchParams({ email: account.email }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "10.9.2.1" },
    });
    expect(asked.status).toBe(200);
    const mailDir = path.join(world.root, "mail");
    await expect
      .poll(
        () =>
          fs
            .readdirSync(mailDir)
            .filter((file) => fs.readFileSync(path.join(mailDir, file), "utf8").includes(account.email)).length,
        { timeout: 20_000 },
      )
      .toBe(1);
    connection.close();
    // A worker takes a while to start on a busy box.
  }, 180_000);

  it("keeps the door open when both workers end at once: new connections wait and are answered, none refused", async () => {
    const before = await workerPids();
    for (const pid of before.keys()) process.kill(pid, "SIGKILL");
    // Asked while no worker serves: connected at once by the primary, answered by a replacement.
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => {
        const connection = new Connection();
        return connection.send("/login", { timeoutMs: 120_000 }).finally(() => connection.close());
      }),
    );
    const waited = Date.now() - started;
    // Each is answered by a replacement: the page itself, or — when the replacements took longer to start
    // than a page may wait (a box busy with other work) — the busy page, at once, never a refusal.
    for (const answer of answers) {
      if (answer.status === 503) {
        expect(waited).toBeGreaterThan(DEADLINE_MS.page - 3_000);
        expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
      } else expect(answer.status).toBe(200);
    }
    expect(answers.every((answer) => !before.has(answer.pid))).toBe(true);
    expect(waited).toBeLessThan(120_000);
    await workerPids();
  }, 180_000);

  it("after kill -9 of the primary mid-upload and mid-job, nothing of it runs on; restarted, the upload resumes and the job runs again", async () => {
    const uploader = await login(world, provider);
    // A film whose processing takes a while: its encoder runs in the background worker at the kill.
    const film = await makeVideoFixture(world.fixtures, "mp4-large", 8);
    const body = new FormData();
    body.append("name", "Killed mid-job");
    body.append("Category", world.categoryId);
    body.append("file", new Blob([new Uint8Array(fs.readFileSync(film))]), "killed.mp4");
    expect((await call(world, "/api/upload/movies", { method: "POST", body, token: uploader.token })).status).toBe(201);
    const movieId = world.db.select().from(movies).where(eq(movies.name, "Killed mid-job")).get()!.id;
    await expect.poll(() => jobsOfTitle(movieId).find((job) => job.toolPid), { timeout: 60_000 }).toBeTruthy();

    // An upload half sent by tus.
    const video = fs.readFileSync(await sharedVideo(world));
    const half = Math.floor(video.length / 2);
    const connection = new Connection();
    const created = await createUpload(connection, uploader.token, "Half sent", video.length);
    expect(created.status).toBe(201);
    const location = String(created.headers.location);
    const sent = await sendUpload(connection, location, uploader.token, 0, video.subarray(0, half));
    expect(sent.headers["upload-offset"]).toBe(String(half));
    connection.close();

    const pids = [...(await workerPids()).keys()];
    world.server.process.kill("SIGKILL");
    // The workers follow their primary, and their encoders with them.
    await expect
      .poll(() => pids.filter(processRuns).length + encodersOf(world.root).length, { timeout: 20_000 })
      .toBe(0);

    await world.restart();
    const resumed = new Connection();
    const head = await resumed.send(location, { method: "HEAD", headers: tusHeaders(uploader.token) });
    expect(head.headers["upload-offset"]).toBe(String(half));
    const rest = await sendUpload(resumed, location, uploader.token, half, video.subarray(half));
    expect(rest.status).toBe(204);
    expect(rest.headers["upload-offset"]).toBe(String(video.length));
    resumed.close();
    // The job the kill interrupted runs again and ends, as do those after it.
    await expect
      .poll(() => jobsOfTitle(movieId).every((job) => job.status === "done"), { timeout: 150_000, interval: 1_000 })
      .toBe(true);
  }, 300_000);

  it("stops every process on SIGTERM with exit code 0: a download under way finishes, the running job goes back in the queue, none stays", async () => {
    const uploader = await login(world, provider);
    const watcher = await login(world, viewer);
    // A film whose processing takes a while: its encoder runs in the background worker at the signal.
    const film = await makeVideoFixture(world.fixtures, "mp4-large", 8);
    const body = new FormData();
    body.append("name", "Stopped mid-job");
    body.append("Category", world.categoryId);
    body.append("file", new Blob([new Uint8Array(fs.readFileSync(film))]), "stopped.mp4");
    const uploaded = await call(world, "/api/upload/movies", { method: "POST", body, token: uploader.token });
    expect(uploaded.status).toBe(201);
    const movieId = world.db.select().from(movies).where(eq(movies.name, "Stopped mid-job")).get()!.id;
    await expect
      .poll(() => world.db.select().from(jobs).where(eq(jobs.movieId, movieId)).get()?.toolPid ?? null, {
        timeout: 60_000,
      })
      .not.toBeNull();

    // A viewer's download of another film, read slowly (about 1 MB/s), under way at the signal.
    const watchedId = "workerswatched01";
    seedDownloadableFilm(world, watchedId, provider.id);
    const download = slowDownload(`${world.url}/api/files/${watchedId}.mp4`, watcher.token);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const pids = [...(await workerPids()).keys()];
    expect(pids).toHaveLength(2);
    const primary = world.server.process;
    const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
    primary.kill("SIGTERM");
    const [code, received] = await Promise.all([exited, download]);
    expect(code).toBe(0);
    expect(received).toEqual({ bytes: 4 * 1024 * 1024, complete: true });
    for (const pid of pids) expect(processRuns(pid), `worker ${pid}`).toBe(false);
    // No encoder outlives the server, and the job waits in the queue with the try not counted.
    // (On a fast box the film's processing may have ended just before the signal, and its ladder was running.)
    const after = world.db.select().from(jobs).where(eq(jobs.movieId, movieId)).all();
    expect(after.filter((job) => job.status !== "done")).toMatchObject([
      { status: "queued", attempts: 0, toolPid: null },
    ]);
    expect(encodersOf(world.root)).toEqual([]);
    await expect(fetch(`${world.url}/healthz`)).rejects.toThrow();
  }, 180_000);
});

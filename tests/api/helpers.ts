/**
 * The /api contract and fuzz tests run against the production build, started
 * on a throwaway storage folder with a real database (as bench/ does). This
 * module seeds that folder, starts the server and calls it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { expect } from "vitest";
import { startServer, type RunningServer } from "../../bench/lib";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import { accounts, categories, movies, type Role } from "~/db/schema";
import { moviePosterPath, movieVideoPath } from "~/media/storage.server";
import { hashPassword } from "~/services/passwords.server";
import { makeVideoFixture } from "../fixtures/media";
import { freePort } from "../fixtures/ports";

export const PASSWORD = "api-test-password-1";

// One server process per test file (WORKERS=1, the server as a single process runs it): on this small
// shared box each worker costs seconds of start-up. tests/api/workers.test.ts runs several.
process.env.WORKERS ??= "1";
// H.264 ladders only: these files check what the server answers, and every film they upload would otherwise
// be encoded to AV1 too, in the background, on the cores the suite shares (a quarter of the suite's CPU). The
// server serves AV1 rungs whatever this says (tests/api/abuse.test.ts); the AV1 encode has tests of its own
// (tests/integration/adaptive-ladder.test.ts, tests/e2e/av1-playback.spec.ts).
process.env.LADDER_CODECS ??= "h264";

export type Seeded = { id: string; email: string; role: Role };

export type ApiWorld = {
  root: string;
  db: DB;
  /** The server's port (a restart keeps it). */
  port: number;
  server: RunningServer;
  url: string;
  passwordHash: string;
  categoryId: string;
  fixtures: string;
  /** Stop the server and start it again on the same storage (with the current process.env). */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
};

let addressCounter = 0;
/** Each request its own client address, so the per-address sign-in budget never leaks between tests. */
export function nextAddress(): string {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

let idCounter = 0;
export function uniqueId(prefix: string): string {
  idCounter++;
  return `${prefix}${Date.now().toString(36)}${idCounter.toString(36)}`.toLowerCase().slice(0, 32);
}

export async function startApiWorld(label: string, env: Record<string, string> = {}): Promise<ApiWorld> {
  // A port of its own from the kernel: the files run side by side.
  const port = await freePort();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `kallo-api-${label}-`));
  const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), `kallo-api-fixtures-${label}-`));
  const db = openDatabase(path.join(root, "data.db"));
  migrateDatabase(db);
  const categoryId = "apicategory0001";
  db.insert(categories).values({ id: categoryId, name: "Drama", slug: "drama" }).run();
  const passwordHash = await hashPassword(PASSWORD);
  const world: ApiWorld = {
    root,
    db,
    port,
    server: await startServer(root, port, { env }),
    url: `http://127.0.0.1:${port}`,
    passwordHash,
    categoryId,
    fixtures,
    restart: async () => {
      await world.server.stop();
      world.server = await startServer(root, port, { env });
    },
    stop: async () => {
      await world.server.stop();
      db.$client.close();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(fixtures, { recursive: true, force: true });
    },
  };
  return world;
}

/** An account written straight to the database (all share one password hash: one scrypt for the whole suite). */
export function seedAccount(
  world: ApiWorld,
  role: Role,
  options: { blocked?: boolean; providerStatus?: "pending" | "approved" | "rejected"; name?: string } = {},
): Seeded {
  const id = uniqueId(role.slice(0, 2));
  const email = `${id}@api.test`;
  world.db
    .insert(accounts)
    .values({
      id,
      name: options.name ?? `Name ${id}`,
      email,
      phoneNumber: "+234 800 000 0001",
      passwordHash: world.passwordHash,
      role,
      providerName: role === "provider" ? `Studio ${id}` : null,
      providerStatus: role === "provider" ? (options.providerStatus ?? "approved") : null,
      blocked: options.blocked ?? false,
    })
    .run();
  return { id, email, role };
}

export type SeededMovie = { id: string; providerId: string };

/** A title row; `withFiles` gives it a real playable video and poster on disk. */
export async function seedMovie(
  world: ApiWorld,
  providerId: string,
  options: {
    status?: "processing" | "ready" | "failed";
    approved?: boolean;
    withFiles?: boolean;
    name?: string;
    access?: "free" | "premium";
  } = {},
): Promise<SeededMovie> {
  const id = uniqueId("mv");
  let sizeBytes = 3 * 1024 * 1024;
  if (options.withFiles) {
    const video = await sharedVideo(world);
    fs.mkdirSync(path.dirname(movieVideoPath(id, world.root)), { recursive: true });
    fs.copyFileSync(video, movieVideoPath(id, world.root));
    sizeBytes = fs.statSync(video).size;
    await sharp({ create: { width: 300, height: 200, channels: 3, background: "#884422" } })
      .jpeg()
      .toFile(moviePosterPath(id, "card", "jpg", world.root));
  }
  world.db
    .insert(movies)
    .values({
      id,
      name: options.name ?? `Title ${id}`,
      description: `About ${id}`,
      categoryId: world.categoryId,
      providerId,
      status: options.status ?? "ready",
      approved: options.approved ?? true,
      access: options.access ?? "free",
      videoFile: options.withFiles ? "video.mp4" : null,
      posterFile: options.withFiles ? "poster" : null,
      sizeBytes,
      durationSeconds: 2,
    })
    .run();
  return { id, providerId };
}

let videoPromise: Promise<string> | undefined;
export function sharedVideo(world: ApiWorld): Promise<string> {
  videoPromise ??= makeVideoFixture(world.fixtures, "mp4-faststart", 2);
  return videoPromise;
}

export type CallOptions = {
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  token?: string;
  cookie?: string;
  origin?: string | null;
  headers?: Record<string, string>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, checked field by field by each test
export type CallResult = { status: number; body: any; headers: Headers; text: string };

/** Call the server. Writes with a cookie send our own Origin unless `origin` says otherwise (null: no Origin). */
export async function call(world: ApiWorld, pathname: string, options: CallOptions = {}): Promise<CallResult> {
  const method = options.method ?? (options.json !== undefined || options.form || options.body ? "POST" : "GET");
  const headers: Record<string, string> = { "X-Forwarded-For": nextAddress(), ...options.headers };
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  }
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.Cookie = options.cookie;
  const origin =
    options.origin === undefined ? (options.cookie && method !== "GET" ? world.url : null) : options.origin;
  if (origin) headers.Origin = origin;
  const response = await fetch(`${world.url}${pathname}`, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, headers: response.headers, text };
}

export type Credentials = { token: string; cookie: string; account: Seeded };

export async function login(world: ApiWorld, account: Seeded): Promise<Credentials> {
  const door = account.role === "provider" ? "/api/cp/login" : "/api/user/login";
  const result = await call(world, door, { json: { email: account.email, password: PASSWORD } });
  if (result.status !== 200) throw new Error(`login of ${account.email} failed: ${result.status} ${result.text}`);
  const cookie = result.headers.getSetCookie().find((value) => value.startsWith("kallo_session="));
  if (!cookie) throw new Error("no session cookie");
  return { token: result.body.token, cookie: cookie.split(";")[0], account };
}

export function rowCount(world: ApiWorld, table: typeof accounts | typeof movies): number {
  return world.db.select({ value: count() }).from(table).get()?.value ?? 0;
}

export function accountRow(world: ApiWorld, id: string) {
  return world.db.select().from(accounts).where(eq(accounts.id, id)).get();
}

export function movieRow(world: ApiWorld, id: string) {
  return world.db.select().from(movies).where(eq(movies.id, id)).get();
}

/** The JSON error envelope every refusal uses. */
export function isErrorEnvelope(result: CallResult): boolean {
  return (
    result.body?.success === false &&
    (typeof result.body.message === "string" || typeof result.body.message === "object")
  );
}

/** Wait until `what` gives a value (polled every 25 ms), or fail after `timeoutMs` naming `label`. */
export async function until<T>(what: () => T | null | undefined | false, timeoutMs: number, label: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = what();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export type RawAnswer = { status: number; head: string; body: string };

/**
 * HTTP/1.1 over a plain socket, for what fetch cannot show: a client busy
 * sending a body reads nothing until its last byte has gone, whatever the
 * server answers meanwhile. A server that closes the connection on its
 * answer makes the rest of the body's writes fail (EPIPE, a reset), and the
 * answer waiting unread is lost with the connection: all a browser shows
 * then is "connection reset". `failure` keeps the socket's error.
 */
export class RawConnection {
  failure: Error | null = null;
  private received = Buffer.alloc(0);

  private constructor(
    readonly socket: net.Socket,
    readonly host: string,
  ) {
    socket.on("error", (error) => (this.failure = error));
    // Nothing is read until read() is called (the kernel's buffer holds what comes).
    socket.pause();
  }

  static async open(world: ApiWorld): Promise<RawConnection> {
    const { hostname, port } = new URL(world.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new RawConnection(socket, `${hostname}:${port}`);
  }

  /** Write bytes in 64 kB pieces, each when the socket takes it; stops when the connection closes, fails when the server stops reading. */
  async send(bytes: Buffer | string, timeoutMs = 10_000): Promise<void> {
    const data = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : bytes;
    for (let at = 0; at < data.length && !this.socket.destroyed; at += 64 * 1024) {
      if (this.socket.write(data.subarray(at, at + 64 * 1024))) continue;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the server stopped reading after ${at} bytes`)), timeoutMs);
        this.socket.once("drain", resolve);
        this.socket.once("close", resolve);
      }).finally(() => clearTimeout(timer));
    }
  }

  /** Wait, reading nothing, until the server's answer has arrived (or the connection has closed). */
  async answerArrived(timeoutMs = 10_000): Promise<void> {
    await until(() => this.socket.readableLength > 0 || this.socket.destroyed, timeoutMs, "the answer");
  }

  /** Read one whole answer (its body by Content-Length or chunked); fails if the connection closes first. */
  async read(timeoutMs = 10_000): Promise<RawAnswer> {
    const onData = (chunk: Buffer) => (this.received = Buffer.concat([this.received, chunk]));
    this.socket.on("data", onData);
    this.socket.resume();
    try {
      const whole = await until(
        () => {
          const answer = parseAnswer(this.received);
          if (!answer && this.socket.destroyed)
            throw new Error(
              `the connection closed before a whole answer (${this.received.length} bytes came; ${this.failure?.message ?? "no error"})`,
            );
          return answer;
        },
        timeoutMs,
        "a whole answer",
      );
      this.received = this.received.subarray(whole.length);
      return whole.answer;
    } finally {
      this.socket.off("data", onData);
      this.socket.pause();
    }
  }

  /**
   * Send a request whose body goes on after the server has answered, as a
   * client busy uploading does: the head and the body's first `answeredAfter`
   * bytes, then — reading nothing — wait for the answer, send the rest, and
   * only then read it.
   */
  async sendPastTheAnswer(head: string, body: Buffer, answeredAfter: number): Promise<RawAnswer> {
    await this.send(head);
    await this.send(body.subarray(0, answeredAfter));
    await this.answerArrived();
    await this.send(body.subarray(answeredAfter));
    return this.read();
  }

  close(): void {
    this.socket.destroy();
  }
}

function parseAnswer(bytes: Buffer): { answer: RawAnswer; length: number } | null {
  const headEnd = bytes.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const head = bytes.subarray(0, headEnd).toString("latin1");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  let at = headEnd + 4;
  const declared = /^content-length: *(\d+)/im.exec(head);
  if (declared) {
    const end = at + Number(declared[1]);
    return end > bytes.length
      ? null
      : { answer: { status, head, body: bytes.subarray(at, end).toString() }, length: end };
  }
  if (!/^transfer-encoding: *chunked/im.test(head)) return { answer: { status, head, body: "" }, length: at };
  const chunks: Buffer[] = [];
  for (;;) {
    const sizeEnd = bytes.indexOf("\r\n", at);
    if (sizeEnd < 0) return null;
    const size = parseInt(bytes.subarray(at, sizeEnd).toString("latin1"), 16);
    const end = sizeEnd + 2 + size + 2;
    if (end > bytes.length) return null;
    if (size === 0) return { answer: { status, head, body: Buffer.concat(chunks).toString() }, length: end };
    chunks.push(bytes.subarray(sizeEnd + 2, sizeEnd + 2 + size));
    at = end;
  }
}

/** A film fetched at about 1 MB/s (a viewer on a slow link): how many bytes came, and whether the answer was whole. */
export function slowDownload(url: string, token: string): Promise<{ bytes: number; complete: boolean }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { Authorization: `Bearer ${token}` } }, (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          response.pause();
          setTimeout(() => response.resume(), Math.ceil(chunk.length / 1000));
        });
        response.on("end", () => resolve({ bytes, complete: response.complete }));
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/** Wait (up to a minute) until an uploaded title is processed, and require it to be ready. */
export async function waitUntilReady(world: ApiWorld, movieId: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const status = movieRow(world, movieId)?.status;
    if (status !== "processing") {
      expect(status).toBe("ready");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${movieId} did not become ready`);
}

/** A published 4 MB "film" (bytes, not a video) for a download that is under way while the server stops. */
export function seedDownloadableFilm(world: ApiWorld, id: string, providerId: string): void {
  fs.mkdirSync(path.dirname(movieVideoPath(id, world.root)), { recursive: true });
  fs.writeFileSync(movieVideoPath(id, world.root), Buffer.alloc(4 * 1024 * 1024, 5));
  world.db
    .insert(movies)
    .values({
      id,
      name: "Watched",
      categoryId: world.categoryId,
      providerId,
      status: "ready",
      approved: true,
      videoFile: `${id}.mp4`,
      sizeBytes: 4 * 1024 * 1024,
    })
    .run();
}

/** The ffmpeg processes working on files under `root` (a test server's encoders). */
export function encodersOf(root: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", `ffmpeg.*${root}`])
      .toString()
      .trim()
      .split("\n")
      .filter(Boolean);
  } catch {
    return [];
  }
}

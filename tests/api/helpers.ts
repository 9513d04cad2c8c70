/**
 * The /api contract and fuzz tests run against the production build, started
 * on a throwaway storage folder with a real database (as bench/ does). This
 * module seeds that folder, starts the server and calls it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { startServer, type RunningServer } from "../../bench/lib";
import { migrateDatabase, openDatabase, type DB } from "~/db/client.server";
import { accounts, categories, movies, type Role } from "~/db/schema";
import { moviePosterPath, movieVideoPath } from "~/media/storage.server";
import { hashPassword } from "~/services/passwords.server";
import { makeVideoFixture } from "../fixtures/media";

export const PASSWORD = "api-test-password-1";

// One server process per test file (WORKERS=1, the server as a single process runs it): on this small
// shared box each worker costs seconds of start-up. tests/api/workers.test.ts runs several.
process.env.WORKERS ??= "1";

export type Seeded = { id: string; email: string; role: Role };

export type ApiWorld = {
  root: string;
  db: DB;
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

/** Each file's own port, moved by API_PORT_OFFSET so two checkouts can run the suite side by side. */
export function apiPort(port: number): number {
  return port + Number(process.env.API_PORT_OFFSET ?? 0);
}

export async function startApiWorld(label: string, filePort: number): Promise<ApiWorld> {
  const port = apiPort(filePort);
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
    server: await startServer(root, port),
    url: `http://127.0.0.1:${port}`,
    passwordHash,
    categoryId,
    fixtures,
    restart: async () => {
      await world.server.stop();
      world.server = await startServer(root, port);
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

import fs from "node:fs";
import { count, eq, ne } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, movies, sessions, watchEvents } from "~/db/schema";
import { storagePaths } from "~/media/storage.server";
import {
  changePasswordSchema,
  profileSchema,
  providerProfileSchema,
  providerRegistrationSchema,
  registrationSchema,
} from "~/services/validation";
import { accountRow, login, movieRow, nextAddress, PASSWORD, seedAccount, seedMovie, startApiWorld } from "./helpers";
import type { ApiWorld, Credentials, Seeded } from "./helpers";

// A failure prints its seed; FC_SEED=<seed> npm run test:api replays it.
if (process.env.FC_SEED) fc.configureGlobal({ seed: Number(process.env.FC_SEED) });

/**
 * Random payloads to every writable /api path: JSON and URL-encoded objects
 * with wrong types, huge and unicode strings, missing fields, arrays and
 * nulls; JSON that is not an object; bytes that are not JSON at all. Each
 * answer must be a 4xx (or a success) in the JSON envelope — never a 5xx —
 * and the database must hold only what the rules accept.
 */
const RUNS = 250;
let world: ApiWorld;
let admin: Credentials;
let viewer: Credentials;
let provider: Credentials;

beforeAll(async () => {
  world = await startApiWorld("fuzz");
  [admin, viewer, provider] = await Promise.all([
    login(world, seedAccount(world, "admin")),
    login(world, seedAccount(world, "viewer")),
    login(world, seedAccount(world, "provider")),
  ]);
});
afterAll(async () => {
  await world?.stop();
});

// ---- payloads ----

const hugeString = fc.constantFrom("x".repeat(70_000), "ü".repeat(40_000));
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 2, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.object({ maxDepth: 1, maxKeys: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "\u0000",
      "null",
      "[object Object]",
      "<script>alert(1)</script>",
      "' OR 1=1 --",
    ),
  },
);

/**
 * An object with any of `fields` and a few random keys. Given plausible values,
 * half the objects carry every field, nearly all plausible, so the accepting
 * branch of each rule is reached too, not only the refusals.
 */
function objectOf(fields: string[], plausible: Record<string, fc.Arbitrary<unknown>> = {}, nearlyValidShare = 0.5) {
  const random = fc.record(Object.fromEntries(fields.map((field) => [field, value])), { requiredKeys: [] });
  const extra = fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 2 });
  const withExtra = (known: fc.Arbitrary<Record<string, unknown>>) =>
    fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...a }) as Record<string, unknown>);
  if (Object.keys(plausible).length === 0) return withExtra(random);
  const nearlyValid = fc.record(
    Object.fromEntries(
      fields.map((field) => [
        field,
        plausible[field]
          ? fc.oneof({ weight: 12, arbitrary: plausible[field] }, { weight: 1, arbitrary: value })
          : value,
      ]),
    ),
    { requiredKeys: fields.filter((field) => plausible[field]) },
  );
  // Each nearly valid payload costs the server a password hash (scrypt), so the share is kept small where that is so.
  const weight = Math.round(nearlyValidShare * 20);
  return fc.oneof(
    { weight: 20 - weight, arbitrary: withExtra(random) },
    { weight, arbitrary: nearlyValid as fc.Arbitrary<Record<string, unknown>> },
  );
}

type Body =
  | { kind: "json" | "form" | "multipart"; object: Record<string, unknown> }
  | { kind: "raw"; contentType: string; text: string };

function bodyOf(
  fields: string[],
  plausible: Record<string, fc.Arbitrary<unknown>> = {},
  nearlyValidShare = 0.5,
): fc.Arbitrary<Body> {
  const objects = objectOf(fields, plausible, nearlyValidShare);
  return fc.oneof(
    { weight: 6, arbitrary: objects.map((object) => ({ kind: "json" as const, object })) },
    { weight: 4, arbitrary: objects.map((object) => ({ kind: "form" as const, object })) },
    { weight: 1, arbitrary: objects.map((object) => ({ kind: "multipart" as const, object })) },
    {
      weight: 1,
      arbitrary: fc
        .json({ maxDepth: 2 })
        .map((text) => ({ kind: "raw" as const, contentType: "application/json", text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("application/json", "text/plain", "", "application/x-www-form-urlencoded", "application/xml"),
          fc.string({ unit: "binary", maxLength: 200 }),
        )
        .map(([contentType, text]) => ({ kind: "raw" as const, contentType, text })),
    },
  );
}

function asText(input: unknown): string {
  return typeof input === "string" ? input : (JSON.stringify(input) ?? "");
}

function encode(body: Body): { contentType: string; text: string | FormData } {
  if (body.kind === "raw") return body;
  if (body.kind === "multipart") {
    const form = new FormData();
    for (const [key, entry] of Object.entries(body.object)) form.set(key, asText(entry));
    // fetch writes the multipart Content-Type with its boundary.
    return { contentType: "", text: form };
  }
  if (body.kind === "json") return { contentType: "application/json", text: JSON.stringify(body.object) };
  const params = new URLSearchParams();
  for (const [key, entry] of Object.entries(body.object)) params.set(key, asText(entry));
  return { contentType: "application/x-www-form-urlencoded", text: params.toString() };
}

/** The fields the server reads from a body (strings, and finite numbers as text), to check an accepted payload against the rules. */
function fieldsSeen(body: Body): Record<string, string> | null {
  const fields: Record<string, string> = Object.create(null);
  if (body.kind === "raw") return null;
  for (const [key, entry] of Object.entries(body.object)) {
    if (body.kind === "form" || body.kind === "multipart") fields[key] = asText(entry);
    else if (typeof entry === "string") fields[key] = entry;
    else if (typeof entry === "number" && Number.isFinite(entry)) fields[key] = String(entry);
  }
  return fields;
}

type Sent = { status: number; json: { success?: unknown } | undefined; text?: string };

async function send(method: string, pathname: string, body: Body | null, token?: string): Promise<Sent> {
  const headers: Record<string, string> = { "X-Forwarded-For": nextAddress() };
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: string | FormData | undefined;
  if (body) {
    const encoded = encode(body);
    if (encoded.contentType) headers["Content-Type"] = encoded.contentType;
    payload = encoded.text;
  }
  const response = await fetch(`${world.url}${pathname}`, { method, headers, body: payload });
  const text = await response.text();
  let json: Sent["json"];
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text: text.slice(0, 300) };
}

/** What every answer must be: not a 5xx, JSON, and `success: false` on a refusal. */
function expectSound(result: Sent, label: string) {
  expect(result.status, label).toBeLessThan(500);
  expect(result.json, `${label}: JSON body, got ${result.status} ${result.text}`).toBeDefined();
  if (result.status >= 400) expect(result.json?.success, label).toBe(false);
}

const rows = (table: typeof accounts | typeof movies | typeof sessions | typeof watchEvents) =>
  world.db.select({ value: count() }).from(table).get()!.value;

const plausibleAccount = {
  name: fc.constantFrom("Aisha Musa", "  Bala Ɗanjuma  ", "Ƙasim"),
  providerName: fc.constantFrom("Kano Pictures", "Ɓarau Films"),
  email: fc.oneof(
    fc.nat().map((n) => `person${n}@fuzz.test`),
    fc.emailAddress(),
  ),
  phoneNumber: fc.constantFrom("+234 801 234 5678", "08012345678", "(080) 123-4567", 8012345678),
  password: fc.constant("fuzz-password-1"),
  password2: fc.constant("fuzz-password-1"),
  website: fc.constant(""),
};

// ---- the endpoints ----

describe("fuzzing the writable /api paths", () => {
  it(`POST /api/user/login and /api/cp/login: ${RUNS} payloads each, signing in only with the right password`, async () => {
    for (const door of ["/api/user/login", "/api/cp/login"]) {
      const known = door === "/api/user/login" ? viewer.account : provider.account;
      const credentials = {
        email: fc.constantFrom(known.email, known.email.toUpperCase(), "nobody@fuzz.test"),
        password: fc.constantFrom(PASSWORD, "wrong-password"),
      };
      await fc.assert(
        fc.asyncProperty(bodyOf(["email", "password", "website"], credentials, 0.15), async (body) => {
          const sessionsBefore = rows(sessions);
          const result = await send("POST", door, body);
          expectSound(result, door);
          const seen = fieldsSeen(body);
          if (result.status === 200) {
            expect(seen?.email?.trim().toLowerCase()).toBe(known.email);
            expect(seen?.password).toBe(PASSWORD);
            expect(rows(sessions)).toBe(sessionsBefore + 1);
          } else {
            expect(rows(sessions)).toBe(sessionsBefore);
          }
        }),
        { numRuns: RUNS },
      );
    }
  }, 180_000); // Every payload is a password checked (a wrong email against a decoy hash): slow on a loaded box.

  it(`POST /api/user/register and /api/cp/register: ${RUNS} payloads each; every stored account is valid per the schema`, async () => {
    const cases = [
      {
        pathname: "/api/user/register",
        schema: registrationSchema,
        fields: ["name", "phoneNumber", "email", "password", "password2", "website"],
        token: undefined,
      },
      {
        pathname: "/api/cp/register",
        schema: providerRegistrationSchema,
        fields: ["providerName", "phoneNumber", "email", "password", "password2"],
        token: admin.token,
      },
    ] as const;
    for (const { pathname, schema, fields, token } of cases) {
      let accepted = 0;
      await fc.assert(
        // Three in ten nearly valid: at RUNS payloads the accepting branch is reached a dozen times or more.
        fc.asyncProperty(bodyOf([...fields], plausibleAccount, 0.3), async (body) => {
          const before = rows(accounts);
          const result = await send("POST", pathname, body, token);
          expectSound(result, pathname);
          if (result.status === 201) {
            accepted++;
            const seen = fieldsSeen(body)!;
            const parsed = schema.safeParse(seen);
            expect(parsed.success, JSON.stringify(seen)).toBe(true);
            // The honeypot counts as filled when it holds more than white space (isHoneypotFilled).
            expect(String(seen.website ?? "").trim()).toBe("");
            const stored = world.db.select().from(accounts).where(eq(accounts.email, parsed.data!.email!)).get();
            expect(stored).toMatchObject({
              phoneNumber: parsed.data!.phoneNumber,
              role: token ? "provider" : "viewer",
            });
            expect(rows(accounts)).toBe(before + 1);
          } else {
            expect(rows(accounts)).toBe(before);
          }
        }),
        { numRuns: RUNS },
      );
      // The generator must reach the accepting branch too, or the check above proves little.
      expect(accepted, pathname).toBeGreaterThan(5);
    }
  }, 180_000); // Every accepted payload is a password hashed: on a loaded box this takes longer than most.

  it(`PUT /api/cp/{,user/}{block,unblock}/{id}: ${RUNS} ids and bodies each; only an account of the path's role changes`, async () => {
    const targets = {
      provider: [seedAccount(world, "provider"), seedAccount(world, "provider")],
      viewer: [seedAccount(world, "viewer"), seedAccount(world, "viewer")],
    };
    // Never the callers' own accounts: blocking them would end the tokens the other runs use.
    const everyone = [...targets.provider, ...targets.viewer, admin.account];
    const idArb = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...everyone.map((account) => account.id)) },
      { weight: 2, arbitrary: fc.string({ maxLength: 80 }) },
      { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
      { weight: 1, arbitrary: fc.constantFrom("..", "%2e%2e", "a/b", " ", "nosuch", "x".repeat(2000)) },
    );
    for (const [prefix, role] of [
      ["/api/cp/block/", "provider"],
      ["/api/cp/unblock/", "provider"],
      ["/api/cp/user/block/", "viewer"],
      ["/api/cp/user/unblock/", "viewer"],
    ] as const) {
      const untouchable = () =>
        world.db
          .select({ id: accounts.id, blocked: accounts.blocked, tokenVersion: accounts.tokenVersion })
          .from(accounts)
          .where(ne(accounts.role, role))
          .all();
      const before = untouchable();
      const accountsBefore = rows(accounts);
      await fc.assert(
        fc.asyncProperty(idArb, fc.option(bodyOf(["id", "isBlocked"]), { nil: null }), async (id, body) => {
          const result = await send("PUT", `${prefix}${encodeURIComponent(id)}`, body, admin.token);
          expectSound(result, `${prefix}${id.slice(0, 40)}`);
          if (result.status === 200) {
            expect(targets[role].map((account: Seeded) => account.id)).toContain(id);
            expect(accountRow(world, id)!.blocked).toBe(!prefix.includes("unblock"));
          }
        }),
        { numRuns: RUNS },
      );
      expect(untouchable()).toEqual(before);
      expect(rows(accounts)).toBe(accountsBefore);
    }
  });

  it(`PUT /api/user/profile/edit/{id} and /api/cp/profile/edit/{id}: ${RUNS} payloads each; a saved profile is valid, a refused one unchanged`, async () => {
    const cases = [
      {
        pathname: `/api/user/profile/edit/${viewer.account.id}`,
        id: viewer.account.id,
        schema: profileSchema,
        fields: ["name", "email", "phoneNumber"],
        token: viewer.token,
      },
      {
        pathname: `/api/cp/profile/edit/${provider.account.id}`,
        id: provider.account.id,
        schema: providerProfileSchema,
        fields: ["name", "email", "phoneNumber", "providerName"],
        token: provider.token,
      },
    ];
    for (const { pathname, id, schema, fields, token } of cases) {
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(bodyOf(fields, plausibleAccount), async (body) => {
          const before = accountRow(world, id)!;
          const result = await send("PUT", pathname, body, token);
          expectSound(result, pathname);
          const after = accountRow(world, id)!;
          if (result.status === 200) {
            accepted++;
            const parsed = schema.safeParse(fieldsSeen(body));
            expect(parsed.success).toBe(true);
            expect(after).toMatchObject({
              name: parsed.data!.name,
              email: parsed.data!.email,
              phoneNumber: parsed.data!.phoneNumber,
            });
          } else {
            expect(after).toEqual(before);
          }
        }),
        { numRuns: RUNS },
      );
      expect(accepted, pathname).toBeGreaterThan(5);
    }
  });

  it(`PUT /api/user/profile/password/{id}: ${RUNS} payloads; only the right current password and a valid new one change it`, async () => {
    const account = seedAccount(world, "viewer");
    let { token } = await login(world, account);
    let current = PASSWORD;
    let accepted = 0;
    const plausible = {
      currentPassword: fc.constantFrom(PASSWORD, "not-the-password"),
      password: fc.constantFrom("next-password-1", "next-password-2"),
      password2: fc.constantFrom("next-password-1", "next-password-2"),
    };
    await fc.assert(
      fc.asyncProperty(bodyOf(["currentPassword", "password", "password2"], plausible, 0.15), async (body) => {
        const before = accountRow(world, account.id)!;
        const result = await send("PUT", `/api/user/profile/password/${account.id}`, body, token);
        expectSound(result, "password");
        const after = accountRow(world, account.id)!;
        if (result.status === 200) {
          accepted++;
          const parsed = changePasswordSchema.safeParse(fieldsSeen(body));
          expect(parsed.success).toBe(true);
          expect(parsed.data!.currentPassword).toBe(current);
          expect(after.tokenVersion).toBe(before.tokenVersion + 1);
          current = parsed.data!.password;
          token = (result.json as { token: string }).token;
        } else {
          expect(after).toEqual(before);
        }
      }),
      // Five wrong current passwords end the tries for a while (the rate limit), so the right one goes first.
      {
        numRuns: RUNS,
        examples: [
          [
            {
              kind: "json" as const,
              object: { currentPassword: PASSWORD, password: "next-password-1", password2: "next-password-1" },
            },
          ],
        ],
      },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it(`POST /api/upload/movies: ${RUNS} random multipart and other bodies; nothing is stored, nothing left on disk`, async () => {
    const before = rows(movies);
    const part = fc.oneof(
      fc.record({
        kind: fc.constant("text" as const),
        name: fc.oneof(
          fc.constantFrom("name", "Category", "Description", "cast", "uploadedByUser"),
          fc.string({ maxLength: 10 }),
        ),
        value: fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ unit: "grapheme", maxLength: 50 }),
          fc.constant(world.categoryId),
        ),
      }),
      fc.record({
        kind: fc.constant("file" as const),
        name: fc.oneof(fc.constant("file"), fc.constant("movie"), fc.string({ maxLength: 8 })),
        filename: fc.oneof(
          fc.constantFrom("m.mp4", "p.jpg", "x.avi", "y.png", "noext", "../../etc/passwd", "a.mp4.exe"),
          fc.string({ maxLength: 20 }),
        ),
        bytes: fc.uint8Array({ maxLength: 2048 }),
      }),
    );
    const uploadBody = fc.oneof(
      { weight: 5, arbitrary: fc.array(part, { maxLength: 6 }).map((parts) => ({ multipart: parts })) },
      { weight: 1, arbitrary: bodyOf(["name", "Category", "file"]).map((body) => ({ plain: body })) },
    );
    await fc.assert(
      fc.asyncProperty(uploadBody, async (input) => {
        let result: Sent;
        if ("plain" in input) {
          result = await send("POST", "/api/upload/movies", input.plain, provider.token);
        } else {
          const form = new FormData();
          for (const entry of input.multipart) {
            if (entry.kind === "text") form.append(entry.name, entry.value);
            else form.append(entry.name, new Blob([entry.bytes]), entry.filename || "unnamed");
          }
          const response = await fetch(`${world.url}/api/upload/movies`, {
            method: "POST",
            body: form,
            headers: { Authorization: `Bearer ${provider.token}`, "X-Forwarded-For": nextAddress() },
          });
          const text = await response.text();
          result = { status: response.status, json: JSON.parse(text) };
        }
        expectSound(result, "upload");
        expect(result.status).not.toBe(201);
      }),
      { numRuns: RUNS },
    );
    expect(rows(movies)).toBe(before);
    const tmp = storagePaths(world.root).tmp;
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
  });

  it(`DELETE /api/movies/delete/{id}: ${RUNS} ids by a provider who owns none of them; nothing is deleted`, async () => {
    const others = [
      await seedMovie(world, admin.account.id),
      await seedMovie(world, seedAccount(world, "provider").id),
    ];
    const before = rows(movies);
    const idArb = fc.oneof(
      fc.constantFrom(...others.map((movie) => movie.id)),
      fc.string({ maxLength: 60 }),
      fc.string({ unit: "grapheme", maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(idArb, fc.option(bodyOf(["movieId"]), { nil: null }), async (id, body) => {
        const result = await send("DELETE", `/api/movies/delete/${encodeURIComponent(id)}`, body, provider.token);
        expectSound(result, "delete");
        expect(result.status).not.toBe(200);
      }),
      { numRuns: RUNS },
    );
    expect(rows(movies)).toBe(before);
    for (const movie of others) expect(movieRow(world, movie.id)).toBeDefined();
  });

  it(`PUT /api/files/movies/views/{id} and POST /api/files/watched: ${RUNS} payloads each; at most one viewing and one view`, async () => {
    const movie = await seedMovie(world, provider.account.id);
    const idArb = fc.oneof(
      fc.constant(movie.id),
      fc.string({ maxLength: 60 }),
      fc.string({ unit: "grapheme", maxLength: 20 }),
    );
    const eventsBefore = rows(watchEvents);
    await fc.assert(
      fc.asyncProperty(idArb, fc.option(bodyOf(["movieId"]), { nil: null }), async (id, body) => {
        const result = await send("PUT", `/api/files/movies/views/${encodeURIComponent(id)}`, body, viewer.token);
        expectSound(result, "views");
        if (result.status === 200) expect(id).toBe(movie.id);
      }),
      { numRuns: RUNS },
    );
    // One viewing of one title: at most one history row and one view, however many calls.
    expect(rows(watchEvents) - eventsBefore).toBeLessThanOrEqual(1);
    expect(movieRow(world, movie.id)!.views).toBeLessThanOrEqual(1);

    const plausible = {
      movieId: fc.constantFrom(movie.id, ` ${movie.id} `, "nosuchmovie"),
      userId: fc.constantFrom(viewer.account.id, admin.account.id),
    };
    await fc.assert(
      fc.asyncProperty(bodyOf(["userId", "movieId"], plausible), async (body) => {
        const result = await send("POST", "/api/files/watched", body, viewer.token);
        expectSound(result, "watched");
        if (result.status === 200) {
          const seen = fieldsSeen(body)!;
          expect(seen.movieId.trim()).toBe(movie.id);
          expect(seen.userId === undefined || seen.userId === viewer.account.id).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
    expect(rows(watchEvents) - eventsBefore).toBeLessThanOrEqual(1);
    const others = world.db
      .select({ value: count() })
      .from(watchEvents)
      .where(ne(watchEvents.accountId, viewer.account.id))
      .get()!.value;
    expect(others).toBe(0);
  });
});

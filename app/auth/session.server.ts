import { createHash, randomBytes } from "node:crypto";
import { createSessionStorage, type Session } from "@remix-run/node";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { getDb, type DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { sessions } from "~/db/schema";
import { SESSION_COOKIE_NAME } from "~/utils/cookie-names";
import { getEnv } from "~/utils/env.server";
import { shareWhilePending } from "~/utils/share-while-pending";

export { SESSION_COOKIE_NAME };

/**
 * Server-side sessions: the cookie carries only a random id (signed with
 * SESSION_SECRET, rotation through a comma-separated list); the `sessions`
 * row holds the account and the expiry. Deleting rows signs people out
 * everywhere at once: logout, blocking, password change and reset do that.
 */
export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;

/** `profileId` is read from the row (chosen with profiles.server.ts chooseProfile), never written through the cookie. */
export type SessionData = { accountId: string; userAgent?: string; ipAddress?: string; profileId?: string | null };
export type AccountSession = Session<SessionData>;

export function deleteExpiredSessions(db: DB, now = new Date()): number {
  return db.delete(sessions).where(lte(sessions.expiresAt, now)).run().changes;
}

// Read on every signed-in request: prepared once.
const sessionById = preparedQuery((db) =>
  db
    .select({ accountId: sessions.accountId, expiresAt: sessions.expiresAt, profileId: sessions.profileId })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare(),
);

/** A session storage over the `sessions` table of the given database (tests pass their own). */
export function createDatabaseSessionStorage(database: () => DB, options: { secure: boolean; secrets: string[] }) {
  return createSessionStorage<SessionData>({
    cookie: {
      name: SESSION_COOKIE_NAME,
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: options.secure,
      secrets: options.secrets,
      maxAge: SESSION_TTL_SECONDS,
    },
    async createData(data, expires) {
      if (!data.accountId) throw new Error("A session row needs an account");
      const db = database();
      // Sign-ins are a good moment to sweep rows nobody will read again.
      deleteExpiredSessions(db);
      const id = randomBytes(32).toString("base64url");
      db.insert(sessions)
        .values({
          id,
          accountId: data.accountId,
          expiresAt: expires ?? new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
          userAgent: data.userAgent?.slice(0, 300) ?? null,
          ipAddress: data.ipAddress ?? null,
        })
        .run();
      return id;
    },
    async readData(id) {
      const db = database();
      const row = sessionById(db).get({ id });
      if (!row) return null;
      if (row.expiresAt.getTime() <= Date.now()) {
        db.delete(sessions).where(eq(sessions.id, id)).run();
        return null;
      }
      return { accountId: row.accountId, profileId: row.profileId };
    },
    async updateData(id, data, expires) {
      const db = database();
      if (!data.accountId) {
        db.delete(sessions).where(eq(sessions.id, id)).run();
        return;
      }
      // Only a live row is extended: an ended session is never brought back by a late commit.
      db.update(sessions)
        .set({ accountId: data.accountId, ...(expires ? { expiresAt: expires } : {}) })
        .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())))
        .run();
    },
    async deleteData(id) {
      database().delete(sessions).where(eq(sessions.id, id)).run();
    },
  });
}

let storage: ReturnType<typeof createDatabaseSessionStorage> | undefined;

export function getSessionStorage() {
  // Not Secure here: the server marks every cookie Secure exactly when the request came over https (scripts/serve.ts).
  storage ??= createDatabaseSessionStorage(getDb, { secure: false, secrets: getEnv().sessionSecrets });
  return storage;
}

const sessionsBeingRead = new Map<string, Promise<AccountSession>>();

/**
 * This request's session. Remix hands the root loader and the page's loader
 * each its own copy of a request, and both ask (the watch page a third time,
 * for the device): for a GET they share one reading of the cookie's signature
 * and the session row while it is under way. Nothing is kept after it; a
 * request that changes things reads its own.
 */
export function getSession(request: Request): Promise<AccountSession> {
  const cookie = request.headers.get("Cookie");
  const read = () => getSessionStorage().getSession(cookie);
  if (!cookie || (request.method !== "GET" && request.method !== "HEAD")) return read();
  return shareWhilePending(sessionsBeingRead, cookie, read);
}

/** Start a fresh session (a new id, so no one can fix it beforehand) and return its Set-Cookie value. */
export async function startSession(
  accountId: string,
  details: { userAgent?: string | null; ipAddress?: string | null } = {},
): Promise<string> {
  const { getSession: emptySession, commitSession } = getSessionStorage();
  const session = await emptySession();
  session.set("accountId", accountId);
  if (details.userAgent) session.set("userAgent", details.userAgent);
  if (details.ipAddress) session.set("ipAddress", details.ipAddress);
  return commitSession(session);
}

/** Delete this request's session row and return the Set-Cookie value that clears the cookie. */
export async function endSession(request: Request): Promise<string> {
  const session = await getSession(request);
  return getSessionStorage().destroySession(session);
}

/**
 * The device a request plays on, for the plan's screen limit: one sign-in is
 * one device. A hash of the session id, so the id itself (a secret) is never
 * stored elsewhere. Token callers map their token to a session id and use
 * `deviceIdForSession` the same way.
 */
export function deviceIdForSession(sessionId: string): string {
  return createHash("sha256").update(`device:${sessionId}`).digest("hex").slice(0, 32);
}

/** This request's device id, or null without a session. */
export async function getDeviceId(request: Request): Promise<string | null> {
  const session = await getSession(request);
  return session.id ? deviceIdForSession(session.id) : null;
}

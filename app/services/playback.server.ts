import { and, eq, gt, lte, ne, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { movies, playbackLeases, type Role } from "~/db/schema";
import { movieVideoPath } from "~/media/storage.server";
import { getPassStatus, hasActivePass, type PlanLimits } from "./passes.server";

export type PlaybackRefusal = { allowed: false; status: 401 | 403 | 404; message: string; reason?: "pass_required" | "screens"; screens?: number };
export type PlaybackDecision = { allowed: true; movieId: string } | PlaybackRefusal;

const PUBLIC_VIDEO_NAME = /^([a-z0-9]{8,32})\.mp4$/;

export const PASS_REQUIRED_MESSAGE = "This title is Premium: it needs an active Basic or Pro pass. Buy one or redeem a voucher at /payment.";

export function screensMessage(screens: number): string {
  return `Your plan allows ${screens} ${screens === 1 ? "screen" : "screens"} at a time and another device is playing. Stop playback on the other device (on the title's page) to watch here.`;
}

type Account = { id: string; role: Role };

/**
 * Who may stream a title's video: signed-in viewers and administrators a
 * published title (ready and approved), a provider their own titles (to check
 * them), administrators any ready title. A Premium title also needs an active
 * pass of a paid plan, except for administrators and the owning provider.
 */
export function decidePlayback(db: DB, filename: string, account: Account | null, now: Date = new Date()): PlaybackDecision {
  const match = PUBLIC_VIDEO_NAME.exec(filename);
  if (!match) return { allowed: false, status: 404, message: "Video not found" };
  if (!account) return { allowed: false, status: 401, message: "Sign in to watch" };
  const movie = db
    .select({ id: movies.id, status: movies.status, approved: movies.approved, providerId: movies.providerId, access: movies.access })
    .from(movies)
    .where(eq(movies.id, match[1]))
    .get();
  if (!movie || movie.status !== "ready") return { allowed: false, status: 404, message: "Video not found" };
  if (account.role === "admin") return { allowed: true, movieId: movie.id };
  if (account.role === "provider") {
    return movie.providerId === account.id ? { allowed: true, movieId: movie.id } : { allowed: false, status: 403, message: "Not allowed" };
  }
  if (!movie.approved) return { allowed: false, status: 404, message: "Video not found" };
  if (movie.access === "premium" && !hasActivePass(db, account.id, now)) {
    return { allowed: false, status: 403, message: PASS_REQUIRED_MESSAGE, reason: "pass_required" };
  }
  return { allowed: true, movieId: movie.id };
}

// ---------------------------------------------------------------------------
// Quality: a plan's maximum quality caps the rendition served.

export const QUALITIES = ["sd", "hd", "uhd"] as const;
export type Quality = (typeof QUALITIES)[number];
export type Rendition = { quality: Quality; path: string };

/** The quality class of a picture height: 2160 lines and up Ultra HD, 720 and up HD, below SD. */
export function qualityOfHeight(height: number | null | undefined): Quality {
  if (!height) return "hd";
  if (height >= 2160) return "uhd";
  if (height >= 720) return "hd";
  return "sd";
}

/**
 * The best rendition the plan allows; when every rendition is above the
 * plan's cap, the smallest one (a viewer is never left with nothing).
 */
export function chooseRendition<R extends { quality: Quality }>(renditions: readonly R[], maxQuality: Quality): R | null {
  if (renditions.length === 0) return null;
  const rank = (quality: Quality) => QUALITIES.indexOf(quality);
  const sorted = [...renditions].sort((a, b) => rank(a.quality) - rank(b.quality));
  const allowed = sorted.filter((rendition) => rank(rendition.quality) <= rank(maxQuality));
  return allowed.at(-1) ?? sorted[0];
}

/** A title's renditions on disk. Today there is one, the processed film. */
export function movieRenditions(db: DB, movieId: string): Rendition[] {
  const movie = db.select({ height: movies.height }).from(movies).where(eq(movies.id, movieId)).get();
  if (!movie) return [];
  return [{ quality: qualityOfHeight(movie.height), path: movieVideoPath(movieId) }];
}

// ---------------------------------------------------------------------------
// Screens: one lease per device that plays, limited by the plan's screens.

/** A lease lives this long after its last renewal (byte requests and progress reports renew it). */
export const LEASE_TTL_MS = 2 * 60 * 1000;

/** Devices that play against the plan's screens; staff checking titles do not. */
function countsScreens(account: Account): boolean {
  return account.role === "viewer";
}

export function planLimitsFor(db: DB, account: Account, now: Date = new Date()): PlanLimits {
  if (!countsScreens(account)) return { screens: Number.POSITIVE_INFINITY, maxQuality: "uhd" };
  const { plan } = getPassStatus(db, account.id, now);
  return { screens: plan.screens, maxQuality: plan.maxQuality };
}

export type LeaseResult = { ok: true } | { ok: false; screens: number };

function otherActiveDevices(db: Pick<DB, "select">, accountId: string, deviceId: string, now: Date): number {
  return (
    db
      .select({ value: sql<number>`count(*)` })
      .from(playbackLeases)
      .where(and(eq(playbackLeases.accountId, accountId), ne(playbackLeases.deviceId, deviceId), gt(playbackLeases.expiresAt, now)))
      .get()?.value ?? 0
  );
}

/**
 * Take or renew this device's lease for a title. Refused when other devices
 * of the account already hold as many live leases as the plan has screens.
 * Callers identify a device by `deviceIdForSession` (a sign-in), whether the
 * request came with the session cookie or with a token mapped to a session.
 */
export function takePlaybackLease(db: DB, input: { account: Account; deviceId: string; movieId: string }, now: Date = new Date()): LeaseResult {
  const { account } = input;
  if (!countsScreens(account)) return { ok: true };
  // Nothing to lease for an unknown title (the caller answers 404 for it).
  if (!db.select({ id: movies.id }).from(movies).where(eq(movies.id, input.movieId)).get()) return { ok: true };
  const { screens } = planLimitsFor(db, account, now);
  return db.transaction((tx) => {
    tx.delete(playbackLeases).where(and(eq(playbackLeases.accountId, account.id), lte(playbackLeases.expiresAt, now))).run();
    if (otherActiveDevices(tx, account.id, input.deviceId, now) >= screens) return { ok: false, screens } as const;
    const expiresAt = new Date(now.getTime() + LEASE_TTL_MS);
    tx.insert(playbackLeases)
      .values({ accountId: account.id, deviceId: input.deviceId, movieId: input.movieId, expiresAt, createdAt: now })
      .onConflictDoUpdate({ target: [playbackLeases.accountId, playbackLeases.deviceId], set: { movieId: input.movieId, expiresAt } })
      .run();
    return { ok: true } as const;
  }, { behavior: "immediate" });
}

/** Would this device get a lease now? (Read only: the watch page asks before it shows the player.) */
export function checkPlaybackLease(db: DB, input: { account: Account; deviceId: string }, now: Date = new Date()): LeaseResult {
  if (!countsScreens(input.account)) return { ok: true };
  const { screens } = planLimitsFor(db, input.account, now);
  return otherActiveDevices(db, input.account.id, input.deviceId, now) >= screens ? { ok: false, screens } : { ok: true };
}

/** The device stopped playing (pause, end, page left): its screen is free at once. */
export function releasePlaybackLease(db: DB, accountId: string, deviceId: string): void {
  db.delete(playbackLeases).where(and(eq(playbackLeases.accountId, accountId), eq(playbackLeases.deviceId, deviceId))).run();
}

/** "Stop playback on the other device": end every other device's lease and give this device one. */
export function stopOtherDevices(db: DB, input: { account: Account; deviceId: string; movieId: string }, now: Date = new Date()): number {
  const ended = db
    .delete(playbackLeases)
    .where(and(eq(playbackLeases.accountId, input.account.id), ne(playbackLeases.deviceId, input.deviceId)))
    .run().changes;
  takePlaybackLease(db, input, now);
  return ended;
}

export type StreamDecision = { allowed: true; movieId: string; videoPath: string } | PlaybackRefusal;

/**
 * Everything a video byte request needs: may this account stream this file
 * (decidePlayback), may this device play now (its lease, taken or renewed),
 * and which rendition its plan allows.
 */
export function authorizeStream(db: DB, filename: string, account: Account | null, deviceId: string | null, now: Date = new Date()): StreamDecision {
  const decision = decidePlayback(db, filename, account, now);
  if (!decision.allowed || !account) return decision as PlaybackRefusal;
  // A caller without a sign-in of its own shares one device slot per account.
  const lease = takePlaybackLease(db, { account, deviceId: deviceId ?? `account:${account.id}`, movieId: decision.movieId }, now);
  if (!lease.ok) return { allowed: false, status: 403, message: screensMessage(lease.screens), reason: "screens", screens: lease.screens };
  const rendition = chooseRendition(movieRenditions(db, decision.movieId), planLimitsFor(db, account, now).maxQuality);
  if (!rendition) return { allowed: false, status: 404, message: "Video not found" };
  return { allowed: true, movieId: decision.movieId, videoPath: rendition.path };
}

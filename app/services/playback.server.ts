import { and, eq, gt, lte, ne, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { movies, playbackLeases, type Role } from "~/db/schema";
import { DATA_SAVER_MAX_RUNG as DATA_SAVER_RUNG, megabytesPerHour } from "~/media/ladder";
import fs from "node:fs";
import {
  DEFAULT_LINK_KBPS,
  dataSaverRung,
  estimateAutoCost,
  playsAv1Family,
  type CostEstimate,
  type CostRung,
} from "~/media/data-cost";
import type { LadderCodec } from "~/media/ladder";
import {
  movieVideoPath,
  renditionFileName,
  renditionPath,
  storageRoot,
  streamUrl,
  versionedStreamFile,
} from "~/media/storage.server";
import { isChildSafeTitle, isPublishedRow } from "./catalogue.server";
import { allowsPremium, getPassStatus, NO_PLAN_LIMITS, type PlanLimits } from "./passes.server";
import {
  allowedOfFamily,
  filmFrame,
  listReadyRenditions,
  ofFamily,
  type Rendition as LadderRendition,
} from "./renditions.server";
import { isBoundByPlan } from "~/services/roles";

export type PlaybackRefusal = {
  allowed: false;
  status: 401 | 403 | 404;
  message: string;
  reason?: "pass_required" | "screens" | "quality" | "children";
  screens?: number;
};
/** `mediaVersion`: which version of the film plays now (movies.media_version). */
export type PlaybackDecision = { allowed: true; movieId: string; mediaVersion: number } | PlaybackRefusal;

const PUBLIC_VIDEO_NAME = /^([a-z0-9]{8,32})\.mp4$/;

export const PASS_REQUIRED_MESSAGE =
  "This title is Premium: it needs an active pass of a plan that includes Premium titles. Buy one or redeem a voucher at /payment.";

export function screensMessage(screens: number): string {
  return `Your plan allows ${screens} ${screens === 1 ? "screen" : "screens"} at a time and another device is playing. Stop playback on the other device (on the title's page) to watch here.`;
}

/** `profile`: the profile watching, when known (a children's one streams only child-safe titles). */
type Account = { id: string; role: Role; profile?: { children: boolean } };

export const CHILDREN_REFUSED_MESSAGE =
  "This title is not rated for children's profiles (only G and PG titles are). Switch profile to watch it.";

/**
 * Who may stream a title's video: signed-in viewers and administrators a
 * published title (ready and approved), a provider their own titles (to check
 * them), administrators any ready title. A Premium title also needs a plan in
 * force that includes Premium titles, except for administrators and the owning provider.
 */
export function decidePlayback(
  db: DB,
  filename: string,
  account: Account | null,
  now: Date = new Date(),
): PlaybackDecision {
  const match = PUBLIC_VIDEO_NAME.exec(filename);
  if (!match) return { allowed: false, status: 404, message: "Video not found" };
  return decideMoviePlayback(db, match[1], account, now);
}

/** `decidePlayback` for a title named by its id (the stream routes). */
export function decideMoviePlayback(
  db: DB,
  movieId: string,
  account: Account | null,
  now: Date = new Date(),
): PlaybackDecision {
  if (!account) return { allowed: false, status: 401, message: "Sign in to watch" };
  const movie = db
    .select({
      id: movies.id,
      status: movies.status,
      approved: movies.approved,
      providerId: movies.providerId,
      access: movies.access,
      mediaVersion: movies.mediaVersion,
      childSafe: sql<number>`${isChildSafeTitle()}`,
    })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get();
  if (!movie || movie.status !== "ready") return { allowed: false, status: 404, message: "Video not found" };
  // Before any role's rule: an administrator's children's profile is a child's too.
  if (account.profile?.children && !movie.childSafe)
    return { allowed: false, status: 403, message: CHILDREN_REFUSED_MESSAGE, reason: "children" };
  const allowed = { allowed: true, movieId: movie.id, mediaVersion: movie.mediaVersion } as const;
  if (account.role === "admin") return allowed;
  if (account.role === "provider") {
    return movie.providerId === account.id ? allowed : { allowed: false, status: 403, message: "Not allowed" };
  }
  if (!isPublishedRow(movie)) return { allowed: false, status: 404, message: "Video not found" };
  if (movie.access === "premium" && !allowsPremium(db, account.id, now)) {
    return { allowed: false, status: 403, message: PASS_REQUIRED_MESSAGE, reason: "pass_required" };
  }
  return allowed;
}

// ---------------------------------------------------------------------------
// Quality: a plan's highest rung caps what is served.

/** A progressive MP4 the old clients' file route may send, named by the short side of its picture in lines. */
export type Rendition = { rung: number; path: string };

/** The short side of a picture in lines (its rung), or null when unknown. */
export function rungOfPicture(width: number | null | undefined, height: number | null | undefined): number | null {
  if (!width || !height) return height ?? width ?? null;
  return Math.min(width, height);
}

/**
 * The best rendition at or below the plan's highest rung; when every
 * rendition is above it, the smallest one (a viewer is never left with nothing).
 */
export function chooseRendition<R extends { rung: number }>(renditions: readonly R[], maxRung: number): R | null {
  if (renditions.length === 0) return null;
  const sorted = [...renditions].sort((a, b) => a.rung - b.rung);
  const allowed = sorted.filter((rendition) => rendition.rung <= maxRung);
  return allowed.at(-1) ?? sorted[0];
}

/**
 * The progressive MP4s of a title the old clients' file route may send: the
 * ladder's rungs (each one file that plays on its own), lowest first, then
 * the film at the source's size, which a plan whose cap reaches it gets.
 */
export function movieRenditions(db: DB, movieId: string): Rendition[] {
  const movie = filmFrame(db, movieId);
  if (!movie) return [];
  // H.264's: the file route's clients play MP4 as browsers did before AV1.
  const rungs = ofFamily(listReadyRenditions(db, movieId), "h264").map((rendition) => ({
    rung: rendition.rung,
    path: renditionPath(movieId, rendition.rung, "media", storageRoot(), movie.version),
  }));
  // A source of unknown size counts as 720 lines, as titles made before sizes were recorded mostly are.
  const sourceRung = rungOfPicture(movie.width, movie.height) ?? 720;
  return [...rungs, { rung: sourceRung, path: movieVideoPath(movieId, storageRoot(), movie.version) }];
}

/** The highest rung of the ladder an account's plan allows (staff: every rung). */
export function maxRungFor(db: DB, account: Account, now: Date = new Date()): number {
  return planLimitsFor(db, account, now).maxRung;
}

// ---------------------------------------------------------------------------
// Screens: one lease per device that plays, limited by the plan's screens.

/** A lease lives this long after its last renewal (byte requests and progress reports renew it). */
export const LEASE_TTL_MS = 2 * 60 * 1000;

/** Devices that play against the plan's screens; staff checking titles do not. */
function countsScreens(account: Account): boolean {
  return isBoundByPlan(account.role);
}

/** What the plan in force lets this account do; staff (administrators, providers checking titles) are not bound. */
export function planLimitsFor(db: DB, account: Account, now: Date = new Date()): PlanLimits {
  if (!countsScreens(account))
    return { ...NO_PLAN_LIMITS, premium: true, screens: Number.POSITIVE_INFINITY, maxRung: Number.POSITIVE_INFINITY };
  const { plan } = getPassStatus(db, account.id, now);
  return { premium: plan.premium, screens: plan.screens, maxRung: plan.maxRung, downloads: plan.downloads };
}

export type LeaseResult = { ok: true } | { ok: false; screens: number };

// Asked by every watch page and every byte range: prepared once.
const otherActiveDevicesQuery = preparedQuery((db: Pick<DB, "select">) =>
  db
    .select({ value: sql<number>`count(*)` })
    .from(playbackLeases)
    .where(
      and(
        eq(playbackLeases.accountId, sql.placeholder("accountId")),
        ne(playbackLeases.deviceId, sql.placeholder("deviceId")),
        gt(playbackLeases.expiresAt, sql.placeholder("now")),
      ),
    )
    .prepare(),
);

// Asked by every byte range of a playing device: prepared once. Times as stored (milliseconds).
const heldLeaseQuery = preparedQuery((db: DB) =>
  db
    .select({
      movieId: playbackLeases.movieId,
      expiresAt: sql<number>`${playbackLeases.expiresAt}`,
      releasedAt: sql<number | null>`${playbackLeases.releasedAt}`,
    })
    .from(playbackLeases)
    .where(
      and(
        eq(playbackLeases.accountId, sql.placeholder("accountId")),
        eq(playbackLeases.deviceId, sql.placeholder("deviceId")),
      ),
    )
    .prepare(),
);

function otherActiveDevices(db: Pick<DB, "select">, accountId: string, deviceId: string, now: Date): number {
  return otherActiveDevicesQuery(db).get({ accountId, deviceId, now: now.getTime() })?.value ?? 0;
}

/**
 * Take or renew this device's lease for a title. Refused when other devices
 * of the account already hold as many live leases as the plan has screens.
 * Callers identify a device by `deviceIdForSession` (a sign-in), whether the
 * request came with the session cookie or with a token mapped to a session.
 *
 * `by` says who asks. A "play" (the player started or resumed, or this
 * device stopped the others) always takes the screen. A "request" — a
 * segment, a byte range, a progress report — does not take it back within
 * LEASE_TTL_MS of this device saying "stop": a player keeps fetching ahead
 * for a while after a pause, and a request sent before the stop may arrive
 * after it; neither should hold the screen another device is waiting for.
 * Such a request is let through (read only) while a screen is free.
 */
export function takePlaybackLease(
  db: DB,
  input: { account: Account; deviceId: string; movieId: string },
  now: Date = new Date(),
  by: "play" | "request" = "play",
): LeaseResult {
  const { account } = input;
  if (!countsScreens(account)) return { ok: true };
  // A player fetches a segment every few seconds: a lease of this title with
  // more than half its time left already holds the screen, with no write.
  const held = heldLeaseQuery(db).get({ accountId: account.id, deviceId: input.deviceId });
  if (held && held.movieId === input.movieId && held.expiresAt - now.getTime() > LEASE_TTL_MS / 2) return { ok: true };
  if (by === "request" && held?.releasedAt != null && now.getTime() - held.releasedAt < LEASE_TTL_MS)
    return checkPlaybackLease(db, input, now);
  // Nothing to lease for an unknown title (the caller answers 404 for it).
  if (!db.select({ id: movies.id }).from(movies).where(eq(movies.id, input.movieId)).get()) return { ok: true };
  const { screens } = planLimitsFor(db, account, now);
  return db.transaction(
    (tx) => {
      tx.delete(playbackLeases)
        .where(and(eq(playbackLeases.accountId, account.id), lte(playbackLeases.expiresAt, now)))
        .run();
      if (otherActiveDevices(tx, account.id, input.deviceId, now) >= screens) return { ok: false, screens } as const;
      const expiresAt = new Date(now.getTime() + LEASE_TTL_MS);
      tx.insert(playbackLeases)
        .values({ accountId: account.id, deviceId: input.deviceId, movieId: input.movieId, expiresAt, createdAt: now })
        .onConflictDoUpdate({
          target: [playbackLeases.accountId, playbackLeases.deviceId],
          set: { movieId: input.movieId, expiresAt, releasedAt: null },
        })
        .run();
      return { ok: true } as const;
    },
    { behavior: "immediate" },
  );
}

/** Would this device get a lease now? (Read only: the watch page asks before it shows the player.) */
export function checkPlaybackLease(
  db: DB,
  input: { account: Account; deviceId: string },
  now: Date = new Date(),
): LeaseResult {
  if (!countsScreens(input.account)) return { ok: true };
  const { screens } = planLimitsFor(db, input.account, now);
  return otherActiveDevices(db, input.account.id, input.deviceId, now) >= screens
    ? { ok: false, screens }
    : { ok: true };
}

/**
 * The device stopped playing (pause, end, page left): its screen is free at
 * once. Its row stays, expired, as the marker takePlaybackLease reads.
 */
export function releasePlaybackLease(db: DB, accountId: string, deviceId: string, now: Date = new Date()): void {
  db.update(playbackLeases)
    .set({ expiresAt: now, releasedAt: now })
    .where(and(eq(playbackLeases.accountId, accountId), eq(playbackLeases.deviceId, deviceId)))
    .run();
}

/** "Stop playback on the other device": end every other device's lease and give this device one. */
export function stopOtherDevices(
  db: DB,
  input: { account: Account; deviceId: string; movieId: string },
  now: Date = new Date(),
): number {
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
/**
 * A stream request takes this device's screen (one device slot per account for
 * a caller without a sign-in of its own); the refusal when every screen is taken.
 */
function takeScreen(
  db: DB,
  account: Account,
  deviceId: string | null,
  movieId: string,
  now: Date,
): PlaybackRefusal | null {
  const lease = takePlaybackLease(
    db,
    { account, deviceId: deviceId ?? `account:${account.id}`, movieId },
    now,
    "request",
  );
  if (lease.ok) return null;
  return {
    allowed: false,
    status: 403,
    message: screensMessage(lease.screens),
    reason: "screens",
    screens: lease.screens,
  };
}

export function authorizeStream(
  db: DB,
  filename: string,
  account: Account | null,
  deviceId: string | null,
  now: Date = new Date(),
): StreamDecision {
  const decision = decidePlayback(db, filename, account, now);
  if (!decision.allowed || !account) return decision as PlaybackRefusal;
  const refused = takeScreen(db, account, deviceId, decision.movieId, now);
  if (refused) return refused;
  const rendition = chooseRendition(movieRenditions(db, decision.movieId), planLimitsFor(db, account, now).maxRung);
  if (!rendition) return { allowed: false, status: 404, message: "Video not found" };
  return { allowed: true, movieId: decision.movieId, videoPath: rendition.path };
}

// ---------------------------------------------------------------------------
// The adaptive streams: /stream/<movieId>/master.m3u8, <rung>p.m3u8, <rung>p.mp4.

export type StreamFile = { kind: "master" } | { kind: "playlist" | "media"; rung: number; codec: LadderCodec };

/** What a stream path names (`240p.m3u8`, `240p-av1.mp4`), or null for anything else (no path outside the title's hls/ folder can be named). */
export function parseStreamFile(name: string): StreamFile | null {
  if (name === "master.m3u8") return { kind: "master" };
  const match = /^([1-9]\d{1,3})p(-av1)?\.(m3u8|mp4)$/.exec(name);
  if (!match) return null;
  return { kind: match[3] === "m3u8" ? "playlist" : "media", rung: Number(match[1]), codec: match[2] ? "av1" : "h264" };
}

export const QUALITY_NOT_IN_PLAN_MESSAGE = "Your plan does not include this picture quality.";

export type HlsStreamDecision =
  | {
      allowed: true;
      movieId: string;
      /** The version that plays now: the master playlist names its rungs' addresses. */
      mediaVersion: number;
      file: StreamFile;
      maxRung: number;
      renditions: LadderRendition[];
      path: string | null;
    }
  | PlaybackRefusal;

/**
 * Every playlist and segment request of the adaptive player: the same checks
 * as the video route (sign-in, published, Premium pass, this device's screen
 * lease), and the plan's maximum quality: `renditions` lists only the rungs
 * the plan allows, and the bytes of a higher rung are refused (403).
 *
 * `version` is the film's version the path names (`/stream/<id>/v2/240p.mp4`;
 * none is the upload's own, version 0). The version that plays now is served
 * from its rendition rows; a version a replacement retired is still served,
 * rung files only, while its files are kept (a player that started on it
 * plays it to the end); a version not yet swapped in is nobody's to fetch.
 */
export function authorizeHlsStream(
  db: DB,
  input: { movieId: string; file: string; version?: number },
  account: Account | null,
  deviceId: string | null,
  now: Date = new Date(),
): HlsStreamDecision {
  const file = parseStreamFile(input.file);
  const version = input.version ?? 0;
  if (!file || !/^[a-z0-9]{8,32}$/.test(input.movieId) || (file.kind === "master" && input.version !== undefined))
    return { allowed: false, status: 404, message: "Video not found" };
  const decision = decideMoviePlayback(db, input.movieId, account, now);
  if (!decision.allowed || !account) return decision as PlaybackRefusal;
  const refused = takeScreen(db, account, deviceId, decision.movieId, now);
  if (refused) return refused;
  const maxRung = maxRungFor(db, account, now);
  const ready = listReadyRenditions(db, decision.movieId);
  if (ready.length === 0) return { allowed: false, status: 404, message: "Video not found" };
  // A plan below every rung still gets the lowest one of each family: nobody is left with nothing.
  const allowedRenditions = (["h264", "av1"] as const).flatMap((codec) => allowedOfFamily(ready, codec, maxRung));
  const allowed = (path: string | null) => ({
    allowed: true as const,
    movieId: decision.movieId,
    mediaVersion: decision.mediaVersion,
    file,
    maxRung,
    renditions: allowedRenditions,
    path,
  });
  if (file.kind === "master") return allowed(null);
  if (version > decision.mediaVersion) return { allowed: false, status: 404, message: "Video not found" };
  const path = renditionPath(decision.movieId, file.rung, file.kind, storageRoot(), version, file.codec);
  if (version < decision.mediaVersion) {
    // A retired version: its rows are gone, its files stay a while; the plan's cap still holds.
    if (file.rung > Math.max(maxRung, allowedRenditions[0]!.rung))
      return { allowed: false, status: 403, message: QUALITY_NOT_IN_PLAN_MESSAGE, reason: "quality" };
    if (!fs.existsSync(path)) return { allowed: false, status: 404, message: "Video not found" };
  } else {
    const same = (rendition: LadderRendition) => rendition.rung === file.rung && rendition.codec === file.codec;
    if (!ready.some(same)) return { allowed: false, status: 404, message: "Video not found" };
    if (!allowedRenditions.some(same)) {
      return { allowed: false, status: 403, message: QUALITY_NOT_IN_PLAN_MESSAGE, reason: "quality" };
    }
  }
  return allowed(path);
}

export { DEFAULT_LINK_KBPS };
/** Start on a rung whose peak needs no more than this share of the estimated link. */
const START_HEADROOM = 0.75;

/**
 * The rung to start on: the highest whose peak bitrate fits the link
 * estimate with headroom, else the lowest. Players climb from there.
 */
export function chooseStartRung(renditions: readonly LadderRendition[], linkKbps: number | null): number | null {
  if (renditions.length === 0) return null;
  const budget = (linkKbps && linkKbps > 0 ? linkKbps : DEFAULT_LINK_KBPS) * 1000 * START_HEADROOM;
  const fitting = renditions.filter((rendition) => rendition.bandwidth <= budget);
  return (fitting.at(-1) ?? renditions[0]).rung;
}

/**
 * The variants one viewer's master playlist lists: the rungs their plan
 * allows, at most `maxRung` (data saver, a quality chosen in the menu), the
 * start rung first (native players start on the first variant) and the rest
 * lowest first. Under data saver the start rung is the lowest watchable one
 * (`dataSaverRung`: 240p where the link keeps it, else the lowest), not the
 * one the link has headroom for.
 *
 * H.264 only, unless the player says its browser decodes AV1 smoothly (`av1`)
 * and the AV1 family is the one to play (`playsAv1Family`): then the AV1
 * rungs come first, ordered the same way, and the H.264 rungs after them, for
 * a player that finds it cannot decode AV1 after all. A native HLS player
 * (which picks variants by its own rules) never gets AV1.
 */
export function masterVariants(
  renditions: readonly LadderRendition[],
  options: { maxRung: number; only?: number | null; linkKbps: number | null; dataSaver?: boolean; av1?: boolean },
): LadderRendition[] {
  const order = (candidates: readonly LadderRendition[], startRung?: number) => {
    const chosen = options.only ? candidates.filter((rendition) => rendition.rung === options.only) : [];
    if (chosen.length > 0) return chosen;
    const start =
      startRung ??
      (options.dataSaver
        ? (dataSaverRung(candidates, options.linkKbps, DATA_SAVER_RUNG)?.rung ?? null)
        : chooseStartRung(candidates, options.linkKbps));
    return [
      ...candidates.filter((rendition) => rendition.rung === start),
      ...candidates.filter((rendition) => rendition.rung !== start),
    ];
  };
  const h264 = allowedOfFamily(renditions, "h264", options.maxRung);
  const av1 = allowedOfFamily(renditions, "av1", options.maxRung);
  const useAv1 =
    options.av1 === true &&
    (options.only ? av1.some((rendition) => rendition.rung === options.only) : true) &&
    playsAv1Family(h264.map(costRungOf), av1.map(costRungOf), {
      linkKbps: options.linkKbps,
      dataSaver: options.dataSaver === true,
    });
  if (!useAv1) return order(h264);
  // Data saver on AV1: the picture H.264's data saver would show, for fewer bytes (its AV1 twin), never a
  // larger picture that costs more and starts later on a slow link.
  const saverRung = options.dataSaver ? dataSaverRung(h264, options.linkKbps, DATA_SAVER_RUNG)?.rung : undefined;
  const twin = av1.some((rendition) => rendition.rung === saverRung) ? saverRung : undefined;
  return [...order(av1, twin), ...order(h264)];
}

/** What the cost rules need of a rendition. */
function costRungOf(rendition: LadderRendition): CostRung {
  return {
    rung: rendition.rung,
    bandwidth: rendition.bandwidth,
    averageBandwidth: rendition.averageBandwidth,
    megabytesPerHour: Math.round(megabytesPerHour(rendition.sizeBytes, rendition.durationSeconds)),
    // One decimal, so a short film does not cost "0 MB".
    megabytes: Math.round(rendition.sizeBytes / 100_000) / 10,
  };
}

export type PlayerQuality = "auto" | number;

export type PlayerChoices = {
  /** The master playlist this page plays: capped by data saver and the chosen quality. */
  masterUrl: string;
  /** A progressive MP4 for browsers without HLS: a low rung, or the film itself before its ladder exists. */
  fallbackUrl: string;
  /** The rungs this viewer may choose (plan and data saver), with what the film and an hour of each cost. */
  rungs: Array<{
    rung: number;
    width: number;
    height: number;
    bandwidth: number;
    averageBandwidth: number;
    megabytesPerHour: number;
    megabytes: number;
  }>;
  /**
   * The AV1 + Opus family, for a browser that decodes it smoothly (the page
   * asks `mediaCapabilities`): the exact CODECS to ask about, and the same
   * qualities' AV1 rungs with their own costs. Null when the title has none.
   */
  av1: { codecs: string; rungs: PlayerChoices["rungs"] } | null;
  quality: PlayerQuality;
  dataSaver: boolean;
  /**
   * Auto's likely cost from what the server knows of the link (the Downlink
   * client hint, else a slow mobile link assumed); the page refines it in the
   * browser from `navigator.connection` and what the device played before.
   */
  autoCost: CostEstimate | null;
};

/** The progressive fallback (browsers without HLS, no JavaScript) is for links of this much and less: its average must fit. */
export const FALLBACK_MAX_KBPS = 300;

/**
 * What the watch page's player offers one viewer: the qualities their plan
 * allows (at most 240p under data saver), each with its real cost from the
 * rendition files, the master playlist for the chosen one, and the fallback.
 */
export function playerChoices(
  db: DB,
  input: {
    movieId: string;
    mediaVersion: number;
    account: Account;
    dataSaver: boolean;
    quality: PlayerQuality;
    linkKbps?: number | null;
  },
  now: Date = new Date(),
): PlayerChoices {
  const ready = listReadyRenditions(db, input.movieId);
  const planCap = maxRungFor(db, input.account, now);
  const cap = Math.min(planCap, input.dataSaver ? DATA_SAVER_RUNG : Number.POSITIVE_INFINITY);
  const allowedOf = (codec: LadderCodec) =>
    allowedOfFamily(ready, codec, cap).map((rendition) => ({
      ...costRungOf(rendition),
      width: rendition.width,
      height: rendition.height,
    }));
  const rungs = allowedOf("h264");
  const av1Family = ofFamily(ready, "av1");
  const av1Rungs = allowedOf("av1");
  const quality =
    input.quality !== "auto" && rungs.some((rung) => rung.rung === input.quality) ? input.quality : "auto";
  const top = rungs.at(-1);
  const params = new URLSearchParams();
  if (top) params.set("max", String(top.rung));
  if (quality !== "auto") params.set("rung", String(quality));
  // The progressive MP4 plays one rung whatever the link: the highest a slow link carries on average.
  const fallback = [...rungs].reverse().find((rung) => rung.averageBandwidth <= FALLBACK_MAX_KBPS * 1000) ?? rungs[0];
  return {
    masterUrl: `${streamUrl(input.movieId, "master.m3u8")}${params.size > 0 ? `?${params}` : ""}`,
    fallbackUrl: fallback
      ? streamUrl(
          input.movieId,
          versionedStreamFile(
            input.mediaVersion,
            renditionFileName(quality === "auto" ? fallback.rung : quality, "media"),
          ),
        )
      : `/api/files/${input.movieId}.mp4`,
    rungs,
    av1: av1Rungs.length > 0 ? { codecs: av1Family.at(-1)!.codecs, rungs: av1Rungs } : null,
    quality,
    dataSaver: input.dataSaver,
    autoCost: estimateAutoCost(rungs, { linkKbps: input.linkKbps ?? null }),
  };
}

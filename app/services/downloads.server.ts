import type { LicenceTerms, SignedLicence } from "./download-licence";
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type JsonWebKey,
} from "node:crypto";
import { and, count, eq, gt, inArray, isNull, ne } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { accounts, downloadLicences, movies } from "~/db/schema";
import type { Account } from "./accounts.server";
import { isPublishedRow } from "./catalogue.server";
import { getPassStatus } from "./passes.server";
import { decideMoviePlayback, maxRungFor } from "./playback.server";
import { allowedOfFamily, listReadyRenditions } from "./renditions.server";
import type { LadderCodec } from "~/media/ladder";
import { getSetting, setSetting } from "./settings.server";
import { isBoundByPlan } from "~/services/roles";

/**
 * Offline downloads. The server issues a licence per title, rung and device,
 * with the same checks as playback (signed in, published, Premium pass) plus
 * the plan's download rules (allowed, how many at once, for how long). The
 * device keeps the licence as signed here (ECDSA P-256, verified by the
 * service worker with WebCrypto before it serves a stored byte) and judges
 * expiry by it and by its own clock, never letting a clock moved backwards
 * extend it. When online, the device asks which of its licences still hold
 * (deleted, account blocked, title unpublished: no longer).
 */

export type { LicenceTerms, SignedLicence };

export type DownloadRules = { allowed: boolean; maxDownloads: number; days: number; playHours: number };

/** A rung a title can be downloaded at, in one family (AV1 + Opus only for a device that decodes it). */
export type DownloadOption = { rung: number; codec: LadderCodec; sizeBytes: number };

/** The licence key pair, made on first use — once, in one transaction, even when two workers ask at the same moment. */
function signingKey(db: DB): { privateJwk: JsonWebKey; publicJwk: JsonWebKey } {
  const stored = getSetting(db, "licenceSigningKey");
  if (stored) return stored as { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
  return db.transaction((tx) => {
    const madeMeanwhile = getSetting(tx as unknown as DB, "licenceSigningKey");
    if (madeMeanwhile) return madeMeanwhile as { privateJwk: JsonWebKey; publicJwk: JsonWebKey };
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const made = { privateJwk: privateKey.export({ format: "jwk" }), publicJwk: publicKey.export({ format: "jwk" }) };
    setSetting(
      tx as unknown as DB,
      "licenceSigningKey",
      made as { privateJwk: Record<string, unknown>; publicJwk: Record<string, unknown> },
    );
    return made;
  });
}

/** The public key devices verify licences with (JWK). */
export function licencePublicKey(db: DB): JsonWebKey {
  const { publicJwk } = signingKey(db);
  createPublicKey({ key: publicJwk, format: "jwk" });
  return { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y };
}

/** The exact bytes signed: the terms as JSON in a fixed key order. */
export function licenceMessage(terms: LicenceTerms): string {
  return JSON.stringify([terms.id, terms.movieId, terms.rung, terms.issuedAt, terms.expiresAt, terms.playHours]);
}

export function signLicence(db: DB, terms: LicenceTerms): SignedLicence {
  const key = createPrivateKey({ key: signingKey(db).privateJwk, format: "jwk" });
  // IEEE P1363 (r‖s), the form WebCrypto's ECDSA verify expects.
  const signature = sign("sha256", Buffer.from(licenceMessage(terms)), { key, dsaEncoding: "ieee-p1363" }).toString(
    "base64url",
  );
  return { terms, signature };
}

/** When a stored download may no longer be played, given when it was first played (null: not yet). */
export function playableUntil(terms: LicenceTerms, firstPlayedAt: number | null): number {
  return firstPlayedAt === null
    ? terms.expiresAt
    : Math.min(terms.expiresAt, firstPlayedAt + terms.playHours * 3600_000);
}

export type PlayVerdict = { ok: true; until: number } | { ok: false; reason: "expired" | "clock" };

/**
 * May a stored download play now? `latestSeen` is the latest clock reading the
 * device has recorded for it: a clock now earlier than that (beyond a minute of
 * drift) was moved back, and the download stays shut until it is renewed.
 */
export function judgePlay(
  terms: LicenceTerms,
  state: { firstPlayedAt: number | null; latestSeen: number },
  now: number,
): PlayVerdict {
  if (now < state.latestSeen - 60_000 || now < terms.issuedAt - 60_000) return { ok: false, reason: "clock" };
  const until = playableUntil(terms, state.firstPlayedAt);
  return now < until ? { ok: true, until } : { ok: false, reason: "expired" };
}

/** The download rules of the plan an account is on now (the free plan without a pass; none without a free plan). */
export function downloadRulesFor(db: DB, account: Pick<Account, "id">, now = new Date()): DownloadRules {
  return getPassStatus(db, account.id, now).plan.downloads;
}

/** The rungs this account may download of a title, with their sizes from the real files. */
export function downloadOptions(db: DB, account: Account, movieId: string, now = new Date()): DownloadOption[] {
  const maxRung = maxRungFor(db, account, now);
  const ready = listReadyRenditions(db, movieId);
  return (["h264", "av1"] as const).flatMap((codec) =>
    allowedOfFamily(ready, codec, maxRung).map((rendition) => ({
      rung: rendition.rung,
      codec,
      sizeBytes: rendition.sizeBytes,
    })),
  );
}

export type IssueRefusal = {
  ok: false;
  status: 400 | 401 | 403 | 404 | 409;
  key: string;
  values?: Record<string, string | number>;
};
export type IssueResult = { ok: true; licence: SignedLicence; sizeBytes: number; publicKey: JsonWebKey } | IssueRefusal;

/**
 * Issue (or renew: `replaces` names the licence the device holds for this
 * title) a licence. Renewal keeps the rung so nothing stored is fetched again.
 */
export function issueLicence(
  db: DB,
  account: (Account & { profile?: { id: string; children: boolean } }) | null,
  input: { movieId: string; rung: number; codec?: LadderCodec; deviceId: string; replaces?: string | null },
  now = new Date(),
): IssueResult {
  if (!account) return { ok: false, status: 401, key: "downloads:errors.signIn" };
  const decision = decideMoviePlayback(db, input.movieId, account, now);
  if (!decision.allowed) {
    const key = decision.reason === "pass_required" ? "downloads:errors.passRequired" : "downloads:errors.notAvailable";
    return { ok: false, status: decision.status === 401 ? 401 : decision.status === 403 ? 403 : 404, key };
  }
  const rules = downloadRulesFor(db, account, now);
  if (!rules.allowed) return { ok: false, status: 403, key: "downloads:errors.notInPlan" };
  const codec = input.codec ?? "h264";
  const option = downloadOptions(db, account, input.movieId, now).find(
    (candidate) => candidate.rung === input.rung && candidate.codec === codec,
  );
  if (!option) return { ok: false, status: 400, key: "downloads:errors.quality" };

  const nowMs = now.getTime();
  const active = and(
    eq(downloadLicences.accountId, account.id),
    isNull(downloadLicences.deletedAt),
    gt(downloadLicences.expiresAt, now),
  );
  const others =
    db
      .select({ value: count() })
      .from(downloadLicences)
      .where(and(active, ne(downloadLicences.movieId, input.movieId)))
      .get()?.value ?? 0;
  if (others >= rules.maxDownloads)
    return { ok: false, status: 409, key: "downloads:errors.tooMany", values: { count: rules.maxDownloads } };

  let expiresAt = nowMs + rules.days * 24 * 3600_000;
  // A Premium title is not watched past the pass that allowed it (owners and administrators aside).
  const movie = db
    .select({ access: movies.access, providerId: movies.providerId })
    .from(movies)
    .where(eq(movies.id, input.movieId))
    .get();
  if (movie?.access === "premium" && isBoundByPlan(account.role)) {
    const passEnds = getPassStatus(db, account.id, now).expiresAt;
    if (passEnds) expiresAt = Math.min(expiresAt, passEnds.getTime());
  }
  const terms: LicenceTerms = {
    id: randomBytes(18).toString("base64url"),
    movieId: input.movieId,
    rung: input.rung,
    issuedAt: nowMs,
    expiresAt,
    playHours: rules.playHours,
  };
  db.transaction((tx) => {
    // One live licence per title and account: a renewal or a new quality replaces the old one.
    tx.update(downloadLicences)
      .set({ deletedAt: now })
      .where(
        and(
          eq(downloadLicences.accountId, account.id),
          eq(downloadLicences.movieId, input.movieId),
          isNull(downloadLicences.deletedAt),
        ),
      )
      .run();
    tx.insert(downloadLicences)
      .values({
        id: terms.id,
        accountId: account.id,
        profileId: account.profile?.id ?? null,
        movieId: input.movieId,
        rung: input.rung,
        deviceId: input.deviceId,
        expiresAt: new Date(expiresAt),
        createdAt: now,
      })
      .run();
  });
  return { ok: true, licence: signLicence(db, terms), sizeBytes: option.sizeBytes, publicKey: licencePublicKey(db) };
}

export type LicenceStanding = "ok" | "revoked";

/**
 * Which of these licences still hold (asked by a device when it is online;
 * the ids are the secrets it holds, so no session is needed). Revoked: deleted,
 * unknown, the account blocked, or the title no longer published.
 */
export function licenceStandings(db: DB, ids: string[]): Record<string, LicenceStanding> {
  const wanted = [...new Set(ids)].filter((id) => /^[A-Za-z0-9_-]{16,64}$/.test(id)).slice(0, 100);
  const rows =
    wanted.length === 0
      ? []
      : db
          .select({
            id: downloadLicences.id,
            deletedAt: downloadLicences.deletedAt,
            blocked: accounts.blocked,
            status: movies.status,
            approved: movies.approved,
          })
          .from(downloadLicences)
          .innerJoin(accounts, eq(accounts.id, downloadLicences.accountId))
          .innerJoin(movies, eq(movies.id, downloadLicences.movieId))
          .where(inArray(downloadLicences.id, wanted))
          .all();
  const standings: Record<string, LicenceStanding> = Object.fromEntries(
    wanted.map((id) => [id, "revoked" as LicenceStanding]),
  );
  for (const row of rows) standings[row.id] = !row.deletedAt && !row.blocked && isPublishedRow(row) ? "ok" : "revoked";
  return standings;
}

/** The device deleted a download: its slot is free again. Only the licence's own account may. */
export function deleteLicence(db: DB, accountId: string, id: string, now = new Date()): boolean {
  return (
    db
      .update(downloadLicences)
      .set({ deletedAt: now })
      .where(
        and(eq(downloadLicences.id, id), eq(downloadLicences.accountId, accountId), isNull(downloadLicences.deletedAt)),
      )
      .run().changes > 0
  );
}

import { webcrypto } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { downloadLicences, movieRenditions, movies, passes, plans } from "~/db/schema";
import { getAccountById } from "~/services/accounts.server";
import {
  deleteLicence,
  issueLicence,
  judgePlay,
  licenceMessage,
  licencePublicKey,
  licenceStandings,
  playableUntil,
  signLicence,
  type LicenceTerms,
} from "~/services/downloads.server";
import { addBillingFilm, seedBilling } from "./helpers/billing-fixtures";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
beforeEach(() => {
  testDb = createTestDatabase();
});
afterEach(() => testDb.close());

const HOUR = 3600_000;
const terms = (overrides: Partial<LicenceTerms> = {}): LicenceTerms => ({
  id: "licence-0123456789abcdef",
  movieId: "movie0001",
  rung: 240,
  issuedAt: 1_000_000_000_000,
  expiresAt: 1_000_000_000_000 + 7 * 24 * HOUR,
  playHours: 48,
  ...overrides,
});

async function verifies(licence: { terms: LicenceTerms; signature: string }, key: JsonWebKey): Promise<boolean> {
  const publicKey = await webcrypto.subtle.importKey("jwk", key, { name: "ECDSA", namedCurve: "P-256" }, false, [
    "verify",
  ]);
  return webcrypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    publicKey,
    Buffer.from(licence.signature, "base64url"),
    new TextEncoder().encode(licenceMessage(licence.terms)),
  );
}

describe("download licences", () => {
  it("are signed so a browser's WebCrypto verifies them, and any edit of the terms breaks the signature", async () => {
    const licence = signLicence(testDb.db, terms());
    const key = licencePublicKey(testDb.db);
    expect(await verifies(licence, key)).toBe(true);
    expect(
      await verifies({ ...licence, terms: { ...licence.terms, expiresAt: licence.terms.expiresAt + HOUR } }, key),
    ).toBe(false);
    // One key for the service, kept in the database (a restore keeps licences valid).
    expect(licencePublicKey(testDb.db)).toEqual(key);
  });

  it("play until the licence ends, or the play window after the first play if sooner; never after the clock went back", () => {
    const t = terms();
    expect(playableUntil(t, null)).toBe(t.expiresAt);
    expect(playableUntil(t, t.issuedAt + HOUR)).toBe(t.issuedAt + 49 * HOUR);
    expect(playableUntil(t, t.expiresAt - HOUR)).toBe(t.expiresAt);
    expect(judgePlay(t, { firstPlayedAt: null, latestSeen: t.issuedAt }, t.issuedAt + HOUR)).toEqual({
      ok: true,
      until: t.expiresAt,
    });
    expect(judgePlay(t, { firstPlayedAt: t.issuedAt, latestSeen: t.issuedAt }, t.issuedAt + 49 * HOUR)).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(judgePlay(t, { firstPlayedAt: null, latestSeen: t.issuedAt }, t.expiresAt)).toEqual({
      ok: false,
      reason: "expired",
    });
    // Seen at day 3, the clock now says day 1: shut until renewed.
    expect(judgePlay(t, { firstPlayedAt: null, latestSeen: t.issuedAt + 72 * HOUR }, t.issuedAt + 24 * HOUR)).toEqual({
      ok: false,
      reason: "clock",
    });
    expect(judgePlay(t, { firstPlayedAt: null, latestSeen: t.issuedAt }, t.issuedAt - 2 * HOUR)).toEqual({
      ok: false,
      reason: "clock",
    });
  });

  it("follow the plan: not without downloads, not past the limit, a Premium title not past the pass; deleted or unpublished ones stop standing", async () => {
    const { db } = testDb;
    seedBilling(db);
    addBillingFilm(db, "secondmovie1", "Second film", "free");
    const free = "freemovie01";
    const second = "secondmovie1";
    const premium = "premiummovie1";
    db.insert(movieRenditions)
      .values(
        [free, second, premium].map((movieId) => ({
          movieId,
          rung: 240,
          width: 426,
          height: 240,
          status: "ready" as const,
          sizeBytes: 1_000_000,
        })),
      )
      .run();
    const account = getAccountById(db, "viewer1")!;
    const now = new Date(1_000_000_000_000);

    db.update(plans).set({ downloadsAllowed: false }).where(eq(plans.code, "FREE")).run();
    expect(issueLicence(db, account, { movieId: free, rung: 240, deviceId: "d1" }, now)).toMatchObject({
      ok: false,
      status: 403,
      key: "downloads:errors.notInPlan",
    });
    db.update(plans)
      .set({ downloadsAllowed: true, maxDownloads: 1, downloadDays: 7 })
      .where(eq(plans.code, "FREE"))
      .run();
    expect(issueLicence(db, null, { movieId: free, rung: 240, deviceId: "d1" }, now)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(issueLicence(db, account, { movieId: free, rung: 1080, deviceId: "d1" }, now)).toMatchObject({
      ok: false,
      status: 400,
    });

    const first = issueLicence(db, account, { movieId: free, rung: 240, deviceId: "d1" }, now);
    if (!first.ok) throw new Error(first.key);
    expect(first.licence.terms.expiresAt).toBe(now.getTime() + 7 * 24 * HOUR);
    expect(issueLicence(db, account, { movieId: second, rung: 240, deviceId: "d1" }, now)).toMatchObject({
      ok: false,
      status: 409,
      key: "downloads:errors.tooMany",
    });
    // Renewing the same title is not a second download.
    const renewed = issueLicence(
      db,
      account,
      { movieId: free, rung: 240, deviceId: "d1", replaces: first.licence.terms.id },
      now,
    );
    expect(renewed.ok).toBe(true);
    expect(licenceStandings(db, [first.licence.terms.id])[first.licence.terms.id]).toBe("revoked");

    expect(issueLicence(db, account, { movieId: premium, rung: 240, deviceId: "d1" }, now)).toMatchObject({
      ok: false,
      status: 403,
      key: "downloads:errors.passRequired",
    });
    db.update(plans).set({ maxDownloads: 5 }).where(eq(plans.code, "FREE")).run();
    db.insert(passes)
      .values({
        id: "pass1",
        accountId: account.id,
        planId: "planbasic",
        startsAt: new Date(now.getTime() - HOUR),
        endsAt: new Date(now.getTime() + 2 * 24 * HOUR),
        source: "admin",
      })
      .run();
    const withPass = issueLicence(db, account, { movieId: premium, rung: 240, deviceId: "d1" }, now);
    if (!withPass.ok) throw new Error(withPass.key);
    expect(withPass.licence.terms.expiresAt).toBe(now.getTime() + 2 * 24 * HOUR);

    if (!renewed.ok) throw new Error();
    const id = renewed.licence.terms.id;
    expect(licenceStandings(db, [id, "unknown-licence-id-000"])).toEqual({
      [id]: "ok",
      "unknown-licence-id-000": "revoked",
    });
    db.update(movies).set({ approved: false }).where(eq(movies.id, free)).run();
    expect(licenceStandings(db, [id])[id]).toBe("revoked");
    expect(deleteLicence(db, "someone-else", withPass.licence.terms.id)).toBe(false);
    expect(deleteLicence(db, account.id, withPass.licence.terms.id)).toBe(true);
    expect(
      db.select().from(downloadLicences).where(eq(downloadLicences.id, withPass.licence.terms.id)).get()?.deletedAt,
    ).toBeInstanceOf(Date);
  });
});

/**
 * A download's licence as the server signs it and the device keeps and checks
 * it (no server code: components/downloads reads the same shape).
 */
export type LicenceTerms = {
  /** The licence id: a random secret the device holds. */
  id: string;
  movieId: string;
  rung: number;
  issuedAt: number;
  /** Not played after this moment (ms since the epoch). */
  expiresAt: number;
  /** Not played later than this many hours after its first play. */
  playHours: number;
};

export type SignedLicence = { terms: LicenceTerms; signature: string };

import { isIPv4, isIPv6 } from "node:net";
import { RateLimiterRes, RateLimiterSQLite } from "rate-limiter-flexible";
import { getDb, type DB } from "~/db/client.server";
import { getEnv } from "~/utils/env.server";

/**
 * Tries per minute for the public account forms, counted per client address
 * and per account (email). Counters live in SQLite (table `rate_limits`, on the
 * app's own connection; each count is one atomic upsert), so they survive
 * restarts and are one count for every worker process (WORKERS). See
 * docs/decisions/006-rate-limiting.md.
 */
export const RATE_LIMITS = {
  passwordReset: { points: 10, duration: 60 },
  comment: { points: 10, duration: 60 },
  /** Wrong current passwords in the profile's password form: 5 in 15 minutes per account (a stolen session cannot guess its way to the password). */
  currentPassword: { points: 5, duration: 900 },
  /** Voucher codes: 10 tries in 10 minutes per address and per account (80-bit codes cannot be guessed anyway). */
  voucher: { points: 10, duration: 600 },
  /** While the service-wide brake is on: one checked sign-in a minute per network for devices it does not know. */
  signInSlowLane: { points: 1, duration: 60 },
} as const;
export type RateLimitName = keyof typeof RATE_LIMITS;

/**
 * Limits that count failures only, per client address: a success costs
 * nothing and writes nothing, so a crowd of honest people behind one address
 * (a carrier's NAT, a school, a café) never meets them, while guessing stays
 * slow. Tries still under way count too (in this process), so a burst of
 * parallel guesses cannot all pass before the first failure is written.
 * - signIn: failed sign-ins (wrong email or password), 100 in 10 minutes
 *   (SIGN_IN_FAILURES_PER_ADDRESS); each
 *   account also slows its own guessers (sign-in-delay.server.ts);
 * - knownDevice: a known device's own failures at one account (keyed by device and account);
 * - register: registrations refused because the email already has an account
 *   — the answer that tells whether an email is registered — 20 an hour
 *   (docs/decisions/039-registration-says-email-taken.md).
 */
export const FAILURE_LIMITS = {
  signIn: { points: 100, duration: 600 },
  register: { points: 20, duration: 3600 },
  /** Failed sign-ins of the whole service (SIGN_IN_FAILURES_SERVICE_WIDE in 10 minutes): past it, unknown devices are slowed. */
  signInService: { points: 200, duration: 600 },
  /** A known device's own wrong passwords for one account: 10 an hour, then it is a new device like any other. */
  knownDevice: { points: 10, duration: 3600 },
};

/** One network's failures count toward the service-wide brake up to a twentieth of it (10 of 200): twenty networks at least to fill it. */
export function serviceSharePerNetwork(): number {
  return Math.max(1, Math.floor(failureLimit("signInService").points / 20));
}
export type FailureLimitName = keyof typeof FAILURE_LIMITS;

function failureLimit(name: FailureLimitName): { points: number; duration: number } {
  if (name === "signIn") return { ...FAILURE_LIMITS.signIn, points: getEnv().signInFailuresPerAddress };
  if (name === "signInService") return { ...FAILURE_LIMITS.signInService, points: getEnv().signInFailuresServiceWide };
  return FAILURE_LIMITS[name];
}

/** The one key of the service-wide count. */
const SERVICE = "service";

/**
 * The network an address speaks for, which the per-address limits count: an
 * IPv6 address's /64 (what one home or one phone is given: its owner can use
 * any address in it), an IPv4 address itself (a carrier's NAT puts thousands
 * of people behind one, so a wider IPv4 range would shut them out together).
 */
export function networkOf(address: string): string {
  const plain = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return mapped[1];
  if (isIPv4(plain) || !isIPv6(plain)) return plain;
  const [head, tail = ""] = plain.split("::");
  const front = head ? head.split(":") : [];
  const back = plain.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16))
    .join(":")}::/64`;
}

const TABLE = "rate_limits";

type Limiters = Record<RateLimitName, { address: RateLimiterSQLite; account: RateLimiterSQLite }> &
  Record<`failures:${FailureLimitName}`, RateLimiterSQLite>;
const limitersByConnection = new WeakMap<object, Limiters>();

function limitersFor(db: DB): Limiters {
  const existing = limitersByConnection.get(db.$client);
  if (existing) return existing;
  // Created here, synchronously, so the first request never races the library's own async CREATE.
  db.$client.exec(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)`,
  );
  const limiter = (keyPrefix: string, limit: { points: number; duration: number }) =>
    new RateLimiterSQLite({
      storeClient: db.$client,
      storeType: "better-sqlite3",
      tableName: TABLE,
      tableCreated: true,
      clearExpiredByTimeout: true,
      keyPrefix,
      points: limit.points,
      duration: limit.duration,
    });
  const limiters = Object.fromEntries([
    ...(Object.keys(RATE_LIMITS) as RateLimitName[]).map((name) => [
      name,
      {
        address: limiter(`${name}_address`, RATE_LIMITS[name]),
        account: limiter(`${name}_account`, RATE_LIMITS[name]),
      },
    ]),
    ...(Object.keys(FAILURE_LIMITS) as FailureLimitName[]).map((name) => [
      `failures:${name}`,
      limiter(`${name}_failures`, failureLimit(name)),
    ]),
  ]) as Limiters;
  limitersByConnection.set(db.$client, limiters);
  return limiters;
}

export type RateLimitKeys = { address: string; account?: string | null };
export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Count one try; refuse when the address or the account has used up its tries for the window. */
export async function consumeRateLimit(
  name: RateLimitName,
  keys: RateLimitKeys,
  db: DB = getDb(),
): Promise<RateLimitResult> {
  const limiters = limitersFor(db);
  try {
    await limiters[name].address.consume(networkOf(keys.address));
    if (keys.account) await limiters[name].account.consume(keys.account.trim().toLowerCase());
    return { ok: true };
  } catch (error) {
    if (error instanceof RateLimiterRes)
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
    throw error;
  }
}

/** Give back a try that succeeded (a good sign-in), so only failures use up the budget. */
export async function refundRateLimit(name: RateLimitName, keys: RateLimitKeys, db: DB = getDb()): Promise<void> {
  const limiters = limitersFor(db);
  await limiters[name].address.reward(networkOf(keys.address), 1);
  if (keys.account) await limiters[name].account.reward(keys.account.trim().toLowerCase(), 1);
}

/** Tries under way in this process, per limit and network. */
const triesUnderWay = new Map<string, number>();

/** A gate that let a try through: `leave` once the try is decided. */
export type OpenGate = { ok: true; leave: () => void };
export type FailureGate = OpenGate | { ok: false; retryAfterSeconds: number };

/** A gate that lets a try through and counts nothing (a known device). */
export const OPEN_GATE: OpenGate = { ok: true, leave: () => undefined };

/**
 * Enter a try that a failure limit watches: refused (nothing written) when the
 * network's failures reach the limit. Tries still under way count too once
 * the network has used half its failures — so a burst of parallel guesses
 * from a guessing network cannot all pass before the first failure is
 * written — but never for a network with few failures: a crowd of people
 * signing in at once behind one address (a school, a carrier's NAT) all get
 * in. `leave` once the try is decided (after recordFailure when it failed).
 */
export async function enterFailureLimit(
  name: FailureLimitName,
  address: string,
  db: DB = getDb(),
): Promise<FailureGate> {
  const network = networkOf(address);
  const limiter = limitersFor(db)[`failures:${name}`];
  const key = `${name}:${network}`;
  const counted = await limiter.get(network);
  const failures = counted && counted.msBeforeNext > 0 ? counted.consumedPoints : 0;
  const underWay = triesUnderWay.get(key) ?? 0;
  const { points } = failureLimit(name);
  if (failures + (failures * 2 >= points ? underWay : 0) >= points) {
    const waitMs = counted?.msBeforeNext ?? 1000;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
  triesUnderWay.set(key, underWay + 1);
  let left = false;
  return {
    ok: true,
    leave: () => {
      if (left) return;
      left = true;
      const now = (triesUnderWay.get(key) ?? 1) - 1;
      if (now > 0) triesUnderWay.set(key, now);
      else triesUnderWay.delete(key);
    },
  };
}

/**
 * Count one failure against the address's network (and, for sign-ins, against the service-wide count — at
 * most a twentieth of the brake from each network in its window, so a few guessing addresses cannot fill the
 * brake that slows every new device).
 */
export async function recordFailure(name: FailureLimitName, address: string, db: DB = getDb()): Promise<void> {
  const limiters = limitersFor(db);
  const counted = await limiters[`failures:${name}`].penalty(networkOf(address), 1);
  if (name === "signIn" && counted.consumedPoints <= serviceSharePerNetwork())
    await limiters["failures:signInService"].penalty(SERVICE, 1);
}

/**
 * The brake on the whole service's failed sign-ins: credential stuffing from many addresses (a few tries
 * each, each under every per-address limit) fills it; past it, devices that have not signed in before wait
 * until the window moves on, while known devices — the people who know their passwords — are not held. Tries
 * under way count as for a network: once half the brake is used, a wave of parallel guesses cannot all pass.
 */
export function serviceWideBrake(db: DB = getDb()): Promise<FailureGate> {
  return enterFailureLimit("signInService", SERVICE, db);
}

/**
 * While the brake is on, a device it does not know is slowed, not shut out: each network (an IPv4 address,
 * an IPv6 /64) still has one try a minute checked — an honest person on a new phone gets in on the first try
 * unless someone on the same network tried within the minute, while guessing from a few networks gets a
 * few tries a minute in all. Apps without cookies are counted the same way, each by its own network.
 */
export function slowLane(address: string, db: DB = getDb()): Promise<RateLimitResult> {
  return consumeRateLimit("signInSlowLane", { address }, db);
}

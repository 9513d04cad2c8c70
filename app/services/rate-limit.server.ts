import { RateLimiterRes, RateLimiterSQLite } from "rate-limiter-flexible";
import { getDb, type DB } from "~/db/client.server";

/**
 * Tries per minute for the public account forms, counted per client address
 * and per account (email). Counters live in SQLite (table `rate_limits`, on the
 * app's own connection; each count is one atomic upsert), so they survive
 * restarts and are one count for every worker process (WORKERS). See
 * docs/decisions/006-rate-limiting.md.
 */
export const RATE_LIMITS = {
  signIn: { points: 10, duration: 60 },
  register: { points: 10, duration: 60 },
  passwordReset: { points: 10, duration: 60 },
  comment: { points: 10, duration: 60 },
  /** Wrong current passwords in the profile's password form: 5 in 15 minutes per account (a stolen session cannot guess its way to the password). */
  currentPassword: { points: 5, duration: 900 },
  /** Voucher codes: 10 tries in 10 minutes per address and per account (80-bit codes cannot be guessed anyway). */
  voucher: { points: 10, duration: 600 },
} as const;
export type RateLimitName = keyof typeof RATE_LIMITS;

const TABLE = "rate_limits";

type Limiters = Record<RateLimitName, { address: RateLimiterSQLite; account: RateLimiterSQLite }>;
const limitersByConnection = new WeakMap<object, Limiters>();

function limitersFor(db: DB): Limiters {
  const existing = limitersByConnection.get(db.$client);
  if (existing) return existing;
  // Created here, synchronously, so the first request never races the library's own async CREATE.
  db.$client.exec(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)`,
  );
  const make = (name: RateLimitName, scope: "address" | "account") =>
    new RateLimiterSQLite({
      storeClient: db.$client,
      storeType: "better-sqlite3",
      tableName: TABLE,
      tableCreated: true,
      clearExpiredByTimeout: true,
      keyPrefix: `${name}_${scope}`,
      points: RATE_LIMITS[name].points,
      duration: RATE_LIMITS[name].duration,
    });
  const limiters = Object.fromEntries(
    (Object.keys(RATE_LIMITS) as RateLimitName[]).map((name) => [
      name,
      { address: make(name, "address"), account: make(name, "account") },
    ]),
  ) as Limiters;
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
    await limiters[name].address.consume(keys.address);
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
  await limiters[name].address.reward(keys.address, 1);
  if (keys.account) await limiters[name].account.reward(keys.account.trim().toLowerCase(), 1);
}

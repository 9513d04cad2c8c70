import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { inCluster, takeSharedSlot } from "~/utils/cluster.server";
import { getEnv } from "~/utils/env.server";

/**
 * scrypt from Node's own crypto: memory-hard, no native add-on to build.
 * Cost N=2^15, r=8, p=1 (32 MiB per hash). The parameters are stored in the
 * hash, so they can be raised later without breaking old hashes.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;

/**
 * At most PASSWORD_HASH_CONCURRENCY hashes run at once (default: one less than
 * the cores, at least one); the others wait their turn. Each hash holds a
 * libuv worker thread and a core for tens of milliseconds: fifty sign-ins at
 * once would otherwise fill the thread pool that file reads share, and every
 * byte range and page would wait behind them. The count is for the whole box:
 * with several workers (WORKERS) the slots are shared, kept by the primary.
 */
let running = 0;
const waiting: Array<() => void> = [];
let waitingElsewhere = 0;

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  const giveBack = await takeHashSlot();
  try {
    return await work();
  } finally {
    giveBack();
  }
}

async function takeHashSlot(): Promise<() => void> {
  const limit = getEnv().passwordHashConcurrency;
  if (inCluster()) {
    waitingElsewhere++;
    const give = await takeSharedSlot("password-hash", { limit }).finally(() => waitingElsewhere--);
    running++;
    return () => {
      running--;
      give();
    };
  }
  if (running < limit) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  // The slot passes straight to the next in line, or is given back.
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

/** How many hashes of this process run and wait now (tests, and whoever watches a burst). */
export function passwordHashQueue(): { running: number; waiting: number } {
  return { running, waiting: waiting.length + waitingElsewhere };
}

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return withHashSlot(() => scryptNow(password, salt, keyLength, options));
}

function scryptNow(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(
      password.normalize("NFKC"),
      salt,
      keyLength,
      { ...options, maxmem: 128 * options.N! * options.r! * 2 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, saltText, keyText] = parts;
  const expected = Buffer.from(keyText, "base64");
  const key = await scrypt(password, Buffer.from(saltText, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A random password for people to change (first administrator, demo bootstrap). */
export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

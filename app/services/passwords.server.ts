import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { inCluster, SlotNotTaken, takeSharedSlot } from "~/utils/cluster.server";
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
/** How long a check holds its slot, as usual (an average of the last ones). */
let usualCheckMs = 100;

/** A password check that could not start in time (PASSWORD_CHECK_WAIT_SECONDS), or whose request ended while it waited. */
export class PasswordCheckBusy extends Error {
  readonly name = "PasswordCheckBusy";
}

/** How long a check may wait for its slot, and the request whose end drops it from the queue. */
export type HashWait = { timeoutMs?: number; signal?: AbortSignal };

async function withHashSlot<T>(work: () => Promise<T>, wait: HashWait = {}): Promise<T> {
  const giveBack = await takeHashSlot(wait);
  try {
    return await work();
  } finally {
    giveBack();
  }
}

async function takeHashSlot(wait: HashWait): Promise<() => void> {
  const limit = getEnv().passwordHashConcurrency;
  if (wait.signal?.aborted) throw new PasswordCheckBusy("the request ended before its password was checked");
  if (inCluster()) {
    waitingElsewhere++;
    const give = await takeSharedSlot("password-hash", { limit, timeoutMs: wait.timeoutMs, signal: wait.signal })
      .catch((error: unknown) => {
        throw error instanceof SlotNotTaken ? new PasswordCheckBusy(error.message) : error;
      })
      .finally(() => waitingElsewhere--);
    running++;
    return () => {
      running--;
      give();
    };
  }
  if (running < limit) running++;
  else
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leaveQueue = (why: string) => {
        const index = waiting.indexOf(granted);
        if (index >= 0) waiting.splice(index, 1);
        clearTimeout(timer);
        reject(new PasswordCheckBusy(why));
      };
      const onAbort = () => leaveQueue("the request ended while its password waited");
      const granted = () => {
        clearTimeout(timer);
        wait.signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      // Its turn would come long after its wait ends (those ahead, each check as long as usual): refused now.
      if (wait.timeoutMs !== undefined && ((waiting.length + 1) * usualCheckMs) / limit > 2 * wait.timeoutMs)
        return reject(new PasswordCheckBusy("its turn would not come in time"));
      waiting.push(granted);
      if (wait.timeoutMs !== undefined)
        timer = setTimeout(() => leaveQueue(`no slot within ${wait.timeoutMs} ms`), wait.timeoutMs);
      wait.signal?.addEventListener("abort", onAbort, { once: true });
    });
  // The slot passes straight to the next in line, or is given back.
  const since = Date.now();
  return () => {
    usualCheckMs = usualCheckMs * 0.8 + (Date.now() - since) * 0.2;
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

/** How many hashes of this process run and wait now (tests, and whoever watches a burst). */
export function passwordHashQueue(): { running: number; waiting: number } {
  return { running, waiting: waiting.length + waitingElsewhere };
}

function scrypt(
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
  wait: HashWait = {},
): Promise<Buffer> {
  return withHashSlot(() => scryptNow(password, salt, keyLength, options), wait);
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

/** Whether `password` is the one `stored` was made from; waits for a hash slot at most as `wait` says (else PasswordCheckBusy). */
export async function verifyPassword(password: string, stored: string, wait: HashWait = {}): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, saltText, keyText] = parts;
  const expected = Buffer.from(keyText, "base64");
  const key = await scrypt(
    password,
    Buffer.from(saltText, "base64"),
    expected.length,
    { N: Number(n), r: Number(r), p: Number(p) },
    wait,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A random password for people to change (first administrator, demo bootstrap). */
export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

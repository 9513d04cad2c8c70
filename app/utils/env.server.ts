import { createHmac } from "node:crypto";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseLadder } from "./ladder-setting";
import { allowList } from "./address-list";
import { CURRENCY_CODES, DEFAULT_CURRENCY, isCurrency, type Currency } from "./money";

/**
 * The one place the process environment is read. Parsed once, typed, and
 * strict: a production start without a session secret stops with a message
 * that says what to set, instead of running with a guessable key.
 */
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    WORKERS: z.coerce.number().int().min(1, "WORKERS must be 1 or more").max(256).optional(),
    HOST: optionalString,
    TRUST_PROXY: optionalString,
    STORAGE_DIR: z.string().trim().min(1).default("storage"),
    DATABASE_PATH: optionalString,
    SESSION_SECRET: optionalString,
    JWT_SECRET: optionalString.pipe(z.string().min(32, "JWT_SECRET must be at least 32 characters").optional()),
    ADMIN_EMAIL: optionalString.pipe(z.string().email("ADMIN_EMAIL must be an email address").optional()),
    ADMIN_PASSWORD: optionalString.pipe(z.string().min(8, "ADMIN_PASSWORD must be at least 8 characters").optional()),
    SMTP_URL: optionalString.pipe(
      z.string().url("SMTP_URL must be a URL such as smtp://user:pass@host:587").optional(),
    ),
    MAIL_FROM: z.string().trim().default("Kallo <no-reply@kallo.local>"),
    PUBLIC_URL: optionalString.pipe(
      z.string().url("PUBLIC_URL must be a full URL such as https://kallo.example").optional(),
    ),
    CUSTOMER_CARE_EMAIL: z.string().trim().email().default("care@kallo.local"),
    CUSTOMER_CARE_PHONE: z.string().trim().default("+234 800 000 0000"),
    MAX_UPLOAD_MB: z.coerce.number().int().positive().default(4096),
    UPLOAD_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    LITESTREAM_REPLICA_URL: optionalString,
    METRICS_ALLOW: z.string().trim().default("loopback"),
    PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
    UPLOAD_EXPIRY_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(24),
    DISK_RESERVE_MB: z.coerce.number().int().min(0).default(1024),
    FFMPEG_PATH: optionalString,
    FFPROBE_PATH: optionalString,
    MEDIA_JOBS: z.coerce.number().int().min(1).max(16).default(1),
    LADDER: optionalString,
    LOG_LEVEL: z.enum(["silent", "error", "info", "debug"]).default("info"),
    WORKER_HEADER: z.enum(["0", "1"]).default("0"),
    PAYSTACK_SECRET_KEY: optionalString,
    PAYSTACK_BASE_URL: z
      .string()
      .trim()
      .url("PAYSTACK_BASE_URL must be a URL such as https://api.paystack.co")
      .default("https://api.paystack.co"),
    CURRENCY: z
      .string()
      .trim()
      .transform((value) => value.toUpperCase())
      .refine(isCurrency, `CURRENCY must be one of ${CURRENCY_CODES.join(", ")} (the currencies Paystack charges in)`)
      .default(DEFAULT_CURRENCY),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["SESSION_SECRET"],
        message:
          "SESSION_SECRET is required in production: set it to a long random string (for example the output of `openssl rand -hex 32`); a comma-separated list rotates secrets, newest first",
      });
    }
    if (allowList(env.METRICS_ALLOW) === null) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["METRICS_ALLOW"],
        message:
          "METRICS_ALLOW must be a comma-separated list of addresses or subnets (loopback, 10.0.0.0/8, 192.168.1.20), or empty for nobody",
      });
    }
    if (parseTrustProxy(env.TRUST_PROXY) === null) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["TRUST_PROXY"],
        message:
          "TRUST_PROXY must be a number of proxies in front (1 for one Caddy or nginx), or a comma-separated list of the proxies' addresses or subnets (loopback, uniquelocal, 10.0.0.0/8, …)",
      });
    }
    const ladder = parseLadder(env.LADDER);
    if (!ladder.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["LADDER"], message: ladder.message });
    if ((env.ADMIN_EMAIL && !env.ADMIN_PASSWORD) || (!env.ADMIN_EMAIL && env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["ADMIN_EMAIL"],
        message: "ADMIN_EMAIL and ADMIN_PASSWORD go together: set both or neither",
      });
    }
  });

export type Env = {
  nodeEnv: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  /**
   * How many processes serve requests (Node's cluster; one per core by
   * default). One of them also runs the background work. 1: a single
   * process does everything, without a cluster.
   */
  workers: number;
  /** The address to listen on (all of them when unset). */
  host?: string;
  /**
   * Which proxies in front may say who the client is and whether it used
   * https (X-Forwarded-For, X-Forwarded-Proto): none (false), the nearest N,
   * or those at these addresses. Otherwise the socket's own address counts.
   */
  trustProxy: TrustProxy;
  storageDir: string;
  databasePath: string;
  sessionSecrets: string[];
  /** Signs the /api tokens (HS256): JWT_SECRET, else derived from the first SESSION_SECRET. */
  jwtSecret: string;
  adminEmail?: string;
  adminPassword?: string;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl?: string;
  customerCare: { email: string; phone: string };
  maxUploadBytes: number;
  /** A connection that moves no bytes for this long is closed (there is no limit on a request's whole length). */
  uploadIdleSeconds: number;
  /** Who may read /metrics: addresses and subnets ("loopback" by default; empty for nobody). */
  metricsAllow: string;
  /** Where Litestream replicates the database continuously (a folder, file://, s3://…), when set. */
  litestreamReplicaUrl?: string;
  /** How many password hashes may run at once (the rest wait), so a burst of sign-ins leaves cores and threads for everyone else. */
  passwordHashConcurrency: number;
  /** On SIGTERM, how long requests under way may take to finish before their connections are closed. */
  shutdownGraceSeconds: number;
  /** An unfinished resumable upload that has received nothing for this long is removed with its bytes. */
  uploadExpiryMs: number;
  /** Free space kept for the database and the media jobs: an upload that would eat into it is refused before it starts. */
  diskReserveBytes: number;
  ffmpegPath?: string;
  ffprobePath?: string;
  mediaJobs: number;
  /** The adaptive ladder's rungs (short side in lines), lowest first. */
  ladder: number[];
  logLevel: "silent" | "error" | "info" | "debug";
  /** Every answer names the process that served it (`Kallo-Worker` header): for tests of several workers. */
  workerHeader: boolean;
  /** The operator's currency: every price, payment and earning, in its minor unit. */
  currency: Currency;
  /** Card payments: Paystack when a secret key is set, otherwise none (vouchers still work). */
  paystack?: { secretKey: string; baseUrl: string };
};

export type TrustProxy = false | number | string[];

const TRUST_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** TRUST_PROXY as Express's "trust proxy" takes it, or null when it is not valid. */
export function parseTrustProxy(value: string | undefined): TrustProxy | null {
  if (value === undefined || value === "false" || value === "0") return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const valid = entries.every((entry) => {
    if (TRUST_NAMES.has(entry)) return true;
    const [address, bits, ...rest] = entry.split("/");
    if (rest.length > 0 || isIP(address) === 0) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
  });
  return entries.length > 0 && valid ? entries : null;
}

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

const DEVELOPMENT_SECRET = "kallo-development-secret-not-for-production";

/**
 * Without JWT_SECRET the token key is an HMAC of the session secret, so an
 * operator has one secret to keep, and a token key never equals a cookie key.
 * See docs/decisions/017-api-tokens.md.
 */
function deriveJwtSecret(sessionSecret: string): string {
  return createHmac("sha256", sessionSecret).update("kallo api tokens").digest("hex");
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`));
  }
  const raw = result.data;
  const storageDir = path.resolve(raw.STORAGE_DIR);
  const sessionSecrets = (raw.SESSION_SECRET ?? DEVELOPMENT_SECRET)
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
  return {
    nodeEnv: raw.NODE_ENV,
    isProduction: raw.NODE_ENV === "production",
    port: raw.PORT,
    workers: raw.WORKERS ?? availableParallelism(),
    host: raw.HOST,
    trustProxy: parseTrustProxy(raw.TRUST_PROXY) as TrustProxy,
    storageDir,
    databasePath: raw.DATABASE_PATH ? path.resolve(raw.DATABASE_PATH) : path.join(storageDir, "data.db"),
    sessionSecrets,
    jwtSecret: raw.JWT_SECRET ?? deriveJwtSecret(sessionSecrets[0]),
    adminEmail: raw.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: raw.ADMIN_PASSWORD,
    smtpUrl: raw.SMTP_URL,
    mailFrom: raw.MAIL_FROM,
    publicUrl: raw.PUBLIC_URL,
    customerCare: { email: raw.CUSTOMER_CARE_EMAIL, phone: raw.CUSTOMER_CARE_PHONE },
    maxUploadBytes: raw.MAX_UPLOAD_MB * 1024 * 1024,
    uploadIdleSeconds: raw.UPLOAD_IDLE_SECONDS,
    shutdownGraceSeconds: raw.SHUTDOWN_GRACE_SECONDS,
    passwordHashConcurrency: raw.PASSWORD_HASH_CONCURRENCY ?? Math.max(1, availableParallelism() - 1),
    litestreamReplicaUrl: raw.LITESTREAM_REPLICA_URL,
    metricsAllow: raw.METRICS_ALLOW,
    uploadExpiryMs: Math.round(raw.UPLOAD_EXPIRY_HOURS * 60 * 60 * 1000),
    diskReserveBytes: raw.DISK_RESERVE_MB * 1024 * 1024,
    ffmpegPath: raw.FFMPEG_PATH,
    ffprobePath: raw.FFPROBE_PATH,
    mediaJobs: raw.MEDIA_JOBS,
    ladder: (parseLadder(raw.LADDER) as { ok: true; rungs: number[] }).rungs,
    logLevel: raw.LOG_LEVEL,
    workerHeader: raw.WORKER_HEADER === "1",
    currency: raw.CURRENCY as Currency,
    paystack: raw.PAYSTACK_SECRET_KEY
      ? { secretKey: raw.PAYSTACK_SECRET_KEY, baseUrl: raw.PAYSTACK_BASE_URL.replace(/\/+$/, "") }
      : undefined,
  };
}

let cached: Env | undefined;

/** The parsed environment of this process; the first call validates it. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

import { createHmac } from "node:crypto";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseLadder, parseLadderCodecs, type LadderCodec } from "./ladder-setting";
import { allowList } from "./address-list";
import { CURRENCY_CODES, DEFAULT_CURRENCY, isCurrency, minorUnitDigits, type Currency } from "./money";
import { DEFAULT_PAYSTACK_CHANNELS, PAYSTACK_CHANNELS, type PaystackChannel } from "~/utils/payment-channels";

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
    SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(100),
    SIGN_IN_FAILURES_SERVICE_WIDE: z.coerce.number().int().min(1).max(10_000_000).default(200),
    PASSWORD_CHECK_WAIT_SECONDS: z.coerce.number().int().min(1).max(300).default(60),
    DATABASE_ROOM_MB: z.coerce.number().int().min(0).max(4096).default(64),
    UPLOAD_START_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(50),
    UPLOAD_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
    UPLOAD_RESERVED_PERCENT: z.coerce.number().int().min(1).max(100).default(80),
    UPLOAD_HOLD_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(10),
    FFMPEG_PATH: optionalString,
    FFPROBE_PATH: optionalString,
    MEDIA_JOBS: z.coerce.number().int().min(1).max(16).default(1),
    LADDER: optionalString,
    LADDER_CODECS: optionalString,
    LOG_LEVEL: z.enum(["silent", "error", "info", "debug"]).default("info"),
    WORKER_HEADER: z.enum(["0", "1"]).default("0"),
    PAYSTACK_SECRET_KEY: optionalString,
    PAYSTACK_CHANNELS: z
      .string()
      .trim()
      .default(DEFAULT_PAYSTACK_CHANNELS.join(","))
      .transform((value) => [...new Set(value.split(",").map((channel) => channel.trim().toLowerCase()))])
      .refine(
        (channels) =>
          channels.length > 0 && channels.every((channel) => PAYSTACK_CHANNELS.includes(channel as PaystackChannel)),
        `PAYSTACK_CHANNELS must be a comma-separated list of ${PAYSTACK_CHANNELS.join(", ")}`,
      ),
    MEDIA_STORE: z.enum(["local", "s3"], { message: "MEDIA_STORE must be local or s3" }).default("local"),
    S3_ENDPOINT: optionalString.pipe(
      z.string().url("S3_ENDPOINT must be a URL such as https://s3.eu-west-1.amazonaws.com").optional(),
    ),
    S3_REGION: z.string().trim().default("us-east-1"),
    S3_BUCKET: optionalString,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: z.enum(["0", "1", "true", "false"]).default("0"),
    MEDIA_BASE_URL: optionalString.pipe(
      z.string().url("MEDIA_BASE_URL must be a URL such as https://media.example.com").optional(),
    ),
    MEDIA_URL_SIGNING: z.enum(["presign", "cdn"]).default("presign"),
    MEDIA_CDN_KEY: optionalString.pipe(z.string().min(32, "MEDIA_CDN_KEY must be at least 32 characters").optional()),
    S3_KEEP_SOURCE: z.enum(["bucket", "local"]).default("bucket"),
    S3_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(30),
    S3_RETRY_SECONDS: z.coerce.number().positive().max(3600).default(30),
    PAYSTACK_BASE_URL: z
      .string()
      .trim()
      .url("PAYSTACK_BASE_URL must be a URL such as https://api.paystack.co")
      .default("https://api.paystack.co"),
    SMS_PROVIDER: optionalString.pipe(
      z.enum(["africastalking", "termii"], { message: "SMS_PROVIDER must be africastalking or termii" }).optional(),
    ),
    AT_USERNAME: optionalString,
    AT_API_KEY: optionalString,
    AT_SENDER_ID: optionalString,
    AT_API_URL: optionalString.pipe(z.string().url("AT_API_URL must be a URL").optional()),
    TERMII_API_KEY: optionalString,
    TERMII_SENDER_ID: optionalString,
    TERMII_BASE_URL: z
      .string()
      .trim()
      .url("TERMII_BASE_URL must be your Termii account's base URL, such as https://api.ng.termii.com")
      .default("https://api.ng.termii.com"),
    TERMII_CHANNEL: z.enum(["generic", "dnd"], { message: "TERMII_CHANNEL must be generic or dnd" }).default("generic"),
    SMS_COUNTRIES: z
      .string()
      .trim()
      .default("NG")
      .transform((value) => [...new Set(value.split(",").map((code) => code.trim().toUpperCase()))])
      .refine(
        (codes) => codes.length > 0 && codes.every((code) => /^[A-Z]{2}$/.test(code)),
        "SMS_COUNTRIES must be a comma-separated list of two-letter country codes (NG, GH, KE)",
      ),
    SMS_PRICE: z.coerce.number().min(0).max(1000).default(4),
    SMS_DAILY_SPEND_CAP: z.coerce.number().min(0).max(100_000_000).default(5000),
    SMS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(500),
    SMS_PER_DAY: z.coerce.number().int().min(1).max(10_000_000).default(3000),
    SMS_CODES_PER_NETWORK_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
    SMS_CODES_PER_NETWORK_DAY: z.coerce.number().int().min(1).max(1_000_000).default(100),
    SMS_CALLBACK_KEY: optionalString.pipe(
      z.string().min(16, "SMS_CALLBACK_KEY must be at least 16 characters").optional(),
    ),
    CURRENCY: z
      .string()
      .trim()
      .transform((value) => value.toUpperCase())
      .refine(isCurrency, `CURRENCY must be one of ${CURRENCY_CODES.join(", ")} (the currencies Paystack charges in)`)
      .default(DEFAULT_CURRENCY),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET && secretNeeded) {
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
    if (env.MEDIA_STORE === "s3") {
      for (const name of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
        if (!env[name])
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: [name],
            message: `${name} is required when MEDIA_STORE=s3 (the bucket that holds the films and the key that writes to it)`,
          });
      }
    }
    if (env.MEDIA_URL_SIGNING === "cdn" && !(env.MEDIA_BASE_URL && env.MEDIA_CDN_KEY)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["MEDIA_URL_SIGNING"],
        message:
          "MEDIA_URL_SIGNING=cdn needs MEDIA_BASE_URL (the CDN's address) and MEDIA_CDN_KEY (the key the CDN checks)",
      });
    }
    const ladder = parseLadder(env.LADDER);
    if (!ladder.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["LADDER"], message: ladder.message });
    const ladderCodecs = parseLadderCodecs(env.LADDER_CODECS);
    if (!ladderCodecs.ok)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["LADDER_CODECS"], message: ladderCodecs.message });
    for (const problem of smsSettingProblems(env))
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [problem.setting], message: problem.message });
    if ((env.ADMIN_EMAIL && !env.ADMIN_PASSWORD) || (!env.ADMIN_EMAIL && env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["ADMIN_EMAIL"],
        message: "ADMIN_EMAIL and ADMIN_PASSWORD go together: set both or neither",
      });
    }
  });

const GATEWAY_SETTINGS = {
  africastalking: ["AT_USERNAME", "AT_API_KEY"],
  termii: ["TERMII_API_KEY", "TERMII_SENDER_ID"],
} as const;

/** A half-set SMS gateway is named at start: a gateway without its keys, or keys without SMS_PROVIDER. */
function smsSettingProblems(env: Record<string, unknown>): { setting: string; message: string }[] {
  const provider = env.SMS_PROVIDER as keyof typeof GATEWAY_SETTINGS | undefined;
  const problems: { setting: string; message: string }[] = [];
  if (provider) {
    for (const name of GATEWAY_SETTINGS[provider])
      if (!env[name]) problems.push({ setting: name, message: `${name} is required when SMS_PROVIDER=${provider}` });
    return problems;
  }
  for (const [gateway, names] of Object.entries(GATEWAY_SETTINGS))
    for (const name of [...names, ...(gateway === "africastalking" ? ["AT_SENDER_ID"] : [])])
      if (env[name])
        problems.push({
          setting: "SMS_PROVIDER",
          message: `${name} is set but SMS_PROVIDER is not: set SMS_PROVIDER=${gateway} to send through it, or remove ${name}`,
        });
  return problems.slice(0, 1);
}

export type SmsSettings = {
  /** file: each message is written under STORAGE_DIR/sms/ and logged (no gateway set). */
  provider: "file" | "africastalking" | "termii";
  africasTalking?: { username: string; apiKey: string; senderId?: string; apiUrl?: string };
  termii?: { apiKey: string; senderId: string; baseUrl: string; channel: "generic" | "dnd" };
  /** Countries (ISO 3166 codes) whose numbers get codes; the first reads numbers written without a country code. */
  countries: string[];
  /** What one message is reckoned to cost (minor units) before a gateway says. */
  priceMinor: number;
  dailySpendCapMinor: number;
  perHour: number;
  perDay: number;
  codesPerNetworkHour: number;
  codesPerNetworkDay: number;
  /** The key in the gateway's opt-out callback address (/sms/opt-out?key=…). */
  callbackKey?: string;
};

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
  /** Failed sign-ins one client address may make in 10 minutes before it must wait (successes never count). */
  signInFailuresPerAddress: number;
  /** Failed sign-ins of the whole service in 10 minutes past which unknown devices wait (credential stuffing from many addresses). */
  signInFailuresServiceWide: number;
  /** How long a sign-in may wait for a password-hash slot before it is answered 503 with Retry-After. */
  passwordCheckWaitMs: number;
  /** Space the database keeps for itself in a file it gives up when the disk fills (DATABASE_ROOM_MB). */
  databaseRoomBytes: number;
  /** A resumable upload that has received no byte at all is removed after this long (UPLOAD_START_MINUTES). */
  uploadStartMs: number;
  /** The share of the upload space one provider's unfinished uploads may hold at once (UPLOAD_SHARE_PERCENT). */
  uploadSharePercent: number;
  /** The share of the upload space all unfinished uploads together may hold (UPLOAD_RESERVED_PERCENT). */
  uploadReservedPercent: number;
  /** How long an unfinished upload keeps its space after its last byte, or its creation (UPLOAD_HOLD_MINUTES). */
  uploadHoldMs: number;
  ffmpegPath?: string;
  ffprobePath?: string;
  mediaJobs: number;
  /** The adaptive ladder's rungs (short side in lines), lowest first. */
  ladder: number[];
  /** The rung families titles get (LADDER_CODECS): H.264 always, AV1 + Opus for the low rungs unless turned off. */
  ladderCodecs: LadderCodec[];
  logLevel: "silent" | "error" | "info" | "debug";
  /** Every answer names the process that served it (`Kallo-Worker` header): for tests of several workers. */
  workerHeader: boolean;
  /** The operator's currency: every price, payment and earning, in its minor unit. */
  currency: Currency;
  sms: SmsSettings;
  /** Card payments: Paystack when a secret key is set, otherwise none (vouchers still work). */
  /** Card payments: Paystack, with the ways of paying its checkout offers (PAYSTACK_CHANNELS). */
  paystack?: { secretKey: string; baseUrl: string; channels: readonly PaystackChannel[] };
  /** Where new titles' files go: this box's disk, or an S3-compatible bucket. */
  mediaStore: "local" | "s3";
  /**
   * The bucket, when its settings are given (MEDIA_STORE=s3, or a library being
   * moved back with `media:move -- --to local`). Titles already in the bucket
   * are served from it whatever MEDIA_STORE says.
   */
  s3?: S3Settings;
};

export type S3Settings = {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** A CDN or custom domain in front of the bucket: signed addresses name it instead of the bucket's. */
  mediaBaseUrl?: string;
  /** presign: the bucket's own V4 presigned GETs; cdn: MEDIA_BASE_URL addresses signed with MEDIA_CDN_KEY. */
  signing: "presign" | "cdn";
  cdnKey?: string;
  /** Whether `video.mp4` (the film at the source's quality) goes to the bucket too, or stays on the box. */
  keepSource: "bucket" | "local";
  /** One request to the bucket gives up after this long (then it is tried again, with a growing wait). */
  timeoutMs: number;
  /** The origin the signed addresses name (the CDN's, or the bucket's): the pages' CSP lets the player and the downloader read from it. */
  origin: string;
  /** The first wait before a failed bucket job is tried again; each later wait doubles, up to an hour. */
  retryMs: number;
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

/** Where signed addresses point: MEDIA_BASE_URL, else the bucket (path-style on the endpoint, or the bucket's own host). */
function mediaOrigin(raw: {
  MEDIA_BASE_URL?: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE: string;
  S3_BUCKET?: string;
  S3_REGION: string;
}): string {
  if (raw.MEDIA_BASE_URL) return new URL(raw.MEDIA_BASE_URL).origin;
  const pathStyle = raw.S3_FORCE_PATH_STYLE === "1" || raw.S3_FORCE_PATH_STYLE === "true";
  if (raw.S3_ENDPOINT) {
    const endpoint = new URL(raw.S3_ENDPOINT);
    return pathStyle ? endpoint.origin : `${endpoint.protocol}//${raw.S3_BUCKET}.${endpoint.host}`;
  }
  return pathStyle
    ? `https://s3.${raw.S3_REGION}.amazonaws.com`
    : `https://${raw.S3_BUCKET}.s3.${raw.S3_REGION}.amazonaws.com`;
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
    signInFailuresPerAddress: raw.SIGN_IN_FAILURES_PER_ADDRESS,
    signInFailuresServiceWide: raw.SIGN_IN_FAILURES_SERVICE_WIDE,
    passwordCheckWaitMs: raw.PASSWORD_CHECK_WAIT_SECONDS * 1000,
    databaseRoomBytes: raw.DATABASE_ROOM_MB * 1024 * 1024,
    uploadStartMs: Math.round(raw.UPLOAD_START_MINUTES * 60 * 1000),
    uploadSharePercent: raw.UPLOAD_SHARE_PERCENT,
    uploadReservedPercent: raw.UPLOAD_RESERVED_PERCENT,
    uploadHoldMs: Math.round(raw.UPLOAD_HOLD_MINUTES * 60 * 1000),
    ffmpegPath: raw.FFMPEG_PATH,
    ffprobePath: raw.FFPROBE_PATH,
    mediaJobs: raw.MEDIA_JOBS,
    ladder: (parseLadder(raw.LADDER) as { ok: true; rungs: number[] }).rungs,
    ladderCodecs: (parseLadderCodecs(raw.LADDER_CODECS) as { ok: true; codecs: LadderCodec[] }).codecs,
    logLevel: raw.LOG_LEVEL,
    workerHeader: raw.WORKER_HEADER === "1",
    mediaStore: raw.MEDIA_STORE,
    s3:
      raw.S3_BUCKET && raw.S3_ACCESS_KEY_ID && raw.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: raw.S3_ENDPOINT,
            region: raw.S3_REGION,
            bucket: raw.S3_BUCKET,
            accessKeyId: raw.S3_ACCESS_KEY_ID,
            secretAccessKey: raw.S3_SECRET_ACCESS_KEY,
            forcePathStyle: raw.S3_FORCE_PATH_STYLE === "1" || raw.S3_FORCE_PATH_STYLE === "true",
            mediaBaseUrl: raw.MEDIA_BASE_URL?.replace(/\/+$/, ""),
            signing: raw.MEDIA_URL_SIGNING,
            cdnKey: raw.MEDIA_CDN_KEY,
            keepSource: raw.S3_KEEP_SOURCE,
            timeoutMs: raw.S3_TIMEOUT_SECONDS * 1000,
            origin: mediaOrigin(raw),
            retryMs: raw.S3_RETRY_SECONDS * 1000,
          }
        : undefined,
    currency: raw.CURRENCY as Currency,
    sms: smsSettings(raw),
    paystack: raw.PAYSTACK_SECRET_KEY
      ? {
          secretKey: raw.PAYSTACK_SECRET_KEY,
          baseUrl: raw.PAYSTACK_BASE_URL.replace(/\/+$/, ""),
          channels: raw.PAYSTACK_CHANNELS as PaystackChannel[],
        }
      : undefined,
  };
}

let cached: Env | undefined;

/** The parsed environment of this process; the first call validates it. */
/** Whether this process signs sessions or tokens (every process but the operator's media commands). */
let secretNeeded = true;

/** For an operator command that signs nothing (media:move, media:cors): it runs without SESSION_SECRET. */
export function runWithoutSessionSecret(): void {
  secretNeeded = false;
  cached = undefined;
}

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

function smsSettings(raw: z.infer<typeof envSchema>): SmsSettings {
  const minor = (major: number) => Math.round(major * 10 ** minorUnitDigits(raw.CURRENCY));
  return {
    provider: raw.SMS_PROVIDER ?? "file",
    africasTalking:
      raw.SMS_PROVIDER === "africastalking"
        ? {
            username: raw.AT_USERNAME!,
            apiKey: raw.AT_API_KEY!,
            senderId: raw.AT_SENDER_ID,
            apiUrl: raw.AT_API_URL?.replace(/\/+$/, ""),
          }
        : undefined,
    termii:
      raw.SMS_PROVIDER === "termii"
        ? {
            apiKey: raw.TERMII_API_KEY!,
            senderId: raw.TERMII_SENDER_ID!,
            baseUrl: raw.TERMII_BASE_URL.replace(/\/+$/, ""),
            channel: raw.TERMII_CHANNEL,
          }
        : undefined,
    countries: raw.SMS_COUNTRIES,
    priceMinor: minor(raw.SMS_PRICE),
    dailySpendCapMinor: minor(raw.SMS_DAILY_SPEND_CAP),
    perHour: raw.SMS_PER_HOUR,
    perDay: raw.SMS_PER_DAY,
    codesPerNetworkHour: raw.SMS_CODES_PER_NETWORK_HOUR,
    codesPerNetworkDay: raw.SMS_CODES_PER_NETWORK_DAY,
    callbackKey: raw.SMS_CALLBACK_KEY,
  };
}

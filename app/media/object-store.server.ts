import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutBucketCorsCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { Counter, register } from "prom-client";
import type { S3Settings } from "~/utils/env.server";

/**
 * The S3-compatible bucket, through the AWS SDK v3: the same calls work
 * against AWS S3, Cloudflare R2, Backblaze B2, MinIO, Ceph and OpenStack
 * Swift's s3api. Only what every one of them speaks is used: V4 signatures,
 * plain and multipart PUT, HEAD, ranged GET, DELETE, list v2, and bucket
 * CORS where the server has it (Swift's s3api does not: set it on the CDN). The SDK's newer CRC trailers (aws-chunked bodies) are turned off, as
 * several of those servers refuse them; integrity is proven instead by the
 * ETag every one of them returns (the MD5 of the body, or of the parts' MD5s
 * for a multipart upload), which `putFile` computes from the file and checks.
 */

// The SDK warns in nine lines, in every process, that its releases after January 2027 need Node 22;
// `npm start` says it once (scripts/start.ts). The SDK's version here is pinned in package-lock.json.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/** Parts of a multipart upload; a file up to this size goes in one PUT. */
export const PART_BYTES = 16 * 1024 * 1024;

export const objectStoreErrors =
  (register.getSingleMetric("kallo_object_store_errors_total") as Counter<"operation" | "kind"> | undefined) ??
  new Counter({
    name: "kallo_object_store_errors_total",
    help: "Requests to the media bucket that failed after the SDK's own retries, by operation and kind (timeout, network, auth, server, other)",
    labelNames: ["operation", "kind"],
  });

export type ObjectStoreErrorKind =
  "timeout" | "network" | "auth" | "clock" | "no-bucket" | "server" | "missing" | "checksum" | "other";

/** Kinds that settings cause and only settings (or the box's clock) mend: waiting does not. */
export const SETTINGS_KINDS: readonly ObjectStoreErrorKind[] = ["auth", "clock", "no-bucket"];

/** A failed bucket operation, with what kind of failure it was (for /metrics, /healthz and the log). */
export class ObjectStoreError extends Error {
  constructor(
    public readonly operation: string,
    public readonly kind: ObjectStoreErrorKind,
    message: string,
    /** The server's error code or the SDK's error name (NoSuchBucket, InvalidAccessKeyId, ECONNREFUSED, …). */
    public readonly code = "",
  ) {
    super(`bucket ${operation} failed (${kind}): ${message}`);
    this.name = "ObjectStoreError";
  }
}

/**
 * What is wrong, for an operator: the setting that names the cause and what mends it (the start, /healthz,
 * the log and the administrator's pages say this). `error` is a failed bucket call.
 */
export function describeBucketProblem(error: unknown, settings: S3Settings): string {
  const failure = error instanceof ObjectStoreError ? error : null;
  const kind = failure?.kind ?? classifyError(error);
  const code = failure?.code || (error as { name?: string; code?: string })?.code || (error as Error)?.name || "";
  const where = settings.endpoint ?? `AWS S3 (${settings.region})`;
  switch (kind) {
    case "no-bucket":
      return `S3_BUCKET: the bucket "${settings.bucket}" does not exist at ${where}; create it, or set S3_BUCKET to one that does`;
    case "clock":
      return `this box's clock differs from the bucket's by more than 15 minutes (${code}): set the time (NTP), then the bucket answers again`;
    case "auth":
      if (code === "InvalidAccessKeyId")
        return `S3_ACCESS_KEY_ID: ${where} does not know the key "${settings.accessKeyId}"`;
      if (code === "SignatureDoesNotMatch")
        return `S3_SECRET_ACCESS_KEY: the secret is not the one of key "${settings.accessKeyId}" (${where} refused the signature; some servers, Swift among them, say this of a key they do not know too: check S3_ACCESS_KEY_ID as well)`;
      if (code === "AuthorizationHeaderMalformed" || code === "PermanentRedirect")
        return `S3_REGION: the bucket "${settings.bucket}" is not in region "${settings.region}" (${code})`;
      return `S3_ACCESS_KEY_ID: the key "${settings.accessKeyId}" may not use the bucket "${settings.bucket}" (${code || "access denied"}): give it read, write and list on the bucket`;
    case "network":
      if (/ENOTFOUND|EAI_AGAIN/.test(code)) return `S3_ENDPOINT: no address found for ${where} (${code})`;
      return `the bucket at ${where} cannot be reached (${code || "network"})`;
    case "timeout":
      return `the bucket at ${where} did not answer within S3_TIMEOUT_SECONDS (${settings.timeoutMs / 1000} s)`;
    case "server":
      return `the bucket's server at ${where} answers with errors (${code || "5xx"})`;
    default:
      return `the bucket at ${where} failed (${code || (error instanceof Error ? error.message : String(error))})`;
  }
}

export function classifyError(error: unknown): ObjectStoreErrorKind {
  if (error instanceof ObjectStoreError) return error.kind;
  const name = (error as { name?: string })?.name ?? "";
  const code = (error as { code?: string })?.code ?? "";
  if (name === "TimeoutError" || name === "RequestTimeout" || /TIMEDOUT|ETIMEDOUT/.test(code)) return "timeout";
  if (error instanceof S3ServiceException) {
    const status = error.$metadata?.httpStatusCode ?? 0;
    if (name === "NoSuchBucket") return "no-bucket";
    if (name === "RequestTimeTooSkewed") return "clock";
    if (
      status === 401 ||
      status === 403 ||
      /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|AuthorizationHeaderMalformed|PermanentRedirect/.test(name)
    )
      return "auth";
    if (status === 404 || name === "NotFound" || name === "NoSuchKey") return "missing";
    if (status >= 500) return "server";
    return "other";
  }
  if (
    /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|EPIPE|EAI_AGAIN/.test(code) ||
    /socket|network/i.test(String(error))
  )
    return "network";
  return "other";
}

export type ObjectInfo = { key: string; size: number; etag: string };

/**
 * What a bucket may answer as the ETag of a file sent in parts of
 * `partBytes` (one PUT when it fits in one): the MD5 of the parts' MD5s with
 * their count (`…-3`, what S3, R2, MinIO, Ceph and Swift answer for multipart),
 * and the whole file's MD5 (a single PUT, and what some servers answer for
 * multipart too). Both come from one reading of the file.
 */
export async function fileEtags(
  file: string,
  partBytes = PART_BYTES,
): Promise<{ whole: string; multipart: string | null }> {
  const partDigests: Buffer[] = [];
  const whole = createHash("md5");
  let part = createHash("md5");
  let inPart = 0;
  let total = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    whole.update(chunk);
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(chunk.length - offset, partBytes - inPart);
      part.update(chunk.subarray(offset, offset + take));
      inPart += take;
      offset += take;
      total += take;
      if (inPart === partBytes) {
        partDigests.push(part.digest());
        part = createHash("md5");
        inPart = 0;
      }
    }
  }
  if (inPart > 0) partDigests.push(part.digest());
  const multipart =
    total > partBytes
      ? `${createHash("md5").update(Buffer.concat(partDigests)).digest("hex")}-${partDigests.length}`
      : null;
  return { whole: whole.digest("hex"), multipart };
}

/** Does a bucket's ETag prove it holds this file? */
export function etagMatches(etag: string, file: { whole: string; multipart: string | null }): boolean {
  return etag === file.whole || (file.multipart !== null && etag === file.multipart);
}

function cleanEtag(etag: string | undefined): string {
  return (etag ?? "").replace(/"/g, "").toLowerCase();
}

export class ObjectStore {
  readonly client: S3Client;

  constructor(
    readonly settings: S3Settings,
    private readonly hooks: { onOutcome?: (error: unknown) => void } = {},
  ) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Retries with exponential back-off and jitter for throttling, 5xx and dropped connections.
      maxAttempts: 4,
      retryMode: "standard",
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      requestHandler: {
        connectionTimeout: Math.min(settings.timeoutMs, 10_000),
        requestTimeout: settings.timeoutMs,
      },
    });
  }

  get bucket(): string {
    return this.settings.bucket;
  }

  /** Run one bucket call; a failure is counted by kind and thrown as an ObjectStoreError. */
  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      this.hooks.onOutcome?.(null);
      return result;
    } catch (error) {
      if (error instanceof ObjectStoreError) {
        this.hooks.onOutcome?.(error);
        throw error;
      }
      let kind = classifyError(error);
      // A bucket that is not there answers a HEAD or LIST of itself 404 (with no body to name it).
      if (kind === "missing" && operation === "check") kind = "no-bucket";
      if (kind !== "missing") objectStoreErrors.inc({ operation, kind });
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const raw = (error ?? {}) as { Code?: string; code?: string; name?: string };
      const failure = new ObjectStoreError(operation, kind, message, raw.Code ?? raw.code ?? raw.name ?? "");
      this.hooks.onOutcome?.(failure);
      throw failure;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const head = await this.call("head", () =>
        this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })),
      );
      return { key, size: head.ContentLength ?? 0, etag: cleanEtag(head.ETag) };
    } catch (error) {
      if (error instanceof ObjectStoreError && error.kind === "missing") return null;
      throw error;
    }
  }

  /**
   * Send a file (multipart above PART_BYTES, two parts at a time) and prove the
   * bucket holds exactly it: its size and ETag must match what the file gives.
   * A file already there with the same size and ETag is not sent again.
   */
  async putFile(
    key: string,
    file: string,
    options: { contentType: string; cacheControl?: string },
  ): Promise<ObjectInfo> {
    const { size } = await fs.promises.stat(file);
    const etags = await fileEtags(file);
    const existing = await this.head(key);
    if (existing && existing.size === size && etagMatches(existing.etag, etags)) return existing;
    await this.call("put", async () => {
      const upload = new Upload({
        client: this.client,
        partSize: PART_BYTES,
        queueSize: 2,
        leavePartsOnError: false,
        params: {
          Bucket: this.bucket,
          Key: key,
          Body: fs.createReadStream(file, { highWaterMark: 1024 * 1024 }),
          ContentType: options.contentType,
          CacheControl: options.cacheControl,
          ContentLength: size <= PART_BYTES ? size : undefined,
        },
      });
      await upload.done();
    });
    const stored = await this.head(key);
    if (!stored) throw new ObjectStoreError("verify", "missing", `${key} is not in the bucket after it was sent`);
    if (stored.size !== size || !etagMatches(stored.etag, etags)) {
      objectStoreErrors.inc({ operation: "verify", kind: "checksum" });
      throw new ObjectStoreError(
        "verify",
        "checksum",
        `${key}: the bucket holds ${stored.size} bytes with ETag ${stored.etag}, the file is ${size} bytes with ${etags.multipart ?? etags.whole}`,
      );
    }
    return stored;
  }

  /** A whole object as a stream, or a byte range of it. */
  async getStream(key: string, range?: string): Promise<{ body: Readable; size: number; contentRange?: string }> {
    const answer = await this.call("get", () =>
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range })),
    );
    return {
      body: answer.Body as Readable,
      size: answer.ContentLength ?? 0,
      contentRange: answer.ContentRange,
    };
  }

  /** Copy an object to `file` (written beside it first, renamed when whole) and check its size and ETag. */
  async downloadTo(key: string, file: string, expected: { size: number; etag: string }): Promise<void> {
    const part = `${file}.part`;
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    try {
      const { body } = await this.getStream(key);
      await this.call("get", () => pipeline(body, fs.createWriteStream(part)));
      const { size } = await fs.promises.stat(part);
      // Every object this service sends is in PART_BYTES parts, so its ETag is computed the same way.
      const etags = await fileEtags(part);
      if (size !== expected.size || !etagMatches(expected.etag, etags)) {
        objectStoreErrors.inc({ operation: "verify", kind: "checksum" });
        throw new ObjectStoreError(
          "verify",
          "checksum",
          `${key} arrived as ${size} bytes, not matching ETag ${expected.etag}`,
        );
      }
      await fs.promises.rename(part, file);
    } finally {
      await fs.promises.rm(part, { force: true });
    }
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const found: ObjectInfo[] = [];
    let token: string | undefined;
    do {
      const page = await this.call("list", () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token })),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) found.push({ key: item.Key, size: item.Size ?? 0, etag: cleanEtag(item.ETag) });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  /**
   * One DELETE per object, four at a time: the batch delete needs a Content-MD5
   * header that this SDK no longer sends (it sends a CRC instead), which Swift
   * and older servers refuse. A title has a few dozen objects.
   */
  /** Put a few bytes (the CDN's probe file): one PUT. */
  async putSmall(key: string, body: string, contentType = "text/plain"): Promise<void> {
    await this.call("put", () =>
      this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType })),
    );
  }

  async deleteKeys(keys: readonly string[]): Promise<void> {
    const queue = [...keys];
    const worker = async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        const Key = key;
        await this.call("delete", () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })));
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = (await this.list(prefix)).map((item) => item.key);
    await this.deleteKeys(keys);
    return keys.length;
  }

  /** Is the bucket there and does the key open it? (HEAD bucket.) */
  /**
   * Whether the bucket answers this box: a LIST under a prefix nothing is stored under (a few hundred bytes
   * whatever the bucket holds; a HEAD's error has no body, so it could not tell a missing bucket, a wrong
   * key, a wrong secret and a wrong clock apart).
   */
  async check(): Promise<void> {
    await this.call("check", () =>
      this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: "kallo-health-check/", MaxKeys: 1 })),
    );
  }

  /** Let pages of these origins read the bucket's objects by byte range (the player, the offline downloader). */
  async allowBrowserReads(origins: readonly string[]): Promise<void> {
    await this.call("cors", () =>
      this.client.send(
        new PutBucketCorsCommand({
          Bucket: this.bucket,
          CORSConfiguration: {
            CORSRules: [
              {
                AllowedOrigins: [...origins],
                AllowedMethods: ["GET", "HEAD"],
                AllowedHeaders: ["Range", "If-Range", "If-None-Match", "If-Modified-Since"],
                ExposeHeaders: ["Content-Range", "Content-Length", "Accept-Ranges", "ETag", "Last-Modified"],
                MaxAgeSeconds: 86400,
              },
            ],
          },
        }),
      ),
    );
  }

  /**
   * A GET address for one object, valid from `signedAt` for `lifetimeSeconds`.
   * Through MEDIA_BASE_URL when set: its own signature (MEDIA_URL_SIGNING=cdn)
   * or the bucket's presigned query on the CDN's host (a CDN that forwards
   * the query to the bucket).
   */
  async signedGetUrl(key: string, signedAt: Date, lifetimeSeconds: number): Promise<string> {
    const { mediaBaseUrl, signing, cdnKey } = this.settings;
    if (signing === "cdn" && mediaBaseUrl && cdnKey)
      return cdnSignedUrl(mediaBaseUrl, key, signedAt, lifetimeSeconds, cdnKey);
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: lifetimeSeconds,
      signingDate: signedAt,
    });
    if (!mediaBaseUrl) return url;
    const signed = new URL(url);
    const base = new URL(mediaBaseUrl);
    // The CDN's address stands for the bucket: the object's path (without a path-style bucket name) and the signature.
    const objectPath = this.settings.forcePathStyle ? signed.pathname.replace(`/${this.bucket}`, "") : signed.pathname;
    return `${base.origin}${base.pathname.replace(/\/$/, "")}${objectPath}${signed.search}`;
  }
}

/**
 * A CDN address signed the way nginx's secure_link module (and CDNs with the
 * same token scheme) check it: `md5=` base64url(MD5(expires + path + " " + key))
 * and `expires=` in Unix seconds.
 */
export function cdnSignedUrl(
  baseUrl: string,
  key: string,
  signedAt: Date,
  lifetimeSeconds: number,
  cdnKey: string,
): string {
  const base = new URL(baseUrl);
  const objectPath = `${base.pathname.replace(/\/$/, "")}/${key.split("/").map(encodeURIComponent).join("/")}`;
  const expires = Math.floor(signedAt.getTime() / 1000) + lifetimeSeconds;
  const md5 = createHash("md5").update(`${expires}${objectPath} ${cdnKey}`).digest("base64url");
  return `${base.origin}${objectPath}?md5=${md5}&expires=${expires}`;
}

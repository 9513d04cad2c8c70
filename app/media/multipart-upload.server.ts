import fs from "node:fs";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { temporaryPath } from "./atomic-files.server";
import { lingerOn } from "~/utils/request-body.server";
import { SNIFF_BYTES } from "./file-types.server";
import { safeBaseName } from "~/utils/file-names";

/**
 * Stream a multipart/form-data request to disk. Files go to temporary names
 * in `tmpDir` (never held in memory); text fields are collected with small
 * limits. On any failure — too large, a refused file, a dropped connection —
 * every temporary file is removed before the error is thrown, so nothing is
 * left behind. Callers rename the files into place only after their checks.
 */
export type ReceivedFile = {
  /** The form field's name (`movie`, `poster`, or `file` from old clients). */
  field: string;
  /** Position among the files of the request, from 0. */
  index: number;
  originalName: string;
  declaredType: string;
  tempPath: string;
  size: number;
  /** The first bytes, for checking the real type. */
  head: Buffer;
};

export type ReceivedUpload = {
  fields: Record<string, string>;
  files: ReceivedFile[];
  /** Remove every temporary file of this upload (idempotent). */
  discard: () => Promise<void>;
};

export class UploadError extends Error {
  constructor(
    public readonly status: 400 | 413 | 507,
    public readonly code:
      "tooLarge" | "notMultipart" | "badFile" | "aborted" | "malformed" | "tooManyParts" | "noSpace",
    message: string,
    public readonly detail?: { field?: string; reason?: string },
  ) {
    super(message);
    this.name = "UploadError";
  }
}

export type ReceiveOptions = {
  tmpDir: string;
  maxFileBytes: number;
  maxFiles: number;
  /** Checked as soon as a file's first bytes arrive; return a reason to refuse it. */
  checkFile?: (file: { field: string; index: number; originalName: string; head: Buffer }) => string | null;
  signal?: AbortSignal;
};

const MAX_FIELDS = 32;
const MAX_FIELD_BYTES = 64 * 1024;

export async function receiveMultipartUpload(request: Request, options: ReceiveOptions): Promise<ReceivedUpload> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) {
    throw new UploadError(400, "notMultipart", "Expected a multipart/form-data upload");
  }
  const declaredLength = Number(request.headers.get("Content-Length") ?? "NaN");
  // A body longer than every file at its limit plus generous room for fields cannot be accepted.
  const bodyLimit = options.maxFileBytes * options.maxFiles + MAX_FIELDS * MAX_FIELD_BYTES + 1024 * 1024;
  if (Number.isFinite(declaredLength) && declaredLength > bodyLimit) {
    throw new UploadError(413, "tooLarge", "The upload is larger than the limit");
  }

  await fs.promises.mkdir(options.tmpDir, { recursive: true });
  const tempPaths = new Set<string>();
  const discard = async () => {
    await Promise.all([...tempPaths].map((file) => fs.promises.rm(file, { force: true })));
    tempPaths.clear();
  };

  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  const fileWrites: Promise<void>[] = [];
  let failure: UploadError | null = null;
  let fileIndex = 0;

  const parser = busboy({
    headers: { "content-type": contentType },
    limits: {
      fileSize: options.maxFileBytes,
      files: options.maxFiles,
      fields: MAX_FIELDS,
      fieldSize: MAX_FIELD_BYTES,
      parts: MAX_FIELDS + options.maxFiles,
    },
  });
  const fail = (error: UploadError) => {
    failure ??= error;
  };

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(new UploadError(400, "malformed", `The field ${name} is too long`, { field: name }));
    else if (!(name in fields)) fields[name] = value;
  });
  parser.on("filesLimit", () => fail(new UploadError(400, "tooManyParts", "Too many files in one upload")));
  parser.on("fieldsLimit", () => fail(new UploadError(400, "tooManyParts", "Too many fields in one upload")));
  parser.on("partsLimit", () => fail(new UploadError(400, "tooManyParts", "Too many parts in one upload")));

  parser.on("file", (field, stream, info) => {
    const index = fileIndex++;
    // An empty file input still sends a part with no name: skip it.
    if (!info.filename) {
      stream.resume();
      return;
    }
    if (failure) {
      stream.resume();
      return;
    }
    const tempPath = temporaryPath(options.tmpDir, "upload.part");
    tempPaths.add(tempPath);
    const received: ReceivedFile = {
      field,
      index,
      originalName: safeBaseName(info.filename),
      declaredType: info.mimeType,
      tempPath,
      size: 0,
      head: Buffer.alloc(0),
    };
    let refused = false;
    const sniff = new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        if (refused) return callback();
        if (received.head.length < SNIFF_BYTES) {
          received.head = Buffer.concat([received.head, chunk.subarray(0, SNIFF_BYTES - received.head.length)]);
          if (received.head.length >= SNIFF_BYTES && options.checkFile) {
            const reason = options.checkFile({
              field,
              index,
              originalName: received.originalName,
              head: received.head,
            });
            if (reason) {
              refused = true;
              fail(new UploadError(400, "badFile", reason, { field, reason }));
              return callback();
            }
          }
        }
        received.size += chunk.length;
        callback(null, chunk);
      },
      flush(callback) {
        // A file shorter than the sniffing window is checked at its end.
        if (!refused && received.head.length < SNIFF_BYTES && options.checkFile) {
          const reason = options.checkFile({ field, index, originalName: received.originalName, head: received.head });
          if (reason) fail(new UploadError(400, "badFile", reason, { field, reason }));
        }
        callback();
      },
    });
    stream.on("limit", () => fail(new UploadError(413, "tooLarge", "The file is larger than the limit", { field })));
    files.push(received);
    fileWrites.push(
      pipeline(stream, sniff, fs.createWriteStream(tempPath, { flags: "wx" })).catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOSPC" || code === "EDQUOT") {
          // The disk is full: stop reading at once (the partial file is removed below) and say so.
          fail(new UploadError(507, "noSpace", "The server has no room left for this upload", { field }));
          console.error(
            `[upload] ${received.originalName}: the disk is full (${code}); upload stopped and its partial file removed`,
          );
          stopReading();
          return;
        }
        fail(new UploadError(400, "aborted", `The upload of ${received.originalName} did not complete`, { field }));
        if (!(error instanceof UploadError))
          console.warn(
            `[upload] ${received.originalName} did not arrive whole: ${error instanceof Error ? error.message : String(error)}`,
          );
      }),
    );
  });

  const body = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);
  // Bodies without (or lying about) Content-Length are cut off at the same limit.
  let bodyBytes = 0;
  const countBody = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      bodyBytes += chunk.length;
      if (bodyBytes > bodyLimit) {
        fail(new UploadError(413, "tooLarge", "The upload is larger than the limit"));
        return callback(new UploadError(413, "tooLarge", "The upload is larger than the limit"));
      }
      callback(null, chunk);
    },
  });
  /**
   * Stop writing at once and answer now, but keep reading (and dropping) what
   * the client still sends for a while: a connection cut mid-upload is all a
   * browser would show, never our answer (see lingerOn). Once the body has
   * ended the connection can carry the next request.
   */
  const linger = () => {
    body.unpipe(countBody);
    lingerOn(request, body);
  };
  const stopReading = () => {
    linger();
    countBody.destroy(failure ?? undefined);
  };
  const onAbort = () => body.destroy(new Error("client aborted"));
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    // The body is piped by hand, not in the pipeline: stopping early must leave it readable (see stopReading).
    body.on("error", (error) => countBody.destroy(error));
    body.pipe(countBody);
    await pipeline(countBody, parser);
    await Promise.all(fileWrites);
  } catch (error) {
    linger();
    await Promise.allSettled(fileWrites);
    await discard();
    if (failure) throw failure;
    throw new UploadError(400, "aborted", "The upload did not complete", {
      reason: error instanceof Error ? error.message : String(error),
    });
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  if (failure) {
    await discard();
    throw failure;
  }
  return { fields, files, discard };
}

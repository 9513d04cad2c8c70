import { S3ServiceException } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { classifyError, describeBucketProblem, ObjectStoreError, SETTINGS_KINDS } from "~/media/object-store.server";
import type { S3Settings } from "~/utils/env.server";

const settings: S3Settings = {
  endpoint: "https://s3.example.net",
  region: "auto",
  bucket: "kallo-films",
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "secret",
  forcePathStyle: true,
  signing: "presign",
  keepSource: "bucket",
  timeoutMs: 30_000,
} as S3Settings;

/** An error as the AWS SDK throws it for a server's answer. */
function answer(name: string, status: number): S3ServiceException {
  return new S3ServiceException({
    name,
    $fault: status >= 500 ? "server" : "client",
    $metadata: { httpStatusCode: status },
  });
}

function failure(operation: string, error: unknown): ObjectStoreError {
  const code = (error as { name?: string; code?: string }).code ?? (error as { name?: string }).name ?? "";
  return new ObjectStoreError(operation, classifyError(error), String(error), code);
}

describe("what a failing bucket is, and the setting that mends it", () => {
  it("names each settings problem by its setting", () => {
    const cases: Array<[S3ServiceException, string, RegExp]> = [
      [
        answer("NoSuchBucket", 404),
        "no-bucket",
        /^S3_BUCKET: the bucket "kallo-films" does not exist at https:\/\/s3\.example\.net/,
      ],
      [answer("InvalidAccessKeyId", 403), "auth", /^S3_ACCESS_KEY_ID: .* does not know the key "AKIDEXAMPLE"/],
      [
        answer("SignatureDoesNotMatch", 403),
        "auth",
        /^S3_SECRET_ACCESS_KEY: the secret is not the one of key "AKIDEXAMPLE"/,
      ],
      [
        answer("AccessDenied", 403),
        "auth",
        /^S3_ACCESS_KEY_ID: the key "AKIDEXAMPLE" may not use the bucket "kallo-films"/,
      ],
      [
        answer("AuthorizationHeaderMalformed", 400),
        "auth",
        /^S3_REGION: the bucket "kallo-films" is not in region "auto"/,
      ],
      [answer("RequestTimeTooSkewed", 403), "clock", /clock differs from the bucket's by more than 15 minutes/],
    ];
    for (const [error, kind, said] of cases) {
      expect(classifyError(error), error.name).toBe(kind);
      expect(SETTINGS_KINDS).toContain(kind);
      expect(describeBucketProblem(failure("check", error), settings)).toMatch(said);
    }
  });

  it("tells a bucket that is away from one that is wrong", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9000"), { code: "ECONNREFUSED" });
    const unknownHost = Object.assign(new Error("getaddrinfo ENOTFOUND s3.example.net"), { code: "ENOTFOUND" });
    expect(classifyError(refused)).toBe("network");
    expect(describeBucketProblem(failure("check", refused), settings)).toBe(
      "the bucket at https://s3.example.net cannot be reached (ECONNREFUSED)",
    );
    expect(describeBucketProblem(failure("check", unknownHost), settings)).toMatch(/^S3_ENDPOINT: no address found/);
    expect(classifyError(answer("InternalError", 503))).toBe("server");
    expect(SETTINGS_KINDS).not.toContain("network");
    expect(SETTINGS_KINDS).not.toContain("server");
    // An object that is not there is not a problem of the bucket's.
    expect(classifyError(answer("NoSuchKey", 404))).toBe("missing");
  });

  it("names AWS's own endpoint by region when none is set", () => {
    expect(
      describeBucketProblem(failure("check", answer("NoSuchBucket", 404)), {
        ...settings,
        endpoint: undefined,
        region: "eu-west-1",
      }),
    ).toContain("at AWS S3 (eu-west-1)");
  });
});

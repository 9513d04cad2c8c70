import { z } from "zod";
import {
  changePasswordSchema,
  profileSchema,
  providerProfileSchema,
  providerRegistrationSchema,
  registrationSchema,
  signInSchema,
} from "~/services/validation";
import { uploadDetailsSchema } from "~/services/uploads.server";
import { titleEditSchema } from "~/services/title-edits.server";
import type { Access, ApiRoute } from "./types";
import { watchedSchema } from "./handlers/viewings.server";

/**
 * The OpenAPI 3.1 description served at /api/openapi.json. Request bodies are
 * converted from the same zod schemas the handlers validate with (a small
 * converter for the few zod types they use), so the document cannot drift
 * from the rules; responses are described by hand in the old clients' names.
 */
type JsonSchema = Record<string, unknown>;

/** zod (v3) → JSON Schema, for strings, numbers, objects and the wrappers the form schemas use. */
export function zodToJsonSchema(schema: z.ZodTypeAny): JsonSchema {
  const def = schema._def as { typeName: z.ZodFirstPartyTypeKind } & Record<string, unknown>;
  switch (def.typeName) {
    case z.ZodFirstPartyTypeKind.ZodEffects:
      return zodToJsonSchema(def.schema as z.ZodTypeAny);
    case z.ZodFirstPartyTypeKind.ZodPipeline: {
      // preprocess(...).pipe(rules): the rules on the way out are what a caller must meet.
      const input = zodToJsonSchema(def.in as z.ZodTypeAny);
      const output = zodToJsonSchema(def.out as z.ZodTypeAny);
      return { ...input, ...output };
    }
    case z.ZodFirstPartyTypeKind.ZodOptional:
    case z.ZodFirstPartyTypeKind.ZodNullable:
      return zodToJsonSchema(def.innerType as z.ZodTypeAny);
    case z.ZodFirstPartyTypeKind.ZodDefault:
      return { ...zodToJsonSchema(def.innerType as z.ZodTypeAny), default: (def.defaultValue as () => unknown)() };
    case z.ZodFirstPartyTypeKind.ZodString: {
      const out: JsonSchema = { type: "string" };
      for (const check of def.checks as Array<{ kind: string; value?: number; regex?: RegExp }>) {
        if (check.kind === "min") out.minLength = Math.max(Number(out.minLength ?? 0), check.value!);
        if (check.kind === "max") out.maxLength = check.value;
        if (check.kind === "email") out.format = "email";
        if (check.kind === "regex") out.pattern = check.regex!.source;
      }
      return out;
    }
    case z.ZodFirstPartyTypeKind.ZodNumber:
      return { type: "number" };
    case z.ZodFirstPartyTypeKind.ZodBoolean:
      return { type: "boolean" };
    case z.ZodFirstPartyTypeKind.ZodEnum:
      return { type: "string", enum: def.values as string[] };
    case z.ZodFirstPartyTypeKind.ZodObject: {
      const shape = (schema as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [name, field] of Object.entries(shape)) {
        properties[name] = zodToJsonSchema(field);
        // Required when leaving it out is refused (an email that may be empty reads a missing one as null).
        if (!field.safeParse(undefined).success) required.push(name);
      }
      return { type: "object", properties, required };
    }
    default:
      return {};
  }
}

const formBody = (schema: z.ZodTypeAny) => {
  const json = zodToJsonSchema(schema);
  return {
    required: true,
    content: { "application/json": { schema: json }, "application/x-www-form-urlencoded": { schema: json } },
  };
};

/** A block may say why (kept in the audit log); old clients send no body. */
const blockBody = {
  required: false,
  content: {
    "application/json": {
      schema: {
        type: "object",
        properties: { reason: { type: "string", maxLength: 500 } },
        additionalProperties: true,
      },
    },
  },
};

const REQUEST_BODIES: Record<string, unknown> = {
  "POST /user/login": formBody(signInSchema),
  "POST /cp/login": formBody(signInSchema),
  "POST /user/register": formBody(registrationSchema),
  "POST /cp/register": formBody(providerRegistrationSchema),
  "POST /user/phone/code": formBody(
    z.object({
      phoneNumber: z.string().describe("0803 123 4567, +234 803 123 4567 or 2348031234567"),
      purpose: z.enum(["signin", "reset"]).default("signin"),
    }),
  ),
  "POST /user/phone/add": formBody(z.object({ phoneNumber: z.string() })),
  "POST /user/phone/resend": formBody(z.object({ codeId: z.string() })),
  "POST /user/phone/verify": formBody(
    z.object({
      codeId: z.string(),
      code: z.string().describe("the six digits sent by SMS"),
      password: z.string().optional().describe("a reset's new password"),
      password2: z.string().optional(),
    }),
  ),
  "PUT /user/sms-notices": formBody(z.object({ on: z.boolean() })),
  "POST /user/profiles/{profileId}/token": formBody(
    z.object({
      pin: z
        .string()
        .regex(/^\d{4}$/)
        .optional(),
    }),
  ),
  "PUT /user/profile/edit/{userId}": formBody(profileSchema),
  "PUT /user/profile/password/{userId}": formBody(changePasswordSchema),
  "PUT /cp/profile/edit/{providerId}": formBody(providerProfileSchema),
  "POST /files/watched": formBody(watchedSchema),
  "PUT /movies/edit/{movieId}": (() => {
    const json = zodToJsonSchema(titleEditSchema);
    // Every field may be left out: only those sent change.
    const partial: JsonSchema = { ...json, required: [] };
    return {
      required: true,
      description:
        "The upload's field names; fields left out keep their values. An episode's `Category` is its series' and is ignored. Send multipart/form-data to replace the poster too (part `poster`, .jpg .jpeg .png, at most 10 MB).",
      content: {
        "application/json": { schema: partial },
        "application/x-www-form-urlencoded": { schema: partial },
        "multipart/form-data": {
          schema: {
            ...partial,
            properties: {
              ...(partial.properties as object),
              poster: { type: "string", contentMediaType: "application/octet-stream" },
            },
          },
        },
      },
    };
  })(),
  "POST /movies/replace/{movieId}": {
    required: true,
    description:
      "One part named `movie` (or `file`): .mp4 .mov .mkv .3gp .wmv .avi .mpeg, checked by extension, content and ffprobe. Large films: the resumable upload at /provider/uploads/tus with the metadata `replaces` (the title's id) and `filename`.",
    content: {
      "multipart/form-data": {
        schema: {
          type: "object",
          properties: { movie: { type: "string", contentMediaType: "application/octet-stream" } },
          required: ["movie"],
        },
      },
    },
  },
  "PUT /cp/block/{id}": blockBody,
  "PUT /cp/user/block/{id}": blockBody,
  "POST /upload/movies": {
    required: true,
    description:
      "Text parts first (uploadedByUser and other unknown text parts are ignored), then two parts named `file`: the movie, then the poster.",
    content: {
      "multipart/form-data": {
        schema: {
          ...zodToJsonSchema(uploadDetailsSchema),
          properties: {
            ...(zodToJsonSchema(uploadDetailsSchema).properties as object),
            file: {
              type: "array",
              items: { type: "string", contentMediaType: "application/octet-stream" },
              minItems: 1,
              maxItems: 2,
            },
          },
        },
      },
    },
  },
};

const message = { oneOf: [{ type: "string" }, { type: "object", additionalProperties: { type: "string" } }] };
const error = { type: "object", properties: { success: { const: false }, message }, required: ["success", "message"] };
const userDetails = {
  type: "object",
  properties: {
    name: { type: "string" },
    email: { type: "string" },
    phoneNumber: { type: "string" },
    Id: { type: "string" },
  },
};
const title = {
  type: "object",
  properties: {
    _id: { type: "string" },
    MovieName: { type: "string" },
    filename: { type: "string", description: "GET /api/files/{filename}" },
    thumbnail: { type: ["string", "null"], description: "GET /api/files/thumbnail/{thumbnail}" },
    description: { type: "string" },
    uploadedDate: { type: "string", format: "date-time" },
    views: { type: "integer" },
    size: { type: "number", description: "MB" },
  },
};
const accountRecord = {
  type: "object",
  properties: {
    _id: { type: "string" },
    name: { type: "string" },
    providerName: { type: "string" },
    email: { type: "string" },
    phoneNumber: { type: "string" },
    isBlocked: { type: "boolean" },
  },
};
const ok = (properties: Record<string, unknown> = {}) => ({
  type: "object",
  properties: { success: { const: true }, message, ...properties },
});

const editedTitle = {
  type: "object",
  properties: {
    ...title.properties,
    cast: { type: "string" },
    Category: { type: "string", description: "The category's id" },
    status: { enum: ["processing", "ready", "failed"] },
    approved: { type: "boolean" },
    lastModified: { type: "string", format: "date-time" },
  },
};
const replacement = {
  type: ["object", "null"],
  properties: {
    status: { enum: ["processing", "failed", "done"] },
    file: { type: "string", description: "The file's name as it was sent" },
    receivedAt: { type: "string", format: "date-time" },
    swappedAt: { type: ["string", "null"], format: "date-time", description: "When the new film began to play" },
    failureReason: {
      type: ["string", "null"],
      enum: ["unreadable", "noVideo", "noDuration", "interrupted", "processing", null],
    },
    message: { type: ["string", "null"], description: "Why it failed, in words" },
  },
};

const RESPONSES: Record<string, unknown> = {
  "PUT /movies/edit/{movieId}": ok({ changed: { type: "array", items: { type: "string" } }, movie: editedTitle }),
  "POST /movies/replace/{movieId}": ok({ replacementId: { type: "string" } }),
  "GET /movies/replace/{movieId}": ok({ replacement }),
  "POST /user/login": ok({
    token: { type: "string" },
    isUser: { type: "boolean" },
    isAdmin: { type: "boolean" },
    isBlocked: { type: "boolean" },
    userDetails,
  }),
  "POST /cp/login": ok({
    token: { type: "string" },
    isCp: { type: "boolean" },
    isBlocked: { type: "boolean" },
    userDetails,
  }),
  "GET /cp/allusers": { type: "array", items: accountRecord },
  "GET /cp/user/allusers": { type: "array", items: accountRecord },
  "GET /user/profile/{userId}": ok({
    name: { type: "string" },
    email: { type: "string" },
    phoneNumber: { type: "string" },
  }),
  "PUT /user/profile/password/{userId}": ok({ token: { type: "string" } }),
  "GET /movies/all": { type: "array", items: title },
  "GET /movies/all/{providerId}": { type: "array", items: title },
  "PUT /files/movies/views/{movieId}": ok({ counted: { type: "boolean" }, views: { type: "integer" } }),
};

const SUMMARIES: Record<string, string> = {
  "POST /user/login": "Sign in a viewer or administrator; returns a token and sets the session cookie",
  "POST /cp/login": "Sign in a content provider; returns a token and sets the session cookie",
  "POST /user/register":
    "Register a viewer. Without an email, a code goes by SMS to phoneNumber and the answer is 202 with a codeId: the account is made by POST /user/phone/verify",
  "POST /user/phone/code":
    "Send a code by SMS to sign in (purpose signin) or to set a new password (purpose reset). 202 with a codeId whether or not the number has an account; 429 with Retry-After past the caps per number and per network",
  "POST /user/phone/add": "Send a code to a number to add it to the signed-in account as a way in",
  "POST /user/phone/resend": "Send a new code for a codeId (the old code stops working); one a minute",
  "POST /user/phone/verify":
    "Give a code back (5 tries, 10 minutes): a sign-up or sign-in answers as /user/login does; a reset (with password and password2) sets the password and ends every session",
  "PUT /user/sms-notices":
    "Notices by SMS (pass ending, new episodes, a title's review) on or off for the signed-in account",
  "GET /user/profiles": "The account's profiles, and which one this token watches as",
  "POST /user/profiles/{profileId}/token":
    "A token that watches as this profile (lists, history, streams, downloads); `pin` when leaving a children's profile or opening a locked one",
  "POST /cp/register": "Register an approved content provider",
  "GET /cp/allusers": "List providers (100 a page, ?page=, total in X-Total-Count)",
  "GET /cp/user/allusers": "List viewers (100 a page, ?page=, total in X-Total-Count)",
  "PUT /cp/block/{id}": "Block a provider",
  "PUT /cp/unblock/{id}": "Unblock a provider",
  "PUT /cp/user/block/{id}": "Block a viewer",
  "PUT /cp/user/unblock/{id}": "Unblock a viewer",
  "GET /user/profile/{userId}": "Read a profile (the account itself, or an administrator)",
  "PUT /user/profile/edit/{userId}": "Edit a profile (the account itself, or an administrator)",
  "PUT /user/profile/password/{userId}":
    "Change one's own password; every older token and session ends, a new token is returned",
  "PUT /cp/profile/edit/{providerId}": "Edit a provider's profile (the provider, or an administrator)",
  "GET /movies/all": "Published titles, newest first (100 a page, ?page=)",
  "GET /movies/all/{providerId}": "A provider's own titles, every status (the provider, or an administrator)",
  "POST /upload/movies": "Upload a title (answered once the files are stored; it then processes)",
  "DELETE /movies/delete/{movieId}": "Delete a title (its provider, or an administrator)",
  "PUT /movies/edit/{movieId}":
    "Edit a title's details and poster (its provider, or an administrator); a published title's edit is live at once",
  "POST /movies/replace/{movieId}":
    "Replace a title's film (its provider): the current film plays until the new one is ready in every quality, then it plays instead",
  "GET /movies/replace/{movieId}":
    "Where the title's latest film replacement stands (processing, failed and why, done)",
  "PUT /files/movies/views/{movieId}": "Count a view, once per viewing",
  "POST /files/watched": "Record a title in the caller's history",
  "GET /openapi.json": "This document",
};

function who(access: Access): string {
  if (access === "anyone") return "Anyone.";
  if (access === "signedIn") return "Signed in (the account named by the path, or an administrator where stated).";
  return `Roles: ${access.join(", ")}.`;
}

export function buildOpenApiDocument(request: Request, routes: readonly ApiRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((found) => ({
      name: found[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const responses: Record<string, unknown> = {
      [route.method === "POST" && /register|upload/.test(route.path)
        ? "201"
        : route.method === "POST" && route.path.startsWith("/movies/replace/")
          ? "202"
          : "200"]: {
        description: "Success",
        content: { "application/json": { schema: RESPONSES[key] ?? ok() } },
      },
      "400": { description: "Bad input", content: { "application/json": { schema: error } } },
    };
    if (route.access !== "anyone") {
      responses["401"] = {
        description: "No or invalid credentials",
        content: { "application/json": { schema: error } },
      };
    }
    responses["403"] = {
      description: "Not allowed (role, owner, blocked, or a cross-site browser write)",
      content: { "application/json": { schema: error } },
    };
    if (parameters.length > 0)
      responses["404"] = { description: "Unknown id", content: { "application/json": { schema: error } } };
    if (route.path.endsWith("/login") || route.path.endsWith("/register")) {
      responses["429"] = {
        description: "Too many tries (Retry-After)",
        content: { "application/json": { schema: error } },
      };
    }
    if (route.path === "/upload/movies" || (route.method !== "GET" && /^\/movies\/(edit|replace)\//.test(route.path))) {
      responses["413"] = { description: "File too large", content: { "application/json": { schema: error } } };
      responses["507"] = {
        description: "No room on the server's disk for this file now",
        content: { "application/json": { schema: error } },
      };
    }
    if (route.method === "POST" && route.path.startsWith("/movies/replace/"))
      responses["409"] = {
        description: "The title is still processing, or another replacement is under way",
        content: { "application/json": { schema: error } },
      };
    (paths[`/api${route.path}`] ??= {})[route.method.toLowerCase()] = {
      summary: SUMMARIES[key],
      description: who(route.access),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(REQUEST_BODIES[key] ? { requestBody: REQUEST_BODIES[key] } : {}),
      ...(route.access === "anyone" ? { security: [] } : {}),
      responses,
    };
  }
  paths["/api/files/{filename}"] = {
    get: {
      summary: "A title's video (`<id>.mp4`), with HTTP byte ranges (206, 416; HEAD too)",
      description:
        "Signed-in viewers (published titles), the owning provider, administrators. The session cookie works, so `<video src>` plays.",
      parameters: [
        { name: "filename", in: "path", required: true, schema: { type: "string", pattern: "^[a-z0-9]{8,32}\\.mp4$" } },
      ],
      responses: {
        "200": { description: "video/mp4" },
        "206": { description: "A byte range" },
        "401": { description: "Not signed in" },
        "404": { description: "Unknown" },
        "416": { description: "Range not satisfiable" },
      },
    },
  };
  paths["/api/files/thumbnail/{thumbnail}"] = {
    get: {
      summary: "A title's poster",
      security: [],
      parameters: [{ name: "thumbnail", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": { description: "image/jpeg or image/webp" }, "404": { description: "Unknown" } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Kallo API for old clients",
      version: "1.0.0",
      description:
        "Sign in at /api/user/login or /api/cp/login to get a token (HS256 JWT; payload userId, exp in seconds, isUser, isAdmin, isCp) and the session cookie. Protected calls accept `Authorization: Bearer <token>` or the cookie; cookie-authenticated writes must come from this site (Origin or Sec-Fetch-Site). Errors are `{ success: false, message }`.",
    },
    servers: [{ url: new URL(request.url).origin }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        cookie: { type: "apiKey", in: "cookie", name: "kallo_session" },
      },
    },
    security: [{ bearer: [] }, { cookie: [] }],
    paths,
  };
}

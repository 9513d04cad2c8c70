import { checkUploadedFile } from "~/media/file-types.server";
import { receiveMultipartUpload, UploadError, type ReceivedFile } from "~/media/multipart-upload.server";
import type { DB } from "~/db/client.server";
import type { Role } from "~/db/schema";
import { storagePaths, storageRoot } from "~/media/storage.server";
import { SUBTITLE_MAX_BYTES } from "~/media/subtitle-files";
import { acceptSubtitleUpload, problemMessage, type SubtitleUploadResult } from "~/services/subtitles.server";
import { lingerOn } from "~/utils/request-body.server";
import { readForm } from "~/utils/read-form.server";

/**
 * Forms with files, read once, here at the edge: a multipart body streamed to
 * temporary files (each checked by extension and content as its first bytes
 * arrive, so a wrong file is refused before the rest is sent), or a body
 * without files where a form allows one. The services get what was read —
 * the text fields and the files by their role — never the request.
 */

/** What a form's file is, by the checks of media/file-types (null: checked later by its own reader, as a subtitle). */
type FileKind = "movie" | "poster" | null;

export type UploadForm<Role extends string> = {
  fields: Record<string, string>;
  /** The first file of each role (it may be empty: a film input sent with a file of 0 bytes). */
  files: Partial<Record<Role, ReceivedFile>>;
  /** Remove the temporary files (idempotent): the caller does, once the service has placed what it keeps. */
  discard: () => Promise<void>;
};

export type UploadRefusal<Role extends string> =
  | { status: 413; reason: "tooLarge" }
  | { status: 507; reason: "noSpace" }
  | { status: 400; reason: "fileRefused"; role: Role; fileReason: string }
  | { status: 400; reason: "notMultipart" | "incomplete" };

export type UploadFormResult<Role extends string> =
  { ok: true; form: UploadForm<Role> } | { ok: false; refusal: UploadRefusal<Role> };

export async function readUploadForm<Role extends string>(
  request: Request,
  spec: {
    root: string;
    maxFileBytes: number;
    maxFiles: number;
    /** The role of a file part, from its field's name and its place among the files; null refuses it. */
    roleOf: (field: string, index: number) => Role | null;
    kindOf: (role: Role) => FileKind;
    /** Where the refusal of a file with no role is shown. */
    strangerShownAs: Role;
    /** A body declared larger than this is refused (507) before a byte is read. */
    spareBytes?: number;
    /** A body that is not multipart is read as a form of text fields (an edit without a new poster). */
    plainFormAllowed?: boolean;
  },
): Promise<UploadFormResult<Role>> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (spec.plainFormAllowed && !type.startsWith("multipart/form-data")) {
    const form = await readForm(request).catch(() => null);
    if (!form) return { ok: false, refusal: { status: 400, reason: "incomplete" } };
    const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
    return { ok: true, form: { fields: fields as Record<string, string>, files: {}, discard: async () => {} } };
  }
  const declaredLength = Number(request.headers.get("Content-Length") ?? "NaN");
  if (spec.spareBytes !== undefined && Number.isFinite(declaredLength) && declaredLength > spec.spareBytes) {
    // Refused before a byte is read: the body is read and dropped behind the answer, which the client then hears.
    lingerOn(request);
    return { ok: false, refusal: { status: 507, reason: "noSpace" } };
  }
  // Each file's role, asked once (a layout may name roles by order).
  const roles = new Map<number, Role | null>();
  const roleOf = (field: string, index: number) => {
    if (!roles.has(index)) roles.set(index, spec.roleOf(field, index));
    return roles.get(index)!;
  };
  let refused: { role: Role; reason: string } | null = null;
  try {
    const upload = await receiveMultipartUpload(request, {
      tmpDir: storagePaths(spec.root).tmp,
      maxFileBytes: spec.maxFileBytes,
      maxFiles: spec.maxFiles,
      signal: request.signal,
      checkFile: ({ field, index, originalName, head }) => {
        const role = roleOf(field, index);
        const kind = role === null ? "stranger" : spec.kindOf(role);
        if (kind === null) return null;
        const check =
          kind === "stranger"
            ? ({ ok: false, reason: "unexpectedFile" } as const)
            : checkUploadedFile(kind, originalName, head);
        if (check.ok) return null;
        refused ??= { role: role ?? spec.strangerShownAs, reason: check.reason };
        return check.reason;
      },
    });
    const files: Partial<Record<Role, ReceivedFile>> = {};
    for (const file of upload.files) {
      const role = roleOf(file.field, file.index);
      if (role !== null && !files[role]) files[role] = file;
    }
    return { ok: true, form: { fields: upload.fields, files, discard: upload.discard } };
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    if (error.status === 413) return { ok: false, refusal: { status: 413, reason: "tooLarge" } };
    if (error.status === 507) return { ok: false, refusal: { status: 507, reason: "noSpace" } };
    const refusal = refused as { role: Role; reason: string } | null;
    if (error.code === "badFile" && refusal)
      return {
        ok: false,
        refusal: { status: 400, reason: "fileRefused", role: refusal.role, fileReason: refusal.reason },
      };
    return {
      ok: false,
      refusal: { status: 400, reason: error.code === "notMultipart" ? "notMultipart" : "incomplete" },
    };
  }
}
const FILE_REFUSALS: Record<string, string> = {
  wrongExtension: "studio:errors.wrongExtension",
  contentMismatch: "studio:errors.contentMismatch",
  unexpectedFile: "studio:errors.unexpectedFile",
};

export type StudioFormRefusal<Role extends string> = {
  ok: false;
  status: 400 | 413 | 507;
  fieldErrors: Partial<Record<Role, string[]>>;
  formError?: string;
};

/**
 * A refusal in the studio's words (a film's or a poster's form): a file too
 * large (beside its field when `tooLarge` names one), no room, a wrong file
 * beside its field, a body that is no multipart form, or one cut off.
 */
export function studioRefusal<Role extends string>(
  refusal: UploadRefusal<Role>,
  tooLarge: { role: Role; key: string } | null = null,
): StudioFormRefusal<Role> {
  switch (refusal.reason) {
    case "tooLarge":
      return tooLarge
        ? {
            ok: false,
            status: 413,
            fieldErrors: { [tooLarge.role]: [tooLarge.key] } as Partial<Record<Role, string[]>>,
          }
        : { ok: false, status: 413, fieldErrors: {}, formError: "studio:errors.tooLarge" };
    case "noSpace":
      return { ok: false, status: 507, fieldErrors: {}, formError: "studio:errors.noSpace" };
    case "fileRefused":
      return {
        ok: false,
        status: 400,
        fieldErrors: {
          [refusal.role]: [FILE_REFUSALS[refusal.fileReason] ?? "studio:errors.contentMismatch"],
        } as Partial<Record<Role, string[]>>,
      };
    case "notMultipart":
      return { ok: false, status: 400, fieldErrors: {}, formError: "studio:errors.notMultipart" };
    default:
      return { ok: false, status: 400, fieldErrors: {}, formError: "studio:errors.incomplete" };
  }
}

/** A poster sent with a title's or a series' details: at most 10 MB. */
export const POSTER_MAX_BYTES = 10 * 1024 * 1024;

/**
 * A form of details with an optional poster (a title's edit, a series):
 * its fields, and its poster when one was chosen (an empty file input sends
 * none), or the refusal in the studio's words.
 */
export async function readPosterForm(
  request: Request,
  root: string,
  options: { plainFormAllowed: boolean; tooLargeKey: string; fields?: readonly string[] },
): Promise<
  | { ok: true; fields: Record<string, string>; poster?: { path: string }; discard: () => Promise<void> }
  | StudioFormRefusal<"poster">
> {
  const read = await readUploadForm<"poster">(request, {
    root,
    maxFileBytes: POSTER_MAX_BYTES,
    maxFiles: 1,
    roleOf: (field) => ((options.fields ?? ["poster", "file"]).includes(field) ? "poster" : null),
    kindOf: () => "poster",
    strangerShownAs: "poster",
    plainFormAllowed: options.plainFormAllowed,
  });
  if (!read.ok) return studioRefusal(read.refusal, { role: "poster", key: options.tooLargeKey });
  const poster = read.form.files.poster;
  return {
    ok: true,
    fields: read.form.fields,
    poster: poster && poster.size > 0 ? { path: poster.tempPath } : undefined,
    discard: read.form.discard,
  };
}

/** The series form (multipart: name, Description, Category, cast and an optional `poster`). */
export function readSeriesForm(request: Request, root: string) {
  return readPosterForm(request, root, {
    plainFormAllowed: false,
    tooLargeKey: "series:errors.posterTooLarge",
    fields: ["poster"],
  });
}

/**
 * The studio's subtitle upload (multipart: `language`, or `language=other`
 * and `otherLanguage`; `label`; the file `file`, checked by its own reader,
 * at most SUBTITLE_MAX_BYTES). The caller has checked with
 * `titleForSubtitles` that the actor may upload to this title.
 */
export async function receiveSubtitleUpload(
  db: DB,
  request: Request,
  input: { movieId: string; actor: { id: string; role: Role }; ipAddress?: string | null },
  root = storageRoot(),
): Promise<SubtitleUploadResult> {
  const read = await readUploadForm<"file" | "other">(request, {
    root,
    maxFileBytes: SUBTITLE_MAX_BYTES,
    maxFiles: 1,
    roleOf: (field) => (field === "file" ? "file" : "other"),
    kindOf: () => null,
    strangerShownAs: "file",
  });
  if (!read.ok) {
    const { refusal } = read;
    if (refusal.reason === "tooLarge")
      return {
        ok: false,
        status: 413,
        errors: { fieldErrors: { file: problemMessage({ problem: "tooLarge", maxBytes: SUBTITLE_MAX_BYTES }) } },
      };
    if (refusal.reason === "noSpace")
      return { ok: false, status: 507, errors: { formError: { key: "subtitles:errors.noSpace" } } };
    const key = refusal.reason === "notMultipart" ? "subtitles:errors.notMultipart" : "subtitles:errors.incomplete";
    return { ok: false, status: 400, errors: { formError: { key } } };
  }
  try {
    return await acceptSubtitleUpload(db, { ...input, fields: read.form.fields, file: read.form.files.file }, root);
  } finally {
    await read.form.discard();
  }
}

import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb, type DB } from "~/db/client.server";
import { categories, movies } from "~/db/schema";
import { checkUploadedFile } from "~/media/file-types.server";
import { MOVIE_JOB, type ProcessMoviePayload } from "~/media/process-movie.server";
import { receiveMultipartUpload, UploadError, type ReceivedFile } from "~/media/multipart-upload.server";
import { movieDir, storagePaths, storageRoot } from "~/media/storage.server";
import { getEnv } from "~/utils/env.server";
import { createId } from "~/utils/ids.server";
import { enqueueJob } from "./jobs.server";
import { recordAudit } from "./audit.server";
import { pokeMediaJobs } from "./media-jobs.server";
import { clientAddress } from "./rate-limit.server";
import { getSetting } from "./settings.server";

/**
 * One upload path for the provider studio's form and the old clients'
 * `POST /api/upload/movies`. The bytes stream to temporary files; the title's
 * row, its files and its processing job appear together only after every
 * check has passed, or not at all.
 *
 * - "form": parts `name`, `Description`, `Category`, `cast`, files `movie` and `poster`.
 * - "legacy": the old web client's layout: text parts, then two parts named `file`
 *   (the movie first, the poster second). `uploadedByUser` is ignored: the caller owns the title.
 */
export type UploadLayout = "form" | "legacy";

export type UploadFieldErrors = Partial<Record<"name" | "Description" | "Category" | "cast" | "movie" | "poster", string[]>>;

export type MovieUploadResult =
  | { ok: true; movieId: string }
  | { ok: false; status: 400 | 413; fieldErrors: UploadFieldErrors; formError?: string };

/** The text parts of an upload (both layouts). */
export const uploadDetailsSchema = z.object({
  name: z.string({ required_error: "studio:errors.titleRequired" }).trim().min(1, "studio:errors.titleRequired").max(200, "studio:errors.titleTooLong"),
  Description: z.string().trim().max(5000, "studio:errors.descriptionTooLong").default(""),
  cast: z.string().trim().max(1000, "studio:errors.castTooLong").default(""),
  Category: z.string({ required_error: "studio:errors.categoryRequired" }).trim().min(1, "studio:errors.categoryRequired"),
});

const FILE_REASON_KEYS: Record<string, string> = {
  wrongExtension: "studio:errors.wrongExtension",
  contentMismatch: "studio:errors.contentMismatch",
  unexpectedFile: "studio:errors.unexpectedFile",
};

type FileRole = "movie" | "poster";

export async function acceptMovieUpload(
  db: DB,
  request: Request,
  options: { providerId: string; layout: UploadLayout; root: string; maxFileBytes: number },
): Promise<MovieUploadResult> {
  const roles = new Map<number, FileRole>();
  let legacyFiles = 0;
  const roleOf = (field: string, index: number): FileRole | null => {
    if (roles.has(index)) return roles.get(index)!;
    let role: FileRole | null = null;
    if (options.layout === "form") role = field === "movie" || field === "poster" ? field : null;
    else if (field === "file") role = legacyFiles++ === 0 ? "movie" : "poster";
    if (role) roles.set(index, role);
    return role;
  };

  let refused: { role: FileRole; reason: string } | null = null;
  let upload;
  try {
    upload = await receiveMultipartUpload(request, {
      tmpDir: storagePaths(options.root).tmp,
      maxFileBytes: options.maxFileBytes,
      maxFiles: 2,
      signal: request.signal,
      checkFile: ({ field, index, originalName, head }) => {
        const role = roleOf(field, index);
        const check = role ? checkUploadedFile(role, originalName, head) : ({ ok: false, reason: "unexpectedFile" } as const);
        if (check.ok) return null;
        refused ??= { role: role ?? "movie", reason: check.reason };
        return check.reason;
      },
    });
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    if (error.status === 413) return { ok: false, status: 413, fieldErrors: {}, formError: "studio:errors.tooLarge" };
    const refusal = refused as { role: FileRole; reason: string } | null;
    if (error.code === "badFile" && refusal) {
      const key = FILE_REASON_KEYS[refusal.reason] ?? "studio:errors.contentMismatch";
      return { ok: false, status: 400, fieldErrors: { [refusal.role]: [key] } };
    }
    if (error.code === "notMultipart") return { ok: false, status: 400, fieldErrors: {}, formError: "studio:errors.notMultipart" };
    return { ok: false, status: 400, fieldErrors: {}, formError: "studio:errors.incomplete" };
  }

  const files: Partial<Record<FileRole, ReceivedFile>> = {};
  for (const file of upload.files) {
    const role = roles.get(file.index);
    if (role && !files[role]) files[role] = file;
  }

  const fieldErrors: UploadFieldErrors = {};
  const parsed = uploadDetailsSchema.safeParse(upload.fields);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof UploadFieldErrors;
      (fieldErrors[field] ??= []).push(issue.message);
    }
  }
  if (parsed.success) {
    const category = db.select({ id: categories.id }).from(categories).where(eq(categories.id, parsed.data.Category)).get();
    if (!category) fieldErrors.Category = ["studio:errors.categoryUnknown"];
  }
  if (!files.movie) fieldErrors.movie = ["studio:errors.movieRequired"];
  if (files.movie && files.movie.size === 0) fieldErrors.movie = ["studio:errors.movieEmpty"];

  if (!parsed.success || Object.keys(fieldErrors).length > 0) {
    await upload.discard();
    return { ok: false, status: 400, fieldErrors };
  }

  const details = parsed.data;
  const movieId = createId();
  const dir = movieDir(movieId, options.root);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const movieFile = files.movie!;
    const payload: ProcessMoviePayload = { source: `source${path.extname(movieFile.originalName).toLowerCase()}` };
    fs.renameSync(movieFile.tempPath, path.join(dir, payload.source));
    if (files.poster) {
      payload.poster = `poster-source${path.extname(files.poster.originalName).toLowerCase()}`;
      fs.renameSync(files.poster.tempPath, path.join(dir, payload.poster));
    }
    const approved = getSetting(db, "autoApproveMovies");
    db.transaction((tx) => {
      const now = new Date();
      tx.insert(movies)
        .values({
          id: movieId,
          name: details.name,
          description: details.Description,
          cast: details.cast,
          categoryId: details.Category,
          providerId: options.providerId,
          status: "processing",
          approved,
          sizeBytes: movieFile.size,
          uploadedAt: now,
          updatedAt: now,
        })
        .run();
      enqueueJob(tx as unknown as DB, MOVIE_JOB, { movieId, payload });
    });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    await upload.discard();
    throw error;
  }
  await upload.discard();
  return { ok: true, movieId };
}

/**
 * A signed-in provider's upload as the studio page, its progress endpoint and
 * the old clients' endpoint run it: stored with this server's limits, audited,
 * and handed to the media jobs.
 */
export async function receiveProviderUpload(request: Request, provider: { id: string }, layout: UploadLayout): Promise<MovieUploadResult> {
  const db = getDb();
  const result = await acceptMovieUpload(db, request, { providerId: provider.id, layout, root: storageRoot(), maxFileBytes: getEnv().maxUploadBytes });
  if (result.ok) {
    recordAudit(db, { actorId: provider.id, action: "movie.upload", targetType: "movie", targetId: result.movieId, ipAddress: clientAddress(request) });
    pokeMediaJobs();
  }
  return result;
}

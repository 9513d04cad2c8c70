import fs from "node:fs";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { movies, subtitles, type Role } from "~/db/schema";
import { moveIntoPlace, removeQuietly, temporaryPath } from "~/media/atomic-files.server";
import { movieSubtitlePath, storagePaths, storageRoot, subtitleUrl } from "~/media/storage.server";
import { convertSubtitles, type SubtitleProblem } from "~/media/subtitle-files";
import { canonicalLanguageTag, languageAutonym, matchLanguage } from "~/utils/language-tags";
import { recordAudit } from "./audit.server";
import { decideMoviePlayback, type PlaybackRefusal } from "./playback.server";

/**
 * A title's subtitles: one WebVTT file per language. The title's provider
 * adds, replaces and deletes them; an administrator may delete them. They are
 * served to whoever may play the title (the rule of `decideMoviePlayback`),
 * and a viewer's choice of language is kept in a cookie.
 */

export const SUBTITLE_LABEL_MAX_LENGTH = 60;

type Actor = { id: string; role: Role };

export type SubtitleTrack = {
  language: string;
  label: string;
  sizeBytes: number;
  updatedAt: Date;
  /** The versioned address of the file (a new one when the file is replaced). */
  url: string;
};

// Every watch page asks: prepared once.
const subtitlesOf = preparedQuery((db) =>
  db
    .select({
      language: subtitles.language,
      label: subtitles.label,
      sizeBytes: subtitles.sizeBytes,
      updatedAt: subtitles.updatedAt,
    })
    .from(subtitles)
    .where(eq(subtitles.movieId, sql.placeholder("movieId")))
    .orderBy(asc(subtitles.language))
    .prepare(),
);

/** A title's subtitles, by language tag. */
export function listSubtitles(db: DB, movieId: string): SubtitleTrack[] {
  return subtitlesOf(db)
    .all({ movieId })
    .map((row) => ({ ...row, url: subtitleUrl(movieId, row.language, row.updatedAt.getTime()) }));
}

/** `ready`: its files may be opened (playback serves ready titles only). */
export type ManagedTitle = { id: string; name: string; ready: boolean };

/**
 * The title whose subtitles `actor` wants to change: its provider may add,
 * replace and delete; an administrator may delete. Someone else's title is
 * "forbidden" (403, as for deleting the title itself).
 */
export function titleForSubtitles(
  db: DB,
  movieId: string,
  actor: Actor,
  change: "upload" | "delete",
): ManagedTitle | "notFound" | "forbidden" {
  if (!/^[a-z0-9]{8,32}$/.test(movieId)) return "notFound";
  const movie = db
    .select({ id: movies.id, name: movies.name, providerId: movies.providerId, status: movies.status })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get();
  if (!movie) return "notFound";
  const allowed = movie.providerId === actor.id || (change === "delete" && actor.role === "admin");
  return allowed ? { id: movie.id, name: movie.name, ready: movie.status === "ready" } : "forbidden";
}

/** A message for the person, as a translation key and its values. */
export type SubtitleMessage = { key: string; values?: Record<string, string | number> };
export type SubtitleField = "language" | "label" | "file";
export type SubtitleFormErrors = {
  formError?: SubtitleMessage;
  fieldErrors?: Partial<Record<SubtitleField, SubtitleMessage>>;
};

export function problemMessage(problem: SubtitleProblem): SubtitleMessage {
  switch (problem.problem) {
    case "tooLarge":
      return { key: "subtitles:errors.tooLarge", values: { kb: Math.round(problem.maxBytes / 1024) } };
    case "badTimestamp":
      return { key: "subtitles:errors.badTimestamp", values: { line: problem.line } };
    default:
      return { key: `subtitles:errors.${problem.problem}` };
  }
}

export type SaveSubtitleResult =
  | { ok: true; language: string; replaced: boolean; cues: number }
  | { ok: false; status: 400 | 507; message: SubtitleMessage };

/**
 * Check, clean and convert a subtitle file and keep it as the title's
 * subtitles in `language` (replacing any before). The file is written to a
 * temporary name and renamed into place inside the transaction that writes
 * its row: either both change or neither.
 */
export function saveSubtitle(
  db: DB,
  input: { movieId: string; language: string; label?: string | null; bytes: Uint8Array },
  root = storageRoot(),
  now = new Date(),
): SaveSubtitleResult {
  const language = canonicalLanguageTag(input.language);
  if (!language) return { ok: false, status: 400, message: { key: "subtitles:errors.language" } };
  const label = (input.label ?? "").replace(/\s+/g, " ").trim() || languageAutonym(language);
  if (label.length > SUBTITLE_LABEL_MAX_LENGTH)
    return {
      ok: false,
      status: 400,
      message: { key: "subtitles:errors.labelTooLong", values: { max: SUBTITLE_LABEL_MAX_LENGTH } },
    };
  const converted = convertSubtitles(input.bytes);
  if (!converted.ok) return { ok: false, status: 400, message: problemMessage(converted) };

  const destination = movieSubtitlePath(input.movieId, language, root);
  const temporary = temporaryPath(storagePaths(root).tmp, destination);
  const bytes = Buffer.from(converted.vtt, "utf8");
  try {
    fs.writeFileSync(temporary, bytes, { flag: "wx" });
    const replaced = db.transaction((tx) => {
      const before = tx
        .select({ language: subtitles.language })
        .from(subtitles)
        .where(and(eq(subtitles.movieId, input.movieId), eq(subtitles.language, language)))
        .get();
      tx.insert(subtitles)
        .values({ movieId: input.movieId, language, label, sizeBytes: bytes.length, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [subtitles.movieId, subtitles.language],
          set: { label, sizeBytes: bytes.length, updatedAt: now },
        })
        .run();
      // Last: if the rename fails, the row is rolled back with it.
      moveIntoPlace(temporary, destination);
      return Boolean(before);
    });
    return { ok: true, language, replaced, cues: converted.cues };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOSPC" || code === "EDQUOT")
      return { ok: false, status: 507, message: { key: "subtitles:errors.noSpace" } };
    throw error;
  } finally {
    removeQuietly(temporary);
  }
}

export type SubtitleUploadResult =
  | { ok: true; language: string; replaced: boolean; cues: number }
  | { ok: false; status: 400 | 413 | 507; errors: SubtitleFormErrors };

/**
 * The studio form's upload once it has arrived (routes-support/upload-forms:
 * `language`, or `language=other` and `otherLanguage`; `label`; the file
 * `file`, in a temporary file). The caller has checked with
 * `titleForSubtitles` that the actor may upload to this title, and removes
 * the temporary file after.
 */
export async function acceptSubtitleUpload(
  db: DB,
  input: {
    movieId: string;
    actor: Actor;
    ipAddress?: string | null;
    fields: Record<string, string>;
    file?: { tempPath: string; size: number };
  },
  root = storageRoot(),
): Promise<SubtitleUploadResult> {
  const { fields, file } = input;
  const fieldErrors: SubtitleFormErrors["fieldErrors"] = {};
  const chosen = fields.language === "other" ? fields.otherLanguage : fields.language;
  const language = canonicalLanguageTag(chosen);
  if (!language) fieldErrors.language = { key: "subtitles:errors.language" };
  const label = (fields.label ?? "").trim();
  if (label.length > SUBTITLE_LABEL_MAX_LENGTH)
    fieldErrors.label = { key: "subtitles:errors.labelTooLong", values: { max: SUBTITLE_LABEL_MAX_LENGTH } };
  if (!file || file.size === 0)
    fieldErrors.file = { key: file ? "subtitles:errors.empty" : "subtitles:errors.fileRequired" };
  if (Object.keys(fieldErrors).length > 0 || !language || !file)
    return { ok: false, status: 400, errors: { fieldErrors } };

  const saved = saveSubtitle(
    db,
    { movieId: input.movieId, language, label, bytes: await fs.promises.readFile(file.tempPath) },
    root,
  );
  if (!saved.ok)
    return {
      ok: false,
      status: saved.status,
      errors: saved.status === 507 ? { formError: saved.message } : { fieldErrors: { file: saved.message } },
    };
  recordAudit(db, {
    actorId: input.actor.id,
    action: "subtitle.save",
    targetType: "movie",
    targetId: input.movieId,
    details: { language: saved.language, replaced: saved.replaced },
    ipAddress: input.ipAddress,
  });
  return saved;
}

/**
 * Delete a title's subtitles in one language: the row, then the file (a crash
 * in between leaves a file no row names, never a row without its file).
 */
export function deleteSubtitle(
  db: DB,
  input: { movieId: string; language: string; actor: Actor; ipAddress?: string | null },
  root = storageRoot(),
): "deleted" | "notFound" | "forbidden" {
  const title = titleForSubtitles(db, input.movieId, input.actor, "delete");
  if (typeof title === "string") return title;
  const language = canonicalLanguageTag(input.language);
  if (!language) return "notFound";
  const deleted = db
    .delete(subtitles)
    .where(and(eq(subtitles.movieId, title.id), eq(subtitles.language, language)))
    .run();
  if (deleted.changes === 0) return "notFound";
  removeQuietly(movieSubtitlePath(title.id, language, root));
  recordAudit(db, {
    actorId: input.actor.id,
    action: "subtitle.delete",
    targetType: "movie",
    targetId: title.id,
    details: { language },
    ipAddress: input.ipAddress,
  });
  return "deleted";
}

export type SubtitleFileDecision = { allowed: true; path: string; language: string } | PlaybackRefusal;

const NOT_FOUND: PlaybackRefusal = { allowed: false, status: 404, message: "Subtitles not found" };

/**
 * May `account` read this subtitle file (`<language>.vtt` of a title)? Exactly
 * when it may play the title (signed in, published or its own, Premium pass);
 * no screen is taken, since the film's own requests do that.
 */
export function authorizeSubtitleFile(
  db: DB,
  input: { movieId: string; file: string },
  account: Actor | null,
  root = storageRoot(),
  now = new Date(),
): SubtitleFileDecision {
  const match = /^([A-Za-z0-9-]{2,35})\.vtt$/.exec(input.file);
  const language = match ? canonicalLanguageTag(match[1]) : null;
  if (!language || !/^[a-z0-9]{8,32}$/.test(input.movieId)) return NOT_FOUND;
  const decision = decideMoviePlayback(db, input.movieId, account, now);
  if (!decision.allowed) return decision;
  const row = db
    .select({ language: subtitles.language })
    .from(subtitles)
    .where(and(eq(subtitles.movieId, decision.movieId), eq(subtitles.language, language)))
    .get();
  if (!row) return NOT_FOUND;
  return { allowed: true, language, path: movieSubtitlePath(decision.movieId, language, root) };
}

/** Which of a title's tracks a viewer who chose `choice` sees. */
export function chosenTrack(tracks: readonly Pick<SubtitleTrack, "language">[], choice: string | null): string | null {
  return matchLanguage(
    tracks.map((track) => track.language),
    choice,
  );
}

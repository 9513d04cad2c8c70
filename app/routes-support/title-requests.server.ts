import { getDb, type DB } from "~/db/client.server";
import type { Role } from "~/db/schema";
import { storageRoot } from "~/media/storage.server";
import {
  checkReplacement,
  replaceFilmWithUpload,
  type ReplacementUploadResult,
} from "~/services/film-replacements.server";
import { editableTitle, editTitle, titleEditRefusal, type TitleEditResult } from "~/services/title-edits.server";
import {
  acceptMovieUpload,
  spareUploadBytes,
  type MovieUploadResult,
  type UploadLayout,
} from "~/services/uploads.server";
import { clientAddress } from "~/utils/client.server";
import { getEnv } from "~/utils/env.server";
import { lingerOn } from "~/utils/request-body.server";
import { readPosterForm, readUploadForm, studioRefusal } from "./upload-forms.server";

/**
 * A title's bodies, read here once and handed to the services as fields and
 * files: a new title's upload (the studio's form, its progress endpoint and
 * the old clients' `POST /api/upload/movies`), an edit of its details and
 * poster, and a replacement film. Who may act is asked before a byte is read:
 * a refused caller's file is read and dropped behind the answer, never stored.
 */

type Actor = { id: string; role: Role };

/**
 * A new title from a multipart upload. Layout "form": parts `name`,
 * `Description`, `Category`, `cast`, files `movie` and `poster`; "legacy" (the
 * old web client): text parts, then two parts named `file`, the movie first.
 */
export async function receiveMovieUpload(
  db: DB,
  request: Request,
  options: { providerId: string; layout: UploadLayout; root: string; maxFileBytes: number; ipAddress?: string | null },
): Promise<MovieUploadResult> {
  let legacyFiles = 0;
  const read = await readUploadForm<"movie" | "poster">(request, {
    root: options.root,
    maxFileBytes: options.maxFileBytes,
    maxFiles: 2,
    roleOf: (field) => {
      if (options.layout === "form") return field === "movie" || field === "poster" ? field : null;
      if (field === "file") return legacyFiles++ === 0 ? "movie" : "poster";
      return null;
    },
    kindOf: (role) => role,
    strangerShownAs: "movie",
    spareBytes: spareUploadBytes(db, options.root),
  });
  if (!read.ok) return studioRefusal(read.refusal);
  const { fields, files, discard } = read.form;
  try {
    return await acceptMovieUpload(
      db,
      {
        fields,
        movie: files.movie,
        poster: files.poster,
        uploadKey: fields.uploadKey ?? request.headers.get("Idempotency-Key"),
      },
      { providerId: options.providerId, root: options.root, ipAddress: options.ipAddress },
    );
  } finally {
    await discard();
  }
}

/** A signed-in provider's new title, with this server's limits: the studio's form, its progress endpoint, /api. */
export function receiveProviderUpload(
  request: Request,
  provider: { id: string },
  layout: UploadLayout,
): Promise<MovieUploadResult> {
  return receiveMovieUpload(getDb(), request, {
    providerId: provider.id,
    layout,
    root: storageRoot(),
    maxFileBytes: getEnv().maxUploadBytes,
    ipAddress: clientAddress(request),
  });
}

/** A title's details and, with a `poster` part (`file` from /api clients), its poster; a form without files edits the details alone. */
export async function editTitleFromRequest(
  db: DB,
  request: Request,
  movieId: string,
  actor: Actor,
  options: { root: string; ipAddress?: string | null },
): Promise<TitleEditResult> {
  const title = editableTitle(db, movieId, actor);
  if (typeof title === "string") {
    lingerOn(request);
    return titleEditRefusal(title);
  }
  const form = await readPosterForm(request, options.root, {
    plainFormAllowed: true,
    tooLargeKey: "studio:errors.posterTooLarge",
  });
  if (!form.ok) return form;
  try {
    return await editTitle(db, movieId, form.fields, actor, { ...options, poster: form.poster });
  } finally {
    await form.discard();
  }
}

/**
 * A replacement film in one multipart request (field `movie`; `file` from
 * /api clients): what the title's page posts without JavaScript and
 * `POST /api/movies/replace/{id}` takes.
 */
export async function receiveReplacementUpload(
  db: DB,
  request: Request,
  movieId: string,
  actor: Actor,
  options: { root: string; maxFileBytes: number; ipAddress?: string | null },
): Promise<ReplacementUploadResult> {
  const allowed = checkReplacement(db, movieId, actor);
  if (!allowed.ok) {
    lingerOn(request);
    return { ok: false, status: allowed.status, fieldErrors: {}, formError: allowed.key };
  }
  const read = await readUploadForm<"movie">(request, {
    root: options.root,
    maxFileBytes: options.maxFileBytes,
    maxFiles: 1,
    roleOf: (field) => (field === "movie" || field === "file" ? "movie" : null),
    kindOf: () => "movie",
    strangerShownAs: "movie",
    spareBytes: spareUploadBytes(db, options.root),
  });
  if (!read.ok) return studioRefusal(read.refusal);
  try {
    return await replaceFilmWithUpload(db, movieId, actor, read.form.files.movie, options);
  } finally {
    await read.form.discard();
  }
}

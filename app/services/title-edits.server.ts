import { eq, sql } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { categories, movies, type Role } from "~/db/schema";
import { writeMoviePosters } from "~/media/posters.server";
import { publicPosterName } from "~/media/storage.server";
import { recordAudit } from "./audit.server";
import { isPublishedRow, titleDetailColumns } from "./catalogue.server";
import { TITLE_NAME_MAX, titleDetailsSchema } from "./title-fields";
import { fieldErrorsOf } from "./validation";

/**
 * Editing a title (a film or an episode) after its upload: its details —
 * title, description, category, cast — and its poster, by its provider or any
 * administrator, at any time and whatever its status.
 *
 * The rule for a published title (decision 051): an edit goes live at once
 * and the title stays published. `editTitle` is the one function that
 * changes a title's details, for the studio, the administrator's page and
 * /api alike; it never touches the title's approval, and every edit is in
 * the audit log with what it changed (before and after), so an administrator
 * can see it and unpublish the title if need be. A title waiting for approval
 * (or sent back) stays waiting: an edit is not a resubmission.
 *
 * The search index follows by itself: triggers on `movies` rewrite a title's
 * row in `movies_fts` when its name, description or cast change (drizzle/0012),
 * and the catalogue's kept lists are dropped when its name or category change
 * (drizzle/0014).
 */
export { TITLE_NAME_MAX };

/** An edit's details: the same rules as an upload's. */
export const titleEditSchema = titleDetailsSchema;

export type TitleEditField = "name" | "Description" | "Category" | "cast" | "ageRating" | "poster";
export type TitleEditFieldErrors = Partial<Record<TitleEditField, string[]>>;

export type TitleEditResult =
  | { ok: true; movieId: string; changed: string[] }
  | { ok: false; status: 400 | 403 | 404 | 413 | 507; fieldErrors: TitleEditFieldErrors; formError?: string };

type Actor = { id: string; role: Role };

export type EditableTitle = Pick<
  typeof movies.$inferSelect,
  | "id"
  | "name"
  | "description"
  | "cast"
  | "categoryId"
  | "ageRating"
  | "providerId"
  | "status"
  | "approved"
  | "seasonId"
  | "posterFile"
  | "posterVersion"
>;

/** The title if this account may edit it (its provider, any administrator): else why not. */
export function editableTitle(db: DB, movieId: string, actor: Actor): EditableTitle | "notFound" | "forbidden" {
  if (!movieId) return "notFound";
  const row = db
    .select({
      ...titleDetailColumns,
      ageRating: movies.ageRating,
      status: movies.status,
      approved: movies.approved,
      seasonId: movies.seasonId,
      posterFile: movies.posterFile,
      posterVersion: movies.posterVersion,
    })
    .from(movies)
    .where(eq(movies.id, movieId))
    .get();
  if (!row) return "notFound";
  if (actor.role === "admin") return row;
  if (actor.role === "provider" && row.providerId === actor.id) return row;
  return "forbidden";
}

export function titleEditRefusal(outcome: "notFound" | "forbidden"): TitleEditResult {
  return outcome === "notFound"
    ? { ok: false, status: 404, fieldErrors: {}, formError: "studio:edit.errors.missing" }
    : { ok: false, status: 403, fieldErrors: {}, formError: "studio:edit.errors.notYours" };
}

/**
 * Change a title's details and, with `poster`, its poster (a checked image
 * file). Fields not given keep their values (an /api call may send only the
 * title); the forms send every field. An episode's category is its series'
 * and is not changed here. The posters are written first (each file whole,
 * renamed into place), then the row and the audit entry in one transaction;
 * a poster that cannot be read changes nothing.
 */
export async function editTitle(
  db: DB,
  movieId: string,
  input: Record<string, unknown>,
  actor: Actor,
  options: { poster?: { path: string }; root: string; ipAddress?: string | null },
): Promise<TitleEditResult> {
  const title = editableTitle(db, movieId, actor);
  if (typeof title === "string") return titleEditRefusal(title);
  const given = (field: string) => typeof input[field] === "string";
  const parsed = titleEditSchema.safeParse({
    name: given("name") ? input.name : title.name,
    Description: given("Description") ? input.Description : title.description,
    cast: given("cast") ? input.cast : title.cast,
    // An episode's category is its series' (series.server.ts changes both together).
    Category: title.seasonId === null && given("Category") ? input.Category : title.categoryId,
    // An episode carries its series' rating (set on the series).
    ageRating: title.seasonId === null && given("ageRating") ? input.ageRating : title.ageRating,
  });
  if (!parsed.success) return { ok: false, status: 400, fieldErrors: fieldErrorsOf(parsed.error) };
  const details = parsed.data;
  if (details.Category !== title.categoryId && !categoryExists(db, details.Category))
    return { ok: false, status: 400, fieldErrors: { Category: ["studio:errors.categoryUnknown"] } };

  if (options.poster) {
    try {
      await writeMoviePosters(movieId, options.poster.path, { root: options.root, position: "attention" });
    } catch {
      return { ok: false, status: 400, fieldErrors: { poster: ["studio:edit.errors.posterUnreadable"] } };
    }
  }

  const before = {
    name: title.name,
    Description: title.description,
    cast: title.cast,
    Category: title.categoryId,
    ageRating: title.ageRating,
  };
  const changedFields = (Object.keys(before) as Array<keyof typeof before>).filter(
    (key) => before[key] !== details[key],
  );
  const changed: string[] = options.poster ? [...changedFields, "poster"] : changedFields;
  const updated = db.transaction((tx) => {
    const result = tx
      .update(movies)
      .set({
        name: details.name,
        description: details.Description,
        cast: details.cast,
        categoryId: details.Category,
        ageRating: details.ageRating,
        ...(options.poster
          ? { posterFile: publicPosterName(movieId), posterVersion: sql`${movies.posterVersion} + 1` }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(movies.id, movieId))
      .run();
    if (result.changes === 0) return false;
    if (changed.length > 0)
      recordAudit(tx, {
        actorId: actor.id,
        action: "movie.edit",
        targetType: "movie",
        targetId: movieId,
        details: {
          changed,
          before: Object.fromEntries(changedFields.map((key) => [key, before[key]])),
          after: Object.fromEntries(changedFields.map((key) => [key, details[key]])),
          // The rule of decision 051, written down with each edit: a published title's edit is live at once.
          published: isPublishedRow(title),
        },
        ipAddress: options.ipAddress,
      });
    return true;
  });
  if (!updated) return titleEditRefusal("notFound");
  return { ok: true, movieId, changed };
}

function categoryExists(db: DB, categoryId: string): boolean {
  return db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId)).get() !== undefined;
}

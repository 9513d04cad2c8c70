import fs from "node:fs";
import path from "node:path";
import { asc, count, eq, or } from "drizzle-orm";
import type { DB } from "~/db/client.server";
import { categories, movies, series } from "~/db/schema";
import { checkUploadedFile } from "~/media/file-types.server";
import { loadSharp, MAX_IMAGE_PIXELS } from "~/media/sharp.server";
import { storagePaths } from "~/media/storage.server";
import { createId } from "~/utils/ids.server";
import { recordAudit } from "./audit.server";

/**
 * Categories as the administrator manages them: create, rename, re-image,
 * delete. A category that still has titles is never deleted; its titles can
 * be moved to another category first.
 */
export const CATEGORY_ERRORS = {
  nameRequired: "admin:categories.errors.nameRequired",
  nameTooLong: "admin:categories.errors.nameTooLong",
  nameTaken: "admin:categories.errors.nameTaken",
  notFound: "admin:categories.errors.notFound",
  inUse: "admin:categories.errors.inUse",
  moveTarget: "admin:categories.errors.moveTarget",
  imageMissing: "admin:categories.errors.imageMissing",
  imageType: "admin:categories.errors.imageType",
  imageTooLarge: "admin:categories.errors.imageTooLarge",
  imageUnreadable: "admin:categories.errors.imageUnreadable",
} as const;

export const CATEGORY_NAME_MAX = 60;
export const CATEGORY_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const CATEGORY_IMAGE_SIZE = { width: 600, height: 400 } as const;

type Actor = { actorId: string; ipAddress?: string | null };
export type CategoryResult<T = null> = { ok: true; value: T } | { ok: false; error: string; count?: number };

export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "category";
}

/** The categories a title can be filed under, in the administrator's order (the upload form's choices). */
export function listCategoryOptions(db: DB): Array<{ id: string; name: string }> {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.name))
    .all();
}

export function listCategoriesWithCounts(db: DB) {
  const counts = new Map(
    db
      .select({ categoryId: movies.categoryId, value: count() })
      .from(movies)
      .groupBy(movies.categoryId)
      .all()
      .map((row) => [row.categoryId, row.value]),
  );
  return db
    .select({ id: categories.id, name: categories.name, slug: categories.slug, imageFile: categories.imageFile })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.name))
    .all()
    .map((row) => ({ ...row, titles: counts.get(row.id) ?? 0 }));
}

function checkName(
  db: DB,
  raw: string,
  exceptId?: string,
): { ok: true; name: string; slug: string } | { ok: false; error: string } {
  const name = raw.trim().replace(/\s+/g, " ");
  if (!name) return { ok: false, error: CATEGORY_ERRORS.nameRequired };
  if (name.length > CATEGORY_NAME_MAX) return { ok: false, error: CATEGORY_ERRORS.nameTooLong };
  const slug = slugify(name);
  const clash = db
    .select({ id: categories.id })
    .from(categories)
    .where(or(eq(categories.name, name), eq(categories.slug, slug)))
    .all()
    .some((row) => row.id !== exceptId);
  if (clash) return { ok: false, error: CATEGORY_ERRORS.nameTaken };
  return { ok: true, name, slug };
}

export function createCategory(db: DB, rawName: string, actor: Actor): CategoryResult<{ id: string }> {
  const checked = checkName(db, rawName);
  if (!checked.ok) return checked;
  const id = createId();
  const last =
    db.select({ value: categories.sortOrder }).from(categories).orderBy(asc(categories.sortOrder)).all().at(-1)
      ?.value ?? -1;
  db.transaction((tx) => {
    tx.insert(categories)
      .values({ id, name: checked.name, slug: checked.slug, sortOrder: last + 1 })
      .run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "category.create",
      targetType: "category",
      targetId: id,
      details: { name: checked.name },
      ipAddress: actor.ipAddress,
    });
  });
  return { ok: true, value: { id } };
}

export function renameCategory(db: DB, id: string, rawName: string, actor: Actor): CategoryResult {
  if (!db.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).get())
    return { ok: false, error: CATEGORY_ERRORS.notFound };
  const checked = checkName(db, rawName, id);
  if (!checked.ok) return checked;
  db.transaction((tx) => {
    tx.update(categories).set({ name: checked.name, slug: checked.slug }).where(eq(categories.id, id)).run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "category.rename",
      targetType: "category",
      targetId: id,
      details: { name: checked.name },
      ipAddress: actor.ipAddress,
    });
  });
  return { ok: true, value: null };
}

/** Titles and series in a category (a series is counted once, its episodes as titles). */
function titleCount(db: Pick<DB, "select">, id: string): number {
  const titles = db.select({ value: count() }).from(movies).where(eq(movies.categoryId, id)).get()?.value ?? 0;
  const shows = db.select({ value: count() }).from(series).where(eq(series.categoryId, id)).get()?.value ?? 0;
  return titles + shows;
}

/**
 * Delete a category. With titles (or series) in it, refused, unless `moveTo` names
 * another category: they move there first, in the same transaction.
 */
export function deleteCategory(
  db: DB,
  id: string,
  actor: Actor,
  options: { moveTo?: string; root?: string } = {},
): CategoryResult {
  const category = db
    .select({ id: categories.id, imageFile: categories.imageFile })
    .from(categories)
    .where(eq(categories.id, id))
    .get();
  if (!category) return { ok: false, error: CATEGORY_ERRORS.notFound };
  const inUse = titleCount(db, id);
  if (inUse > 0) {
    if (!options.moveTo) return { ok: false, error: CATEGORY_ERRORS.inUse, count: inUse };
    if (
      options.moveTo === id ||
      !db.select({ id: categories.id }).from(categories).where(eq(categories.id, options.moveTo)).get()
    ) {
      return { ok: false, error: CATEGORY_ERRORS.moveTarget };
    }
  }
  db.transaction((tx) => {
    if (inUse > 0 && options.moveTo) {
      tx.update(movies).set({ categoryId: options.moveTo }).where(eq(movies.categoryId, id)).run();
      tx.update(series).set({ categoryId: options.moveTo }).where(eq(series.categoryId, id)).run();
      recordAudit(tx, {
        actorId: actor.actorId,
        action: "category.move",
        targetType: "category",
        targetId: id,
        details: { to: options.moveTo, titles: inUse },
        ipAddress: actor.ipAddress,
      });
    }
    tx.delete(categories).where(eq(categories.id, id)).run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "category.delete",
      targetType: "category",
      targetId: id,
      ipAddress: actor.ipAddress,
    });
  });
  if (category.imageFile)
    fs.rmSync(path.join(storagePaths(options.root).categories, path.basename(category.imageFile)), { force: true });
  return { ok: true, value: null };
}

/** Set a category's image from an uploaded .jpg/.png: resized to a tile, written to a temp file, then renamed into place. */
export async function setCategoryImage(
  db: DB,
  id: string,
  file: { name: string; bytes: Uint8Array },
  actor: Actor,
  root?: string,
): Promise<CategoryResult> {
  if (!db.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).get())
    return { ok: false, error: CATEGORY_ERRORS.notFound };
  if (file.bytes.byteLength === 0) return { ok: false, error: CATEGORY_ERRORS.imageMissing };
  if (file.bytes.byteLength > CATEGORY_IMAGE_MAX_BYTES) return { ok: false, error: CATEGORY_ERRORS.imageTooLarge };
  if (!checkUploadedFile("poster", file.name, file.bytes.subarray(0, 16)).ok)
    return { ok: false, error: CATEGORY_ERRORS.imageType };
  const paths = storagePaths(root);
  fs.mkdirSync(paths.categories, { recursive: true });
  fs.mkdirSync(paths.tmp, { recursive: true });
  const fileName = `${id}.jpg`;
  const temporary = path.join(paths.tmp, `category-${id}-${createId()}.jpg`);
  try {
    const sharp = await loadSharp();
    await sharp(file.bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize(CATEGORY_IMAGE_SIZE.width, CATEGORY_IMAGE_SIZE.height, { fit: "cover" })
      .jpeg({ quality: 82 })
      .toFile(temporary);
    fs.renameSync(temporary, path.join(paths.categories, fileName));
  } catch {
    fs.rmSync(temporary, { force: true });
    return { ok: false, error: CATEGORY_ERRORS.imageUnreadable };
  }
  db.transaction((tx) => {
    tx.update(categories).set({ imageFile: fileName }).where(eq(categories.id, id)).run();
    recordAudit(tx, {
      actorId: actor.actorId,
      action: "category.image",
      targetType: "category",
      targetId: id,
      ipAddress: actor.ipAddress,
    });
  });
  return { ok: true, value: null };
}

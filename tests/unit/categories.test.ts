import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { categories, movies } from "~/db/schema";
import { applyAsProvider, registerViewer } from "~/services/accounts.server";
import {
  CATEGORY_ERRORS,
  createCategory,
  deleteCategory,
  listCategoriesWithCounts,
  renameCategory,
  setCategoryImage,
} from "~/services/categories.server";
import { createId } from "~/utils/ids.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let actor: { actorId: string };
beforeEach(async () => {
  testDb = createTestDatabase();
  const admin = await registerViewer(testDb.db, {
    name: "Admin",
    email: "admin@example.com",
    phoneNumber: "08031234560",
    password: "password-1",
    password2: "password-1",
  });
  if (!admin.ok) throw new Error("no admin");
  actor = { actorId: admin.value.id };
});
afterEach(() => testDb.close());

async function providerId() {
  const result = await applyAsProvider(testDb.db, {
    providerName: "Arewa",
    email: "arewa@example.com",
    phoneNumber: "08031234567",
    password: "password-1",
    password2: "password-1",
  });
  if (!result.ok) throw new Error("no provider");
  return result.value.id;
}

function created(name: string) {
  const result = createCategory(testDb.db, name, actor);
  if (!result.ok) throw new Error(result.error);
  return result.value.id;
}

describe("categories", () => {
  it("creates and renames, refusing empty, too long and duplicate names", () => {
    const drama = created("Drama");
    created("Comedy");
    expect(createCategory(testDb.db, "  ", actor)).toEqual({ ok: false, error: CATEGORY_ERRORS.nameRequired });
    expect(createCategory(testDb.db, "x".repeat(61), actor)).toEqual({ ok: false, error: CATEGORY_ERRORS.nameTooLong });
    expect(createCategory(testDb.db, "drama", actor)).toEqual({ ok: false, error: CATEGORY_ERRORS.nameTaken });
    expect(renameCategory(testDb.db, drama, "Comedy", actor)).toEqual({ ok: false, error: CATEGORY_ERRORS.nameTaken });
    expect(renameCategory(testDb.db, drama, "Family Drama", actor).ok).toBe(true);
    expect(
      listCategoriesWithCounts(testDb.db)
        .map((row) => row.name)
        .sort(),
    ).toEqual(["Comedy", "Family Drama"]);
  });

  it("refuses to delete a category with titles until they are moved", async () => {
    const drama = created("Drama");
    const comedy = created("Comedy");
    const owner = await providerId();
    testDb.db.insert(movies).values({ id: createId(), name: "One", categoryId: drama, providerId: owner }).run();
    testDb.db.insert(movies).values({ id: createId(), name: "Two", categoryId: drama, providerId: owner }).run();
    expect(deleteCategory(testDb.db, drama, actor, { root: testDb.dir })).toEqual({
      ok: false,
      error: CATEGORY_ERRORS.inUse,
      count: 2,
    });
    expect(deleteCategory(testDb.db, drama, actor, { moveTo: drama, root: testDb.dir })).toEqual({
      ok: false,
      error: CATEGORY_ERRORS.moveTarget,
    });
    expect(testDb.db.select().from(categories).where(eq(categories.id, drama)).get()).toBeTruthy();
    expect(deleteCategory(testDb.db, drama, actor, { moveTo: comedy, root: testDb.dir }).ok).toBe(true);
    expect(
      testDb.db
        .select({ categoryId: movies.categoryId })
        .from(movies)
        .all()
        .every((row) => row.categoryId === comedy),
    ).toBe(true);
    expect(deleteCategory(testDb.db, comedy, actor, { root: testDb.dir }).ok).toBe(false);
  });

  it("takes a .png or .jpg image, resized to a tile, and refuses anything else", async () => {
    const drama = created("Drama");
    const png = new Uint8Array(
      await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#884422" } })
        .png()
        .toBuffer(),
    );
    expect(await setCategoryImage(testDb.db, drama, { name: "tile.gif", bytes: png }, actor, testDb.dir)).toEqual({
      ok: false,
      error: CATEGORY_ERRORS.imageType,
    });
    expect(await setCategoryImage(testDb.db, drama, { name: "tile.jpg", bytes: png }, actor, testDb.dir)).toEqual({
      ok: false,
      error: CATEGORY_ERRORS.imageType,
    });
    expect(await setCategoryImage(testDb.db, drama, { name: "tile.png", bytes: png }, actor, testDb.dir)).toEqual({
      ok: true,
      value: null,
    });
    const file = path.join(testDb.dir, "categories", `${drama}.jpg`);
    const meta = await sharp(fs.readFileSync(file)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 600, 400]);
    expect(fs.readdirSync(path.join(testDb.dir, "tmp"))).toEqual([]);
    expect(
      testDb.db.select({ imageFile: categories.imageFile }).from(categories).where(eq(categories.id, drama)).get()
        ?.imageFile,
    ).toBe(`${drama}.jpg`);
  });
});

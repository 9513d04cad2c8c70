import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accounts, resumableUploads } from "~/db/schema";
import { storagePaths } from "~/media/storage.server";
import { sweepExpiredUploads } from "~/services/resumable-uploads.server";
import { uploadSpace, withinUploadShare } from "~/services/uploads.server";
import { createTestDatabase } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
beforeEach(() => {
  testDb = createTestDatabase();
  for (const id of ["provider0000001", "provider0000002"])
    testDb.db
      .insert(accounts)
      .values({ id, name: id, email: `${id}@unit.test`, phoneNumber: "1", passwordHash: "x", role: "provider" })
      .run();
});
afterEach(() => testDb.close());

const GB = 1024 ** 3;
let counter = 0;
/** An unfinished upload with `received` bytes on disk, made `ageMs` ago. */
function unfinished(providerId: string, size: number, received: number, ageMs = 0): string {
  const id = `upload${String(++counter).padStart(9, "0")}`;
  const dir = storagePaths(testDb.dir).uploads;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, id), Buffer.alloc(received));
  const then = new Date(Date.now() - ageMs);
  fs.utimesSync(path.join(dir, id), then, then);
  testDb.db
    .insert(resumableUploads)
    .values({
      id,
      providerId,
      movieId: `m${id}`,
      filename: "f.mp4",
      sizeBytes: size,
      name: "F",
      categoryId: "c",
      createdAt: then,
    })
    .run();
  return id;
}

describe("the upload space one provider may hold", () => {
  const limits = { sharePercent: 50, reservedPercent: 80 };
  it("lets one upload of any size the disk has room for, then no more than the provider's share", () => {
    const { spare } = uploadSpace(testDb.db, testDb.dir);
    expect(withinUploadShare(testDb.db, testDb.dir, "provider0000001", spare, limits)).toBeNull();
    // Declared, nothing sent yet: the provider now holds two fifths of the space.
    unfinished("provider0000001", Math.floor((spare * 2) / 5), 0);
    expect(withinUploadShare(testDb.db, testDb.dir, "provider0000001", Math.floor(spare / 5), limits)).toBe("share");
    expect(withinUploadShare(testDb.db, testDb.dir, "provider0000001", 1 * 1024 * 1024, limits)).toBeNull();
    // Another provider still has room.
    expect(withinUploadShare(testDb.db, testDb.dir, "provider0000002", Math.floor(spare / 5), limits)).toBeNull();
    expect(uploadSpace(testDb.db, testDb.dir).owedBy.get("provider0000001")).toBe(Math.floor((spare * 2) / 5));
  });

  it("keeps room beyond the reserved part for a provider who holds none: two providers cannot take it all", () => {
    const { spare } = uploadSpace(testDb.db, testDb.dir);
    unfinished("provider0000001", Math.floor(spare * 0.4), 0);
    unfinished("provider0000002", Math.floor(spare * 0.35), 0);
    // The holders may not reserve past 80 % together, each within their 50 %.
    expect(withinUploadShare(testDb.db, testDb.dir, "provider0000002", Math.floor(spare * 0.1), limits)).toBe(
      "reserved",
    );
    expect(withinUploadShare(testDb.db, testDb.dir, "provider0000001", Math.floor(spare * 0.04), limits)).toBeNull();
    // A third provider's first upload fits in what they left.
    expect(withinUploadShare(testDb.db, testDb.dir, "provider0000003", Math.floor(spare * 0.2), limits)).toBeNull();
  });

  it("holds an upload's space only while its bytes keep coming, not a day for one byte", () => {
    const minute = 60 * 1000;
    const { spare } = uploadSpace(testDb.db, testDb.dir);
    const size = Math.floor(spare / 4);
    unfinished("provider0000001", size, 0, 5 * minute); // declared five minutes ago: holds
    unfinished("provider0000001", size, 1, 11 * minute); // one byte, eleven minutes ago: holds nothing
    unfinished("provider0000002", size, 1024, 3 * minute); // sending: holds what is still to come
    const space = uploadSpace(testDb.db, testDb.dir, Date.now(), 10 * minute);
    expect(space.owedBy.get("provider0000001")).toBe(size);
    expect(space.owedBy.get("provider0000002")).toBe(size - 1024);
    expect(space.owed).toBe(2 * size - 1024);
  });

  it("removes an upload that sent nothing after UPLOAD_START_MINUTES, and keeps one that is sending", () => {
    const hour = 60 * 60 * 1000;
    const empty = unfinished("provider0000001", 4 * GB, 0, 51 * 60 * 1000);
    const fresh = unfinished("provider0000001", 4 * GB, 0, 10 * 60 * 1000);
    const sending = unfinished("provider0000002", 4 * GB, 1024, 2 * hour);
    const removed = sweepExpiredUploads(testDb.db, { root: testDb.dir, expiryMs: 24 * hour, startMs: 50 * 60 * 1000 });
    expect(removed).toBe(1);
    const left = testDb.db
      .select({ id: resumableUploads.id })
      .from(resumableUploads)
      .all()
      .map((row) => row.id);
    expect(left.sort()).toEqual([fresh, sending].sort());
    expect(fs.existsSync(path.join(storagePaths(testDb.dir).uploads, empty))).toBe(false);
  });
});

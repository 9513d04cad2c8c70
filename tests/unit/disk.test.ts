import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { accounts, categories, movieRenditions, movies } from "~/db/schema";
import { diskUsage } from "~/services/disk.server";
import { createTestDatabase } from "./helpers/test-db";

const testDb = createTestDatabase();
afterAll(() => testDb.close());

describe("the administrator's view of the disk", () => {
  it("sums the ready films and ladders, counts temporary work and unfinished uploads on disk, and says when space runs low", () => {
    const { db, dir } = testDb;
    db.insert(accounts)
      .values({
        id: "diskprovider001",
        name: "P",
        email: "p@disk.test",
        phoneNumber: "1",
        passwordHash: "x",
        role: "provider",
      })
      .run();
    db.insert(categories).values({ id: "diskcategory001", name: "Drama", slug: "drama" }).run();
    db.insert(movies)
      .values([
        {
          id: "diskmovie000001",
          name: "A",
          categoryId: "diskcategory001",
          providerId: "diskprovider001",
          status: "ready",
          sizeBytes: 3_000_000,
        },
        {
          id: "diskmovie000002",
          name: "B",
          categoryId: "diskcategory001",
          providerId: "diskprovider001",
          status: "processing",
          sizeBytes: 9_000_000,
        },
      ])
      .run();
    db.insert(movieRenditions)
      .values({ movieId: "diskmovie000001", rung: 144, width: 256, height: 144, status: "ready", sizeBytes: 400_000 })
      .run();
    fs.mkdirSync(path.join(dir, "tmp", "job"), { recursive: true });
    fs.writeFileSync(path.join(dir, "tmp", "job", "part.mp4"), Buffer.alloc(1000));
    fs.mkdirSync(path.join(dir, "uploads"), { recursive: true });
    fs.writeFileSync(path.join(dir, "uploads", "abc"), Buffer.alloc(500));

    const usage = diskUsage(db, dir, 1024 * 1024);
    expect(usage).toMatchObject({
      filmBytes: 3_000_000,
      renditionBytes: 400_000,
      temporaryBytes: 1500,
      reserveBytes: 1024 * 1024,
      low: false,
    });
    expect(usage.freeBytes).toBeGreaterThan(0);
    expect(usage.totalBytes).toBeGreaterThanOrEqual(usage.freeBytes);
    expect(diskUsage(db, dir, usage.freeBytes).low).toBe(true);
  });
});

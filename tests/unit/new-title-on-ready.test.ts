import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accounts, categories, movies, notifications, watchEvents } from "~/db/schema";
import { runFfmpeg } from "~/media/ffmpeg.server";
import { processMovie } from "~/jobs/process-movie.server";
import { movieDir } from "~/media/storage.server";
import { createTestDatabase } from "./helpers/test-db";

/**
 * With auto-approval a title is approved at upload and published when its
 * processing finishes: that moment tells the viewers of its category.
 */
let testDb: ReturnType<typeof createTestDatabase>;

beforeEach(() => {
  testDb = createTestDatabase();
  const { db } = testDb;
  db.insert(accounts)
    .values([
      { id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" },
      { id: "viewer000001", name: "V", email: "v@t.test", phoneNumber: "1", passwordHash: "x" },
    ])
    .run();
  db.insert(categories).values({ id: "catdramaaaaa", name: "Drama", slug: "drama" }).run();
  db.insert(movies)
    .values({
      id: "olddrama0001",
      name: "Old",
      categoryId: "catdramaaaaa",
      providerId: "provider0001",
      status: "ready",
      approved: true,
    })
    .run();
  db.insert(watchEvents)
    .values({
      id: "event0000001",
      accountId: "viewer000001",
      movieId: "olddrama0001",
      startedAt: new Date(),
      updatedAt: new Date(),
    })
    .run();
});
afterEach(() => testDb.close());

async function uploadAndProcess(id: string, approved: boolean) {
  const { db, dir } = testDb;
  db.insert(movies)
    .values({
      id,
      name: `Film ${id}`,
      categoryId: "catdramaaaaa",
      providerId: "provider0001",
      status: "processing",
      approved,
    })
    .run();
  const folder = movieDir(id, dir);
  fs.mkdirSync(folder, { recursive: true });
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
  await runFfmpeg([
    "-y",
    "-hide_banner",
    "-f",
    "lavfi",
    "-i",
    "testsrc=duration=1:size=320x240:rate=10",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-movflags",
    "+faststart",
    path.join(folder, "source.mp4"),
  ]);
  await processMovie(db, id, { source: "source.mp4" }, dir);
  expect(db.select({ status: movies.status }).from(movies).where(eq(movies.id, id)).get()?.status).toBe("ready");
  return db.select().from(notifications).where(eq(notifications.movieId, id)).all();
}

describe("a title published when its processing ends", () => {
  it("notifies the category's viewers when it was auto-approved", async () => {
    const created = await uploadAndProcess("autoapproved1", true);
    expect(created.map((n) => [n.accountId, n.messageValues])).toEqual([
      ["viewer000001", { category: "Drama", title: "Film autoapproved1" }],
    ]);
  }, 60_000);

  it("waits for an administrator otherwise", async () => {
    expect(await uploadAndProcess("waitingtitle1", false)).toEqual([]);
  }, 60_000);
});

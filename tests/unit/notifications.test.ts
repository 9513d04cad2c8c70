import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { and, eq, isNotNull } from "drizzle-orm";
import { accounts, categories, movies, notifications, watchEvents } from "~/db/schema";
import { registerViewer } from "~/services/accounts.server";
import { changeTitle } from "~/services/title-lifecycle.server";
import { clearHistory } from "~/services/history.server";
import {
  countUnreadNotifications,
  listNotifications,
  markNotificationsRead,
  NEW_TITLE_KIND,
  notifyNewTitle,
} from "~/services/notifications.server";
import { createTestDatabase, firstProfileOf } from "./helpers/test-db";

let testDb: ReturnType<typeof createTestDatabase>;
let mine: string;
let theirs: string;

beforeEach(async () => {
  testDb = createTestDatabase();
  const base = { name: "N", phoneNumber: "08031234567", password: "password-1", password2: "password-1" };
  const a = await registerViewer(testDb.db, { ...base, email: "a@example.com" });
  const b = await registerViewer(testDb.db, { ...base, email: "b@example.com" });
  if (!a.ok || !b.ok) throw new Error();
  mine = a.value.id;
  theirs = b.value.id;
  for (const [id, accountId] of [
    ["n1", mine],
    ["n2", mine],
    ["n3", theirs],
  ] as const) {
    testDb.db
      .insert(notifications)
      .values({ id, accountId, kind: "new_title", messageKey: "auth:notifications.title" })
      .run();
  }
});
afterEach(() => testDb.close());

describe("notifications", () => {
  it("lists and counts only the person's own", () => {
    expect(
      listNotifications(testDb.db, mine)
        .map((n) => n.id)
        .sort(),
    ).toEqual(["n1", "n2"]);
    expect(countUnreadNotifications(testDb.db, mine)).toBe(2);
  });

  it("marks one read, never someone else's, then all", () => {
    expect(markNotificationsRead(testDb.db, mine, "n3")).toBe(0);
    expect(countUnreadNotifications(testDb.db, theirs)).toBe(1);
    expect(markNotificationsRead(testDb.db, mine, "n1")).toBe(1);
    expect(countUnreadNotifications(testDb.db, mine)).toBe(1);
    expect(markNotificationsRead(testDb.db, mine)).toBe(1);
    expect(countUnreadNotifications(testDb.db, mine)).toBe(0);
  });
});

describe("telling viewers about a new title in a category they watch", () => {
  const at = new Date("2026-11-20T12:00:00Z");
  let stranger: string;
  let provider: string;

  beforeEach(async () => {
    const base = { name: "N", phoneNumber: "08031234567", password: "password-1", password2: "password-1" };
    const c = await registerViewer(testDb.db, { ...base, email: "c@example.com" });
    if (!c.ok) throw new Error();
    stranger = c.value.id;
    provider = "provider0001";
    testDb.db
      .insert(accounts)
      .values({ id: provider, name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" })
      .run();
    testDb.db
      .insert(categories)
      .values([
        { id: "catdramaaaaa", name: "Drama", slug: "drama" },
        { id: "catcomedyaaa", name: "Comedy", slug: "comedy" },
      ])
      .run();
    const movie = (id: string, categoryId: string, values: Partial<typeof movies.$inferInsert> = {}) =>
      testDb.db
        .insert(movies)
        .values({
          id,
          name: `Title ${id}`,
          categoryId,
          providerId: provider,
          status: "ready",
          approved: true,
          ...values,
        })
        .run();
    movie("olddrama001", "catdramaaaaa");
    movie("oldcomedy01", "catcomedyaaa");
    movie("newdrama001", "catdramaaaaa", { name: "Sabon Labari", approved: false });
    let n = 0;
    const watch = (accountId: string, movieId: string) =>
      testDb.db
        .insert(watchEvents)
        .values({ id: `event${++n}aaaaaaaa`, accountId, movieId, startedAt: at, updatedAt: at })
        .run();
    watch(mine, "olddrama001");
    watch(mine, "olddrama001"); // two viewings, still one notification
    watch(theirs, "oldcomedy01"); // another category: nothing
    watch(provider, "olddrama001"); // not a viewer: nothing
  });

  const newTitleNotices = () =>
    testDb.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, NEW_TITLE_KIND), isNotNull(notifications.movieId)))
      .all();

  it("does nothing while the title is not published", () => {
    expect(notifyNewTitle(testDb.db, "newdrama001", at)).toBe(0);
    testDb.db.update(movies).set({ approved: true, status: "processing" }).where(eq(movies.id, "newdrama001")).run();
    expect(notifyNewTitle(testDb.db, "newdrama001", at)).toBe(0);
    expect(notifyNewTitle(testDb.db, "nosuchtitle", at)).toBe(0);
    expect(newTitleNotices()).toHaveLength(0);
  });

  it("on approval, tells each watcher of the category once, with the title and a link", () => {
    expect(changeTitle(testDb.db, "newdrama001", { approved: true }, { actorId: provider })).toBe(true);
    const notices = newTitleNotices();
    expect(notices.map((n) => n.accountId)).toEqual([mine]);
    expect(notices[0]).toMatchObject({
      messageKey: "browse:notifications.newInCategory",
      messageValues: { category: "Drama", title: "Sabon Labari" },
      link: "/WatchMovie?id=newdrama001",
      movieId: "newdrama001",
      readAt: null,
    });
    expect(countUnreadNotifications(testDb.db, mine)).toBe(3);
    expect(countUnreadNotifications(testDb.db, stranger)).toBe(0);

    // Unapproved and approved again, or processed again: never a second one.
    changeTitle(testDb.db, "newdrama001", { approved: false }, { actorId: provider });
    changeTitle(testDb.db, "newdrama001", { approved: true }, { actorId: provider });
    expect(notifyNewTitle(testDb.db, "newdrama001", at)).toBe(0);
    expect(newTitleNotices()).toHaveLength(1);
  });

  it("counts only viewings the viewer keeps in their history", () => {
    clearHistory(testDb.db, firstProfileOf(mine), at);
    testDb.db.update(movies).set({ approved: true }).where(eq(movies.id, "newdrama001")).run();
    expect(notifyNewTitle(testDb.db, "newdrama001", at)).toBe(0);
  });
});

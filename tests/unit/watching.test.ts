import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { accounts, categories, comments, movies, ratings, watchEvents } from "~/db/schema";
import {
  addComment,
  deleteComment,
  getWatchPage,
  markViewing,
  rateMovie,
  recordProgress,
  resumePosition,
  VIEWING_IDLE_MS,
} from "~/services/watching.server";
import { createTestDatabase, insertTitle, byFirstProfile, firstProfileOf } from "./helpers/test-db";

let db: DB;
let close: () => void;
const start = new Date("2026-11-20T12:00:00Z");
const later = (ms: number) => new Date(start.getTime() + ms);
const viewer = { ...firstProfileOf("viewer000001"), role: "viewer" as const };
const other = { ...firstProfileOf("viewer000002"), role: "viewer" as const };
const admin = { ...firstProfileOf("admin0000001"), role: "admin" as const };

function addMovie(id: string, values: Partial<typeof movies.$inferInsert> = {}) {
  insertTitle(db, id, { categoryId: "catactionaaa", durationSeconds: 600, uploadedAt: start }, values);
}
const viewsOf = (id: string) => db.select({ views: movies.views }).from(movies).where(eq(movies.id, id)).get()!.views;
const eventsOf = (id: string) => db.select().from(watchEvents).where(eq(watchEvents.movieId, id)).all();

beforeEach(() => {
  ({ db, close } = createTestDatabase());
  db.insert(accounts)
    .values([
      {
        id: "provider0001",
        name: "P",
        providerName: "Studio P",
        email: "p@t.test",
        phoneNumber: "1",
        passwordHash: "x",
        role: "provider",
      },
      { id: viewer.id, name: "Amina", email: "v1@t.test", phoneNumber: "1", passwordHash: "x" },
      { id: other.id, name: "Musa", email: "v2@t.test", phoneNumber: "1", passwordHash: "x" },
      { id: admin.id, name: "Admin", email: "a@t.test", phoneNumber: "1", passwordHash: "x", role: "admin" },
    ])
    .run();
  db.insert(categories)
    .values([
      { id: "catactionaaa", name: "Action", slug: "action" },
      { id: "catcomedyaaa", name: "Comedy", slug: "comedy" },
    ])
    .run();
  addMovie("film0000001");
});
afterEach(() => close());

describe("viewings and the view count", () => {
  it("counts one view per viewing, however many progress reports it sends", () => {
    expect(
      recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 0 }, start),
    ).toMatchObject({ ok: true, newViewing: true });
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 10 }, later(10_000));
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 120 }, later(20_000));
    expect(viewsOf("film0000001")).toBe(1);
    const events = eventsOf("film0000001");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ positionSeconds: 120, viewCounted: true });
  });

  it("starts a new viewing after 30 idle minutes", () => {
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 100 }, start);
    recordProgress(
      db,
      { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 110 },
      later(VIEWING_IDLE_MS - 1),
    );
    expect(viewsOf("film0000001")).toBe(1);
    const result = recordProgress(
      db,
      { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 110 },
      later(2 * VIEWING_IDLE_MS),
    );
    expect(result).toMatchObject({ ok: true, newViewing: true });
    expect(viewsOf("film0000001")).toBe(2);
    expect(eventsOf("film0000001")).toHaveLength(2);
  });

  it("starts a new viewing after a finished one, even straight away", () => {
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 595 }, start);
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 3 }, later(5_000));
    expect(viewsOf("film0000001")).toBe(2);
  });

  it("counts the end reported twice (the player's pause, then its end) as one viewing and one view", () => {
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 3 }, start);
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 600 }, later(5_000));
    expect(
      recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 600 }, later(5_050)),
    ).toMatchObject({ ok: true, newViewing: false });
    expect(viewsOf("film0000001")).toBe(1);
    expect(eventsOf("film0000001")).toHaveLength(1);
  });

  it("keeps each viewer's viewings apart and clamps the position to the title's length", () => {
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 50 }, start);
    const result = recordProgress(
      db,
      { ...byFirstProfile(other.id), movieId: "film0000001", positionSeconds: 99_999 },
      start,
    );
    expect(result).toMatchObject({ ok: true, newViewing: true, positionSeconds: 600 });
    expect(viewsOf("film0000001")).toBe(2);
  });

  it("refuses titles that are not published", () => {
    addMovie("hidden00001", { approved: false });
    addMovie("process0001", { status: "processing" });
    expect(
      recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "hidden00001", positionSeconds: 5 }, start),
    ).toEqual({
      ok: false,
      notFound: true,
    });
    expect(
      recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "process0001", positionSeconds: 5 }, start),
    ).toEqual({
      ok: false,
      notFound: true,
    });
    expect(
      recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "nosuchfilm1", positionSeconds: 5 }, start),
    ).toEqual({
      ok: false,
      notFound: true,
    });
    expect(viewsOf("hidden00001")).toBe(0);
  });

  it("resumes at the last position unless the viewer (nearly) finished", () => {
    expect(resumePosition(120, 600)).toBe(120);
    expect(resumePosition(595, 600)).toBe(0);
    expect(resumePosition(0, 600)).toBe(0);
    expect(resumePosition(null, 600)).toBe(0);
    // Short films: "near the end" is a tenth of the film, not 10 s.
    expect(resumePosition(4, 8)).toBe(4);
    expect(resumePosition(8, 8)).toBe(0);
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 42 }, start);
    expect(getWatchPage(db, "film0000001", viewer)?.resumeSeconds).toBe(42);
    expect(getWatchPage(db, "film0000001", other)?.resumeSeconds).toBe(0);
  });
});

describe("the watch page", () => {
  it("is null for unknown and unpublished titles", () => {
    addMovie("hidden00001", { approved: false });
    expect(getWatchPage(db, "hidden00001", viewer)).toBeNull();
    expect(getWatchPage(db, "nosuchfilm1", viewer)).toBeNull();
    expect(getWatchPage(db, "", viewer)).toBeNull();
  });

  it("lists related titles of the same category and the provider's other titles, published only", () => {
    addMovie("sameaction1");
    addMovie("comedy00001", { categoryId: "catcomedyaaa" });
    addMovie("hiddenact01", { approved: false });
    const page = getWatchPage(db, "film0000001", viewer)!;
    expect(page.movie.providerName).toBe("Studio P");
    expect(page.related.map((m) => m.id)).toEqual(["sameaction1"]);
    expect(page.providerTitles.map((m) => m.id).sort()).toEqual(["comedy00001", "sameaction1"]);
  });
});

describe("comments", () => {
  it("validates 1–1000 characters and stores the text as written", () => {
    expect(addComment(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), body: "   " })).toMatchObject({
      ok: false,
      fieldErrors: { body: ["watch:errors.commentRequired"] },
    });
    expect(
      addComment(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), body: "x".repeat(1001) }),
    ).toMatchObject({
      ok: false,
      fieldErrors: { body: ["watch:errors.commentTooLong"] },
    });
    expect(addComment(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), body: null })).toMatchObject({
      ok: false,
    });
    expect(addComment(db, { movieId: "nosuchfilm1", ...byFirstProfile(viewer.id), body: "hi" })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(
      addComment(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), body: "<b>Madalla</b>" }, start),
    ).toMatchObject({ ok: true });
    expect(
      db
        .select()
        .from(comments)
        .all()
        .map((c) => c.body),
    ).toEqual(["<b>Madalla</b>"]);
  });

  it("shows the newest first, with names", () => {
    addComment(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), body: "first" }, start);
    addComment(db, { movieId: "film0000001", ...byFirstProfile(other.id), body: "second" }, later(1000));
    const page = getWatchPage(db, "film0000001", viewer)!;
    expect(page.comments.map((c) => [c.body, c.authorName, c.canDelete])).toEqual([
      ["second", "Musa", false],
      ["first", "Amina", true],
    ]);
    expect(getWatchPage(db, "film0000001", admin)!.comments.every((c) => c.canDelete)).toBe(true);
  });

  it("lets the author and administrators delete, nobody else", () => {
    const mine = addComment(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), body: "mine" });
    const theirs = addComment(db, { movieId: "film0000001", ...byFirstProfile(other.id), body: "theirs" });
    if (!mine.ok || !theirs.ok) throw new Error("setup");
    expect(deleteComment(db, theirs.id, viewer)).toBe("forbidden");
    expect(deleteComment(db, mine.id, viewer)).toBe("deleted");
    expect(deleteComment(db, mine.id, viewer)).toBe("notFound");
    expect(deleteComment(db, theirs.id, admin)).toBe("deleted");
    expect(db.select().from(comments).all()).toHaveLength(0);
  });
});

describe("ratings", () => {
  it("keeps one rating per viewer, changeable, and only 1–5", () => {
    expect(rateMovie(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), stars: "4" })).toBe("rated");
    expect(rateMovie(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), stars: "2" })).toBe("rated");
    expect(rateMovie(db, { movieId: "film0000001", ...byFirstProfile(other.id), stars: 5 })).toBe("rated");
    for (const stars of ["0", "6", "3.5", "", null, "abc"]) {
      expect(rateMovie(db, { movieId: "film0000001", ...byFirstProfile(viewer.id), stars })).toBe("invalid");
    }
    expect(rateMovie(db, { movieId: "nosuchfilm1", ...byFirstProfile(viewer.id), stars: "3" })).toBe("notFound");
    expect(db.select().from(ratings).all()).toHaveLength(2);
    const page = getWatchPage(db, "film0000001", viewer)!;
    expect(page).toMatchObject({ averageRating: 3.5, ratingCount: 2, myRating: 2 });
  });
});

describe("viewings reported without a position (the old clients' views and watched calls)", () => {
  it("counts one view per viewing and never moves the resume position", () => {
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 200 }, start);
    const again = markViewing(
      db,
      { ...byFirstProfile(viewer.id), movieId: "film0000001", countView: true },
      later(60_000),
    );
    expect(again).toMatchObject({ ok: true, viewCounted: false, views: 1 });
    expect(eventsOf("film0000001")).toHaveLength(1);
    expect(eventsOf("film0000001")[0].positionSeconds).toBe(200);
  });

  it("records history without a view, and the first counting call of that viewing counts it once", () => {
    expect(
      markViewing(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", countView: false }, start),
    ).toMatchObject({
      ok: true,
      viewCounted: false,
      views: 0,
    });
    expect(eventsOf("film0000001")).toHaveLength(1);
    expect(
      markViewing(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", countView: true }, later(1_000)),
    ).toMatchObject({ viewCounted: true, views: 1 });
    expect(
      markViewing(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", countView: true }, later(2_000)),
    ).toMatchObject({ viewCounted: false, views: 1 });
    // A progress report in the same viewing does not count it again either.
    recordProgress(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", positionSeconds: 30 }, later(3_000));
    expect(viewsOf("film0000001")).toBe(1);
    expect(eventsOf("film0000001")).toHaveLength(1);
  });

  it("starts a new viewing (and view) after the idle time, and refuses unpublished titles", () => {
    markViewing(db, { ...byFirstProfile(viewer.id), movieId: "film0000001", countView: true }, start);
    expect(
      markViewing(
        db,
        { ...byFirstProfile(viewer.id), movieId: "film0000001", countView: true },
        later(VIEWING_IDLE_MS + 1),
      ),
    ).toMatchObject({ viewCounted: true, views: 2 });
    expect(eventsOf("film0000001")).toHaveLength(2);
    addMovie("film0000002", { approved: false });
    expect(markViewing(db, { ...byFirstProfile(viewer.id), movieId: "film0000002", countView: true }, start)).toEqual({
      ok: false,
      notFound: true,
    });
    expect(viewsOf("film0000002")).toBe(0);
  });
});

import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/db/client.server";
import { accounts, categories, movies, seasons, series, watchEvents } from "~/db/schema";
import { dismissFromContinueWatching, listContinueWatching } from "~/services/continue-watching.server";
import { removeFromHistory } from "~/services/history.server";
import { createTestDatabase, insertTitle, firstProfileOf } from "./helpers/test-db";

let db: DB;
let close: () => void;
const now = Date.parse("2026-11-20T12:00:00Z");
let clock = 0;

function addTitle(id: string, values: Partial<typeof movies.$inferInsert> = {}) {
  insertTitle(
    db,
    id,
    {
      categoryId: "catdramaaaaa",
      durationSeconds: 600,
      posterFile: `${id}-card.jpg`,
      uploadedAt: new Date(now - 86_400_000),
    },
    values,
  );
}

/** A viewing, each one later than the one before. */
function watched(movieId: string, positionSeconds: number, accountId = "viewer000001") {
  clock += 60_000;
  db.insert(watchEvents)
    .values({
      id: `ev${String(clock).padStart(10, "0")}`,
      accountId,
      movieId,
      startedAt: new Date(now + clock),
      updatedAt: new Date(now + clock),
      positionSeconds,
    })
    .run();
}

const row = () =>
  listContinueWatching(db, firstProfileOf("viewer000001")).map((item) => [
    item.title,
    item.movieId,
    item.positionSeconds,
  ]);

beforeEach(() => {
  ({ db, close } = createTestDatabase());
  clock = 0;
  db.insert(accounts)
    .values([
      { id: "provider0001", name: "P", email: "p@t.test", phoneNumber: "1", passwordHash: "x", role: "provider" },
      { id: "viewer000001", name: "V", email: "v@t.test", phoneNumber: "1", passwordHash: "x" },
      { id: "viewer000002", name: "W", email: "w@t.test", phoneNumber: "1", passwordHash: "x" },
    ])
    .run();
  db.insert(categories).values({ id: "catdramaaaaa", name: "Drama", slug: "drama", sortOrder: 1 }).run();
  db.insert(series)
    .values({
      id: "gidanhaya01",
      name: "Gidan Haya",
      categoryId: "catdramaaaaa",
      providerId: "provider0001",
      approved: true,
    })
    .run();
  db.insert(seasons)
    .values([
      { id: "gidanseason1", seriesId: "gidanhaya01", number: 1 },
      { id: "gidanseason2", seriesId: "gidanhaya01", number: 2 },
    ])
    .run();
  addTitle("episode0101", { name: "Sabon Mai Gida", seasonId: "gidanseason1", episodeNumber: 1 });
  addTitle("episode0102", { name: "Ranar Kuɗin Haya", seasonId: "gidanseason1", episodeNumber: 2 });
  addTitle("episode0201", { name: "Sabuwar Shekara", seasonId: "gidanseason2", episodeNumber: 1 });
  addTitle("filmkano001", { name: "Kano Nights" });
  addTitle("filmzaria01", { name: "Zaria Rain" });
});
afterEach(() => close());

describe("the Continue watching row", () => {
  it("holds unfinished films and series, newest first, an episode named with its series and number", () => {
    watched("filmkano001", 120);
    watched("episode0102", 75);
    expect(row()).toEqual([
      ["Gidan Haya · S1E2", "episode0102", 75],
      ["Kano Nights", "filmkano001", 120],
    ]);
    const [episode] = listContinueWatching(db, firstProfileOf("viewer000001"));
    expect(episode).toMatchObject({
      episodeName: "Ranar Kuɗin Haya",
      href: "/WatchMovie?id=episode0102",
      durationSeconds: 600,
      poster: { kind: "title", id: "episode0102" },
    });
  });

  it("leaves out what was not started or was finished, and goes on to a series' next episode", () => {
    watched("filmkano001", 0);
    watched("filmzaria01", 598);
    expect(row()).toEqual([]);
    watched("episode0101", 100);
    watched("episode0102", 599); // finished: next is season 2's first episode, across seasons
    expect(row()).toEqual([["Gidan Haya · S2E1", "episode0201", 0]]);
    watched("episode0201", 599); // the whole series watched: nothing to continue
    expect(row()).toEqual([]);
  });

  it("shows a series once, at its latest viewing", () => {
    watched("episode0101", 30);
    watched("filmkano001", 50);
    watched("episode0102", 40);
    expect(row()).toEqual([
      ["Gidan Haya · S1E2", "episode0102", 40],
      ["Kano Nights", "filmkano001", 50],
    ]);
  });

  it("drops an entry the viewer removes, until they watch it again; their history and others' rows keep it", () => {
    watched("filmkano001", 120);
    watched("filmkano001", 130, "viewer000002");
    watched("episode0102", 75);
    expect(
      dismissFromContinueWatching(db, firstProfileOf("viewer000001"), "filmkano001", new Date(now + clock + 1)),
    ).toBe(true);
    expect(row()).toEqual([["Gidan Haya · S1E2", "episode0102", 75]]);
    expect(listContinueWatching(db, firstProfileOf("viewer000002")).map((item) => item.movieId)).toEqual([
      "filmkano001",
    ]);
    expect(
      dismissFromContinueWatching(db, firstProfileOf("viewer000001"), "episode0102", new Date(now + clock + 2)),
    ).toBe(true);
    expect(row()).toEqual([]);
    watched("filmkano001", 140);
    expect(row()).toEqual([["Kano Nights", "filmkano001", 140]]);
    // Nothing to remove for a title never watched.
    expect(dismissFromContinueWatching(db, firstProfileOf("viewer000001"), "filmzaria01")).toBe(false);
    expect(dismissFromContinueWatching(db, firstProfileOf("viewer000001"), "")).toBe(false);
  });

  it("never shows a title no longer published nor one removed from history", () => {
    watched("filmkano001", 120);
    watched("filmzaria01", 60);
    db.update(movies).set({ approved: false }).where(eq(movies.id, "filmkano001")).run();
    removeFromHistory(db, firstProfileOf("viewer000001"), "filmzaria01", new Date(now + clock + 1));
    expect(row()).toEqual([]);
  });

  it("keeps to its limit", () => {
    for (let index = 0; index < 15; index++) {
      addTitle(`film${String(index).padStart(8, "0")}`);
      watched(`film${String(index).padStart(8, "0")}`, 10);
    }
    expect(listContinueWatching(db, firstProfileOf("viewer000001"), 12)).toHaveLength(12);
    expect(listContinueWatching(db, firstProfileOf("viewer000001"), 3).map((item) => item.movieId)).toEqual([
      "film00000014",
      "film00000013",
      "film00000012",
    ]);
  });
});

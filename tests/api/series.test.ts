import fs from "node:fs";
import { and, asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { movies, seasons, series } from "~/db/schema";
import { call, login, movieRow, seedAccount, sharedVideo, startApiWorld, waitUntilReady } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * Series in the studio, against the production build: a provider makes a
 * series, adds a season, uploads two episodes into it (the plain form and the
 * resumable protocol), renumbers and deletes one; another provider is refused
 * at every step, and so is a viewer. Once an administrator approves the
 * series, the old apps' list names the episode "Series — S1E1 Title".
 */
const TUS = "/provider/uploads/tus";
let world: ApiWorld;
let provider: Credentials;
let otherProvider: Credentials;
let viewer: Credentials;
let admin: Credentials;
let video: Buffer;
let seriesId: string;
let seasonId: string;
const episodes: string[] = [];

beforeAll(async () => {
  world = await startApiWorld("series");
  [provider, otherProvider, viewer, admin] = await Promise.all([
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "viewer")),
    login(world, seedAccount(world, "admin")),
  ]);
  video = fs.readFileSync(await sharedVideo(world));
});
afterAll(async () => {
  await world?.stop();
});

const seriesRow = () => world.db.select().from(series).where(eq(series.id, seriesId)).get();
const seasonRows = () => world.db.select().from(seasons).where(eq(seasons.seriesId, seriesId)).all();
const episodeRows = () =>
  world.db
    .select({ id: movies.id, number: movies.episodeNumber, providerId: movies.providerId })
    .from(movies)
    .where(eq(movies.seasonId, seasonId))
    .orderBy(asc(movies.episodeNumber))
    .all();

function seriesForm(fields: Record<string, string>, poster?: Buffer): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (poster) body.append("poster", new Blob([new Uint8Array(poster)]), "poster.jpg");
  return body;
}

function plainEpisodeUpload(as: Credentials, fields: Record<string, string>, film: Buffer = video) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append("movie", new Blob([new Uint8Array(film)]), "episode.mp4");
  return call(world, "/provider/uploads", { method: "POST", body, cookie: as.cookie });
}

function tusCreate(as: Credentials, fields: Record<string, string>) {
  const metadata = Object.entries({ filename: "episode.mp4", ...fields })
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
  return fetch(`${world.url}${TUS}`, {
    method: "POST",
    headers: {
      "Tus-Resumable": "1.0.0",
      Authorization: `Bearer ${as.token}`,
      "Upload-Length": String(video.length),
      "Upload-Metadata": metadata,
    },
  });
}

describe("a provider's series, seasons and episodes", () => {
  it("makes a series with its poster; a viewer cannot", async () => {
    const poster = await sharp({ create: { width: 600, height: 900, channels: 3, background: "#335577" } })
      .jpeg()
      .toBuffer();
    const refused = await call(world, "/provider/series", {
      method: "POST",
      body: seriesForm({ name: "Not mine", Category: world.categoryId }),
      cookie: viewer.cookie,
    });
    expect(refused.status).toBe(403);

    const made = await call(world, "/provider/series", {
      method: "POST",
      body: seriesForm(
        { name: "Gidan Haya", Category: world.categoryId, Description: "Rented rooms in Kano", cast: "Ali Nuhu" },
        poster,
      ),
      cookie: provider.cookie,
    });
    expect(made.status).toBe(303);
    seriesId = made.headers.get("Location")!.split("/").pop()!;
    expect(seriesRow()).toMatchObject({ name: "Gidan Haya", providerId: provider.account.id, posterFile: "poster" });
    expect(world.db.select().from(series).all()).toHaveLength(1);

    // A bad title is a 400 with the field's message, never a 500, and stores nothing.
    const bad = await call(world, "/provider/series", {
      method: "POST",
      body: seriesForm({ name: " ", Category: world.categoryId }),
      cookie: provider.cookie,
    });
    expect(bad.status).toBe(400);
    expect(world.db.select().from(series).all()).toHaveLength(1);

    // Before approval its poster, every size of it, is its provider's only (never stored).
    for (const posterPath of [`/series-poster/${seriesId}-card.jpg`, `/series-poster/${seriesId}-card-200.avif`]) {
      const own = await call(world, posterPath, { cookie: provider.cookie });
      expect(own.status).toBe(200);
      expect(own.headers.get("Cache-Control")).toBe("private, no-store");
      expect((await call(world, posterPath, { cookie: viewer.cookie })).status).toBe(404);
      expect((await call(world, posterPath, { cookie: otherProvider.cookie })).status).toBe(404);
    }
  });

  it("refuses another provider's edit of the series and their new season", async () => {
    const edit = await call(world, `/provider/series/${seriesId}`, {
      method: "POST",
      body: seriesForm({ name: "Taken over", Category: world.categoryId }),
      cookie: otherProvider.cookie,
    });
    expect(edit.status).toBe(403);
    expect(seriesRow()?.name).toBe("Gidan Haya");
    const page = await call(world, `/provider/series/${seriesId}`, { cookie: otherProvider.cookie });
    expect(page.status).toBe(403);

    const season = await call(world, `/provider/series/${seriesId}`, {
      form: { intent: "addSeason" },
      cookie: otherProvider.cookie,
    });
    expect(season.status).toBe(403);
    expect(seasonRows()).toHaveLength(0);
  });

  it("adds a season for its provider", async () => {
    const added = await call(world, `/provider/series/${seriesId}`, {
      form: { intent: "addSeason" },
      cookie: provider.cookie,
    });
    expect(added.status).toBe(303);
    expect(seasonRows().map((row) => row.number)).toEqual([1]);
    seasonId = seasonRows()[0].id;
  });

  it("uploads two episodes into the season, by the plain form and by tus; another provider's and a viewer's uploads are refused", async () => {
    const before = world.db.select().from(movies).all().length;
    const foreign = await plainEpisodeUpload(otherProvider, { name: "Intruder", seasonId, episodeNumber: "1" });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ fieldErrors: { seasonId: ["series:errors.notYourSeries"] } });
    const foreignTus = await tusCreate(otherProvider, { name: "Intruder", seasonId, episodeNumber: "1" });
    expect(foreignTus.status).toBe(403);
    expect((await foreignTus.json()).key).toBe("series:errors.notYourSeries");
    // Refused before the film is read: the whole film is read and dropped behind the answer.
    const byViewer = await plainEpisodeUpload(viewer, { name: "Viewer", seasonId, episodeNumber: "1" });
    expect(byViewer.status).toBe(403);
    expect(world.db.select().from(movies).all()).toHaveLength(before);

    // The first, by the plain form: no Category needed, it is the series'.
    const first = await plainEpisodeUpload(provider, { name: "Sabon Mai Gida", seasonId, episodeNumber: "1" });
    expect(first.status, first.text).toBe(201);
    episodes.push(first.body.movieId);
    // The same number again is refused with the field's message.
    const taken = await plainEpisodeUpload(provider, { name: "Again", seasonId, episodeNumber: "1" });
    expect(taken.status).toBe(400);
    expect(taken.body.fieldErrors.episodeNumber).toEqual(["series:errors.episodeNumberTaken"]);

    // The second, by tus: the place is checked at creation and the title made at the last byte.
    const created = await tusCreate(provider, { name: "Ranar Kuɗin Haya", seasonId, episodeNumber: "2" });
    expect(created.status).toBe(201);
    const location = created.headers.get("Location")!;
    const patched = await fetch(`${world.url}${location}`, {
      method: "PATCH",
      headers: {
        "Tus-Resumable": "1.0.0",
        Authorization: `Bearer ${provider.token}`,
        "Upload-Offset": "0",
        "Content-Type": "application/offset+octet-stream",
      },
      body: new Uint8Array(video),
    });
    expect(patched.status).toBe(204);
    episodes.push(patched.headers.get("Kallo-Movie-Id")!);

    expect(episodeRows()).toEqual([
      { id: episodes[0], number: 1, providerId: provider.account.id },
      { id: episodes[1], number: 2, providerId: provider.account.id },
    ]);
    expect(movieRow(world, episodes[1])?.categoryId).toBe(world.categoryId);
  });

  it("renumbers the season's episodes for its provider only", async () => {
    const swap = { intent: "reorder", seasonId, [`episode:${episodes[0]}`]: "2", [`episode:${episodes[1]}`]: "1" };
    const refused = await call(world, `/provider/series/${seriesId}`, { form: swap, cookie: otherProvider.cookie });
    expect(refused.status).toBe(403);
    expect(episodeRows().map((row) => row.id)).toEqual(episodes);

    const repeated = await call(world, `/provider/series/${seriesId}`, {
      form: { ...swap, [`episode:${episodes[1]}`]: "2" },
      cookie: provider.cookie,
    });
    expect(repeated.status).toBe(400);

    const done = await call(world, `/provider/series/${seriesId}`, { form: swap, cookie: provider.cookie });
    expect(done.status).toBe(303);
    expect(episodeRows().map((row) => row.id)).toEqual([episodes[1], episodes[0]]);
  });

  it("deletes an episode for its provider only", async () => {
    const refused = await call(world, `/provider/series/${seriesId}`, {
      form: { intent: "delete", movieId: episodes[0] },
      cookie: otherProvider.cookie,
    });
    expect(refused.status).toBe(403);
    expect(movieRow(world, episodes[0])).toBeDefined();
    const deleted = await call(world, `/provider/series/${seriesId}`, {
      form: { intent: "delete", movieId: episodes[0] },
      cookie: provider.cookie,
    });
    expect(deleted.status).toBe(303);
    expect(movieRow(world, episodes[0])).toBeUndefined();
  });

  it("once an administrator approves it (a viewer may not), the old apps list the episode with its series", async () => {
    await waitUntilReady(world, episodes[1]);
    const byViewer = await call(world, "/admin/series", {
      form: { intent: "approve", seriesId },
      cookie: viewer.cookie,
    });
    expect(byViewer.status).toBe(403);
    expect(seriesRow()?.approved).toBe(false);
    const listedBefore = await call(world, "/api/movies/all");
    expect(listedBefore.body.map((title: { _id: string }) => title._id)).not.toContain(episodes[1]);

    const approved = await call(world, "/admin/series", {
      form: { intent: "approve", seriesId },
      cookie: admin.cookie,
    });
    expect(approved.status).toBe(303);
    expect(
      world.db
        .select({ approved: movies.approved })
        .from(movies)
        .where(and(eq(movies.id, episodes[1])))
        .get()?.approved,
    ).toBe(true);
    const listed = await call(world, "/api/movies/all");
    const episode = listed.body.find((title: { _id: string }) => title._id === episodes[1]);
    expect(episode).toMatchObject({ MovieName: "Gidan Haya — S1E1 Ranar Kuɗin Haya", filename: `${episodes[1]}.mp4` });

    const page = await call(world, `/series/${seriesId}`, { cookie: viewer.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Ranar Kuɗin Haya");
    // A season it does not have, or not a number, shows the season it has.
    for (const asked of ["7", "abc", "-1"]) {
      const other = await call(world, `/series/${seriesId}?season=${asked}`, { cookie: viewer.cookie });
      expect(other.status).toBe(200);
      expect(other.text).toContain("Ranar Kuɗin Haya");
    }
    expect((await call(world, `/series-poster/${seriesId}-card.jpg`)).status).toBe(200);

    // Its page's hero offers the series' own poster in every size (4:5 on phones), AVIF first.
    expect(page.text).toContain(`/series-poster/${seriesId}-tall-360.avif 360w`);
    expect(page.text).toContain(`/series-poster/${seriesId}-hero-1280.jpg 1280w`);
    const sized = await call(world, `/series-poster/${seriesId}-tall-360.avif`);
    expect(sized.status).toBe(200);
    expect(sized.headers.get("Content-Type")).toBe("image/avif");
    expect(sized.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect((await call(world, `/series-poster/${seriesId}-tall-361.avif`)).status).toBe(404);
  });
});

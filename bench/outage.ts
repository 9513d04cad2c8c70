/**
 * `npm run bench:outage`: a film playing in Chromium (the player, the watch page as a viewer has it) through
 * outages: the viewer's network cut for 10 s, 60 s and 5 minutes with the film on the box's disk, then with
 * the film in a bucket (s3rver on loopback) the network cut for 10 s and the bucket stopped for 60 s. For
 * each: how long the film stood still, whether it went on by itself (no reload, no press), how long after
 * the way back it moved again, and what the page said meanwhile.
 *
 * The network is cut by failing every request (navigator.onLine stays true, as on a Wi-Fi or a mast
 * without internet). A one-minute film; the cut comes 5 s into it, so a cut shorter than the read-ahead
 * (30 s) may never stop the picture at all. BENCH_OUTAGES=10,60 picks the network cuts (seconds).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { probeMedia } from "../app/media/ffmpeg.server";
import { setSetting } from "../app/services/settings.server";
import { testChromiumPath } from "../tests/fixtures/browser";
import { freePort } from "../tests/fixtures/ports";
import { startS3rver, type S3Server } from "../tests/fixtures/s3-servers";
import { prepareStorage, signIn, startServer, type RunningServer } from "./lib";
import { ensureViewers, ensureWatchable, makeFilm, uploadAndProcess, viewerEmail } from "./playback-film";

const NETWORK_CUTS = (process.env.BENCH_OUTAGES ?? "10,60,300").split(",").map(Number);
const CUT_AT_SECONDS = 5;

type Outage = { label: string; seconds: number; kind: "network" | "bucket" };
type Result = Outage & {
  stoodStillSeconds: number;
  resumed: boolean;
  resumedAfterSeconds: number | null;
  said: string;
  error?: string;
};

async function playThrough(
  server: RunningServer,
  movieId: string,
  account: number,
  outage: Outage,
  bucket: S3Server | null,
): Promise<Result> {
  let browser: Browser | undefined;
  try {
    const cookie = await signIn(server.url, "/login", viewerEmail(account));
    browser = await chromium.launch({
      executablePath: testChromiumPath(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
    });
    const context = await browser.newContext({ serviceWorkers: "block", viewport: { width: 360, height: 740 } });
    const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
    await context.addCookies([{ name, value, url: server.url, httpOnly: true, sameSite: "Lax", secure: false }]);
    await context.addInitScript({ content: "globalThis.__name = (target) => target;" });
    let away = false;
    await context.route("**/*", (route) => (away ? route.abort("internetdisconnected") : route.continue()));
    const page = await context.newPage();
    await page.goto(`${server.url}/WatchMovie?id=${movieId}`);
    const video = page.getByTestId("player");
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    const time = () => video.evaluate((element: HTMLVideoElement) => element.currentTime);
    const deadline = Date.now() + 60_000;
    while ((await time()) < CUT_AT_SECONDS) {
      if (Date.now() > deadline) throw new Error("the film did not reach 5 s");
      await page.waitForTimeout(200);
    }
    // The film's position every 250 ms from the outage on: where it stood still, and when it moved again.
    const samples: Array<{ at: number; position: number }> = [];
    const sample = async () => samples.push({ at: Date.now(), position: await time() });
    const said = new Set<string>();
    const look = async () => {
      for (const id of ["player-reconnecting", "player-error"])
        if (await page.getByTestId(id).isVisible()) said.add(id);
    };
    // The outage: the viewer's network, or the bucket alone.
    if (outage.kind === "network") away = true;
    else await bucket!.pause();
    const ends = Date.now() + outage.seconds * 1000;
    while (Date.now() < ends) {
      await sample();
      await look();
      await page.waitForTimeout(250);
    }
    if (outage.kind === "network") away = false;
    else await bucket!.resume();
    const back = Date.now();
    const atBack = await time();
    // Until the film has played on 3 s past where it was at the way back (or a minute has gone).
    while (Date.now() - back < 60_000) {
      await sample();
      await look();
      if (samples.at(-1)!.position > atBack + 3) break;
      await page.waitForTimeout(250);
    }
    let stoodStill = 0;
    for (let index = 1; index < samples.length; index++)
      if (samples[index]!.position - samples[index - 1]!.position < 0.05)
        stoodStill += samples[index]!.at - samples[index - 1]!.at;
    const moved = samples.find(
      (each, index) => each.at >= back && index > 0 && each.position > samples[index - 1]!.position + 0.05,
    );
    const stillAtBack = samples.some(
      (each, index) =>
        index > 0 && each.at <= back && each.at > back - 1000 && each.position - samples[index - 1]!.position < 0.05,
    );
    const resumed = samples.at(-1)!.position > atBack + 3;
    return {
      ...outage,
      stoodStillSeconds: stoodStill / 1000,
      resumed,
      resumedAfterSeconds: !resumed ? null : stillAtBack && moved ? (moved.at - back) / 1000 : 0,
      said: [...said].join(", ") || "nothing",
    };
  } catch (error) {
    return {
      ...outage,
      stoodStillSeconds: 0,
      resumed: false,
      resumedAfterSeconds: null,
      said: "",
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    await browser?.close();
  }
}

function mediaMove(env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/media-move.ts", "--to", "s3"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`media:move exited ${code}`))));
  });
}

const { root, db } = await prepareStorage("outage");
setSetting(db, "autoApproveMovies", true);
db.$client.close();
const outages: Outage[] = [
  ...NETWORK_CUTS.map((seconds): Outage => ({ label: `disk, network cut ${seconds} s`, seconds, kind: "network" })),
  { label: "bucket, network cut 10 s", seconds: 10, kind: "network" },
  { label: "bucket stopped 60 s", seconds: 60, kind: "bucket" },
];
ensureViewers(root, outages.length);
const film = await makeFilm(1);
const s3 = await startS3rver(await freePort());
const env = { ...s3.env, S3_TIMEOUT_SECONDS: "5" };
let server = await startServer(root, 3480, { env: { ...env, MEDIA_STORE: "local" } });
const results: Result[] = [];
try {
  const figures = await uploadAndProcess(server, root, film, (await probeMedia(film)).durationSeconds);
  ensureWatchable(root, figures.movieId);
  let account = 0;
  for (const outage of outages.filter((each) => each.label.startsWith("disk"))) {
    const result = await playThrough(server, figures.movieId, account++, outage, null);
    results.push(result);
    console.log(JSON.stringify(result));
  }
  // The same film moved to the bucket; the player reads it there.
  await server.stop();
  await mediaMove({ ...env, STORAGE_DIR: root, DATABASE_PATH: path.join(root, "data.db") });
  server = await startServer(root, 3480, { env });
  const { ObjectStore } = await import("../app/media/object-store.server");
  const { parseEnv } = await import("../app/utils/env.server");
  const store = new ObjectStore(parseEnv({ ...env, SESSION_SECRET: "x".repeat(32) }).s3!);
  await store.allowBrowserReads([server.url]);
  store.client.destroy();
  for (const outage of outages.filter((each) => each.label.startsWith("bucket"))) {
    const result = await playThrough(server, figures.movieId, account++, outage, s3);
    results.push(result);
    console.log(JSON.stringify(result));
  }
} finally {
  await server.stop();
  await s3.stop();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(film, { force: true });
}

console.log("\n| outage | film stood still | went on by itself | moved again after the way back | the page said |");
console.log("|---|---|---|---|---|");
for (const result of results)
  console.log(
    `| ${result.label} | ${result.stoodStillSeconds.toFixed(1)} s | ${result.error ? `error: ${result.error}` : result.resumed ? "yes" : "no"} | ${result.resumedAfterSeconds === null ? "—" : `${result.resumedAfterSeconds.toFixed(1)} s`} | ${result.said} |`,
  );

/**
 * One tap on ▶: how often the first tap on a fresh watch page starts the
 * film, on a 360-px phone with touch, by how long the finger stays down.
 *
 *   npm run build && npm run bench:first-tap
 *
 * Each trial is a fresh page of a demo title (a new browser context, so
 * the player is neither attached nor, sometimes, fetched yet), one touch held
 * 30, 60, 90 or 120 ms on the player's ▶ sent through the DevTools protocol,
 * and a film that counts as started when it plays past 0.5 s within 10 s.
 * BENCH_TAP_TRIALS (8) trials per hold; BENCH_TAP_LOAD=1 keeps every core
 * busy meanwhile (a loaded phone).
 */
import fs from "node:fs";
import os from "node:os";
import { spawn, type ChildProcess } from "node:child_process";
import { chromium, type Browser } from "@playwright/test";
import { seedDemo } from "../app/demo/seed-demo.server";
import { testChromiumPath } from "../tests/fixtures/browser";
import { percentile, prepareStorage, signIn, startServer } from "./lib";

const TRIALS = Number(process.env.BENCH_TAP_TRIALS ?? 8);
const HOLDS = [30, 60, 90, 120];
const PORT = Number(process.env.BENCH_PORT ?? 3392);
const TITLE = "demomovie09";
const LOADED = process.env.BENCH_TAP_LOAD === "1";

type Outcome = { hold: number; started: number; seconds: number[] };

/** Seconds from the tap to the film playing past 0.5 s, or null when it did not start within 10 s. */
async function firstTapPlays(browser: Browser, url: string, cookie: string, hold: number): Promise<number | null> {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    hasTouch: true,
    isMobile: true,
    extraHTTPHeaders: { Cookie: cookie, "X-Forwarded-For": `10.9.${Math.floor(Math.random() * 250)}.7` },
  });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/WatchMovie?id=${TITLE}`);
    const play = page.getByTestId("player-play");
    await play.waitFor();
    const box = (await play.boundingBox())!;
    const target = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const session = await context.newCDPSession(page);
    const tapped = Date.now();
    await session.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [target] });
    await new Promise((resolve) => setTimeout(resolve, hold));
    await session.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    const video = page.locator("video");
    while (Date.now() - tapped < 10_000) {
      const started = await video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0.5);
      if (started) return (Date.now() - tapped) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
  } finally {
    await context.close();
  }
}

const { root, db } = await prepareStorage("first-tap");
console.log("making the demo's films…");
await seedDemo(db, { storageDir: root, log: () => {} });
db.$client.close();
const server = await startServer(root, PORT);
const load: ChildProcess[] = LOADED
  ? Array.from({ length: os.availableParallelism() }, () => spawn("sh", ["-c", "while :; do :; done"]))
  : [];
const browser = await chromium.launch({ executablePath: testChromiumPath() });
try {
  const cookie = await signIn(server.url, "/login", "viewer@bench.test");
  const outcomes: Outcome[] = [];
  for (const hold of HOLDS) {
    const outcome: Outcome = { hold, started: 0, seconds: [] };
    for (let trial = 0; trial < TRIALS; trial++) {
      const seconds = await firstTapPlays(browser, server.url, cookie, hold);
      if (seconds !== null) {
        outcome.started++;
        outcome.seconds.push(seconds);
      }
    }
    outcomes.push(outcome);
    console.log(`held ${hold} ms: ${outcome.started} of ${TRIALS} first taps started the film`);
  }
  console.log(
    `\nFirst taps that started the film (${LOADED ? "every core busy" : "quiet box"}, ${TRIALS} trials each)`,
  );
  console.log("| held | started | tap to 0.5 s played, median |\n|---|---|---|");
  for (const outcome of outcomes) {
    const median = outcome.seconds.length ? percentile(outcome.seconds, 50).toFixed(2) : "–";
    console.log(`| ${outcome.hold} ms | ${outcome.started} of ${TRIALS} | ${median} s |`);
  }
} finally {
  for (const child of load) child.kill();
  await browser.close();
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
}

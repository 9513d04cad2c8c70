/**
 * One tap on ▶: how often the first tap on a fresh watch page starts the
 * film, on a 360-px phone with touch, by how long the finger stays down.
 *
 *   npm run build && npm run bench:first-tap
 *
 * Each trial is a fresh page of a demo title (a new browser context, so
 * hls.js is neither attached nor, sometimes, fetched yet), one touch held
 * 30, 60, 90 or 120 ms on the player's ▶ sent through the DevTools protocol,
 * and a film that counts as started when it plays past 0.5 s within 10 s.
 * BENCH_TAP_TRIALS (8) trials per hold; BENCH_TAP_LOAD=1 keeps every core
 * busy meanwhile (a loaded phone). The peer is a plain `<video controls>` of
 * the same title's MP4, tapped on its own play button the same way.
 */
import fs from "node:fs";
import os from "node:os";
import { spawn, type ChildProcess } from "node:child_process";
import { chromium, type Browser } from "@playwright/test";
import { seedDemo } from "../app/demo/seed-demo.server";
import { testChromiumPath } from "../tests/fixtures/browser";
import { prepareStorage, signIn, startServer } from "./lib";

const TRIALS = Number(process.env.BENCH_TAP_TRIALS ?? 8);
const HOLDS = [30, 60, 90, 120];
const PORT = Number(process.env.BENCH_PORT ?? 3392);
const TITLE = "demomovie09";
const LOADED = process.env.BENCH_TAP_LOAD === "1";

type Outcome = { hold: number; kallo: number; peer: number };

async function firstTapPlays(browser: Browser, url: string, cookie: string, hold: number, peer: boolean) {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    hasTouch: true,
    isMobile: true,
    extraHTTPHeaders: { Cookie: cookie, "X-Forwarded-For": `10.9.${Math.floor(Math.random() * 250)}.7` },
  });
  try {
    const page = await context.newPage();
    let target;
    if (peer) {
      // The same film in the browser's own player: its controls' play button sits at the bottom left.
      await page.setContent(
        `<video controls playsinline preload="none" style="width:360px;aspect-ratio:16/9" src="${url}/api/files/${TITLE}.mp4"></video>`,
      );
      const box = (await page.locator("video").boundingBox())!;
      target = { x: box.x + 22, y: box.y + box.height - 20 };
    } else {
      await page.goto(`${url}/WatchMovie?id=${TITLE}`);
      const play = page.getByTestId("player-play");
      await play.waitFor();
      const box = (await play.boundingBox())!;
      target = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }
    const session = await context.newCDPSession(page);
    await session.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [target] });
    await new Promise((resolve) => setTimeout(resolve, hold));
    await session.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    const video = page.locator("video");
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (await video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0.5))
        return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
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
    const outcome = { hold, kallo: 0, peer: 0 };
    for (let trial = 0; trial < TRIALS; trial++) {
      if (await firstTapPlays(browser, server.url, cookie, hold, false)) outcome.kallo++;
      if (await firstTapPlays(browser, server.url, cookie, hold, true)) outcome.peer++;
    }
    outcomes.push(outcome);
    console.log(
      `held ${hold} ms: Kallo ${outcome.kallo} of ${TRIALS}, plain <video controls> ${outcome.peer} of ${TRIALS}`,
    );
  }
  console.log(
    `\nFirst taps that started the film (${LOADED ? "every core busy" : "quiet box"}, ${TRIALS} trials each)`,
  );
  console.log("| held | Kallo | plain <video controls> (peer) |\n|---|---|---|");
  for (const outcome of outcomes)
    console.log(`| ${outcome.hold} ms | ${outcome.kallo} of ${TRIALS} | ${outcome.peer} of ${TRIALS} |`);
} finally {
  for (const child of load) child.kill();
  await browser.close();
  await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
}

/**
 * `npm run bench:player-faults`: the player against hls.js (latest 1.x, a
 * development dependency of this bench only, never shipped) under the faults a
 * phone on a Nigerian network meets, in one harness and one run: the same
 * film (a 2-minute 720p film through the real upload and ladder), the same
 * server, the same phone (360×740, DPR 2), the same link (1,500 kbps, 100 ms)
 * and the same fault at the same place, injected through DevTools (Fetch
 * interception and network conditions).
 *
 * Each scenario prints, for each player: seconds the picture stood still after
 * its first frame, whether it recovered (played on well past the fault, or to
 * the end), the rung on screen at the end, and what the page said (ours:
 * "slow" or "lost"). The product must be at least as good as hls.js on every
 * row. hls.js runs as its documentation says an application should: a fatal
 * media error is answered with recoverMediaError(), a fatal network error with
 * startLoad(). Our player runs in the watch page itself, with the H.264 rungs
 * (as hls.js gets them) except in "AV1 fails mid-film".
 *
 * BENCH_FAULTS=damaged,dip picks scenarios; BENCH_FAULT_PLAYERS=kallo,hls.js the
 * players; BENCH_KEEP_STORAGE=<dir> reuses the film of an earlier run (the
 * folder is printed at the end).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium, type BrowserContext, type Page, type Request, type Route } from "@playwright/test";
import { probeMedia } from "../app/media/ffmpeg.server";
import { setSetting } from "../app/services/settings.server";
import { openDatabase } from "../app/db/client.server";
import { TEST_CHROMIUM_ARGS, testChromiumPath } from "../tests/fixtures/browser";
import { linkConditions, scramble, scrambleMedia, SegmentMap } from "../tests/fixtures/media-faults";
import { prepareStorage, signIn, startServer } from "./lib";
import { ensureViewers, ensureWatchable, makeFilm, uploadAndProcess, viewerEmail } from "./playback-film";

const LINK_KBPS = 1500;
const LATENCY_MS = 100;
/** The segment the faults strike: film time 10–12 s. */
const FAULT_AT_SECONDS = 10;
const PLAYERS = (process.env.BENCH_FAULT_PLAYERS ?? "kallo,hls.js").split(",") as Player[];
type Player = "kallo" | "hls.js";

type Scenario = {
  name: string;
  label: string;
  /** Seconds watched after the first frame. */
  seconds: number;
  av1?: boolean;
  /** The browser's SourceBuffer takes at most this many seconds of film. */
  quotaSeconds?: number;
};

const SCENARIOS: Scenario[] = [
  { name: "damaged", label: "damaged segment (right length, other bytes), every time", seconds: 35 },
  { name: "truncated", label: "truncated segment (half its bytes), once", seconds: 35 },
  { name: "error500", label: "segment answered 500, then fine", seconds: 35 },
  { name: "hung", label: "a segment request hung 25 s, once", seconds: 45 },
  { name: "slowFirstByte", label: "every segment's first byte 1.5 s late", seconds: 40 },
  { name: "dip", label: "link 1,500 → 150 kbps for 20 s → 1,500", seconds: 85 },
  { name: "cut", label: "network cut for 30 s", seconds: 60 },
  { name: "decode", label: "decode error (a segment's media scrambled, boxes whole), once", seconds: 35 },
  { name: "quota", label: "SourceBuffer quota of 12 s of film", seconds: 40, quotaSeconds: 12 },
  { name: "seekStorm", label: "seek storm: 8 seeks 300 ms apart", seconds: 30 },
  { name: "end", label: "play to the end (from 15 s before it)", seconds: 35 },
  { name: "av1Fails", label: "AV1 fails mid-film (its segments from 10 s undecodable)", seconds: 40, av1: true },
];
const chosen = process.env.BENCH_FAULTS?.split(",");
const scenarios = chosen ? SCENARIOS.filter((scenario) => chosen.includes(scenario.name)) : SCENARIOS;

type Sample = {
  at: number;
  time: number;
  paused: boolean;
  ended: boolean;
  rung: number;
  link: string;
  error: string | null;
  /** The buffered ranges and readyState (BENCH_VERBOSE=1 prints every sample). */
  buffered: string;
};
type Result = {
  scenario: string;
  player: Player;
  firstFrameSeconds: number | null;
  stallSeconds: number;
  recovered: boolean;
  rungAfter: number;
  /** The rung on screen just before the fault (film time 8 s; the dip: as the link falls). */
  rungBefore: number;
  /** Dip: seconds from the link's return until the rung on screen was above the lowest the dip brought. */
  climbedBackSeconds?: number | null;
  said: string;
  note?: string;
};

const requireHere = createRequire(import.meta.url);
const HLS_JS = fs.readFileSync(requireHere.resolve("hls.js/dist/hls.min.js"), "utf8");
const HLS_VERSION = (
  JSON.parse(fs.readFileSync(requireHere.resolve("hls.js/package.json"), "utf8")) as { version: string }
).version;

/** The page hls.js plays in: one video as wide as the watch page's, hls.js configured as our player's limits are. */
function hlsPage(master: string): string {
  return `<!doctype html><html><head><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="margin:0;padding:16px;background:#000"><video id="player" muted playsinline style="width:100%;aspect-ratio:16/9"></video>
<script>${HLS_JS}</script>
<script>
const video = document.getElementById("player");
const hls = new Hls({ maxBufferLength: 28, maxMaxBufferLength: 28, backBufferLength: 30, capLevelToPlayerSize: true });
window.__fatal = null;
hls.on(Hls.Events.ERROR, (event, data) => {
  if (!data.fatal) return;
  if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
  else if (data.type === Hls.ErrorTypes.NETWORK_ERROR) hls.startLoad();
  else { window.__fatal = data.details; hls.destroy(); }
});
hls.loadSource(${JSON.stringify(master)});
hls.attachMedia(video);
hls.on(Hls.Events.MANIFEST_PARSED, () => video.play().catch(() => {}));
</script></body></html>`;
}

async function setLink(page: Page, kbps: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", linkConditions(kbps, LATENCY_MS));
  return (next: number) => cdp.send("Network.emulateNetworkConditions", linkConditions(next, LATENCY_MS));
}

/** The faults, as answers to the players' requests for the film. */
async function injectFaults(context: BrowserContext, scenario: Scenario, state: { cut: boolean }) {
  const segments = new SegmentMap();
  const struck = new Set<string>();
  const once = (key: string) => (struck.has(key) ? false : (struck.add(key), true));
  await context.route(/\/stream\//, async (route: Route) => {
    const request = route.request();
    const url = request.url();
    try {
      if (state.cut) return await route.abort("internetdisconnected");
      if (await segments.learnFrom(route)) return;
      const time = segments.timeOf(url, request.headers()["range"]);
      const atFault = time !== null && Math.abs(time - FAULT_AT_SECONDS) < 0.5;
      const av1 = /-av1\.mp4/.test(url);
      switch (scenario.name) {
        case "damaged":
          if (atFault) {
            const response = await route.fetch();
            return await route.fulfill({ response, body: scramble(await response.body()) });
          }
          break;
        case "truncated":
          if (atFault && once("segment")) {
            const response = await route.fetch();
            const body = await response.body();
            return await route.fulfill({ response, body: body.subarray(0, body.length >> 1) });
          }
          break;
        case "error500":
          if (atFault && once("segment")) return await route.fulfill({ status: 500, body: "Internal server error" });
          break;
        case "hung":
          if (atFault && once("segment")) await new Promise((resolve) => setTimeout(resolve, 25_000));
          break;
        case "slowFirstByte":
          if (time !== null) await new Promise((resolve) => setTimeout(resolve, 1_500));
          break;
        case "decode":
          if (atFault && once("segment")) {
            const response = await route.fetch();
            return await route.fulfill({ response, body: scrambleMedia(await response.body()) });
          }
          break;
        case "av1Fails":
          if (av1 && time !== null && time >= FAULT_AT_SECONDS - 0.5) {
            const response = await route.fetch();
            return await route.fulfill({ response, body: scrambleMedia(await response.body()) });
          }
          break;
      }
      await route.continue();
    } catch {
      // The page gave the request up meanwhile (a timeout, a seek).
    }
  });
}

/** For an init script: a SourceBuffer that takes at most `seconds` of film (a phone with little memory). */
function limitQuota(seconds: number) {
  const append = SourceBuffer.prototype.appendBuffer;
  SourceBuffer.prototype.appendBuffer = function (this: SourceBuffer, data: BufferSource) {
    let total = 0;
    for (let index = 0; index < this.buffered.length; index++)
      total += this.buffered.end(index) - this.buffered.start(index);
    if (total > seconds && data.byteLength > 4096)
      throw new DOMException("The SourceBuffer is full", "QuotaExceededError");
    return append.call(this, data);
  };
}

async function sample(page: Page): Promise<Sample> {
  return page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>("video")!;
    const fatal = (window as unknown as { __fatal?: string | null }).__fatal ?? null;
    const refused = document.querySelector("[data-testid=player-error]") ? "the page gave up" : null;
    return {
      at: Date.now(),
      time: video.currentTime,
      paused: video.paused,
      ended: video.ended,
      rung: Math.min(video.videoWidth, video.videoHeight),
      link: video.dataset.link ?? "",
      error: fatal ?? refused,
      buffered: `${video.readyState} ${Array.from({ length: video.buffered.length }, (_, index) => `${video.buffered.start(index).toFixed(1)}-${video.buffered.end(index).toFixed(1)}`).join(",")}`,
    };
  });
}

async function run(
  serverUrl: string,
  movieId: string,
  durationSeconds: number,
  scenario: Scenario,
  player: Player,
  account: number,
): Promise<Result> {
  const browser = await chromium.launch({
    executablePath: testChromiumPath(),
    args: TEST_CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({
      serviceWorkers: "block",
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const cookie = await signIn(serverUrl, "/login", viewerEmail(account));
    const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
    await context.addCookies([{ name, value, url: serverUrl, httpOnly: true, sameSite: "Lax", secure: false }]);
    await context.addInitScript({ content: "globalThis.__name = (target) => target;" });
    if (!scenario.av1 && player === "kallo")
      // The H.264 rungs, as hls.js gets them (this Chromium decodes AV1, so the page would choose it).
      await context.addInitScript(() => {
        const capabilities = navigator.mediaCapabilities;
        const ask = capabilities.decodingInfo.bind(capabilities);
        capabilities.decodingInfo = async (configuration) =>
          configuration.video?.contentType.includes("av01")
            ? ({ supported: false, smooth: false, powerEfficient: false } as MediaCapabilitiesDecodingInfo)
            : ask(configuration);
      });
    if (scenario.quotaSeconds) await context.addInitScript(limitQuota, scenario.quotaSeconds);
    const state = { cut: false };
    await injectFaults(context, scenario, state);
    const harness = `${serverUrl}/__bench/hls.html`;
    await context.route(harness, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: hlsPage(`/stream/${movieId}/master.m3u8${scenario.av1 ? "?av1=1" : ""}`),
      }),
    );
    const page = await context.newPage();
    if (process.env.BENCH_VERBOSE) {
      const began = Date.now();
      const show = (what: string) => (request: Request) => {
        if (/\/stream\//.test(request.url()))
          console.log(
            `  ${player} ${((Date.now() - began) / 1000).toFixed(2)} s since open: ${what} ${new URL(request.url()).pathname.split("/").pop()} ${request.headers()["range"] ?? ""} ${request.failure()?.errorText ?? ""}`,
          );
      };
      page.on("request", show("asked"));
      page.on("requestfinished", show("came"));
      page.on("requestfailed", show("failed"));
      page.on("console", (message) => {
        if (message.text().startsWith("DBG"))
          console.log(`  ${player} ${((Date.now() - began) / 1000).toFixed(2)} s since open: ${message.text()}`);
      });
    }
    const changeLink = await setLink(page, LINK_KBPS);
    if (player === "kallo") {
      await page.goto(`${serverUrl}/WatchMovie?id=${movieId}`);
      await page.getByTestId("player").evaluate((element: HTMLVideoElement) => {
        element.muted = true;
        element.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
        return element.play().catch(() => undefined);
      });
    } else await page.goto(harness);

    const samples: Sample[] = [];
    const startedAt = Date.now();
    let firstFrameAt: number | null = null;
    while (firstFrameAt === null && Date.now() - startedAt < 30_000) {
      const now = await sample(page);
      if (now.time > 0.05) firstFrameAt = now.at;
      else await page.waitForTimeout(100);
    }
    if (firstFrameAt === null)
      return {
        scenario: scenario.name,
        player,
        firstFrameSeconds: null,
        stallSeconds: 0,
        recovered: false,
        rungAfter: 0,
        rungBefore: 0,
        said: "",
        note: "no first frame in 30 s",
      };
    // What the scenario does over time (the link, the cut, the seeks), beside the sampling.
    let linkBackAt: number | null = null;
    let rungBeforeDip = 0;
    const seekEnds: number[] = [];
    const script = (async () => {
      const wait = (ms: number) => page.waitForTimeout(ms);
      if (scenario.name === "dip") {
        await wait(20_000);
        rungBeforeDip = (await sample(page)).rung;
        await changeLink(150);
        await wait(20_000);
        await changeLink(LINK_KBPS);
        linkBackAt = Date.now();
      } else if (scenario.name === "cut") {
        await wait(8_000);
        state.cut = true;
        await wait(30_000);
        state.cut = false;
      } else if (scenario.name === "seekStorm") {
        await wait(5_000);
        for (const to of [30, 12, 50, 5, 40, 20, 60, 35]) {
          await page.evaluate((seconds) => (document.querySelector("video")!.currentTime = seconds), to);
          await wait(300);
        }
        seekEnds.push(Date.now());
      } else if (scenario.name === "end") {
        await wait(1_000);
        await page.evaluate(
          (seconds) => (document.querySelector("video")!.currentTime = seconds),
          durationSeconds - 15,
        );
      }
    })();
    const said = new Set<string>();
    const until = firstFrameAt + scenario.seconds * 1000;
    while (Date.now() < until) {
      const now = await sample(page);
      samples.push(now);
      if (process.env.BENCH_VERBOSE)
        console.log(
          `  ${player} ${((now.at - firstFrameAt) / 1000).toFixed(2)} s: ${now.time.toFixed(2)} ${now.rung}p ${now.buffered} ${now.link}`,
        );
      if (now.link && now.link !== "ok") said.add(now.link);
      if (now.ended) break;
      await page.waitForTimeout(250);
    }
    await script.catch(() => undefined);
    let stall = 0;
    for (let index = 1; index < samples.length; index++) {
      const [before, after] = [samples[index - 1]!, samples[index]!];
      if (!after.ended && after.time - before.time < 0.05) stall += after.at - before.at;
    }
    const last = samples.at(-1)!;
    const recovered =
      !last.error &&
      (scenario.name === "end"
        ? last.ended
        : scenario.name === "seekStorm"
          ? last.time > 36
          : last.time > FAULT_AT_SECONDS + 12 || last.ended);
    let climbedBackSeconds: number | null | undefined;
    if (scenario.name === "dip") {
      const back = linkBackAt as number | null;
      // Back above the lowest rung the dip put on screen (the rung before the dip may be more than the link holds).
      const lowest = Math.min(...samples.filter((each) => back !== null && each.at < back).map((each) => each.rung));
      const climbed = back === null ? undefined : samples.find((each) => each.at >= back && each.rung > lowest);
      climbedBackSeconds = climbed && back !== null ? (climbed.at - back) / 1000 : null;
    }
    return {
      scenario: scenario.name,
      player,
      firstFrameSeconds: (firstFrameAt - startedAt) / 1000,
      stallSeconds: stall / 1000,
      recovered,
      rungAfter: last.rung,
      rungBefore:
        scenario.name === "dip"
          ? rungBeforeDip
          : (samples.find((each) => each.time >= FAULT_AT_SECONDS - 2)?.rung ?? samples[0]!.rung),
      climbedBackSeconds,
      said: [...said].join(", ") || "—",
      note: last.error ?? (scenario.name === "dip" ? `${rungBeforeDip}p before the dip` : undefined),
    };
  } finally {
    await browser.close();
  }
}

const kept = process.env.BENCH_KEEP_STORAGE;
let root: string;
let movieId: string;
if (kept && fs.existsSync(path.join(kept, "player-faults-title.txt"))) {
  root = kept;
  movieId = fs.readFileSync(path.join(kept, "player-faults-title.txt"), "utf8").trim();
} else {
  const prepared = await prepareStorage("player-faults");
  root = prepared.root;
  setSetting(prepared.db, "autoApproveMovies", true);
  prepared.db.$client.close();
  movieId = "";
}
const runs = scenarios.length * PLAYERS.length;
ensureViewers(root, runs);
const server = await startServer(root, 3490);
const results: Result[] = [];
try {
  if (!movieId) {
    const film = await makeFilm(2);
    const figures = await uploadAndProcess(server, root, film, (await probeMedia(film)).durationSeconds);
    movieId = figures.movieId;
    fs.writeFileSync(path.join(root, "player-faults-title.txt"), movieId);
  }
  ensureWatchable(root, movieId);
  const db = openDatabase(path.join(root, "data.db"));
  const durationSeconds = (
    db.$client.prepare("SELECT duration_seconds AS d FROM movies WHERE id = ?").get(movieId) as {
      d: number;
    }
  ).d;
  db.$client.close();
  let account = 0;
  for (const scenario of scenarios)
    for (const player of PLAYERS) {
      // A fresh server process per run would be fairer still; one is enough while nothing else runs.
      const result = await run(server.url, movieId, durationSeconds, scenario, player, account++);
      results.push(result);
      console.log(JSON.stringify(result));
    }
} finally {
  await server.stop();
  console.log(`\nstorage: ${root} (BENCH_KEEP_STORAGE=${root} reuses its film)`);
}

const cell = (result: Result | undefined) =>
  !result
    ? "—"
    : `${result.stallSeconds.toFixed(1)} s, ${result.recovered ? "yes" : "**no**"}, ${result.rungBefore}p → ${result.rungAfter}p` +
      (result.climbedBackSeconds !== undefined
        ? `, back in ${result.climbedBackSeconds === null ? "never" : `${result.climbedBackSeconds.toFixed(1)} s`}`
        : "");
console.log(
  `\nThe player against hls.js ${HLS_VERSION}, each cell: seconds the picture stood still after its first frame, recovered, the rung on screen before the fault → at the end. At least as good: recovered wherever hls.js did, stood still no more than 0.5 s longer, and at the end at hls.js's rung or back at its own from before the fault.\n`,
);
console.log("| scenario | Kallo's player | hls.js | what our page said | at least as good |");
console.log("|---|---|---|---|---|");
let worse = 0;
for (const scenario of scenarios) {
  const ours = results.find((result) => result.scenario === scenario.name && result.player === "kallo");
  const theirs = results.find((result) => result.scenario === scenario.name && result.player === "hls.js");
  const asGood =
    !ours || !theirs
      ? "—"
      : (ours.recovered || !theirs.recovered) &&
          ours.stallSeconds <= theirs.stallSeconds + 0.5 &&
          (ours.rungAfter >= Math.min(theirs.rungAfter, ours.rungBefore) || !theirs.recovered)
        ? "yes"
        : "**no**";
  if (asGood === "**no**") worse++;
  console.log(`| ${scenario.label} | ${cell(ours)} | ${cell(theirs)} | ${ours?.said ?? "—"} | ${asGood} |`);
}
console.log(`\n${worse === 0 ? "At least as good as hls.js on every row." : `Worse than hls.js on ${worse} row(s).`}`);
